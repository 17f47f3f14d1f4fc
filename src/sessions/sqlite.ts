/**
 * `SqliteSessionStore` — the bundled embedded-database backend (sessions §5.5), on
 * `better-sqlite3`: one row per `session_id` in a table (default `openarmature_sessions`).
 *
 * - Pass a file path (the session survives the process: another process opening the same file
 *   loads it; `":memory:"` for a private database) or an open `better-sqlite3` `Database` (shared
 *   with other tables — e.g. a checkpointer's, sessions §9.4 — and then not closed by `close()`).
 * - File databases run in WAL mode with `synchronous = FULL`: once `save()` resolves, the record is
 *   committed.
 * - **Several processes may write one file.** `save` is a `BEGIN IMMEDIATE` transaction (the write
 *   lock is taken before the version is read, waited for up to `busy_timeout`, default 5000 ms; see
 *   `src/sqlite/file.ts`), so concurrent writers queue instead of failing with `database is locked`,
 *   and §8.2's check-and-bump cannot interleave with another process's. A passed-in `Database`
 *   keeps its own `busy_timeout` (better-sqlite3's default: 5000 ms). Tested with three processes
 *   on one file (test/checkpoint/multi-process.test.ts).
 * - **A corrupt or foreign file** (not a database, damaged, or a table of this name with other
 *   columns) raises `session_store_corrupt` naming the file — from the constructor or the operation.
 *   **A file that cannot be opened or written** (a directory, a missing folder, no permission,
 *   read-only, a full disk, an I/O error) raises `session_store_unavailable` naming the file and what
 *   to do, the same way.
 * - State is stored as JSON text (JSON-native values only, as for `InMemorySessionStore`), so §7
 *   migrations see schema-independent data.
 * - §8.2: `save(…, { expectedVersion })` checks and bumps the version in one transaction.
 * - Calls are counted like `InMemorySessionStore` (`stats()` / `resetStats()`).
 */
import Database from "better-sqlite3";
import { configureConnection, fileOf, isUnusableFileError, missingColumn, unavailableFileProblem } from "../sqlite/file.ts";
import { SessionStoreCorruptError, SessionStoreUnavailableError, SessionWriteConflictError } from "./errors.ts";
import {
  checkSchemaVersion,
  checkSessionId,
  encodeSessionState,
  sessionRecordOf,
  type SessionRecord,
  type SessionRecordInput,
  type SessionSaveResult,
  type SessionSummary,
} from "./record.ts";
import {
  checkExpectedVersion,
  checkListFilter,
  StoreCounters,
  type SessionListFilter,
  type SessionSaveOptions,
  type SessionStore,
  type SessionStoreStats,
} from "./session-store.ts";

/** Options of {@link SqliteSessionStore}. */
export interface SqliteSessionStoreOptions {
  /** Table name (created if missing). Default `"openarmature_sessions"`. */
  readonly table?: string;
  /** `PRAGMA busy_timeout` for concurrent writers on one file (only when the store opens the file). Default 5000. */
  readonly busyTimeoutMs?: number;
}

interface Row {
  session_id: string;
  state: string;
  schema_version: string;
  created_at: number;
  updated_at: number;
  version: number;
}

type SummaryRow = Omit<Row, "state">;

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The §5.5 SQLite reference backend (see the module comment). */
export class SqliteSessionStore implements SessionStore {
  /** The underlying connection. */
  readonly database: Database.Database;
  readonly table: string;
  readonly #owned: boolean;
  readonly #counters = new StoreCounters();
  readonly #select: Database.Statement<[string], Row>;
  readonly #version: Database.Statement<[string], { version: number; created_at: number }>;
  readonly #upsert: Database.Statement<[string, string, string, number, number, number]>;
  readonly #delete: Database.Statement<[string]>;
  readonly #write: (sessionId: string, state: string, schemaVersion: string, expected: number | undefined) => SessionSaveResult;

  constructor(target: string | Database.Database, options: SqliteSessionStoreOptions = {}) {
    const table = options.table ?? "openarmature_sessions";
    if (!TABLE_NAME.test(table)) throw new RangeError(`invalid table name ${JSON.stringify(table)}`);
    this.table = table;
    if (typeof target === "string") {
      try {
        this.database = new Database(target);
      } catch (e) {
        throw storeError(e, target, table, "opening it");
      }
      this.#owned = true;
    } else if (target instanceof Database) {
      this.database = target;
      this.#owned = false;
    } else {
      throw new TypeError("SqliteSessionStore: expected a file path or a better-sqlite3 Database");
    }
    const db = this.database;
    try {
      if (this.#owned) configureConnection(db, { busyTimeoutMs: Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000)), synchronous: "FULL" });
      const foreign = missingColumn(db, table, ["session_id", "state", "schema_version", "created_at", "updated_at", "version"]);
      if (foreign !== undefined) {
        throw new SessionStoreCorruptError(fileOf(db), table, "opening it", `its table "${table}" is a foreign table (no column ${foreign})`);
      }
      db.exec(
        `CREATE TABLE IF NOT EXISTS ${table} (
          session_id TEXT PRIMARY KEY NOT NULL,
          state TEXT NOT NULL,
          schema_version TEXT NOT NULL DEFAULT '',
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          version INTEGER NOT NULL
        )`,
      );
      this.#select = db.prepare(`SELECT * FROM ${table} WHERE session_id = ?`);
      this.#version = db.prepare(`SELECT version, created_at FROM ${table} WHERE session_id = ?`);
      this.#upsert = db.prepare(
        `INSERT INTO ${table} (session_id, state, schema_version, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(session_id) DO UPDATE SET state = excluded.state, schema_version = excluded.schema_version,
           updated_at = excluded.updated_at, version = excluded.version`,
      );
      this.#delete = db.prepare(`DELETE FROM ${table} WHERE session_id = ?`);
      // BEGIN IMMEDIATE: the version is read under the write lock (see the module comment).
      this.#write = db.transaction((sessionId: string, state: string, schemaVersion: string, expected: number | undefined) => {
        const prior = this.#version.get(sessionId);
        const current = prior?.version ?? 0;
        if (expected !== undefined && expected !== current) throw new SessionWriteConflictError(sessionId, expected, current);
        const now = Date.now();
        this.#upsert.run(sessionId, state, schemaVersion, prior?.created_at ?? now, now, current + 1);
        return Object.freeze({ version: current + 1, updatedAt: new Date(now) });
      }).immediate;
    } catch (e) {
      if (this.#owned) db.close();
      throw this.#unusable(e, "opening it");
    }
  }

  /** `e`, or — when SQLite says the file is not a usable database, or cannot be opened or written — the category naming it. */
  #unusable(e: unknown, during: string, sessionId?: string): unknown {
    return storeError(e, fileOf(this.database), this.table, during, sessionId);
  }

  /** §5.1 */
  async load(sessionId: string): Promise<SessionRecord | null> {
    this.#counters.load++;
    checkSessionId(sessionId);
    let row: Row | undefined;
    try {
      row = this.#select.get(sessionId);
    } catch (e) {
      throw this.#unusable(e, `loading session "${sessionId}"`, sessionId);
    }
    if (!row) return null;
    return sessionRecordOf(row.session_id, {
      state: row.state,
      schemaVersion: row.schema_version,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      version: row.version,
    });
  }

  /** §5.2 (+ §8.2 `expectedVersion`). */
  async save(sessionId: string, record: SessionRecordInput, options?: SessionSaveOptions): Promise<SessionSaveResult> {
    this.#counters.save++;
    checkSessionId(sessionId);
    const expected = checkExpectedVersion(options);
    const state = encodeSessionState(record.state);
    const schemaVersion = checkSchemaVersion(record.schemaVersion);
    try {
      return this.#write(sessionId, state, schemaVersion, expected);
    } catch (e) {
      throw this.#unusable(e, `saving session "${sessionId}"`, sessionId);
    }
  }

  /** §5.3 (idempotent). */
  async delete(sessionId: string): Promise<void> {
    this.#counters.delete++;
    checkSessionId(sessionId);
    try {
      this.#delete.run(sessionId);
    } catch (e) {
      throw this.#unusable(e, `deleting session "${sessionId}"`, sessionId);
    }
  }

  /** §5.4 */
  async list(filter?: SessionListFilter): Promise<readonly SessionSummary[]> {
    this.#counters.list++;
    checkListFilter(filter);
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (filter?.updatedAfter !== undefined) {
      where.push("updated_at > ?");
      params.push(filter.updatedAfter.getTime());
    }
    if (filter?.createdAfter !== undefined) {
      where.push("created_at > ?");
      params.push(filter.createdAfter.getTime());
    }
    if (filter?.schemaVersion !== undefined) {
      where.push("schema_version = ?");
      params.push(filter.schemaVersion);
    }
    let sql = `SELECT session_id, schema_version, created_at, updated_at, version FROM ${this.table}`;
    if (where.length) sql += ` WHERE ${where.join(" AND ")}`;
    sql += " ORDER BY session_id";
    if (filter?.limit !== undefined || filter?.offset !== undefined) {
      sql += " LIMIT ? OFFSET ?";
      params.push(filter.limit ?? -1, filter.offset ?? 0);
    }
    let rows: SummaryRow[];
    try {
      rows = this.database.prepare<(string | number)[], SummaryRow>(sql).all(...params);
    } catch (e) {
      throw this.#unusable(e, "listing sessions");
    }
    return Object.freeze(
      rows.map((r) =>
        Object.freeze({
          sessionId: r.session_id,
          schemaVersion: r.schema_version,
          createdAt: new Date(r.created_at),
          updatedAt: new Date(r.updated_at),
          version: r.version,
        }),
      ),
    );
  }

  /** Calls received since construction or the last {@link resetStats}. */
  stats(): SessionStoreStats {
    return this.#counters.snapshot();
  }

  /** Zero the call counters. */
  resetStats(): void {
    this.#counters.reset();
  }

  /** Close the database if this store opened it (a passed-in `Database` is left open). */
  close(): void {
    if (this.#owned && this.database.open) this.database.close();
  }
}

/**
 * `e` as the store's category when SQLite says the file is unusable: `session_store_corrupt` (not a
 * database, damaged) or `session_store_unavailable` (cannot be opened or written); else `e`.
 */
function storeError(e: unknown, file: string, table: string, during: string, sessionId?: string): unknown {
  if (isUnusableFileError(e)) return new SessionStoreCorruptError(file, table, during, `${e.message} (${e.code})`, sessionId, e);
  const problem = unavailableFileProblem(e, file);
  return problem === undefined ? e : new SessionStoreUnavailableError(file, table, during, problem, sessionId, e);
}
