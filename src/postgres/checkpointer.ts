/**
 * `PostgresCheckpointer`: the Checkpointer protocol (pipeline-utilities §10.1) on a Postgres
 * database through node-postgres, for several workers — processes, machines — sharing one store.
 *
 * - **Same records as SQLite.** One row per invocation (the latest record, §10.3.1) with the
 *   record header encoded by the shared codec (`serialization.ts`, `"tagged"` by default or
 *   `"json"`), and the parts that grow with a run apart: `<table>_positions` (appended) and
 *   `<table>_parts` (the save point and each fan-out instance, rewritten only when changed) —
 *   planned by the same `RecordParts` as `SqliteCheckpointer`, so a checkpointed fan-out's save
 *   writes the instance that changed and the record row, not the state and every instance.
 * - **One transaction per save, two round trips.** `BEGIN` + an advisory lock on the invocation +
 *   reading its row go in one simple query; the planned writes, the record row and `COMMIT` in the
 *   second. The advisory lock serializes the writers of one invocation across every connection
 *   (also when no row exists yet); other invocations do not wait.
 * - **Resume once.** `compareAndSave` checks the stored `lastSavedAt` under that lock and writes
 *   only if it is the one the resume loaded: of several workers resuming one record exactly one
 *   runs (the others get `checkpoint_already_resumed`).
 * - **Durable when `save` resolves** (the server's `COMMIT`, with its `synchronous_commit`).
 * - **Faults.** A lost connection is `postgres_store_unavailable` (transient): the transaction
 *   rolled back, the last committed record stays, and the run resumes from it. A schema from a
 *   newer library is `postgres_schema_unsupported` (`schema.ts`).
 * - Give paused-invocation records (§10.15) their own `table`: {@link postgresPausedInvocationStore}.
 */
import {
  checkInvocationId,
  listQuery,
  summaryOfRow,
  type Checkpointer,
  type CheckpointFilter,
  type CheckpointSummary,
  type SummaryRow,
} from "../checkpoint/checkpointer.ts";
import { CheckpointRecordInvalidError } from "../checkpoint/errors.ts";
import { assembleRecord, RecordParts, type PartsSink } from "../checkpoint/record-parts.ts";
import { recordHeaderToDoc, type CheckpointRecord } from "../checkpoint/record.ts";
import { encodeValue, type RecordEncoding } from "../checkpoint/serialization.ts";
import { PausedInvocationStore } from "../suspension/store.ts";
import { literal, lockKey, nullable, numeric, openPool, query, TABLE_NAME, transaction, type PostgresPool, type PostgresTarget } from "./connection.ts";
import { SchemaGate, type StoreSchema } from "./schema.ts";

/** Options of {@link PostgresCheckpointer}. */
export interface PostgresCheckpointerOptions {
  /** Table name (its companions are `<table>_positions` and `<table>_parts`). Default `"openarmature_checkpoints"`. */
  readonly table?: string;
  /** How records are encoded (see `serialization.ts`). Default `"tagged"`. */
  readonly encoding?: RecordEncoding;
}

/** The checkpoint tables, version by version. */
export const CHECKPOINT_SCHEMA: StoreSchema = {
  kind: "checkpoints",
  steps: [
    (t) => `
      CREATE TABLE "${t}" (
        invocation_id text PRIMARY KEY,
        correlation_id text NOT NULL,
        graph_name text,
        schema_version text NOT NULL,
        last_saved_at double precision NOT NULL,
        completed_node_count integer NOT NULL,
        resumed_from text,
        fan_out_in_flight boolean NOT NULL,
        encoding text NOT NULL,
        record text NOT NULL,
        writer text
      );
      CREATE INDEX "${t}_correlation" ON "${t}" (correlation_id);
      CREATE INDEX "${t}_saved" ON "${t}" (last_saved_at);
      CREATE TABLE "${t}_positions" (
        invocation_id text NOT NULL,
        seq integer NOT NULL,
        position text NOT NULL,
        PRIMARY KEY (invocation_id, seq)
      );
      CREATE TABLE "${t}_parts" (
        invocation_id text NOT NULL,
        part integer NOT NULL,
        slot integer NOT NULL,
        doc text NOT NULL,
        PRIMARY KEY (invocation_id, part, slot)
      );`,
  ],
};

/** The planned writes of one save as SQL (consecutive inserts of one table become one statement). */
class SqlSink implements PartsSink {
  readonly statements: string[] = [];
  #rows: string[] = [];
  #into: "positions" | "parts" | undefined;
  constructor(readonly table: string) {}
  #flush(): void {
    if (this.#into === "positions") {
      this.statements.push(`INSERT INTO "${this.table}_positions" (invocation_id, seq, position) VALUES ${this.#rows.join(",")}`);
    } else if (this.#into === "parts") {
      this.statements.push(
        `INSERT INTO "${this.table}_parts" (invocation_id, part, slot, doc) VALUES ${this.#rows.join(",")}
         ON CONFLICT (invocation_id, part, slot) DO UPDATE SET doc = excluded.doc`,
      );
    }
    this.#rows = [];
    this.#keys.clear();
    this.#into = undefined;
  }
  #statement(sql: string): void {
    this.#flush();
    this.statements.push(sql);
  }
  #keys = new Set<string>();
  /** Add a row to the current multi-row insert (a new statement for another table, or a key already in it). */
  #row(into: "positions" | "parts", row: string, key?: string): void {
    if (this.#into !== into || (key !== undefined && this.#keys.has(key))) this.#flush();
    this.#into = into;
    this.#rows.push(row);
    if (key !== undefined) this.#keys.add(key);
  }
  deletePositions(id: string): void {
    this.#statement(`DELETE FROM "${this.table}_positions" WHERE invocation_id = ${literal(id)}`);
  }
  insertPosition(id: string, seq: number, doc: string): void {
    this.#row("positions", `(${literal(id)},${numeric(seq)},${literal(doc)})`);
  }
  putPart(id: string, part: number, slot: number, doc: string): void {
    this.#row("parts", `(${literal(id)},${numeric(part)},${numeric(slot)},${literal(doc)})`, `${part}:${slot}`);
  }
  deleteEntry(id: string, part: number): void {
    this.#statement(`DELETE FROM "${this.table}_parts" WHERE invocation_id = ${literal(id)} AND part = ${numeric(part)}`);
  }
  deleteEntries(id: string): void {
    this.#statement(`DELETE FROM "${this.table}_parts" WHERE invocation_id = ${literal(id)} AND part > 0`);
  }
  deleteParts(id: string): void {
    this.#statement(`DELETE FROM "${this.table}_parts" WHERE invocation_id = ${literal(id)}`);
  }
  done(): string[] {
    this.#flush();
    return this.statements;
  }
}

/** The Postgres backend (see the module comment). */
export class PostgresCheckpointer implements Checkpointer {
  readonly backendName = "postgres";
  readonly supportsStateMigration = true;
  readonly pool: PostgresPool;
  readonly table: string;
  readonly encoding: RecordEncoding;
  readonly #owned: boolean;
  readonly #schema: SchemaGate;
  readonly #parts: RecordParts;

  /** `target`: a `pg.Pool` (left open by `close()`), or a connection URL / pool config (a pool the checkpointer owns). */
  constructor(target: PostgresTarget, options: PostgresCheckpointerOptions = {}) {
    const table = options.table ?? "openarmature_checkpoints";
    if (!TABLE_NAME.test(table)) throw new RangeError(`invalid table name ${JSON.stringify(table)}`);
    const encoding = options.encoding ?? "tagged";
    if (encoding !== "tagged" && encoding !== "json") throw new RangeError(`encoding must be "tagged" or "json"`);
    const { pool, owned } = openPool(target, "PostgresCheckpointer");
    this.pool = pool;
    this.#owned = owned;
    this.table = table;
    this.encoding = encoding;
    this.#schema = new SchemaGate(pool, table, CHECKPOINT_SCHEMA);
    this.#parts = new RecordParts(encoding);
  }

  /** Create or migrate the tables now (otherwise the first operation does). */
  ready(): Promise<void> {
    return this.#schema.ready();
  }

  async save(invocationId: string, record: CheckpointRecord): Promise<void> {
    checkInvocationId(invocationId);
    await this.#write(invocationId, undefined, record);
  }

  /**
   * Write `record` only if the stored record of `invocationId` is still the one with `lastSavedAt
   * === expected` (`null`: only if none is stored), checked and written under the invocation's
   * advisory lock in one transaction. Resolves whether it wrote.
   */
  async compareAndSave(invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
    checkInvocationId(invocationId);
    return this.#write(invocationId, { expected }, record);
  }

  async #write(invocationId: string, cas: { expected: number | null } | undefined, record: CheckpointRecord): Promise<boolean> {
    await this.#schema.ready();
    const t = this.table;
    const id = literal(invocationId);
    const prelude = `SELECT pg_advisory_xact_lock(${lockKey(t, invocationId)}); SELECT writer, last_saved_at FROM "${t}" WHERE invocation_id = ${id}`;
    try {
      return await transaction(this.pool, t, `saving "${invocationId}"`, prelude, async (client, results) => {
        const stored = results[1]?.rows[0] as { writer: string | null; last_saved_at: number } | undefined;
        if (cas !== undefined && (stored?.last_saved_at ?? null) !== cas.expected) return false;
        const sink = new SqlSink(t);
        const writer = this.#parts.write(invocationId, record, stored?.writer ?? undefined, sink);
        const header = JSON.stringify(encodeValue(recordHeaderToDoc(record), this.encoding, "record"));
        const values = [
          id,
          literal(record.correlationId),
          nullable(record.graphName),
          literal(record.schemaVersion),
          numeric(record.lastSavedAt),
          numeric(record.completedPositions.length),
          nullable(record.resumedFrom),
          (record.fanOutProgress?.length ?? 0) > 0 ? "true" : "false",
          literal(this.encoding),
          literal(header),
          literal(writer),
        ];
        const statements = sink.done();
        statements.push(
          `INSERT INTO "${t}" (invocation_id, correlation_id, graph_name, schema_version, last_saved_at, completed_node_count,
             resumed_from, fan_out_in_flight, encoding, record, writer) VALUES (${values.join(",")})
           ON CONFLICT (invocation_id) DO UPDATE SET correlation_id = excluded.correlation_id, graph_name = excluded.graph_name,
             schema_version = excluded.schema_version, last_saved_at = excluded.last_saved_at,
             completed_node_count = excluded.completed_node_count, resumed_from = excluded.resumed_from,
             fan_out_in_flight = excluded.fan_out_in_flight, encoding = excluded.encoding, record = excluded.record,
             writer = excluded.writer`,
        );
        await client.query(statements.join(";\n"));
        return true;
      });
    } catch (e) {
      this.#parts.forget(invocationId); // rolled back (or unknown): trust nothing cached
      throw e;
    }
  }

  async load(invocationId: string): Promise<CheckpointRecord | undefined> {
    checkInvocationId(invocationId);
    await this.#schema.ready();
    const t = this.table;
    // One statement, one snapshot: the row and its parts agree.
    const r = await query<{ k: number; a: number | null; b: number | null; doc: string; n: number | null; encoding: string | null }>(
      this.pool,
      t,
      `loading "${invocationId}"`,
      `SELECT 0 AS k, NULL::integer AS a, NULL::integer AS b, record AS doc, completed_node_count AS n, encoding FROM "${t}" WHERE invocation_id = $1
       UNION ALL SELECT 1, seq, NULL, position, NULL, NULL FROM "${t}_positions" WHERE invocation_id = $1
       UNION ALL SELECT 2, part, slot, doc, NULL, NULL FROM "${t}_parts" WHERE invocation_id = $1
       ORDER BY 1, 2, 3`,
      [invocationId],
    );
    const head = r.rows[0];
    if (head === undefined || head.k !== 0) return undefined;
    if (head.encoding !== "tagged" && head.encoding !== "json") {
      throw new CheckpointRecordInvalidError(`stored record of "${invocationId}" has unknown encoding ${JSON.stringify(head.encoding)}`);
    }
    const count = head.n ?? 0;
    const positions: string[] = [];
    const parts: { part: number; slot: number; doc: string }[] = [];
    for (const row of r.rows) {
      if (row.k === 1 && row.a! < count) positions.push(row.doc);
      else if (row.k === 2) parts.push({ part: row.a!, slot: row.b!, doc: row.doc });
    }
    return assembleRecord(invocationId, head.doc, head.encoding, count, { positions, parts });
  }

  async list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    const { sql, params } = listQuery(this.table, filter, (n) => `$${n}`);
    await this.#schema.ready();
    return (await query<SummaryRow>(this.pool, this.table, "listing records", sql, params)).rows.map(summaryOfRow);
  }

  async delete(invocationId: string): Promise<void> {
    checkInvocationId(invocationId);
    await this.#schema.ready();
    const t = this.table;
    const id = literal(invocationId);
    this.#parts.forget(invocationId);
    await transaction(
      this.pool,
      t,
      `deleting "${invocationId}"`,
      `SELECT pg_advisory_xact_lock(${lockKey(t, invocationId)});
       DELETE FROM "${t}" WHERE invocation_id = ${id}; DELETE FROM "${t}_positions" WHERE invocation_id = ${id};
       DELETE FROM "${t}_parts" WHERE invocation_id = ${id}`,
      async () => undefined,
    );
  }

  /** End the pool if this checkpointer opened it (a passed-in `pg.Pool` stays open). */
  async close(): Promise<void> {
    if (this.#owned) await this.pool.end();
  }
}

/**
 * A suspension §8.5 paused-invocation store on Postgres: a {@link PausedInvocationStore} over a
 * {@link PostgresCheckpointer} of its own table (default `"openarmature_paused"`), so its `claim`
 * is the checkpointer's atomic `compareAndSave` — of several workers resuming one suspension
 * exactly one runs.
 */
export function postgresPausedInvocationStore(
  target: PostgresTarget,
  options: PostgresCheckpointerOptions = {},
): PausedInvocationStore & { readonly checkpointer: PostgresCheckpointer } {
  const checkpointer = new PostgresCheckpointer(target, { ...options, table: options.table ?? "openarmature_paused" });
  return new PausedInvocationStore(checkpointer) as PausedInvocationStore & { readonly checkpointer: PostgresCheckpointer };
}
