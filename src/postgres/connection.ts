/**
 * (Internal.) What the Postgres stores share about their connection: the pool they use (given, or
 * opened from a URL / config and then owned) and its idle-client `'error'` listener; statements
 * that take every value as a parameter (`$1`, `$2` …; table names are checked against
 * {@link TABLE_NAME} at construction and written with {@link quoteIdent}); the UTF-8 guard (below);
 * the input checks that run before any query; and lost connections mapped to
 * `postgres_store_unavailable`.
 *
 * **UTF-8.** node-postgres encodes every string it sends, and decodes every one it receives, as
 * UTF-8; a session whose `client_encoding` was changed (an application's `SET client_encoding TO
 * 'SJIS'` on a shared pool) would have the server read the stores' parameters in that encoding and
 * keep a different id than the one given. So every statement checks
 * `current_setting('client_encoding')` itself, in the same round trip, and writes or answers only
 * on UTF-8; on any other encoding the store runs the same statement again in a transaction that
 * sets `client_encoding` to UTF-8 for that transaction only (`SET LOCAL`: the session's own
 * setting is back at `COMMIT`). {@link guarded} does that.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { isConnectionError, MAX_ID_BYTES, PostgresInputInvalidError, PostgresStoreUnavailableError, quoteId } from "./errors.ts";
import { MissingPeerDependencyError, POSTGRES_PEERS } from "../peer-dependencies.ts";

/** The result of a query, as the stores read it (node-postgres's `QueryResult`). */
export interface PostgresQueryResult<R = Record<string, unknown>> {
  readonly rows: R[];
}

/** A pooled client, as the stores use it (node-postgres's `PoolClient`). */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
  release(destroy?: boolean | Error): void;
}

/**
 * A connection pool, as the stores use it: node-postgres's `pg.Pool` (typed structurally, so
 * `openarmature/postgres` type-checks without `@types/pg`).
 */
export interface PostgresPool {
  connect(): Promise<PostgresClient>;
  query(text: string, values?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
  /** node-postgres's `pool.on("error", …)`: an idle client lost its connection (see {@link openPool}). */
  on?(event: "error", listener: (error: Error) => void): unknown;
}

/** node-postgres `PoolConfig` (passed through as given). */
export type PostgresPoolConfig = { readonly connectionString?: string } & Readonly<Record<string, unknown>>;

/** A `pg.Pool` (shared with the application; not closed by the store), or a connection URL / pool config (the store opens and owns a pool). */
export type PostgresTarget = PostgresPool | string | PostgresPoolConfig;

/** The pool behind a store. */
export interface StorePool {
  readonly pool: PostgresPool;
  /** Whether the store opened it (and so ends it on `close()`). */
  readonly owned: boolean;
}

interface PgModule {
  Pool: new (config: Record<string, unknown>) => PostgresPool;
}

let pgModule: PgModule | undefined;

/** node-postgres, loaded when a store first opens a pool (an optional peer dependency). */
function loadPg(who: string): PgModule {
  if (pgModule !== undefined) return pgModule;
  try {
    pgModule = createRequire(import.meta.url)("pg") as PgModule;
  } catch (e) {
    // Only pg itself missing is the peer error; a failure inside an installed pg stays what it is.
    if ((e as { code?: unknown }).code !== "MODULE_NOT_FOUND" || !String((e as Error).message).includes("'pg'")) throw e;
    throw new MissingPeerDependencyError(`${who} (openarmature/postgres)`, POSTGRES_PEERS, { cause: e });
  }
  return pgModule;
}

function isPool(target: unknown): target is PostgresPool {
  return typeof target === "object" && target !== null && typeof (target as PostgresPool).connect === "function" && typeof (target as PostgresPool).query === "function";
}

/** Called with the error of an idle pooled client that lost its connection. */
export type IdleConnectionErrorListener = (error: Error) => void;

/** The listeners of each pool the stores attached their one `'error'` listener to. */
const idleListeners = new WeakMap<PostgresPool, Set<IdleConnectionErrorListener>>();

/**
 * Attach the stores' `'error'` listener to `pool` (once per pool, however many stores share it;
 * listeners already there — the application's — stay). node-postgres emits `'error'` on the pool
 * when an idle client's connection ends (the server restarted, an administrator or a proxy closed
 * it); with no listener, Node throws it and the process exits. The pool has already discarded that
 * client and no operation was using it, so there is nothing to retry: the next checkout connects
 * anew. The listener hands the error to each store's `onIdleConnectionError`, if given.
 */
function watchIdleErrors(pool: PostgresPool, listener: IdleConnectionErrorListener | undefined): void {
  if (typeof pool.on !== "function") return;
  let listeners = idleListeners.get(pool);
  if (listeners === undefined) {
    const set = new Set<IdleConnectionErrorListener>();
    listeners = set;
    idleListeners.set(pool, set);
    pool.on("error", (e) => {
      for (const l of set) l(e);
    });
  }
  if (listener !== undefined) listeners.add(listener);
}

/**
 * The pool of a store: `target` itself when it is a pool (shared; the store never ends it), else a
 * pool opened from the URL / config (owned). Either way the pool gets the stores' idle-client
 * `'error'` listener ({@link watchIdleErrors}).
 */
export function openPool(target: PostgresTarget, who: string, onIdleConnectionError?: IdleConnectionErrorListener): StorePool {
  if (onIdleConnectionError !== undefined && typeof onIdleConnectionError !== "function") throw new TypeError(`${who}: onIdleConnectionError must be a function`);
  let out: StorePool;
  if (isPool(target)) out = { pool: target, owned: false };
  else if (typeof target === "string") out = { pool: new (loadPg(who).Pool)({ connectionString: target }), owned: true };
  else if (typeof target === "object" && target !== null) out = { pool: new (loadPg(who).Pool)({ ...target }), owned: true };
  else throw new TypeError(`${who}: expected a pg.Pool, a connection URL or a pg PoolConfig`);
  watchIdleErrors(out.pool, onIdleConnectionError);
  return out;
}

/** Remove a store's `onIdleConnectionError` (its `close()`); the pool's listener stays, so a shared pool keeps surviving idle errors. */
export function unwatchIdleErrors(pool: PostgresPool, listener: IdleConnectionErrorListener | undefined): void {
  if (listener !== undefined) idleListeners.get(pool)?.delete(listener);
}

/**
 * Postgres identifiers the stores accept as table names: a letter or `_`, then letters, digits or
 * `_`, at most 51 characters (so `<table>_positions` stays within Postgres's 63). Checked when a
 * store is constructed; written into SQL only through {@link quoteIdent}.
 */
export const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,50}$/;

/** Refuse a table name outside {@link TABLE_NAME}. */
export function checkTableName(table: unknown, who: string): string {
  if (typeof table !== "string" || !TABLE_NAME.test(table)) {
    throw new RangeError(`${who}: invalid table name ${typeof table === "string" ? quoteId(table) : typeof table} (letters, digits and _, not starting with a digit, at most 51 characters)`);
  }
  return table;
}

/**
 * `name` as a quoted SQL identifier: in double quotes, a double quote doubled (node-postgres's
 * `escapeIdentifier`). Table names are identifiers, which statements cannot take as parameters;
 * the stores quote only names that passed {@link TABLE_NAME} (no quote can occur) and, being
 * quoted, keep their case.
 */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Refuse, before any query, a text value the store cannot keep as given (`postgres_input_invalid`):
 * a NUL (Postgres `text` cannot hold it), a lone UTF-16 surrogate (it would be sent as U+FFFD —
 * another string), and with `id`, more than {@link MAX_ID_BYTES} UTF-8 bytes (an id is a key of
 * the tables' indexes and of every lookup).
 */
export function checkText(table: string, field: string, value: string, id: boolean): void {
  if (id) {
    const bytes = Buffer.byteLength(value, "utf8");
    if (bytes > MAX_ID_BYTES) throw new PostgresInputInvalidError(table, field, `${quoteId(value)} is ${bytes} UTF-8 bytes long; ids are at most ${MAX_ID_BYTES}`);
  }
  if (value.includes("\0")) throw new PostgresInputInvalidError(table, field, `${quoteId(value)} contains a NUL character (Postgres text cannot hold it)`);
  if (LONE_SURROGATE.test(value)) throw new PostgresInputInvalidError(table, field, `${quoteId(value)} contains a lone UTF-16 surrogate (it would be stored as U+FFFD, a different string)`);
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A signed 64-bit advisory-lock key for `scope` + `key` (a decimal string, passed as a `bigint` parameter). */
export function lockKey(scope: string, key: string): string {
  return createHash("sha1").update(scope).update("\0").update(key).digest().readBigInt64BE(0).toString();
}

/** Something to run statements on: the pool (each statement autocommitted) or a client in a transaction. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

/** Run one statement, its values as parameters. */
export async function run<R>(on: Queryable, text: string, values: readonly unknown[] = []): Promise<PostgresQueryResult<R>> {
  return (await on.query(text, values as unknown[])) as PostgresQueryResult<R>;
}

/** A SQL expression: is this session's `client_encoding` UTF-8? (What node-postgres sends and reads.) */
export const IS_UTF8 = "current_setting('client_encoding') = 'UTF8'";

/** What a guarded attempt returns when the session was not on UTF-8 (it wrote and read nothing). */
export const NOT_UTF8: unique symbol = Symbol("not UTF-8");

/**
 * Run `attempt` on the pool — its statement(s) check {@link IS_UTF8} themselves and return
 * {@link NOT_UTF8} (having changed nothing) when the session is on another encoding — and then, if
 * it did, or failed with a data exception (SQLSTATE class 22: the server reading the parameters in
 * another encoding), once more in a transaction on UTF-8 ({@link transaction}). See the module
 * comment.
 */
export async function guarded<T>(pool: PostgresPool, table: string, during: string, attempt: (on: Queryable) => Promise<T | typeof NOT_UTF8>): Promise<T> {
  let first: T | typeof NOT_UTF8;
  try {
    first = await attempt(pool);
  } catch (e) {
    if (isConnectionError(e)) throw new PostgresStoreUnavailableError(table, during, e);
    if (!isDataException(e)) throw e;
    first = NOT_UTF8;
  }
  if (first !== NOT_UTF8) return first;
  return transaction(pool, table, during, async (client) => {
    const again = await attempt(client);
    if (again === NOT_UTF8) throw new Error(`Postgres store (table "${table}"): the session is not on UTF-8 after SET LOCAL client_encoding while ${during}`);
    return again;
  });
}

function isDataException(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("22");
}

/**
 * Run `body` in one transaction on one client, on UTF-8: `BEGIN` and `SET LOCAL client_encoding`
 * (one round trip), `body`, `COMMIT`; `ROLLBACK` on any error. A connection error — also one at
 * `COMMIT` — becomes `postgres_store_unavailable` (the client is discarded, not reused).
 */
export async function transaction<T>(pool: PostgresPool, table: string, during: string, body: (client: PostgresClient) => Promise<T>): Promise<T> {
  let client: PostgresClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw isConnectionError(e) ? new PostgresStoreUnavailableError(table, during, e) : e;
  }
  let broken: unknown;
  try {
    await client.query("BEGIN; SET LOCAL client_encoding TO 'UTF8'");
    const out = await body(client);
    await client.query("COMMIT");
    return out;
  } catch (e) {
    if (isConnectionError(e)) {
      broken = e;
      throw new PostgresStoreUnavailableError(table, during, e);
    }
    try {
      await client.query("ROLLBACK");
    } catch (r) {
      broken = r;
    }
    throw e;
  } finally {
    client.release(broken instanceof Error ? broken : broken !== undefined);
  }
}
