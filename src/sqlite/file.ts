/**
 * What the two SQLite stores (`SqliteCheckpointer`, `SqliteSessionStore`) share about their file:
 * how a connection is configured for several processes writing one file, and how SQLite's "this is
 * not (or no longer) a database" and "this file cannot be opened or written" errors are recognised
 * so each store can raise its own categorized error naming the file and what to do.
 *
 * **Several processes, one file.** Every connection sets `busy_timeout` first (so even the
 * `journal_mode` switch waits for a lock instead of failing), then WAL for files. Each store runs
 * its writes as `BEGIN IMMEDIATE` transactions: the write lock is taken up front, waiting up to
 * `busy_timeout`. A deferred transaction that reads first and then writes cannot wait — in WAL
 * mode its upgrade fails at once with `SQLITE_BUSY` (`database is locked`) when another
 * connection committed meanwhile, whatever `busy_timeout` says.
 */
import Database from "better-sqlite3";
import { statSync } from "node:fs";
import { dirname } from "node:path";

/** The connection settings a store applies. */
export interface ConnectionSettings {
  /** `PRAGMA busy_timeout` in ms (non-negative integer). */
  readonly busyTimeoutMs: number;
  /** `PRAGMA synchronous`; omitted: left as the connection has it. */
  readonly synchronous?: "FULL" | "NORMAL";
}

/** Configure `db` for concurrent writers: `busy_timeout` first, then WAL (files only), then `synchronous`. */
export function configureConnection(db: Database.Database, settings: ConnectionSettings): void {
  db.pragma(`busy_timeout = ${settings.busyTimeoutMs}`);
  // Opening a WAL file can meet SQLITE_BUSY without the busy handler being consulted (another
  // connection is running WAL recovery or holds the WAL-index lock while it starts up: SQLite returns
  // BUSY at once there). Seen with three processes opening one file on a loaded machine. So the
  // switch is retried within the same `busy_timeout` budget.
  if (!db.memory) retryWhileBusy(() => db.pragma("journal_mode = WAL"), settings.busyTimeoutMs);
  if (settings.synchronous !== undefined) db.pragma(`synchronous = ${settings.synchronous}`);
}

/** A synchronous pause (a store is opened in a constructor: there is no event loop turn to wait for). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * @internal Run `fn`; while it fails with `SQLITE_BUSY`, wait (1 ms, doubling up to 50 ms) and run
 * it again, for at most `budgetMs` in all. Any other error, or `SQLITE_BUSY` once the budget is
 * spent, is thrown as it is.
 */
export function retryWhileBusy<T>(fn: () => T, budgetMs: number, sleep: (ms: number) => void = sleepSync): T {
  const deadline = Date.now() + budgetMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return fn();
    } catch (e) {
      const remaining = deadline - Date.now();
      if (!(e instanceof Database.SqliteError && e.code === "SQLITE_BUSY") || remaining <= 0) throw e;
      sleep(Math.min(wait, remaining));
    }
  }
}

/** The file a connection works on, for messages (`":memory:"` for a private in-memory database). */
export function fileOf(db: Database.Database): string {
  return db.memory ? ":memory:" : db.name;
}

/**
 * Is `e` SQLite reporting that the file is not a database (`SQLITE_NOTADB`: another format — a
 * text file, an encrypted database) or that it is damaged (`SQLITE_CORRUPT*`)?
 */
export function isUnusableFileError(e: unknown): e is Error & { readonly code: string } {
  return e instanceof Database.SqliteError && (e.code === "SQLITE_NOTADB" || e.code.startsWith("SQLITE_CORRUPT"));
}

/**
 * Why SQLite cannot open or write the file, and what to do about it — when `e` says so: a path that
 * cannot be opened (`SQLITE_CANTOPEN`: a directory, a missing folder, no permission — told apart by
 * looking at `file`), a full disk (`SQLITE_FULL`), a read-only file or folder (`SQLITE_READONLY*`),
 * refused access (`SQLITE_PERM` / `SQLITE_AUTH`), an I/O error (`SQLITE_IOERR*`); also better-sqlite3's
 * own refusal of a path whose folder does not exist. `undefined` for any other error.
 */
export function unavailableFileProblem(e: unknown, file: string): string | undefined {
  if (e instanceof TypeError && /directory does not exist/.test(e.message)) {
    return `its folder "${dirname(file)}" does not exist; create it or choose another path`;
  }
  if (!(e instanceof Database.SqliteError)) return undefined;
  const code = e.code;
  const said = `${e.message} (${code})`;
  if (code === "SQLITE_CANTOPEN") return `${said}: ${whyCannotOpen(file)}`;
  if (code === "SQLITE_FULL") return `${said}: the disk (or the file's size limit) is full; free space or move the store to another disk`;
  if (code.startsWith("SQLITE_READONLY")) return `${said}: the file or its folder is read-only; make both writable by this process or choose another path`;
  if (code === "SQLITE_PERM" || code === "SQLITE_AUTH") return `${said}: access was refused; check the file's permissions`;
  if (code.startsWith("SQLITE_IOERR")) return `${said}: the operating system reported an I/O error; check the disk and the path (a device or a special file is not a database)`;
  return undefined;
}

/** What stands in the way of opening `file` (for `SQLITE_CANTOPEN`). */
function whyCannotOpen(file: string): string {
  try {
    const st = statSync(file);
    if (st.isDirectory()) return "the path is a directory; give the path of a database file (e.g. inside it)";
    if (!st.isFile()) return "the path is not a regular file; give the path of a database file";
    return "this process cannot open it (permissions, or a lock held by the system); check the file and its folder";
  } catch {
    // it does not exist: the folder is the problem
  }
  try {
    if (!statSync(dirname(file)).isDirectory()) return `"${dirname(file)}" is not a folder; choose another path`;
  } catch {
    return `its folder "${dirname(file)}" does not exist; create it or choose another path`;
  }
  return "the file cannot be created in its folder (permissions); check the folder or choose another path";
}

/** The columns of `table` (empty when it does not exist). */
export function columnsOf(db: Database.Database, table: string): string[] {
  return (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
}

/** The first of `required` that `table` lacks, when `table` exists and lacks one (a foreign table of the same name). */
export function missingColumn(db: Database.Database, table: string, required: readonly string[]): string | undefined {
  const have = columnsOf(db, table);
  if (have.length === 0) return undefined;
  return required.find((c) => !have.includes(c));
}
