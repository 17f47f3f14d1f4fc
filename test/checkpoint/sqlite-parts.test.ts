/**
 * SqliteCheckpointer stores the parts of a record that grow with a run apart from the record row
 * and writes only what changed (`src/checkpoint/sqlite-parts.ts`): a checkpointed fan-out's saves
 * write O(1) bytes per item, not the whole state and every instance again.
 */
import { expect } from "chai";
import Database from "better-sqlite3";
import { statSync } from "node:fs";
import { join } from "node:path";
import { fanOut } from "../../src/pipeline/index.ts";
import {
  CheckpointRecordInvalidError,
  serializeRecord,
  SqliteCheckpointer,
  withCheckpointer,
  type CheckpointRecord,
  type FanOutInstanceProgress,
  type FanOutProgressEntry,
} from "../../src/checkpoint/index.ts";
import { VersionedList } from "../../src/checkpoint/versioned-list.ts";
import { chain, rejection, tempDir } from "./helpers.ts";
import { single } from "../pipeline/helpers.ts";
import { record } from "./shared/protocol.ts";

const worker = single({ x: { type: "int", default: 0 }, result: { type: "int", default: 0 } }, "double", (s) => ({ result: (s["x"] as number) * 2 }));
const fanGraph = chain({ items: { type: "list<int>", default: [] }, results: { type: "list<int>", reducer: "append", default: [] } }, [
  ["fan", fanOut({ subgraph: worker, itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: 16 })],
]);

function instance(state: FanOutInstanceProgress["state"], result?: number): FanOutInstanceProgress {
  return Object.freeze(state === "completed" ? { state, result, resultIsError: false } : { state, resultIsError: false });
}

function entry(node: string, instances: FanOutInstanceProgress[]): FanOutProgressEntry {
  return Object.freeze({ namespace: Object.freeze([]), fanOutNodeName: node, instanceCount: instances.length, instances: Object.freeze(instances) });
}

describe("checkpoint/sqlite-parts: saves write what changed", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.cleanup());

  /**
   * Bytes a checkpointed fan-out over `n` items appends to the SQLite WAL (automatic checkpoints
   * off, so every page each save commits stays in the file): deterministic, unlike a timing.
   */
  async function walBytesPerItem(n: number): Promise<number> {
    const file = join(tmp.dir, `fan-${n}.db`);
    const db = new Database(file);
    db.pragma("journal_mode = WAL");
    db.pragma("wal_autocheckpoint = 0");
    const cp = new SqliteCheckpointer(db, { synchronous: "normal" });
    const items = Array.from({ length: n }, (_, i) => (i * 7919) % n);
    const before = statSync(`${file}-wal`).size;
    const { state } = await withCheckpointer(fanGraph, cp).invoke({ items });
    expect(state.results).to.deep.equal(items.map((x) => x * 2));
    const bytes = statSync(`${file}-wal`).size - before;
    db.close();
    return bytes / n;
  }

  it("a checkpointed fan-out writes as many bytes per item at 1,000 items as at 100", async function () {
    this.timeout(120_000);
    const small = await walBytesPerItem(100);
    const large = await walBytesPerItem(1_000);
    // Before: every save rewrote the items list and all N instances — ~20 KB per item at 100
    // items, ~156 KB at 1,000 (and ~1.5 MB at 10,000). Now each save writes a few pages.
    expect(large, `bytes per item: ${Math.round(small)} at 100 items, ${Math.round(large)} at 1,000`).to.be.below(small * 1.5);
  });

  it("a fan-out's saves write the changed instance rows only, and the state once", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "rows.db"));
    const writes: string[] = [];
    cp.database.function("note_part", (part: number, slot: number) => (writes.push(`${part}:${slot}`), 0));
    cp.database.exec(`CREATE TEMP TRIGGER t AFTER INSERT ON openarmature_checkpoints_parts BEGIN SELECT note_part(NEW.part, NEW.slot); END`);
    const items = [5, 6, 7, 8];
    const { invocationId } = await withCheckpointer(fanGraph, cp).invoke({ items });
    const states = writes.filter((w) => w === "0:0");
    const headers = writes.filter((w) => w.endsWith(":-1"));
    // The save point moves twice: at the fan-out's dispatch and after the fan-out node completes.
    expect(states).to.have.length(2);
    expect(headers).to.deep.equal(["1:-1"]);
    // Every instance at the first save, then only on its own changes — in_flight (unless the first
    // save already saw it so) and completed — never all of them again: at most 3 writes each,
    // where a whole-record rewrite would write each one on every one of the ~2N saves.
    const perSlot = items.map((_, i) => writes.filter((w) => w === `1:${i}`).length);
    expect(perSlot.every((k) => k >= 2 && k <= 3), `writes per instance: ${perSlot.join(", ")}`).to.equal(true);
    const r = (await cp.load(invocationId))!;
    expect(r.fanOutProgress).to.equal(undefined);
    expect(r.state).to.deep.equal({ items, results: items.map((x) => x * 2) });
    cp.close();
  });

  it("a fan-out that failed part-way resumes from the delta-written rows in another checkpointer on the file", async () => {
    const path = join(tmp.dir, "resume.db");
    const ran: number[] = [];
    let failAt: number | undefined = 37;
    const flakyWorker = single({ x: { type: "int", default: 0 }, result: { type: "int", default: 0 } }, "double", (s) => {
      const x = s["x"] as number;
      ran.push(x);
      if (x === failAt) throw new Error(`item ${x} failed`);
      return { result: x * 2 };
    });
    const g = chain({ items: { type: "list<int>", default: [] }, results: { type: "list<int>", reducer: "append", default: [] } }, [
      ["fan", fanOut({ subgraph: flakyWorker, itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: 4 })],
    ]);
    const items = Array.from({ length: 60 }, (_, i) => i);
    const first = new SqliteCheckpointer(path);
    const id = (await rejection(withCheckpointer(g, first).invoke({ items })))["invocationId"] as string;
    first.close();
    const completedBefore = new Set(ran.filter((x) => x !== 37));
    failAt = undefined;
    ran.length = 0;
    const second = new SqliteCheckpointer(path);
    const saved = (await second.load(id))!;
    const done = saved.fanOutProgress![0]!.instances.flatMap((inst, i) => (inst.state === "completed" ? [i] : []));
    expect(done.length).to.be.greaterThan(0);
    expect(done.every((i) => completedBefore.has(i))).to.equal(true);
    const r = await withCheckpointer(g, second).resume(id);
    expect(r.state["results"]).to.deep.equal(items.map((x) => x * 2));
    expect(ran.sort((a, b) => a - b)).to.deep.equal(items.filter((x) => !done.includes(x)));
    second.close();
  });

  it("a record built by hand round-trips through delta saves: entries added, changed, reordered, removed", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "hand.db"));
    const a0 = entry("a", [instance("not_started"), instance("not_started")]);
    const b0 = entry("b", [instance("in_flight")]);
    const a1 = entry("a", [instance("completed", 1), instance("not_started")]);
    const state = Object.freeze({ n: 1 });
    const steps: CheckpointRecord[] = [
      record("i", { state, fanOutProgress: Object.freeze([a0]) }),
      record("i", { state, fanOutProgress: Object.freeze([a0, b0]) }),
      record("i", { state, fanOutProgress: Object.freeze([a1, b0]) }),
      record("i", { state, fanOutProgress: Object.freeze([b0, a1]) }),
      record("i", { state: Object.freeze({ n: 2 }), fanOutProgress: Object.freeze([a1]) }),
      record("i", { state: { n: 3 } }),
    ];
    for (const r of steps) {
      await cp.save("i", r);
      const loaded = (await cp.load("i"))!;
      expect(loaded.state).to.deep.equal(r.state);
      expect(loaded.fanOutProgress ?? []).to.deep.equal(r.fanOutProgress ?? []);
    }
    cp.close();
  });

  it("a mutable state saved twice as the same object is written again (only frozen objects are trusted unchanged)", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "mutable.db"));
    const state: Record<string, unknown> = { n: 1 };
    await cp.save("i", record("i", { state }));
    state["n"] = 2;
    await cp.save("i", record("i", { state }));
    expect((await cp.load("i"))!.state).to.deep.equal({ n: 2 });
    cp.close();
  });

  it("a save after another checkpointer wrote the same invocation rewrites every part", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "two.db"));
    const other = new SqliteCheckpointer(cp.database);
    const state = Object.freeze({ n: 1 });
    const e = entry("a", [instance("completed", 1), instance("in_flight")]);
    await cp.save("i", record("i", { state, fanOutProgress: Object.freeze([e]) }));
    await other.save("i", record("i", { state: { n: 9 } }));
    // cp's cache says state and entry are stored; the row says another writer replaced them.
    await cp.save("i", record("i", { state, fanOutProgress: Object.freeze([e]) }));
    const loaded = (await cp.load("i"))!;
    expect(loaded.state).to.deep.equal({ n: 1 });
    expect(loaded.fanOutProgress).to.deep.equal([e]);
    cp.close();
  });

  it("a row written with only positions apart (the previous layout) still loads", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "previous.db"));
    const e = entry("a", [instance("completed", 4), instance("not_started")]);
    const r = record("i", { state: { n: 4 }, fanOutProgress: [e] });
    await cp.save("i", r);
    cp.database
      .prepare("UPDATE openarmature_checkpoints SET record = ?, parts_apart = 0")
      .run(serializeRecord({ ...r, state: { n: 5 }, completedPositions: [] }));
    cp.database.prepare("DELETE FROM openarmature_checkpoints_parts").run();
    const loaded = (await cp.load("i"))!;
    expect(loaded.state).to.deep.equal({ n: 5 });
    expect(loaded.completedPositions).to.deep.equal(r.completedPositions);
    expect(loaded.fanOutProgress).to.deep.equal([e]);
    cp.close();
  });

  it("a record missing its state or some fan-out instances loads as checkpoint_record_invalid", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "torn.db"));
    await cp.save("i", record("i", { fanOutProgress: [entry("a", [instance("in_flight"), instance("not_started")])] }));
    cp.database.prepare("DELETE FROM openarmature_checkpoints_parts WHERE part = 1 AND slot = 1").run();
    const e = await rejection(cp.load("i"));
    expect(e).to.be.instanceOf(CheckpointRecordInvalidError);
    expect(e.message).to.include(`has 1 of the 2 instances of fan-out "a"`);
    cp.database.prepare("DELETE FROM openarmature_checkpoints_parts WHERE part = 0").run();
    expect((await rejection(cp.load("i"))).message).to.include("missing its state");
    await cp.delete("i");
    expect(cp.database.prepare("SELECT count(*) FROM openarmature_checkpoints_parts").pluck().get()).to.equal(0);
    cp.close();
  });

  it("VersionedList.changedBetween names the slots written after one sealed version up to another", () => {
    const l = new VersionedList(["a", "b", "c", "d"]);
    const v0 = l.snapshot().version;
    l.set(2, "C");
    l.set(2, "CC");
    const v1 = l.snapshot().version;
    l.set(0, "A");
    l.set(2, "CCC");
    const v2 = l.snapshot().version;
    l.set(3, "D"); // after v2: not part of it
    expect(l.changedBetween(v0, v1)).to.deep.equal([2]);
    expect(l.changedBetween(v1, v2)).to.deep.equal([0, 2]);
    expect(l.changedBetween(v0, v2)).to.deep.equal([0, 2]);
    expect(l.changedBetween(v2, v2)).to.deep.equal([]);
    expect([0, 1, 2, 3].map((i) => l.at(i, v1))).to.deep.equal(["a", "b", "CC", "d"]);
    expect([0, 1, 2, 3].map((i) => l.at(i, v2))).to.deep.equal(["A", "b", "CCC", "d"]);
  });
});
