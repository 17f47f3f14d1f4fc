/**
 * Crash recovery with the SQLite and the Postgres checkpointer (pipeline-utilities §10.3
 * synchronous saves, §10.4 resume, §10.13 durability): a worker process runs a graph, is SIGKILLed
 * mid-run, and another worker process resumes it from the database file / the Postgres server. Every node whose completion had been saved before the
 * kill is neither lost nor re-run; only the node in flight at the kill runs again (§10.5).
 */
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { CheckpointRecord } from "../../src/checkpoint/index.ts";
import { freshTable, pgUrl } from "../../harness/postgres-server.ts";
import { openCheckpointer } from "./fixtures/open-store.ts";
import { tempDir } from "./helpers.ts";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const child = join(here, "fixtures", "crash-child.ts");
const ALL = ["n1", "n2", "n3", "s1", "s2", "s3", "n4", "n5", "n6", "n7", "n8", "n9", "n10"];

function start(args: string[]): { proc: ChildProcess; out: () => string; exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const proc = spawn(process.execPath, ["--import", "tsx", child, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  proc.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.on("exit", (code, signal) => {
      if (code !== 0 && signal === null) process.stderr.write(err);
      res({ code, signal });
    }),
  );
  return { proc, out: () => out, exit };
}

function lines(log: string): string[] {
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : [];
}

async function until(cond: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function count(log: string[], line: string): number {
  return log.filter((l) => l === line).length;
}

/** Kill a run once `killWhen(log)` holds, then resume it in a fresh process. */
async function crashAndResume(
  backend: Backend,
  name: string,
  killWhen: (log: string[]) => boolean,
  extra: string[],
): Promise<{ log: string[]; saved: CheckpointRecord; resumed: { outcome: string; state: { trail: string[] }; invocationId: string; correlationId: string } }> {
  const tmp = tempDir();
  try {
    const db = storeOf(backend, tmp.dir);
    const log = join(tmp.dir, "nodes.log");
    const id = `crash-${name}`;
    const run = start(["run", db, log, id, ...extra]);
    await until(() => killWhen(lines(log)), `the kill point of ${name}`);
    run.proc.kill("SIGKILL");
    expect((await run.exit).signal).to.equal("SIGKILL");
    expect(run.out()).to.not.contain("completed without a crash");

    // What survived the kill, read by this (third) process.
    const reader = openCheckpointer(db);
    const saved = (await reader.load(id))!;
    await reader.close();
    expect(saved, "a record survived the kill").to.not.equal(undefined);

    const res = start(["resume", db, log, id]);
    const { code } = await res.exit;
    expect(code).to.equal(0);
    const resumed = JSON.parse(res.out().trim().split("\n").pop()!) as { outcome: string; state: { trail: string[] }; invocationId: string; correlationId: string };
    return { log: lines(log), saved, resumed };
  } finally {
    tmp.cleanup();
  }
}

type Outcome = Awaited<ReturnType<typeof crashAndResume>>;

type Backend = "SQLite" | "Postgres";

/** The store argument of crash-child.ts: a database file, or a fresh Postgres table. */
function storeOf(backend: Backend, dir: string): string {
  if (backend === "SQLite") return join(dir, "checkpoints.db");
  pgUrl(); // exported to the workers (required under CI)
  return `pg:${freshTable("crash")}`;
}

for (const backend of ["SQLite", "Postgres"] as const)
describe(`checkpoint: crash recovery across processes (${backend}, SIGKILL)`, function () {
  this.timeout(60_000);
  const runs: Record<string, Outcome> = {};

  // The three scenarios run their processes in parallel (each on its own temp database).
  before(async () => {
    const [a, b, c] = await Promise.all([
      crashAndResume(backend, "after-third", (l) => l.includes("start s1"), ["s1"]),
      crashAndResume(backend, "mid-subgraph", (l) => l.includes("start s2"), ["s2"]),
      // Nodes take ~20 ms; the kill lands right after n5 reports done — before, during or after its save
      // (later under load, but never after the end: the run hangs in n10, so it cannot complete first).
      crashAndResume(backend, "arbitrary", (l) => l.includes("done n5"), ["n10", "20"]),
    ]);
    Object.assign(runs, { a, b, c });
  });

  it("a run killed inside the 4th node resumes there: the 3 completed nodes are neither lost nor re-run", () => {
    const { log, saved, resumed } = runs["a"]!;
    // At the kill: n1..n3 completed and saved; s1 (inside the subgraph) had started.
    expect(saved.completedPositions.map((p) => p.nodeName)).to.deep.equal(["n1", "n2", "n3"]);
    expect(saved.state).to.deep.equal({ trail: ["n1", "n2", "n3"] });
    expect(saved.schemaVersion).to.equal("crash-v1");
    for (const n of ["n1", "n2", "n3"]) {
      expect(count(log, `start ${n}`), n).to.equal(1);
      expect(count(log, `done ${n}`), n).to.equal(1);
    }
    expect(count(log, "start s1")).to.equal(2); // in flight at the kill: re-run from its start (§10.5)
    for (const n of ALL.slice(3)) expect(count(log, `done ${n}`), n).to.equal(1);
    expect(resumed.outcome).to.equal("completed");
    expect(resumed.state.trail).to.deep.equal(ALL);
    expect(resumed.correlationId).to.equal("crash-correlation");
    expect(resumed.invocationId).to.not.equal("crash-after-third");
  });

  it("a run killed inside a subgraph re-enters the subgraph at the interrupted inner node", () => {
    const { log, saved, resumed } = runs["b"]!;
    expect(saved.completedPositions.map((p) => [...p.namespace, p.nodeName].join("/"))).to.deep.equal(["n1", "n2", "n3", "sub/s1"]);
    expect(saved.state).to.deep.equal({ trail: ["s1"] });
    expect(saved.parentStates).to.deep.equal([{ trail: ["n1", "n2", "n3"] }]);
    expect(count(log, "done s1")).to.equal(1);
    expect(count(log, "start s2")).to.equal(2);
    expect(resumed.state.trail).to.deep.equal(ALL);
  });

  it("a resumed run killed in flight: its claim stands (a second resume of the original is checkpoint_already_resumed), and resuming the claimant finishes with no saved node re-run", async () => {
    const tmp = tempDir();
    try {
      const db = storeOf(backend, tmp.dir);
      const log = join(tmp.dir, "nodes.log");
      const id = "crash-twice";
      const run = start(["run", db, log, id, "s1"]);
      await until(() => lines(log).includes("start s1"), "the first kill point");
      run.proc.kill("SIGKILL");
      await run.exit;
      // The resume hangs in n5: killed after its claim and some saves of its own.
      const resumed = start(["resume", db, log, id, "n5"]);
      await until(() => lines(log).includes("start n5"), "the second kill point");
      resumed.proc.kill("SIGKILL");
      expect((await resumed.exit).signal).to.equal("SIGKILL");

      const reader = openCheckpointer(db);
      const original = (await reader.load(id))!;
      const claimant = original.resumedBy!;
      expect(claimant, "the killed resume had claimed the record").to.be.a("string");
      expect((await reader.load(claimant))!.resumedFrom).to.equal(id);
      await reader.close();

      const again = start(["resume", db, log, id]);
      expect((await again.exit).code).to.equal(0);
      const refused = JSON.parse(again.out().trim().split("\n").pop()!) as { category: string; message: string };
      expect(refused.category).to.equal("checkpoint_already_resumed");
      expect(refused.message).to.contain(claimant);

      const finish = start(["resume", db, log, claimant]);
      expect((await finish.exit).code).to.equal(0);
      const done = JSON.parse(finish.out().trim().split("\n").pop()!) as { outcome: string; state: { trail: string[] } };
      expect(done.outcome).to.equal("completed");
      expect(done.state.trail).to.deep.equal(ALL);
      const l = lines(log);
      for (const n of ["n1", "n2", "n3", "s2", "s3", "n4"]) expect(count(l, `done ${n}`), n).to.equal(1);
      expect(count(l, "start n5")).to.equal(2); // in flight at the second kill
      for (const n of ALL) expect(count(l, `done ${n}`), n).to.equal(1);
    } finally {
      tmp.cleanup();
    }
  });

  it("a run killed at an arbitrary point between nodes loses no saved node and re-runs none", () => {
    const { log, saved, resumed } = runs["c"]!;
    const savedNodes = saved.completedPositions.map((p) => p.nodeName);
    expect(savedNodes.slice(0, 7)).to.deep.equal(["n1", "n2", "n3", "s1", "s2", "s3", "n4"]);
    for (const n of savedNodes) expect(count(log, `done ${n}`), `saved node ${n} ran once`).to.equal(1);
    for (const n of ALL) expect(count(log, `done ${n}`), n).to.be.within(1, 2);
    expect(resumed.state.trail).to.deep.equal(ALL);
  });
});
