/**
 * Corrupt or foreign SQLite files (issue 9 item 5): both SQLite stores raise their capability's own
 * categorized error naming the file — `checkpoint_store_corrupt` / `session_store_corrupt` — never
 * a raw `SqliteError`, whether SQLite notices in the constructor (`SQLITE_NOTADB`) or later, in an
 * operation that reads a damaged page (`SQLITE_CORRUPT`). Real garbage files, no mocks.
 */
import { expect } from "chai";
import Database from "better-sqlite3";
import { closeSync, openSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStoreCorruptError, SqliteCheckpointer, withCheckpointer, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { END, GraphBuilder, stateSchema } from "../../src/graph/index.ts";
import { SessionStoreCorruptError, SqliteSessionStore, withSessions } from "../../src/sessions/index.ts";
import { rejection, tempDir, thrown } from "./helpers.ts";

function record(id: string, i: number): CheckpointRecord {
  return { invocationId: id, correlationId: "c", state: { big: "x".repeat(3000) }, completedPositions: [], parentStates: [], schemaVersion: "", lastSavedAt: i + 1 };
}

/** A real database file of `pages` pages whose pages past the first (the schema) are overwritten with garbage. */
function damage(file: string): void {
  const size = statSync(file).size;
  const fd = openSync(file, "r+");
  const junk = Buffer.alloc(size - 8192, 0x5a);
  writeSync(fd, junk, 0, junk.length, 4096);
  closeSync(fd);
}

const graph = new GraphBuilder(stateSchema({ fields: { n: { type: "int", default: 0 } } }))
  .addNode("a", async (s) => ({ n: (s.n as number) + 1 }))
  .addEdge("a", END)
  .setEntry("a")
  .compile({ name: "g" });

describe("SQLite stores: corrupt or foreign files", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.cleanup());

  function garbage(): string {
    const file = join(tmp.dir, "notes.db");
    writeFileSync(file, "these are meeting notes, not a database\n".repeat(200));
    return file;
  }

  it("a text file: both constructors raise their own category naming the file (SQLITE_NOTADB)", () => {
    const file = garbage();
    const c = thrown(() => new SqliteCheckpointer(file));
    expect(c).to.be.instanceOf(CheckpointStoreCorruptError);
    expect((c as CheckpointStoreCorruptError).category).to.equal("checkpoint_store_corrupt");
    expect((c as CheckpointStoreCorruptError).file).to.equal(file);
    expect((c as Error).message).to.contain(file).and.contain("SQLITE_NOTADB");
    expect((c as Error).cause).to.be.instanceOf(Database.SqliteError);

    const s = thrown(() => new SqliteSessionStore(file));
    expect(s).to.be.instanceOf(SessionStoreCorruptError);
    expect((s as SessionStoreCorruptError).category).to.equal("session_store_corrupt");
    expect((s as Error).message).to.contain(file).and.contain("SQLITE_NOTADB");
  });

  it("a foreign database with a table of the same name: raised from the constructor, naming file and column", () => {
    const file = join(tmp.dir, "other-app.db");
    const db = new Database(file);
    db.exec("CREATE TABLE openarmature_checkpoints (id INTEGER PRIMARY KEY, payload BLOB); CREATE TABLE openarmature_sessions (k TEXT)");
    db.close();
    const c = thrown(() => new SqliteCheckpointer(file));
    expect(c).to.be.instanceOf(CheckpointStoreCorruptError);
    expect((c as Error).message).to.contain(file).and.contain("foreign table").and.contain("invocation_id");
    const s = thrown(() => new SqliteSessionStore(file));
    expect(s).to.be.instanceOf(SessionStoreCorruptError);
    expect((s as Error).message).to.contain(file).and.contain("foreign table").and.contain("session_id");
  });

  it("damaged pages found by load / list / save (SQLITE_CORRUPT): checkpoint_store_corrupt; through invoke: checkpoint_save_failed caused by it", async () => {
    const file = join(tmp.dir, "cp.db");
    const cp = new SqliteCheckpointer(file);
    for (let i = 0; i < 50; i++) await cp.save(`r${i}`, record(`r${i}`, i));
    cp.close();
    damage(file);

    const reopened = new SqliteCheckpointer(file);
    try {
      for (const op of [() => reopened.load("r3"), () => reopened.list(), () => reopened.save("r9", record("r9", 99))]) {
        const e = await rejection(op());
        expect(e).to.be.instanceOf(CheckpointStoreCorruptError);
        expect((e as Error).message).to.contain(file).and.contain("SQLITE_CORRUPT");
      }
      const e = await rejection(withCheckpointer(graph, reopened).invoke({}, { invocationId: "r7" }));
      expect(e.category).to.equal("checkpoint_save_failed");
      expect((e as Error).cause).to.be.instanceOf(CheckpointStoreCorruptError);
      const r = await rejection(withCheckpointer(graph, reopened).resume("r3"));
      expect(r.category).to.equal("checkpoint_store_corrupt");
    } finally {
      reopened.close();
    }
  });

  it("damaged session pages: session_store_corrupt from the store; session_load_failed caused by it at invoke entry", async () => {
    const file = join(tmp.dir, "sessions.db");
    const store = new SqliteSessionStore(file);
    for (let i = 0; i < 50; i++) await store.save(`s${i}`, { state: { big: "y".repeat(3000) }, schemaVersion: "" });
    store.close();
    damage(file);

    const reopened = new SqliteSessionStore(file);
    try {
      for (const op of [() => reopened.load("s3"), () => reopened.list(), () => reopened.save("s9", { state: { big: "z" }, schemaVersion: "" })]) {
        const e = await rejection(op());
        expect(e).to.be.instanceOf(SessionStoreCorruptError);
        expect((e as Error).message).to.contain(file).and.contain("SQLITE_CORRUPT");
      }
      const bound = withSessions(graph, { store: reopened, projection: "full" });
      const e = await rejection(bound.invoke({}, { sessionId: "s3" }));
      expect(e.category).to.equal("session_load_failed");
      expect((e as Error).cause).to.be.instanceOf(SessionStoreCorruptError);
    } finally {
      reopened.close();
    }
  });
});
