/**
 * `PostgresSessionStore`: the sessions §5 protocol on Postgres, for several workers sharing one
 * store. One row per `session_id`; the state is JSON text (JSON-native values, as the other
 * stores), so §7 migrations see schema-independent data.
 *
 * - **§8.2 optimistic concurrency is the `version` column.** `save(…, { expectedVersion })` reads
 *   the version and writes the bumped one in one transaction under an advisory lock on the session
 *   (held also when no row exists yet, so two first saves with `expectedVersion: 0` cannot both
 *   land): the loser gets `session_write_conflict`, whichever process or machine it runs on.
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
import { literal, lockKey, openPool, query, TABLE_NAME, transaction, type PostgresPool, type PostgresTarget } from "./connection.ts";
import { SchemaGate, type StoreSchema } from "./schema.ts";

/** Options of {@link PostgresSessionStore}. */
export interface PostgresSessionStoreOptions {
  /** Table name. Default `"openarmature_sessions"`. */
  readonly table?: string;
}

/** The session table, version by version. */
export const SESSION_SCHEMA: StoreSchema = {
  kind: "sessions",
  steps: [
    (t) => `
      CREATE TABLE "${t}" (
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

  /** `target`: a `pg.Pool` (left open by `close()`), or a connection URL / pool config (a pool the store owns). */
  constructor(target: PostgresTarget, options: PostgresSessionStoreOptions = {}) {
    const table = options.table ?? "openarmature_sessions";
    if (!TABLE_NAME.test(table)) throw new RangeError(`invalid table name ${JSON.stringify(table)}`);
    const { pool, owned } = openPool(target, "PostgresSessionStore");
    this.pool = pool;
    this.#owned = owned;
    this.table = table;
    this.#schema = new SchemaGate(pool, table, SESSION_SCHEMA);
  }

  /** Create or migrate the table now (otherwise the first operation does). */
  ready(): Promise<void> {
    return this.#schema.ready();
  }

  /** §5.1 */
  async load(sessionId: string): Promise<SessionRecord | null> {
    this.#counters.load++;
    checkSessionId(sessionId);
    await this.#schema.ready();
    const r = await query<Row>(this.pool, this.table, `loading session "${sessionId}"`, `SELECT * FROM "${this.table}" WHERE session_id = $1`, [sessionId]);
    const row = r.rows[0];
    if (row === undefined) return null;
    return sessionRecordOf(row.session_id, {
      state: row.state,
      schemaVersion: row.schema_version,
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      version: row.version,
    });
  }

  /** §5.2 (+ §8.2 `expectedVersion`: checked and bumped in one transaction). */
  async save(sessionId: string, record: SessionRecordInput, options?: SessionSaveOptions): Promise<SessionSaveResult> {
    this.#counters.save++;
    checkSessionId(sessionId);
    const expected = checkExpectedVersion(options);
    const state = encodeSessionState(record.state);
    const schemaVersion = checkSchemaVersion(record.schemaVersion);
    await this.#schema.ready();
    const t = this.table;
    const prelude = `SELECT pg_advisory_xact_lock(${lockKey(t, sessionId)}); SELECT version, created_at FROM "${t}" WHERE session_id = ${literal(sessionId)}`;
    return transaction(this.pool, t, `saving session "${sessionId}"`, prelude, async (client, results) => {
      const prior = results[1]?.rows[0] as { version: number; created_at: string } | undefined;
      const current = prior?.version ?? 0;
      if (expected !== undefined && expected !== current) throw new SessionWriteConflictError(sessionId, expected, current);
      const now = Date.now();
      await client.query(
        `INSERT INTO "${t}" (session_id, state, schema_version, created_at, updated_at, version) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (session_id) DO UPDATE SET state = excluded.state, schema_version = excluded.schema_version,
           updated_at = excluded.updated_at, version = excluded.version`,
        [sessionId, state, schemaVersion, prior !== undefined ? Number(prior.created_at) : now, now, current + 1],
      );
      return Object.freeze({ version: current + 1, updatedAt: new Date(now) });
    });
  }

  /** §5.3 (idempotent). */
  async delete(sessionId: string): Promise<void> {
    this.#counters.delete++;
    checkSessionId(sessionId);
    await this.#schema.ready();
    await query(this.pool, this.table, `deleting session "${sessionId}"`, `DELETE FROM "${this.table}" WHERE session_id = $1`, [sessionId]);
  }

  /** §5.4 (ordered by `sessionId` in byte order). */
  async list(filter?: SessionListFilter): Promise<readonly SessionSummary[]> {
    this.#counters.list++;
    checkListFilter(filter);
    await this.#schema.ready();
    const where: string[] = [];
    const params: (string | number)[] = [];
    const add = (sql: string, v: string | number): void => {
      params.push(v);
      where.push(`${sql} $${params.length}`);
    };
    if (filter?.updatedAfter !== undefined) add("updated_at >", filter.updatedAfter.getTime());
    if (filter?.createdAfter !== undefined) add("created_at >", filter.createdAfter.getTime());
    if (filter?.schemaVersion !== undefined) add("schema_version =", filter.schemaVersion);
    let sql = `SELECT session_id, schema_version, created_at, updated_at, version FROM "${this.table}"`;
    if (where.length) sql += ` WHERE ${where.join(" AND ")}`;
    sql += ` ORDER BY session_id COLLATE "C"`;
    if (filter?.limit !== undefined) sql += ` LIMIT ${Number(filter.limit)}`;
    if (filter?.offset !== undefined) sql += ` OFFSET ${Number(filter.offset)}`;
    const rows = (await query<Omit<Row, "state">>(this.pool, this.table, "listing sessions", sql, params)).rows;
    return Object.freeze(
      rows.map((r) =>
        Object.freeze({
          sessionId: r.session_id,
          schemaVersion: r.schema_version,
          createdAt: new Date(Number(r.created_at)),
          updatedAt: new Date(Number(r.updated_at)),
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

  /** End the pool if this store opened it (a passed-in `pg.Pool` stays open). */
  async close(): Promise<void> {
    if (this.#owned) await this.pool.end();
  }
}
