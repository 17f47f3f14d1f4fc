/**
 * `PostgresSessionStore`: the sessions §5 protocol on Postgres, for several workers sharing one
 * store. One row per `session_id`; the state is JSON text (JSON-native values, as the other
 * stores), so §7 migrations see schema-independent data.
 *
 * - **One parameterized statement per save** (one round trip, autocommitted): an upsert bumping
 *   `version`, or with `expectedVersion` a compare-and-set the row lock makes atomic —
 *   `expectedVersion: 0` an `INSERT … ON CONFLICT DO NOTHING` (two first saves cannot both land),
 *   `expectedVersion: n` an `UPDATE … WHERE version = n` (re-checked against the latest row when it
 *   waited for another writer). The loser gets `session_write_conflict`, whichever process or
 *   machine it runs on (one more statement reads the version it lost to).
 * - Session ids are checked before any query (`postgres_input_invalid`: over 1,024 UTF-8 bytes, a
 *   NUL, a lone surrogate); values travel only as parameters, and a session on another
 *   `client_encoding` is handled (`connection.ts`).
 * - Durable when `save` resolves; faults and a newer schema as for `PostgresCheckpointer`
 *   (`postgres_store_unavailable`, `postgres_schema_unsupported`).
 * - Calls are counted like the other stores (`stats()` / `resetStats()`).
 */
import { SessionWriteConflictError } from "../sessions/errors.ts";
import {
  checkSchemaVersion,
  checkSessionId,
  encodeSessionState,
  sessionRecordOf,
  type SessionRecord,
  type SessionRecordInput,
  type SessionSaveResult,
  type SessionSummary,
} from "../sessions/record.ts";
import {
  checkExpectedVersion,
  checkListFilter,
  StoreCounters,
  type SessionListFilter,
  type SessionSaveOptions,
  type SessionStore,
  type SessionStoreStats,
} from "../sessions/session-store.ts";
import {
  checkTableName,
  checkText,
  guarded,
  IS_UTF8,
  NOT_UTF8,
  openPool,
  quoteIdent,
  run,
  unwatchIdleErrors,
  type IdleConnectionErrorListener,
  type PostgresPool,
  type PostgresTarget,
} from "./connection.ts";
import { quoteId } from "./errors.ts";
import { SchemaGate, type StoreSchema } from "./schema.ts";

/** Options of {@link PostgresSessionStore}. */
export interface PostgresSessionStoreOptions {
  /** Table name: letters, digits and `_`, not starting with a digit, at most 51 characters. Default `"openarmature_sessions"`. */
  readonly table?: string;
  /**
   * Called when an idle connection of the pool ends (server restart, an administrator or a proxy
   * closing it). The store listens to the pool's `'error'` event — also on a pool passed in, where
   * it adds one listener and removes none — so such an error never crashes the process; the pool
   * has discarded the client and the next operation connects anew. Default: nothing more.
   */
  readonly onIdleConnectionError?: IdleConnectionErrorListener;
}

/** The session table, version by version. */
export const SESSION_SCHEMA: StoreSchema = {
  kind: "sessions",
  steps: [
    (t) => `
      CREATE TABLE ${quoteIdent(t)} (
        session_id text PRIMARY KEY,
        state text NOT NULL,
        schema_version text NOT NULL DEFAULT '',
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        version integer NOT NULL
      )`,
  ],
};

interface Row {
  session_id: string;
  state: string;
  schema_version: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** The Postgres session store (see the module comment). */
export class PostgresSessionStore implements SessionStore {
  readonly pool: PostgresPool;
  readonly table: string;
  readonly #owned: boolean;
  readonly #schema: SchemaGate;
  readonly #counters = new StoreCounters();
  readonly #onIdleError: IdleConnectionErrorListener | undefined;
  readonly #t: string;

  /** `target`: a `pg.Pool` (left open by `close()`), or a connection URL / pool config (a pool the store owns). */
  constructor(target: PostgresTarget, options: PostgresSessionStoreOptions = {}) {
    const table = checkTableName(options.table ?? "openarmature_sessions", "PostgresSessionStore");
    const { pool, owned } = openPool(target, "PostgresSessionStore", options.onIdleConnectionError);
    this.pool = pool;
    this.#owned = owned;
    this.#onIdleError = options.onIdleConnectionError;
    this.table = table;
    this.#t = quoteIdent(table);
    this.#schema = new SchemaGate(pool, table, SESSION_SCHEMA);
  }

  /** Create or migrate the table now (otherwise the first operation does). */
  ready(): Promise<void> {
    return this.#schema.ready();
  }

  #checkId(sessionId: unknown): asserts sessionId is string {
    checkSessionId(sessionId);
    checkText(this.table, "sessionId", sessionId, true);
  }

  /** §5.1 */
  async load(sessionId: string): Promise<SessionRecord | null> {
    this.#counters.load++;
    this.#checkId(sessionId);
    await this.#schema.ready();
    const row = await guarded(this.pool, this.table, `loading session ${quoteId(sessionId)}`, async (on) => {
      const r = await run<{ utf8: boolean } & Partial<Row>>(on, `SELECT ${IS_UTF8} AS utf8, s.* FROM (SELECT 1) AS one LEFT JOIN ${this.#t} AS s ON s.session_id = $1`, [sessionId]);
      const first = r.rows[0]!;
      return first.utf8 ? first : NOT_UTF8;
    });
    if (row.session_id === undefined || row.session_id === null) return null;
    return sessionRecordOf(row.session_id, {
      state: row.state!,
      schemaVersion: row.schema_version!,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      version: row.version!,
    });
  }

  /** §5.2 (+ §8.2 `expectedVersion`: checked and bumped in one statement). */
  async save(sessionId: string, record: SessionRecordInput, options?: SessionSaveOptions): Promise<SessionSaveResult> {
    this.#counters.save++;
    this.#checkId(sessionId);
    const expected = checkExpectedVersion(options);
    const state = encodeSessionState(record.state);
    const schemaVersion = checkSchemaVersion(record.schemaVersion);
    checkText(this.table, "schemaVersion", schemaVersion, false);
    await this.#schema.ready();
    const t = this.#t;
    const now = Date.now();
    const columns = "(session_id, state, schema_version, created_at, updated_at, version)";
    const row = "SELECT $1::text, $2::text, $3::text, $4::bigint, $4::bigint, 1 FROM ok WHERE ok.utf8";
    let write: string;
    let values: unknown[];
    if (expected === undefined) {
      write = `INSERT INTO ${t} ${columns} ${row}
        ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, schema_version = excluded.schema_version,
          updated_at = excluded.updated_at, version = ${t}.version + 1
        RETURNING version`;
      values = [sessionId, state, schemaVersion, now];
    } else if (expected === 0) {
      write = `INSERT INTO ${t} ${columns} ${row} ON CONFLICT (session_id) DO NOTHING RETURNING version`;
      values = [sessionId, state, schemaVersion, now];
    } else {
      write = `UPDATE ${t} SET state = $2::text, schema_version = $3::text, updated_at = $4::bigint, version = version + 1
        WHERE session_id = $1::text AND version = $5::integer AND (SELECT utf8 FROM ok) RETURNING version`;
      values = [sessionId, state, schemaVersion, now, expected];
    }
    const during = `saving session ${quoteId(sessionId)}`;
    const version = await guarded(this.pool, this.table, during, async (on) => {
      const r = await run<{ utf8: boolean; version: number | null }>(
        on,
        `WITH ok AS (SELECT ${IS_UTF8} AS utf8), w AS (${write}) SELECT ok.utf8, w.version FROM ok LEFT JOIN w ON true`,
        values,
      );
      const first = r.rows[0]!;
      return first.utf8 ? first.version : NOT_UTF8;
    });
    if (version === null) {
      // The compare-and-set lost: report the version it lost to (as stored now).
      const current = await guarded(this.pool, this.table, during, async (on) => {
        const r = await run<{ utf8: boolean; version: number | null }>(on, `SELECT ${IS_UTF8} AS utf8, (SELECT version FROM ${t} WHERE session_id = $1) AS version`, [sessionId]);
        const first = r.rows[0]!;
        return first.utf8 ? (first.version ?? 0) : NOT_UTF8;
      });
      throw new SessionWriteConflictError(sessionId, expected!, current);
    }
    return Object.freeze({ version, updatedAt: new Date(now) });
  }

  /** §5.3 (idempotent). */
  async delete(sessionId: string): Promise<void> {
    this.#counters.delete++;
    this.#checkId(sessionId);
    await this.#schema.ready();
    await guarded(this.pool, this.table, `deleting session ${quoteId(sessionId)}`, async (on) => {
      const r = await run<{ utf8: boolean }>(
        on,
        `WITH ok AS (SELECT ${IS_UTF8} AS utf8), d AS (DELETE FROM ${this.#t} WHERE session_id = $1 AND (SELECT utf8 FROM ok)) SELECT utf8 FROM ok`,
        [sessionId],
      );
      return r.rows[0]!.utf8 ? undefined : NOT_UTF8;
    });
  }

  /** §5.4 (ordered by `sessionId` in byte order). */
  async list(filter?: SessionListFilter): Promise<readonly SessionSummary[]> {
    this.#counters.list++;
    checkListFilter(filter);
    if (filter?.schemaVersion !== undefined) checkText(this.table, "schemaVersion", filter.schemaVersion, false);
    await this.#schema.ready();
    const where: string[] = [];
    const params: (string | number)[] = [];
    const param = (v: string | number, type: string): string => {
      params.push(v);
      return `$${params.length}::${type}`;
    };
    if (filter?.updatedAfter !== undefined) where.push(`updated_at > ${param(filter.updatedAfter.getTime(), "bigint")}`);
    if (filter?.createdAfter !== undefined) where.push(`created_at > ${param(filter.createdAfter.getTime(), "bigint")}`);
    if (filter?.schemaVersion !== undefined) where.push(`schema_version = ${param(filter.schemaVersion, "text")}`);
    let sql = `SELECT session_id, schema_version, created_at, updated_at, version FROM ${this.#t}`;
    if (where.length) sql += ` WHERE ${where.join(" AND ")}`;
    sql += ` ORDER BY session_id COLLATE "C"`;
    if (filter?.limit !== undefined) sql += ` LIMIT ${param(Math.min(filter.limit, Number.MAX_SAFE_INTEGER), "bigint")}`;
    if (filter?.offset !== undefined) sql += ` OFFSET ${param(Math.min(filter.offset, Number.MAX_SAFE_INTEGER), "bigint")}`;
    const rows = await guarded(this.pool, this.table, "listing sessions", async (on) => {
      const r = await run<{ utf8: boolean } & Partial<Omit<Row, "state">>>(
        on,
        `SELECT ${IS_UTF8} AS utf8, s.* FROM (SELECT 1) AS one LEFT JOIN LATERAL (${sql}) AS s ON true ORDER BY s.session_id COLLATE "C"`,
        params,
      );
      return r.rows[0]!.utf8 ? r.rows.filter((x) => x.session_id !== null && x.session_id !== undefined) : NOT_UTF8;
    });
    return Object.freeze(
      rows.map((r) =>
        Object.freeze({
          sessionId: r.session_id!,
          schemaVersion: r.schema_version!,
          createdAt: new Date(Number(r.created_at)),
          updatedAt: new Date(Number(r.updated_at)),
          version: r.version!,
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

  /** End the pool if this store opened it (a passed-in `pg.Pool` stays open, with its `'error'` listener). */
  async close(): Promise<void> {
    unwatchIdleErrors(this.pool, this.#onIdleError);
    if (this.#owned) await this.pool.end();
  }
}
