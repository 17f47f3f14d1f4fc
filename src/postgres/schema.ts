/**
 * (Internal.) Versioned, idempotent schema management of the Postgres stores.
 *
 * `openarmature_schema` holds one row per store table: its kind (`checkpoints` / `sessions`) and
 * the schema version its tables are at. Opening a store (its first operation, or `ready()`) takes
 * a transaction-scoped advisory lock — so several workers starting at once create the tables once —
 * then creates or migrates the tables step by step up to {@link StoreSchema.steps}`.length`, each
 * step and the version bump in that one transaction. A table at a higher version than this library
 * knows (written by a newer library), a row of another kind, or a table of the name that this
 * library did not create is refused with `postgres_schema_unsupported`, changing nothing.
 */
import { guarded, IS_UTF8, lockKey, NOT_UTF8, quoteIdent, run, transaction, type PostgresPool } from "./connection.ts";
import { PostgresSchemaUnsupportedError } from "./errors.ts";

/** The schema-version table (in the connection's current schema). */
export const SCHEMA_TABLE = "openarmature_schema";

/**
 * A store's schema: `steps[i]` takes the tables of `table` from version `i` to `i + 1`. `table` is
 * a name that passed the stores' table-name check (`TABLE_NAME`); a step writes it, and the names
 * derived from it, only as quoted identifiers.
 */
export interface StoreSchema {
  readonly kind: "checkpoints" | "sessions";
  readonly steps: readonly ((table: string) => string)[];
}

/** Create or migrate `table`'s tables to the latest version of `schema` (see the module comment). */
export async function ensureSchema(pool: PostgresPool, table: string, schema: StoreSchema): Promise<void> {
  const latest = schema.steps.length;
  await transaction(pool, table, "creating or migrating its schema", async (client) => {
    await run(client, "SELECT pg_advisory_xact_lock($1::bigint)", [lockKey(SCHEMA_TABLE, "")]);
    await run(
      client,
      `CREATE TABLE IF NOT EXISTS ${quoteIdent(SCHEMA_TABLE)} (
         store_table text PRIMARY KEY,
         kind text NOT NULL,
         version integer NOT NULL,
         migrated_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const row = (await run<{ kind: string; version: number }>(client, `SELECT kind, version FROM ${quoteIdent(SCHEMA_TABLE)} WHERE store_table = $1`, [table])).rows[0];
    let version = 0;
    if (row !== undefined) {
      if (row.kind !== schema.kind) throw new PostgresSchemaUnsupportedError(table, `it holds ${row.kind}, not ${schema.kind} (${SCHEMA_TABLE} says so); give this store another table`);
      if (row.version > latest) {
        throw new PostgresSchemaUnsupportedError(
          table,
          `its schema is at version ${row.version}, written by a newer version of openarmature; this version knows versions up to ${latest} — upgrade openarmature (nothing was changed)`,
        );
      }
      version = row.version;
    } else {
      const exists = (await run<{ t: string | null }>(client, "SELECT to_regclass($1) AS t", [quoteIdent(table)])).rows[0]?.t;
      if (exists !== null && exists !== undefined) {
        throw new PostgresSchemaUnsupportedError(table, `a table of that name exists but openarmature did not create it (no row in ${SCHEMA_TABLE}): a foreign table; give this store another table`);
      }
    }
    if (version === latest) return;
    for (let v = version; v < latest; v++) await run(client, schema.steps[v]!(table));
    await run(
      client,
      `INSERT INTO ${quoteIdent(SCHEMA_TABLE)} (store_table, kind, version) VALUES ($1, $2, $3)
       ON CONFLICT (store_table) DO UPDATE SET version = excluded.version, migrated_at = now()`,
      [table, schema.kind, latest],
    );
  });
}

/** The schema version recorded for `table` (`undefined`: none). For tests and diagnostics. */
export async function schemaVersionOf(pool: PostgresPool, table: string): Promise<number | undefined> {
  return guarded(pool, table, "reading its schema version", async (on) => {
    const r = await run<{ utf8: boolean; version: number | null }>(
      on,
      `SELECT ${IS_UTF8} AS utf8, (SELECT version FROM ${quoteIdent(SCHEMA_TABLE)} WHERE store_table = $1) AS version`,
      [table],
    );
    const row = r.rows[0]!;
    return row.utf8 ? (row.version ?? undefined) : NOT_UTF8;
  });
}

/** Remember one `ensureSchema` per store; a failed one is retried by the next operation. */
export class SchemaGate {
  #ready: Promise<void> | undefined;
  constructor(
    readonly pool: PostgresPool,
    readonly table: string,
    readonly schema: StoreSchema,
  ) {}
  ready(): Promise<void> {
    this.#ready ??= ensureSchema(this.pool, this.table, this.schema).catch((e: unknown) => {
      this.#ready = undefined;
      throw e;
    });
    return this.#ready;
  }
}
