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
 * - **One parameterized statement per save** (one round trip, autocommitted, atomic): the record
 *   row's write gates the parts' writes (data-modifying CTEs that run only if it wrote). A save
 *   this checkpointer continues updates the row only where it still carries the writer token of
 *   this checkpointer's last committed save of the invocation (`UPDATE … WHERE writer = $w`, plus
 *   `AND last_saved_at = $expected` for `compareAndSave`) and writes only what changed since; a
 *   first save inserts the row only if none exists (`ON CONFLICT DO NOTHING`). The row lock
 *   serializes the writers of one invocation across every connection (an `UPDATE` that waited is
 *   re-checked against the latest row), and every writer locks the row before it touches the
 *   parts, so a statement that passed its check sees every committed part of the invocation.
 * - **Otherwise one transaction.** When that check fails — another worker wrote the record, a
 *   first save met an existing row, a compare-and-set against a record this checkpointer did not
 *   write — the save runs in a transaction: lock the row (`SELECT … FOR UPDATE`, or insert it when
 *   absent), read its writer and `lastSavedAt`, compare, and write the whole record.
 * - **Resume once.** `compareAndSave` writes only if the stored `lastSavedAt` is the one the resume
 *   loaded, under that row lock: of several workers resuming one record exactly one runs (the
 *   others get `checkpoint_already_resumed`).
 * - **Values are parameters**, never SQL text; the table name is checked at construction and quoted
 *   as an identifier; ids are checked before any query (`postgres_input_invalid`: over 1,024 UTF-8
 *   bytes, a NUL, a lone surrogate); a session on another `client_encoding` is handled
 *   (`connection.ts`).
 * - **Durable when `save` resolves** (the server's commit, with its `synchronous_commit`).
 * - **Faults.** A lost connection is `postgres_store_unavailable` (transient): the statement or
 *   transaction rolled back, the last committed record stays, and the run resumes from it. A
 *   schema from a newer library is `postgres_schema_unsupported` (`schema.ts`).
 * - Give paused-invocation records (§10.15) their own `table`: {@link postgresPausedInvocationStore}.
 */
import {
  checkInvocationId,
  checkLimit,
  SUMMARY_COLUMNS,
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
import {
  checkTableName,
  checkText,
  guarded,
  IS_UTF8,
  NOT_UTF8,
  openPool,
  quoteIdent,
  run,
  transaction,
  unwatchIdleErrors,
  type IdleConnectionErrorListener,
  type PostgresPool,
  type PostgresTarget,
  type Queryable,
} from "./connection.ts";
import { PostgresInputInvalidError, quoteId } from "./errors.ts";
import { SchemaGate, type StoreSchema } from "./schema.ts";

/** Options of {@link PostgresCheckpointer}. */
export interface PostgresCheckpointerOptions {
  /**
   * Table name (its companions are `<table>_positions` and `<table>_parts`): letters, digits and
   * `_`, not starting with a digit, at most 51 characters. Default `"openarmature_checkpoints"`.
   */
  readonly table?: string;
  /** How records are encoded (see `serialization.ts`). Default `"tagged"`. */
  readonly encoding?: RecordEncoding;
  /**
   * Called when an idle connection of the pool ends (server restart, an administrator or a proxy
   * closing it). The checkpointer listens to the pool's `'error'` event — also on a pool passed in,
   * where it adds one listener and removes none — so such an error never crashes the process; the
   * pool has discarded the client and the next save connects anew. Default: nothing more.
   */
  readonly onIdleConnectionError?: IdleConnectionErrorListener;
}

/** The checkpoint tables, version by version. */
export const CHECKPOINT_SCHEMA: StoreSchema = {
  kind: "checkpoints",
  steps: [
    (t) => `
      CREATE TABLE ${quoteIdent(t)} (
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
      CREATE INDEX ${quoteIdent(`${t}_correlation`)} ON ${quoteIdent(t)} (correlation_id);
      CREATE INDEX ${quoteIdent(`${t}_saved`)} ON ${quoteIdent(t)} (last_saved_at);
      CREATE TABLE ${quoteIdent(`${t}_positions`)} (
        invocation_id text NOT NULL,
        seq integer NOT NULL,
        position text NOT NULL,
        PRIMARY KEY (invocation_id, seq)
      );
      CREATE TABLE ${quoteIdent(`${t}_parts`)} (
        invocation_id text NOT NULL,
        part integer NOT NULL,
        slot integer NOT NULL,
        doc text NOT NULL,
        PRIMARY KEY (invocation_id, part, slot)
      );`,
  ],
};

/**
 * The planned writes of one save, reduced to their net effect so that one statement can run them
 * (its data-modifying parts see one snapshot and must not touch a row twice): the rows to upsert,
 * and which other rows to delete. A delete the plan makes before an upsert of the same key becomes
 * "delete the others" — the same result as running the writes in order.
 */
class WritePlan implements PartsSink {
  /** Delete every position row not upserted. */
  clearPositions = false;
  readonly positions = new Map<number, string>();
  /** Delete every part row not upserted / every fan-out entry row (part > 0) not upserted. */
  clearParts = false;
  clearEntries = false;
  /** Delete the rows of these parts not upserted. */
  readonly deletedParts = new Set<number>();
  readonly parts = new Map<string, { part: number; slot: number; doc: string }>();

  deletePositions(): void {
    this.clearPositions = true;
    this.positions.clear();
  }
  insertPosition(_id: string, seq: number, doc: string): void {
    this.positions.set(seq, doc);
  }
  putPart(_id: string, part: number, slot: number, doc: string): void {
    this.parts.set(`${part}:${slot}`, { part, slot, doc });
  }
  deleteEntry(_id: string, part: number): void {
    this.deletedParts.add(part);
    for (const [k, p] of this.parts) if (p.part === part) this.parts.delete(k);
  }
  deleteEntries(): void {
    this.clearEntries = true;
    for (const [k, p] of this.parts) if (p.part > 0) this.parts.delete(k);
  }
  deleteParts(): void {
    this.clearParts = true;
    this.parts.clear();
  }
}

/** How a save statement writes the record row. */
type RowWrite =
  /** Insert it only if the invocation has none. */
  | { readonly kind: "insert" }
  /** Update it only where it carries `writer` (and, for a compare-and-set, `lastSavedAt === expected`). */
  | { readonly kind: "update"; readonly writer: string; readonly expected?: number }
  /** Insert or update it (the caller holds the row's lock). */
  | { readonly kind: "upsert" };

const RECORD_COLUMNS = "invocation_id, correlation_id, graph_name, schema_version, last_saved_at, completed_node_count, resumed_from, fan_out_in_flight, encoding, record, writer";
const RECORD_TYPES = ["text", "text", "text", "text", "double precision", "integer", "text", "boolean", "text", "text", "text"];

/** Most invocations whose last committed writer token a checkpointer remembers. */
const WRITERS_KEPT = 1024;

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
  readonly #onIdleError: IdleConnectionErrorListener | undefined;
  /** The quoted table names. */
  readonly #t: { readonly records: string; readonly positions: string; readonly parts: string };
  /** The writer token of this checkpointer's last committed save, per invocation (most recent {@link WRITERS_KEPT}). */
  readonly #written = new Map<string, string>();

  /** `target`: a `pg.Pool` (left open by `close()`), or a connection URL / pool config (a pool the checkpointer owns). */
  constructor(target: PostgresTarget, options: PostgresCheckpointerOptions = {}) {
    const table = checkTableName(options.table ?? "openarmature_checkpoints", "PostgresCheckpointer");
    const encoding = options.encoding ?? "tagged";
    if (encoding !== "tagged" && encoding !== "json") throw new RangeError(`encoding must be "tagged" or "json"`);
    const { pool, owned } = openPool(target, "PostgresCheckpointer", options.onIdleConnectionError);
    this.pool = pool;
    this.#owned = owned;
    this.#onIdleError = options.onIdleConnectionError;
    this.table = table;
    this.#t = { records: quoteIdent(table), positions: quoteIdent(`${table}_positions`), parts: quoteIdent(`${table}_parts`) };
    this.encoding = encoding;
    this.#schema = new SchemaGate(pool, table, CHECKPOINT_SCHEMA);
    this.#parts = new RecordParts(encoding);
  }

  /** Create or migrate the tables now (otherwise the first operation does). */
  ready(): Promise<void> {
    return this.#schema.ready();
  }

  #checkId(invocationId: unknown): asserts invocationId is string {
    checkInvocationId(invocationId);
    checkText(this.table, "invocationId", invocationId, true);
  }

  async save(invocationId: string, record: CheckpointRecord): Promise<void> {
    this.#checkId(invocationId);
    await this.#write(invocationId, undefined, record);
  }

  /**
   * Write `record` only if the stored record of `invocationId` is still the one with `lastSavedAt
   * === expected` (`null`: only if none is stored), checked and written under the record row's
   * lock. Resolves whether it wrote.
   */
  async compareAndSave(invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
    this.#checkId(invocationId);
    return this.#write(invocationId, { expected }, record);
  }

  /** The record row's values, checked (`$1` … `$11`; the writer token last). */
  #rowValues(invocationId: string, record: CheckpointRecord): unknown[] {
    const t = this.table;
    checkText(t, "correlationId", record.correlationId, true);
    if (record.graphName !== undefined) checkText(t, "graphName", record.graphName, false);
    checkText(t, "schemaVersion", record.schemaVersion, false);
    if (record.resumedFrom !== undefined) checkText(t, "resumedFrom", record.resumedFrom, true);
    if (!Number.isFinite(record.lastSavedAt)) throw new PostgresInputInvalidError(t, "lastSavedAt", `${record.lastSavedAt} is not a finite number`);
    const header = JSON.stringify(encodeValue(recordHeaderToDoc(record), this.encoding, "record"));
    return [
      invocationId,
      record.correlationId,
      record.graphName ?? null,
      record.schemaVersion,
      record.lastSavedAt,
      record.completedPositions.length,
      record.resumedFrom ?? null,
      (record.fanOutProgress?.length ?? 0) > 0,
      this.encoding,
      header,
    ];
  }

  async #write(invocationId: string, cas: { expected: number | null } | undefined, record: CheckpointRecord): Promise<boolean> {
    const row = this.#rowValues(invocationId, record);
    await this.#schema.ready();
    const during = `saving ${quoteId(invocationId)}`;
    try {
      // One statement when this checkpointer knows the row (or that a first save should find none).
      const known = this.#written.get(invocationId);
      let rowWrite: RowWrite | undefined;
      if (known !== undefined) rowWrite = cas?.expected === null ? undefined : { kind: "update", writer: known, ...(cas !== undefined ? { expected: cas.expected! } : {}) };
      else if (cas === undefined || cas.expected === null) rowWrite = { kind: "insert" };
      if (rowWrite !== undefined) {
        const plan = new WritePlan();
        const writer = this.#parts.write(invocationId, record, known, plan);
        const wrote = await guarded(this.pool, this.table, during, (on) => this.#saveStatement(on, rowWrite, row, writer, plan));
        if (wrote) {
          this.#remember(invocationId, writer);
          return true;
        }
      }
      // Otherwise (or when the statement's check failed): lock the row, compare, write it all.
      const written = await transaction(this.pool, this.table, during, async (client) => {
        const stored = await this.#lockRow(client, invocationId, cas, row);
        if (stored === "mismatch") return undefined;
        const plan = new WritePlan();
        const writer = this.#parts.write(invocationId, record, stored?.writer ?? undefined, plan);
        if ((await this.#saveStatement(client, { kind: "upsert" }, row, writer, plan)) !== true) throw new Error(`Postgres store (table "${this.table}"): the locked save of ${quoteId(invocationId)} wrote nothing`);
        return writer;
      });
      if (written === undefined) {
        this.#parts.forget(invocationId);
        return false;
      }
      this.#remember(invocationId, written);
      return true;
    } catch (e) {
      this.#parts.forget(invocationId); // rolled back (or unknown): trust nothing cached
      this.#written.delete(invocationId);
      throw e;
    }
  }

  #remember(invocationId: string, writer: string): void {
    this.#written.delete(invocationId);
    this.#written.set(invocationId, writer);
    if (this.#written.size > WRITERS_KEPT) this.#written.delete(this.#written.keys().next().value!);
  }

  /**
   * In a transaction: lock the invocation's record row and return its writer and `lastSavedAt`
   * (`undefined`: none was stored — then the row is inserted now, from `row` without a writer, so
   * that a concurrent first save waits for this transaction), or `"mismatch"` when a compare-and-set
   * fails.
   */
  async #lockRow(
    client: Queryable,
    invocationId: string,
    cas: { expected: number | null } | undefined,
    row: unknown[],
  ): Promise<{ writer: string | null; last_saved_at: number } | undefined | "mismatch"> {
    const { records } = this.#t;
    for (;;) {
      const locked = (await run<{ writer: string | null; last_saved_at: number }>(client, `SELECT writer, last_saved_at FROM ${records} WHERE invocation_id = $1 FOR UPDATE`, [invocationId])).rows[0];
      if (locked !== undefined) return cas !== undefined && locked.last_saved_at !== cas.expected ? "mismatch" : locked;
      if (cas !== undefined && cas.expected !== null) return "mismatch";
      const placeholders = RECORD_TYPES.slice(0, row.length).map((type, i) => `$${i + 1}::${type}`);
      const inserted = await run(
        client,
        `INSERT INTO ${records} (${RECORD_COLUMNS.split(", ").slice(0, row.length).join(", ")}) VALUES (${placeholders.join(", ")}) ON CONFLICT (invocation_id) DO NOTHING RETURNING 1`,
        row,
      );
      if (inserted.rows.length > 0) return undefined;
      // Another first save committed between the two statements: lock its row instead.
    }
  }

  /**
   * Run one save as one statement: the record row's write (`how`), and — only if it wrote — the
   * planned writes of the positions and parts. Resolves whether it wrote, or {@link NOT_UTF8}.
   */
  async #saveStatement(on: Queryable, how: RowWrite, row: unknown[], writer: string, plan: WritePlan): Promise<boolean | typeof NOT_UTF8> {
    const { records, positions, parts } = this.#t;
    const values: unknown[] = [...row, writer];
    const param = (value: unknown, type: string): string => {
      values.push(value);
      return `$${values.length}::${type}`;
    };
    const typed = RECORD_TYPES.map((type, i) => `$${i + 1}::${type}`);
    const sets = RECORD_COLUMNS.split(", ")
      .slice(1)
      .map((c, i) => `${c} = ${typed[i + 1]}`)
      .join(", ");
    let write: string;
    if (how.kind === "update") {
      const cas = how.expected !== undefined ? ` AND last_saved_at = ${param(how.expected, "double precision")}` : "";
      write = `UPDATE ${records} SET ${sets} WHERE invocation_id = $1::text AND writer = ${param(how.writer, "text")}${cas} AND (SELECT utf8 FROM ok) RETURNING 1`;
    } else {
      const conflict = how.kind === "insert" ? "DO NOTHING" : `DO UPDATE SET ${sets}`;
      write = `INSERT INTO ${records} (${RECORD_COLUMNS}) SELECT ${typed.join(", ")} FROM ok WHERE ok.utf8 ON CONFLICT (invocation_id) ${conflict} RETURNING 1`;
    }
    const ctes = [`ok AS (SELECT ${IS_UTF8} AS utf8)`, `up AS (${write})`];
    const wrote = "EXISTS (SELECT FROM up)";
    const id = "$1::text";

    const seqs = [...plan.positions.keys()];
    if (plan.clearPositions) {
      ctes.push(`dpos AS (DELETE FROM ${positions} WHERE invocation_id = ${id} AND ${wrote} AND seq <> ALL(${param(seqs, "integer[]")}))`);
    }
    if (seqs.length > 0) {
      ctes.push(
        `ipos AS (INSERT INTO ${positions} (invocation_id, seq, position)
           SELECT ${id}, u.seq, u.doc FROM unnest(${param(seqs, "integer[]")}, ${param([...plan.positions.values()], "text[]")}) AS u(seq, doc) WHERE ${wrote}
           ON CONFLICT (invocation_id, seq) DO UPDATE SET position = excluded.position)`,
      );
    }

    const puts = [...plan.parts.values()];
    const putKeys = puts.length > 0 ? `${param(puts.map((p) => p.part), "integer[]")}, ${param(puts.map((p) => p.slot), "integer[]")}` : "";
    const keep = puts.length > 0 ? ` AND (part, slot) NOT IN (SELECT * FROM unnest(${putKeys}))` : "";
    const which: string[] = [];
    if (plan.clearParts) which.push("true");
    else {
      if (plan.clearEntries) which.push("part > 0");
      if (plan.deletedParts.size > 0) which.push(`part = ANY(${param([...plan.deletedParts], "integer[]")})`);
    }
    if (which.length > 0) ctes.push(`dparts AS (DELETE FROM ${parts} WHERE invocation_id = ${id} AND ${wrote} AND (${which.join(" OR ")})${keep})`);
    if (puts.length > 0) {
      ctes.push(
        `iparts AS (INSERT INTO ${parts} (invocation_id, part, slot, doc)
           SELECT ${id}, u.part, u.slot, u.doc
           FROM unnest(${putKeys}, ${param(puts.map((p) => p.doc), "text[]")}) AS u(part, slot, doc)
           WHERE ${wrote}
           ON CONFLICT (invocation_id, part, slot) DO UPDATE SET doc = excluded.doc)`,
      );
    }
    const r = await run<{ utf8: boolean; wrote: boolean }>(on, `WITH ${ctes.join(",\n")}\nSELECT ok.utf8, ${wrote} AS wrote FROM ok`, values);
    const out = r.rows[0]!;
    return out.utf8 ? out.wrote : NOT_UTF8;
  }

  async load(invocationId: string): Promise<CheckpointRecord | undefined> {
    this.#checkId(invocationId);
    await this.#schema.ready();
    const { records, positions, parts } = this.#t;
    // One statement, one snapshot: the row and its parts agree. Row k = -1 says whether the session is on UTF-8.
    const rows = await guarded(this.pool, this.table, `loading ${quoteId(invocationId)}`, async (on) => {
      const r = await run<{ k: number; a: number | null; b: number | null; doc: string; n: number | null; encoding: string | null }>(
        on,
        `SELECT -1 AS k, NULL::integer AS a, NULL::integer AS b, current_setting('client_encoding') AS doc, NULL::integer AS n, NULL::text AS encoding
         UNION ALL SELECT 0, NULL, NULL, record, completed_node_count, encoding FROM ${records} WHERE invocation_id = $1
         UNION ALL SELECT 1, seq, NULL, position, NULL, NULL FROM ${positions} WHERE invocation_id = $1
         UNION ALL SELECT 2, part, slot, doc, NULL, NULL FROM ${parts} WHERE invocation_id = $1
         ORDER BY 1, 2, 3`,
        [invocationId],
      );
      return r.rows[0]?.doc === "UTF8" ? r.rows.slice(1) : NOT_UTF8;
    });
    const head = rows[0];
    if (head === undefined || head.k !== 0) return undefined;
    if (head.encoding !== "tagged" && head.encoding !== "json") {
      throw new CheckpointRecordInvalidError(`stored record of ${quoteId(invocationId)} has unknown encoding ${JSON.stringify(head.encoding)}`);
    }
    const count = head.n ?? 0;
    const positionDocs: string[] = [];
    const partRows: { part: number; slot: number; doc: string }[] = [];
    for (const row of rows) {
      if (row.k === 1 && row.a! < count) positionDocs.push(row.doc);
      else if (row.k === 2) partRows.push({ part: row.a!, slot: row.b!, doc: row.doc });
    }
    return assembleRecord(invocationId, head.doc, head.encoding, count, { positions: positionDocs, parts: partRows });
  }

  async list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    const limit = checkLimit(filter?.limit);
    for (const k of ["correlationId", "graphName", "resumedFrom"] as const) {
      const v = filter?.[k];
      if (typeof v === "string") checkText(this.table, k, v, false);
    }
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (v: unknown, type: string): string => {
      params.push(v);
      return `$${params.length}::${type}`;
    };
    const ms = (t: number | Date): number => (t instanceof Date ? t.getTime() : t);
    if (filter?.correlationId !== undefined) where.push(`correlation_id = ${param(filter.correlationId, "text")}`);
    if (filter?.graphName !== undefined) where.push(`graph_name = ${param(filter.graphName, "text")}`);
    if (filter?.resumedFrom !== undefined) where.push(`resumed_from = ${param(filter.resumedFrom, "text")}`);
    if (filter?.savedAfter !== undefined) where.push(`last_saved_at >= ${param(ms(filter.savedAfter), "double precision")}`);
    if (filter?.savedBefore !== undefined) where.push(`last_saved_at < ${param(ms(filter.savedBefore), "double precision")}`);
    const sql =
      `SELECT ${SUMMARY_COLUMNS} FROM ${this.#t.records}` +
      (where.length ? ` WHERE ${where.join(" AND ")}` : "") +
      " ORDER BY last_saved_at DESC" +
      (limit !== undefined ? ` LIMIT ${param(Math.min(limit, Number.MAX_SAFE_INTEGER), "bigint")}` : "");
    await this.#schema.ready();
    const rows = await guarded(this.pool, this.table, "listing records", async (on) => {
      const r = await run<{ utf8: boolean } & SummaryRow>(
        on,
        `SELECT ${IS_UTF8} AS utf8, s.* FROM (SELECT 1) AS one LEFT JOIN LATERAL (${sql}) AS s ON true ORDER BY s.last_saved_at DESC`,
        params,
      );
      return r.rows[0]!.utf8 ? r.rows.filter((x) => x.invocation_id !== null) : NOT_UTF8;
    });
    return rows.map(summaryOfRow);
  }

  async delete(invocationId: string): Promise<void> {
    this.#checkId(invocationId);
    await this.#schema.ready();
    const { records, positions, parts } = this.#t;
    this.#parts.forget(invocationId);
    this.#written.delete(invocationId);
    // The record row first (its lock waits for a save in flight), then — in a later statement, so
    // seeing what that save committed — its parts.
    await transaction(this.pool, this.table, `deleting ${quoteId(invocationId)}`, async (client) => {
      await run(client, `DELETE FROM ${records} WHERE invocation_id = $1`, [invocationId]);
      await run(client, `WITH p AS (DELETE FROM ${positions} WHERE invocation_id = $1) DELETE FROM ${parts} WHERE invocation_id = $1`, [invocationId]);
    });
  }

  /** End the pool if this checkpointer opened it (a passed-in `pg.Pool` stays open, with its `'error'` listener). */
  async close(): Promise<void> {
    unwatchIdleErrors(this.pool, this.#onIdleError);
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
