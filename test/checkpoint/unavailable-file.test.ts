/**
 * SQLite files that cannot be opened or written (issue 26 item 5b): both SQLite stores raise their
 * capability's own category naming the file and what to do — `checkpoint_store_unavailable` /
 * `session_store_unavailable` — never a raw `SqliteError` or `TypeError`: a directory, a path whose
 * folder does not exist, a path under a file, `/dev/full` (SQLite reports `SQLITE_FULL` opening it),
 * and a full database in an operation (`PRAGMA max_page_count`: SQLite's own deterministic
 * `SQLITE_FULL`). The garbage-file case (`*_store_corrupt`) is in corrupt-file.test.ts. Real files,
 * no mocks; only the code-to-advice mapping of errors that cannot be provoked as root (read-only,
 * I/O error) is unit-tested with a constructed `SqliteError`.
 */
import { expect } from "chai";
import Database from "better-sqlite3";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointStoreUnavailableError, SqliteCheckpointer, withCheckpointer, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { END, GraphBuilder, stateSchema } from "../../src/graph/index.ts";
import { SessionStoreUnavailableError, SqliteSessionStore } from "../../src/sessions/index.ts";
import { unavailableFileProblem } from "../../src/sqlite/file.ts";
import { rejection, tempDir, thrown } from "./helpers.ts";

function record(id: string, size: number): CheckpointRecord {
  return { invocationId: id, correlationId: "c", state: { big: "x".repeat(size) }, completedPositions: [], parentStates: [], schemaVersion: "", lastSavedAt: Date.now() };
}

describe("SQLite stores: a file that cannot be opened or written", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir()));
  afterEach(() => tmp.cleanup());

  /** Both constructors on `path`: their categories, the path and `advice` in the message, the driver's error as cause. */
  function expectBoth(path: string, advice: RegExp, code?: string): void {
    const c = thrown(() => new SqliteCheckpointer(path));
    expect(c, String(c)).to.be.instanceOf(CheckpointStoreUnavailableError);
    expect((c as CheckpointStoreUnavailableError).category).to.equal("checkpoint_store_unavailable");
    expect((c as CheckpointStoreUnavailableError).file).to.equal(path);
    expect((c as Error).message).to.contain(`"${path}"`).and.match(advice);
    if (code !== undefined) {
      expect((c as Error).message).to.contain(code);
      expect((c as Error).cause).to.be.instanceOf(Database.SqliteError);
    }
    const s = thrown(() => new SqliteSessionStore(path));
    expect(s, String(s)).to.be.instanceOf(SessionStoreUnavailableError);
    expect((s as SessionStoreUnavailableError).category).to.equal("session_store_unavailable");
    expect((s as Error).message).to.contain(`"${path}"`).and.match(advice);
  }

  it("a directory", () => {
    const dir = join(tmp.dir, "a-folder");
    mkdirSync(dir);
    expectBoth(dir, /is a directory; give the path of a database file/, "SQLITE_CANTOPEN");
  });

  it("a path whose folder does not exist, and a path under a file", () => {
    expectBoth(join(tmp.dir, "no-such-folder", "x.db"), /folder ".*no-such-folder" does not exist; create it/);
    const file = join(tmp.dir, "plain.txt");
    writeFileSync(file, "x");
    expectBoth(join(file, "x.db"), /plain\.txt" is not a folder/, "SQLITE_CANTOPEN");
    expect(existsSync(join(tmp.dir, "no-such-folder"))).to.equal(false);
  });

  it("a full device: /dev/full (SQLITE_FULL)", function () {
    if (!existsSync("/dev/full")) this.skip();
    expectBoth("/dev/full", /is full; free space/, "SQLITE_FULL");
  });

  it("a save into a full database: checkpoint_store_unavailable; through invoke, checkpoint_save_failed caused by it; the last record stays", async () => {
    const file = join(tmp.dir, "cp.db");
    const cp = new SqliteCheckpointer(file);
    try {
      await cp.save("kept", record("kept", 100));
      const pages = cp.database.pragma("page_count", { simple: true }) as number;
      cp.database.pragma(`max_page_count = ${pages}`); // SQLite's own limit: the database is now full
      const e = await rejection(cp.save("big", record("big", 200_000)));
      expect(e).to.be.instanceOf(CheckpointStoreUnavailableError);
      expect((e as Error).message).to.contain(file).and.contain("SQLITE_FULL").and.contain("free space");
      expect((await cp.load("kept"))?.state).to.deep.equal({ big: "x".repeat(100) });

      const graph = new GraphBuilder(stateSchema({ fields: { big: { type: "string", default: "" } } }))
        .addNode("a", async () => ({ big: "y".repeat(200_000) }))
        .addEdge("a", END)
        .setEntry("a")
        .compile({ name: "g" });
      const run = await rejection(withCheckpointer(graph, cp).invoke({}, { invocationId: "run" }));
      expect(run.category).to.equal("checkpoint_save_failed");
      expect((run as Error).cause).to.be.instanceOf(CheckpointStoreUnavailableError);
    } finally {
      cp.close();
    }
  });

  it("a session save into a full database: session_store_unavailable", async () => {
    const file = join(tmp.dir, "sessions.db");
    const store = new SqliteSessionStore(file);
    try {
      await store.save("kept", { state: { a: 1 } });
      store.database.pragma(`max_page_count = ${store.database.pragma("page_count", { simple: true }) as number}`);
      const e = await rejection(store.save("big", { state: { big: "z".repeat(200_000) } }));
      expect(e).to.be.instanceOf(SessionStoreUnavailableError);
      expect((e as Error).message).to.contain(file).and.contain("SQLITE_FULL");
      expect((await store.load("kept"))?.state).to.deep.equal({ a: 1 });
    } finally {
      store.close();
    }
  });

  it("maps the other codes to advice (read-only, refused, I/O error) and leaves the rest alone", () => {
    const err = (code: string): Error => new Database.SqliteError("x", code);
    expect(unavailableFileProblem(err("SQLITE_READONLY"), "/f.db")).to.match(/read-only; make both writable/);
    expect(unavailableFileProblem(err("SQLITE_READONLY_DIRECTORY"), "/f.db")).to.match(/read-only/);
    expect(unavailableFileProblem(err("SQLITE_PERM"), "/f.db")).to.match(/access was refused/);
    expect(unavailableFileProblem(err("SQLITE_IOERR_WRITE"), "/f.db")).to.match(/I\/O error/);
    expect(unavailableFileProblem(err("SQLITE_FULL"), "/f.db")).to.match(/full/);
    expect(unavailableFileProblem(err("SQLITE_BUSY"), "/f.db")).to.equal(undefined);
    expect(unavailableFileProblem(err("SQLITE_CONSTRAINT"), "/f.db")).to.equal(undefined);
    expect(unavailableFileProblem(new Error("other"), "/f.db")).to.equal(undefined);
  });
});
