/** SqliteCheckpointer specifics (§10.13): durability, WAL, shared databases, encodings, corruption. */
import { expect } from "chai";
import Database from "better-sqlite3";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { CheckpointRecordInvalidError, serializeRecord, SqliteCheckpointer, withCheckpointer } from "../../src/checkpoint/index.ts";
import { chain, flaky, rejection, tempDir } from "./helpers.ts";
import { record } from "./shared/protocol.ts";

describe("checkpoint/sqlite: SqliteCheckpointer", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.cleanup());

  it("persists to the file: a new checkpointer on the same path reads what an earlier one saved", async () => {
    const path = join(tmp.dir, "runs.db");
    const a = new SqliteCheckpointer(path);
    await a.save("i", record("i", { state: { when: new Date(7), big: 7n } }));
    a.close();
    const b = new SqliteCheckpointer(path);
    expect((await b.load("i"))!.state).to.deep.equal({ when: new Date(7), big: 7n });
    b.close();
  });

  it("runs in WAL mode with synchronous=FULL by default (NORMAL on request)", async () => {
    const path = join(tmp.dir, "wal.db");
    const cp = new SqliteCheckpointer(path);
    expect(cp.database.pragma("journal_mode", { simple: true })).to.equal("wal");
    expect(cp.database.pragma("synchronous", { simple: true })).to.equal(2);
    await cp.save("i", record("i"));
    expect(existsSync(`${path}-wal`)).to.equal(true);
    cp.close();
    const fast = new SqliteCheckpointer(join(tmp.dir, "fast.db"), { synchronous: "normal" });
    expect(fast.database.pragma("synchronous", { simple: true })).to.equal(1);
    fast.close();
  });

  it("a resumed run in a second checkpointer (another process's view) continues the first one's invocation", async () => {
    const path = join(tmp.dir, "shared.db");
    const b = flaky({ b: 2 });
    const g = chain({ a: { type: "int", default: 0 }, b: { type: "int", default: 0 } }, [["a", () => ({ a: 1 })], ["b", b]]);
    const first = new SqliteCheckpointer(path);
    const id = (await rejection(withCheckpointer(g, first).invoke()))["invocationId"] as string;
    const second = new SqliteCheckpointer(path);
    b.fail = false;
    const r = await withCheckpointer(g, second).resume(id);
    expect(r.state).to.deep.equal({ a: 1, b: 2 });
    expect((await first.list()).map((s) => s.invocationId)).to.have.members([id, r.invocationId]);
    first.close();
    second.close();
  });

  it("uses an existing Database without closing it, in its own table", async () => {
    const db = new Database(join(tmp.dir, "app.db"));
    db.exec("CREATE TABLE app (x INTEGER)");
    const runs = new SqliteCheckpointer(db, { table: "runs" });
    const paused = new SqliteCheckpointer(db, { table: "paused_invocations" });
    await runs.save("i", record("i", { state: { n: 1 } }));
    await paused.save("i", record("i", { state: { n: 2 } }));
    expect((await runs.load("i"))!.state).to.deep.equal({ n: 1 });
    expect((await paused.load("i"))!.state).to.deep.equal({ n: 2 });
    runs.close();
    expect(db.open).to.equal(true);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
    expect(tables.map((t) => t.name)).to.deep.equal([
      "app",
      "paused_invocations",
      "paused_invocations_parts",
      "paused_invocations_positions",
      "runs",
      "runs_parts",
      "runs_positions",
    ]);
    db.close();
  });

  it("the portable JSON encoding stores plain JSON and rejects what JSON cannot carry", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "portable.db"), { encoding: "json" });
    await cp.save("i", record("i", { state: { list: [1, { a: "b" }] } }));
    const row = cp.database.prepare("SELECT encoding, record FROM openarmature_checkpoints").get() as { encoding: string; record: string };
    expect(row.encoding).to.equal("json");
    expect(JSON.parse(row.record)).to.deep.include({ invocation_id: "i" });
    // The state is stored apart from the record row (part 0, slot 0), as plain JSON too.
    const state = cp.database.prepare("SELECT doc FROM openarmature_checkpoints_parts WHERE part = 0 AND slot = 0").pluck().get() as string;
    expect(JSON.parse(state)).to.deep.equal({ list: [1, { a: "b" }] });
    await rejection(cp.save("j", record("j", { state: { m: new Map() } })));
    expect(await cp.load("j")).to.equal(undefined);
    cp.close();
  });

  it("completed positions are appended, not rewritten, while each save extends the last one", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "append.db"));
    const pos = (step: number) => Object.freeze({ namespace: [], nodeName: `n${step}`, step, attemptIndex: 0 });
    const all = [pos(0), pos(1), pos(2), pos(3)];
    const rows = () =>
      (cp.database.prepare("SELECT seq FROM openarmature_checkpoints_positions WHERE invocation_id = 'i' ORDER BY seq").all() as { seq: number }[]).map((r) => r.seq);
    const inserts: number[] = [];
    cp.database.function("note_insert", (seq: number) => (inserts.push(seq), 0));
    cp.database.exec(`CREATE TEMP TRIGGER t AFTER INSERT ON openarmature_checkpoints_positions BEGIN SELECT note_insert(NEW.seq); END`);
    for (let k = 1; k <= all.length; k++) await cp.save("i", record("i", { completedPositions: all.slice(0, k) }));
    expect(rows()).to.deep.equal([0, 1, 2, 3]);
    expect(inserts).to.deep.equal([0, 1, 2, 3]); // each position written once
    expect((await cp.load("i"))!.completedPositions.map((p) => p.nodeName)).to.deep.equal(["n0", "n1", "n2", "n3"]);
    // A record whose positions do not extend the stored ones is written whole.
    inserts.length = 0;
    await cp.save("i", record("i", { completedPositions: [pos(9)] }));
    expect(inserts).to.deep.equal([0]);
    expect((await cp.load("i"))!.completedPositions.map((p) => p.nodeName)).to.deep.equal(["n9"]);
    // Another checkpointer on the file (another process) starts by rewriting, then appends.
    const other = new SqliteCheckpointer(cp.database);
    await other.save("i", record("i", { completedPositions: all.slice(0, 2) }));
    expect((await cp.load("i"))!.completedPositions.map((p) => p.nodeName)).to.deep.equal(["n0", "n1"]);
    await cp.save("i", record("i", { completedPositions: all.slice(0, 3) }));
    expect((await cp.load("i"))!.completedPositions.map((p) => p.nodeName)).to.deep.equal(["n0", "n1", "n2"]);
    await cp.delete("i");
    expect(rows()).to.deep.equal([]);
    cp.close();
  });

  it("a row written with positions inline (before the positions table) still loads", async () => {
    const path = join(tmp.dir, "legacy.db");
    const cp = new SqliteCheckpointer(path);
    await cp.save("i", record("i"));
    const doc = JSON.parse(serializeRecord(record("i", { state: { n: 5 } }))) as Record<string, unknown>;
    doc["completed_positions"] = [{ namespace: [], node_name: "inline", step: 0, attempt_index: 0 }];
    cp.database.prepare("UPDATE openarmature_checkpoints SET record = ?, positions_apart = 0, parts_apart = 0").run(JSON.stringify(doc));
    cp.database.prepare("DELETE FROM openarmature_checkpoints_positions").run();
    cp.database.prepare("DELETE FROM openarmature_checkpoints_parts").run();
    const loaded = (await cp.load("i"))!;
    expect(loaded.completedPositions.map((p) => p.nodeName)).to.deep.equal(["inline"]);
    expect(loaded.state).to.deep.equal({ n: 5 });
    cp.close();
    // A table created before the column existed gains it.
    const db = new Database(join(tmp.dir, "old.db"));
    db.exec(`CREATE TABLE openarmature_checkpoints (invocation_id TEXT PRIMARY KEY NOT NULL, correlation_id TEXT NOT NULL, graph_name TEXT,
      schema_version TEXT NOT NULL, last_saved_at REAL NOT NULL, completed_node_count INTEGER NOT NULL, resumed_from TEXT,
      fan_out_in_flight INTEGER NOT NULL, encoding TEXT NOT NULL, record TEXT NOT NULL)`);
    const old = new SqliteCheckpointer(db);
    await old.save("j", record("j"));
    expect((await old.load("j"))!.completedPositions).to.have.length(1);
    db.close();
  });

  it("a record missing some of its stored positions loads as checkpoint_record_invalid", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "torn.db"));
    await cp.save("i", record("i"));
    cp.database.prepare("DELETE FROM openarmature_checkpoints_positions").run();
    const e = await rejection(cp.load("i"));
    expect(e).to.be.instanceOf(CheckpointRecordInvalidError);
    cp.close();
  });

  it("a corrupt row loads as checkpoint_record_invalid", async () => {
    const cp = new SqliteCheckpointer(join(tmp.dir, "corrupt.db"));
    await cp.save("i", record("i"));
    cp.database.prepare("UPDATE openarmature_checkpoints SET record = '{\"oops' WHERE invocation_id = 'i'").run();
    const e = await rejection(cp.load("i"));
    expect(e).to.be.instanceOf(CheckpointRecordInvalidError);
    cp.database.prepare("UPDATE openarmature_checkpoints SET encoding = 'pickle' WHERE invocation_id = 'i'").run();
    expect((await rejection(cp.load("i")))["category"]).to.equal("checkpoint_record_invalid");
    cp.close();
  });

  it("validates its options", () => {
    expect(() => new SqliteCheckpointer(":memory:", { table: "x; DROP TABLE y" })).to.throw(RangeError);
    expect(() => new SqliteCheckpointer(":memory:", { encoding: "xml" as never })).to.throw(RangeError);
    expect(() => new SqliteCheckpointer(":memory:", { synchronous: "off" as never })).to.throw(RangeError);
    expect(() => new SqliteCheckpointer(":memory:", { busyTimeoutMs: -1 })).to.throw(RangeError);
  });
});
