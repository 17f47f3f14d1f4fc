/**
 * `retryWhileBusy` (src/sqlite/file.ts): the WAL switch a store makes when it opens a file can meet
 * `SQLITE_BUSY` without SQLite consulting the busy handler (another process running WAL recovery),
 * which failed one of three processes opening one file on a loaded machine
 * (`multi-process.test.ts`). The errors here are real `better-sqlite3` errors; the pause is injected
 * so the test does not sleep.
 */
import { expect } from "chai";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { retryWhileBusy } from "../../src/sqlite/file.ts";

const busy = (): Error => new Database.SqliteError("database is locked", "SQLITE_BUSY");

describe("SQLite: retryWhileBusy (opening a WAL file under contention)", () => {
  it("retries SQLITE_BUSY with growing pauses until the call succeeds", () => {
    let calls = 0;
    const pauses: number[] = [];
    const r = retryWhileBusy(() => {
      if (++calls < 4) throw busy();
      return "wal";
    }, 5_000, (ms) => pauses.push(ms));
    expect(r).to.equal("wal");
    expect(calls).to.equal(4);
    expect(pauses).to.deep.equal([1, 2, 4]);
  });

  it("throws the SQLITE_BUSY error once the budget is spent", () => {
    let calls = 0;
    expect(() => retryWhileBusy(() => {
      calls++;
      throw busy();
    }, 0, () => {})).to.throw(Database.SqliteError, "database is locked");
    expect(calls).to.equal(1);
  });

  it("does not retry any other error", () => {
    let calls = 0;
    const notADb = new Database.SqliteError("file is not a database", "SQLITE_NOTADB");
    expect(() => retryWhileBusy(() => {
      calls++;
      throw notADb;
    }, 5_000, () => {})).to.throw(notADb);
    expect(calls).to.equal(1);
  });

  it("passes a real connection's result through (a file switched to WAL)", () => {
    const dir = mkdtempSync(join(tmpdir(), "oa-busy-"));
    const db = new Database(join(dir, "x.db"));
    try {
      expect(retryWhileBusy(() => db.pragma("journal_mode = WAL", { simple: true }), 100)).to.equal("wal");
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
