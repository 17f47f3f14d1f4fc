/**
 * (Internal.) What the Postgres stores share about their connection: the pool they use (given, or
 * opened from a URL / config and then owned), one transaction per operation on one pooled client,
 * an advisory lock per key (what serializes the writers of one invocation / session across
 * processes and machines), and lost connections mapped to `postgres_store_unavailable`.
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { isConnectionError, PostgresStoreUnavailableError } from "./errors.ts";
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
  Pool: new (config: Record<string, unknown>) => PostgresPool & { on(event: "error", listener: (e: Error) => void): unknown };
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

export function openPool(target: PostgresTarget, who: string): StorePool {
  if (isPool(target)) return { pool: target, owned: false };
  if (typeof target === "string") return { pool: idle(new (loadPg(who).Pool)({ connectionString: target })), owned: true };
  if (typeof target === "object" && target !== null) return { pool: idle(new (loadPg(who).Pool)({ ...target })), owned: true };
  throw new TypeError(`${who}: expected a pg.Pool, a connection URL or a pg PoolConfig`);
}

/** An idle pooled client losing its connection must not crash the process (the next checkout reconnects). */
function idle(pool: PostgresPool & { on(event: "error", listener: (e: Error) => void): unknown }): PostgresPool {
  pool.on("error", () => {});
  return pool;
}

/** Postgres identifiers the stores accept as table names (quoted in SQL). */
export const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,50}$/;

/** A signed 64-bit advisory-lock key for `scope` + `key`, as a SQL literal. */
export function lockKey(scope: string, key: string): string {
  return createHash("sha1").update(scope).update("\0").update(key).digest().readBigInt64BE(0).toString();
}

/**
 * Run `body` in one transaction on one client: `BEGIN` (plus `prelude`, a simple-query text sent
 * with it: one round trip), `body`, `COMMIT`; `ROLLBACK` on any error. A connection error — also
 * one at `COMMIT` — becomes `postgres_store_unavailable` (the client is discarded, not reused).
 */
export async function transaction<T>(
  pool: PostgresPool,
  table: string,
  during: string,
  prelude: string,
  body: (client: PostgresClient, preludeResults: PostgresQueryResult[]) => Promise<T>,
): Promise<T> {
  let client: PostgresClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw isConnectionError(e) ? new PostgresStoreUnavailableError(table, during, e) : e;
  }
  let broken: unknown;
  try {
    const begun = (await client.query(`BEGIN;${prelude}`)) as PostgresQueryResult | PostgresQueryResult[];
    const results = Array.isArray(begun) ? begun.slice(1) : [];
    const out = await body(client, results);
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

/** Run one statement outside a transaction, mapping a connection error. */
export async function query<R>(pool: PostgresPool, table: string, during: string, text: string, values?: unknown[]): Promise<PostgresQueryResult<R>> {
  try {
    return (await pool.query(text, values)) as PostgresQueryResult<R>;
  } catch (e) {
    throw isConnectionError(e) ? new PostgresStoreUnavailableError(table, during, e) : e;
  }
}

/**
 * `value` as a SQL string literal — node-postgres's `escapeLiteral`: quotes doubled, and with a
 * backslash, backslashes doubled in an `E'...'` literal (so it holds whatever
 * `standard_conforming_strings` says).
 */
export function literal(value: string): string {
  let hasBackslash = false;
  let out = "'";
  for (const c of value) {
    if (c === "'") out += "''";
    else if (c === "\\") {
      out += "\\\\";
      hasBackslash = true;
    } else out += c;
  }
  out += "'";
  return hasBackslash ? ` E${out}` : out;
}

/** `value` as a SQL literal for a nullable text column. */
export function nullable(value: string | undefined): string {
  return value === undefined ? "NULL" : literal(value);
}

/** A finite number as a SQL literal. */
export function numeric(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return String(value);
}
