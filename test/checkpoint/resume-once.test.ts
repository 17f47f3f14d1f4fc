/**
 * A paused or failed run resumes once (issue 9 item 4). A resume claims its record with a
 * compare-and-set on the record's `lastSavedAt` (`Checkpointer.compareAndSave`) right before it
 * runs, so a second resume of the same record — later, concurrent in one process, or concurrent
 * in other processes on one SQLite file — gets a categorized error instead of a second run:
 * `checkpoint_already_resumed` (project category) for a failed run, suspension §9
 * `suspension_record_invalid` (reason `resumed`) for a paused one. A resume refused by validation
 * leaves the record untouched.
 *
 * Before the fix, every one of these second resumes ran the remaining nodes again (checkpoint
 * resume had no claim at all; suspension's claim was an unconditional status write plus a
 * per-process set, so another process — or a fresh runner — resumed the same suspension again).
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { freshTable, pgUrl, sharedPool } from "../../harness/postgres-server.ts";
import { PostgresCheckpointer } from "../../src/postgres/index.ts";
import { openCheckpointer } from "./fixtures/open-store.ts";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  CheckpointAlreadyResumedError,
  InMemoryCheckpointer,
  SqliteCheckpointer,
  withCheckpointer,
  type Checkpointer,
  type CheckpointFilter,
  type CheckpointRecord,
  type CheckpointSummary,
} from "../../src/checkpoint/index.ts";
import { GraphRuntimeError } from "../../src/graph/index.ts";
import { SuspensionRecordInvalidError, withSuspension } from "../../src/suspension/index.ts";
import { failingGraph, pausingGraph } from "./fixtures/race-graphs.ts";
import { tempDir } from "./helpers.ts";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const child = join(here, "fixtures", "resume-race-child.ts");

function ran(log: string, node: string): number {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter((l) => l.startsWith(`${node} `)).length : 0;
}

async function rejected(p: Promise<unknown>): Promise<GraphRuntimeError> {
  try {
    await p;
  } catch (e) {
    return e as GraphRuntimeError;
  }
  throw new Error("expected a rejection");
}

/** A backend without `compareAndSave` (the protocol's fallback: load, compare, save). */
class PlainCheckpointer implements Checkpointer {
  readonly inner = new InMemoryCheckpointer();
  save(id: string, r: CheckpointRecord): Promise<void> {
    return this.inner.save(id, r);
  }
  load(id: string): Promise<CheckpointRecord | undefined> {
    return this.inner.load(id);
  }
  list(f?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    return this.inner.list(f);
  }
  delete(id: string): Promise<void> {
    return this.inner.delete(id);
  }
}

describe("resume once: a record is claimed before its resumed run starts", function () {
  this.timeout(120_000);
  let tmp: ReturnType<typeof tempDir>;
  let log: string;
  const open: SqliteCheckpointer[] = [];
  beforeEach(() => {
    tmp = tempDir();
    log = join(tmp.dir, "nodes.log");
  });
  afterEach(() => {
    for (const c of open.splice(0)) c.close();
    tmp.cleanup();
  });

  const backends: [string, () => Checkpointer][] = [
    ["in-memory", () => new InMemoryCheckpointer()],
    ["SQLite", () => {
      const c = new SqliteCheckpointer(join(tmp.dir, `cp-${open.length}.db`));
      open.push(c);
      return c;
    }],
    ["Postgres", () => new PostgresCheckpointer(sharedPool(), { table: freshTable("ro") })],
    ["a backend without compareAndSave", () => new PlainCheckpointer()],
  ];

  for (const [name, make] of backends) {
    describe(name, () => {
      async function failedRun(cp: Checkpointer): Promise<string> {
        let fail = true;
        const e = await rejected(withCheckpointer(failingGraph(log, () => fail), cp).invoke({}));
        fail = false;
        return e.invocationId!;
      }

      it("a later second resume of a failed run raises checkpoint_already_resumed naming the first; nothing runs twice", async () => {
        const cp = make();
        const id = await failedRun(cp);
        const runner = withCheckpointer(failingGraph(log, () => false), cp);
        const first = await runner.resume(id);
        expect(first.state).to.deep.equal({ trail: ["a", "b", "c"] });
        const second = await rejected(runner.resume(id));
        expect(second).to.be.instanceOf(CheckpointAlreadyResumedError);
        expect(second.category).to.equal("checkpoint_already_resumed");
        expect((second as CheckpointAlreadyResumedError).resumedBy).to.equal(first.invocationId);
        expect(second.message).to.contain(first.invocationId);
        expect([ran(log, "a"), ran(log, "b"), ran(log, "c")]).to.deep.equal([1, 2, 1]); // b: the failure + one resume
        expect((await cp.load(id))!.resumedBy).to.equal(first.invocationId);
      });

      it("a resume refused by validation leaves the record unclaimed and resumable", async () => {
        const cp = make();
        const id = await failedRun(cp);
        const before = await cp.load(id);
        // A graph that no longer has the record's completed node "a": refused before the claim.
        const other = withCheckpointer(pausingGraph(log), cp);
        const refused = await rejected(other.resume(id));
        expect(refused.category).to.equal("checkpoint_record_invalid");
        expect(await cp.load(id)).to.deep.equal(before);
        const r = await withCheckpointer(failingGraph(log, () => false), cp).resume(id);
        expect(r.outcome).to.equal("completed");
      });
    });
  }

  for (const [name, make] of backends.slice(0, 2)) {
    it(`${name}: two concurrent resumes in one process: exactly one runs`, async () => {
      const cp = make();
      let fail = true;
      const id = (await rejected(withCheckpointer(failingGraph(log, () => fail), cp).invoke({}))).invocationId!;
      fail = false;
      const runner = withCheckpointer(failingGraph(log, () => false), cp);
      const results = await Promise.allSettled([runner.resume(id), runner.resume(id), runner.resume(id)]);
      const won = results.filter((r) => r.status === "fulfilled");
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(won).to.have.length(1);
      expect(lost.map((r) => (r.reason as GraphRuntimeError).category)).to.deep.equal(["checkpoint_already_resumed", "checkpoint_already_resumed"]);
      expect(ran(log, "c")).to.equal(1);
      // The losers removed their starting records: only the winner's resumed record is listed.
      expect((await cp.list({ resumedFrom: id })).map((s) => s.invocationId)).to.deep.equal([(won[0] as PromiseFulfilledResult<{ invocationId: string }>).value.invocationId]);
    });
  }

  it("the resumed run's starting record exists before its first node runs (a crash right after the claim stays resumable)", async () => {
    const cp = new InMemoryCheckpointer();
    let fail = true;
    const id = (await rejected(withCheckpointer(failingGraph(log, () => fail), cp).invoke({}))).invocationId!;
    fail = false;
    let seen: CheckpointRecord | undefined;
    let claimed: string | undefined;
    const graph = failingGraph(log, async () => {
      // Inside b, the first node of the resumed run: what a crash here would leave behind.
      const [s] = await cp.list({ resumedFrom: id });
      seen = s ? await cp.load(s.invocationId) : undefined;
      claimed = (await cp.load(id))?.resumedBy;
      return false;
    });
    const r = await withCheckpointer(graph, cp).resume(id);
    expect(claimed).to.equal(r.invocationId);
    expect(seen?.invocationId).to.equal(r.invocationId);
    expect(seen?.state).to.deep.equal({ trail: ["a"] });
    expect(seen?.completedPositions.map((p) => p.nodeName)).to.deep.equal(["a"]);
  });

  it("suspension: a later second resume raises suspension_record_invalid (resumed), also from a fresh runner; send runs once", async () => {
    const cp = new InMemoryCheckpointer();
    const paused = await withSuspension(pausingGraph(log), { checkpointer: cp }).invoke({});
    expect(paused.outcome).to.equal("suspended");
    const done = await withSuspension(pausingGraph(log), { checkpointer: cp }).resume(paused.invocationId, { approved: true });
    expect(done.outcome).to.equal("completed");
    const again = await rejected(withSuspension(pausingGraph(log), { checkpointer: cp }).resume(paused.invocationId, { approved: true }));
    expect(again).to.be.instanceOf(SuspensionRecordInvalidError);
    expect(ran(log, "send")).to.equal(1);
  });

  it("suspension: concurrent resumes through two runners on one store: exactly one runs, the other is suspension_record_invalid (resumed)", async () => {
    const cp = new InMemoryCheckpointer();
    const paused = await withSuspension(pausingGraph(log), { checkpointer: cp }).invoke({});
    const results = await Promise.allSettled([
      withSuspension(pausingGraph(log), { checkpointer: cp }).resume(paused.invocationId, { approved: true }),
      withSuspension(pausingGraph(log), { checkpointer: cp }).resume(paused.invocationId, { approved: true }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).to.have.length(1);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!.reason as SuspensionRecordInvalidError;
    expect(lost.category).to.equal("suspension_record_invalid");
    expect(lost.reason).to.equal("resumed");
    expect(ran(log, "send")).to.equal(1);
  });

  for (const store of ["SQLite file", "Postgres server"] as const)
  for (const mode of ["checkpoint", "suspension"] as const) {
    it(`${mode}: 4 processes resume one record on one ${store} at once: exactly one runs, 3 get the categorized error`, async () => {
      const db = store === "SQLite file" ? join(tmp.dir, "race.db") : (pgUrl(), `pg:${freshTable("race")}`);
      let id: string;
      const cp = openCheckpointer(db, mode === "checkpoint" ? "openarmature_checkpoints" : "paused");
      try {
        if (mode === "checkpoint") {
          id = (await rejected(withCheckpointer(failingGraph(log, () => true), cp).invoke({}))).invocationId!;
        } else {
          const paused = await withSuspension(pausingGraph(log), { checkpointer: cp }).invoke({});
          id = paused.invocationId;
        }
      } finally {
        await cp.close();
      }
      const startAt = Date.now() + 4000;
      const outs = await Promise.all(
        [0, 1, 2, 3].map(
          () =>
            new Promise<Record<string, unknown>>((res, rej) => {
              const p = spawn(process.execPath, ["--import", "tsx", child, mode, db, log, id, String(startAt)], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
              let out = "";
              let err = "";
              p.stdout.on("data", (d: Buffer) => (out += d.toString()));
              p.stderr.on("data", (d: Buffer) => (err += d.toString()));
              p.on("exit", (code) => (code === 0 ? res(JSON.parse(out.trim().split("\n").pop()!) as Record<string, unknown>) : rej(new Error(err))));
            }),
        ),
      );
      const completed = outs.filter((o) => o["outcome"] === "completed");
      expect(completed, JSON.stringify(outs)).to.have.length(1);
      const expected = mode === "checkpoint" ? "checkpoint_already_resumed" : "suspension_record_invalid";
      expect(outs.filter((o) => o["category"] === expected), JSON.stringify(outs)).to.have.length(3);
      expect(ran(log, mode === "checkpoint" ? "c" : "send")).to.equal(1);
    });
  }
});
