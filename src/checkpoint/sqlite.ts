/**
 * `SqliteCheckpointer` (pipeline-utilities §10.13): records in a SQLite table through
 * `better-sqlite3`, one row (the latest record) per invocation id (upsert, §10.3.1).
 *
 * - **Durable across process crashes.** `save` is synchronous underneath (better-sqlite3 blocks
 *   until the transaction commits): once the returned promise resolves, the record is in the
 *   database file. The database runs in WAL mode with `synchronous = FULL` by default, so a
 *   committed save also survives an OS crash / power loss; `synchronous: "normal"` keeps
 *   process-crash durability and trades away power-loss durability of the last transactions for
 *   speed.
 * - **State shapes:** with the default `"tagged"` encoding, JSON values plus `undefined`, `NaN`,
 *   `±Infinity`, `-0`, `bigint`, `Date`, `Map`, `Set` and `Uint8Array` round-trip exactly; with
 *   `encoding: "json"` (cross-language portable) only JSON-native values are accepted. Functions,
 *   symbols, class instances and cycles are rejected at save time (`checkpoint_save_failed`).
 *   See `serialization.ts`.
 * - **Migrations:** supported (§10.12.1) — records are stored as schema-independent JSON.
 * - Pass a file path (the file and its `-wal` / `-shm` companions survive the process; `":memory:"`
 *   for a private in-memory database) or an open `better-sqlite3` `Database` (shared with other
 *   tables; the checkpointer then does not close it). Several processes may share one file.
 * - Paused-invocation records (§10.15) belong in a different table: give each record type its own
 *   `table` name in the same file.
 */
import Database from "better-sqlite3";
import { checkInvocationId, checkLimit, type Checkpointer, type CheckpointFilter, type CheckpointSummary } from "./checkpointer.ts";
import { CheckpointRecordInvalidError } from "./errors.ts";
import type { CheckpointRecord } from "./record.ts";
import { deserializeRecord, serializeRecord, type RecordEncoding } from "./serialization.ts";

/** Options of {@link SqliteCheckpointer}. */
export interface SqliteCheckpointerOptions {
  /** Table name (created if missing). Default `"openarmature_checkpoints"`. */
  readonly table?: string;
  /** How records are encoded (see `serialization.ts`). Default `"tagged"`. */
  readonly encoding?: RecordEncoding;
  /** `PRAGMA synchronous`: `"full"` (default, power-loss durable) or `"normal"` (process-crash durable). */
  readonly synchronous?: "full" | "normal";
  /** `PRAGMA busy_timeout` for concurrent writers on one file. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
}

interface SummaryRow {
  invocation_id: string;
  correlation_id: string;
  graph_name: string | null;
  schema_version: string;
  last_saved_at: number;
  completed_node_count: number;
  resumed_from: string | null;
  fan_out_in_flight: number;
}

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** §10.13 the SQLite reference backend (see the module comment). */
export class SqliteCheckpointer implements Checkpointer {
  readonly backendName = "sqlite";
  readonly supportsStateMigration = true;
  /** The underlying connection. */
  readonly database: Database.Database;
  readonly table: string;
  readonly encoding: RecordEncoding;
  readonly #owned: boolean;
  readonly #upsert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #delete: Database.Statement;

  constructor(database: string | Database.Database, options: SqliteCheckpointerOptions = {}) {
    const table = options.table ?? "openarmature_checkpoints";
    if (!TABLE_NAME.test(table)) throw new RangeError(`invalid table name ${JSON.stringify(table)}`);
    const encoding = options.encoding ?? "tagged";
    if (encoding !== "tagged" && encoding !== "json") throw new RangeError(`encoding must be "tagged" or "json"`);
    const sync = options.synchronous ?? "full";
    if (sync !== "full" && sync !== "normal") throw new RangeError(`synchronous must be "full" or "normal"`);
    const busy = options.busyTimeoutMs ?? 5000;
    if (!Number.isInteger(busy) || busy < 0) throw new RangeError("busyTimeoutMs must be a non-negative integer");
    this.table = table;
    this.encoding = encoding;
    this.#owned = typeof database === "string";
    const db = typeof database === "string" ? new Database(database) : database;
    this.database = db;
    try {
      db.pragma("journal_mode = WAL");
      db.pragma(`synchronous = ${sync === "full" ? "FULL" : "NORMAL"}`);
      db.pragma(`busy_timeout = ${busy}`);
      db.exec(
        `CREATE TABLE IF NOT EXISTS "${table}" (
           invocation_id TEXT PRIMARY KEY NOT NULL,
           correlation_id TEXT NOT NULL,
           graph_name TEXT,
           schema_version TEXT NOT NULL,
           last_saved_at REAL NOT NULL,
           completed_node_count INTEGER NOT NULL,
           resumed_from TEXT,
           fan_out_in_flight INTEGER NOT NULL,
           encoding TEXT NOT NULL,
           record TEXT NOT NULL
         );
         CREATE INDEX IF NOT EXISTS "${table}_correlation" ON "${table}" (correlation_id);
         CREATE INDEX IF NOT EXISTS "${table}_saved" ON "${table}" (last_saved_at);`,
      );
      this.#upsert = db.prepare(
        `INSERT INTO "${table}" (invocation_id, correlation_id, graph_name, schema_version, last_saved_at,
           completed_node_count, resumed_from, fan_out_in_flight, encoding, record)
         VALUES (@invocation_id, @correlation_id, @graph_name, @schema_version, @last_saved_at,
           @completed_node_count, @resumed_from, @fan_out_in_flight, @encoding, @record)
         ON CONFLICT (invocation_id) DO UPDATE SET
           correlation_id = excluded.correlation_id, graph_name = excluded.graph_name,
           schema_version = excluded.schema_version, last_saved_at = excluded.last_saved_at,
           completed_node_count = excluded.completed_node_count, resumed_from = excluded.resumed_from,
           fan_out_in_flight = excluded.fan_out_in_flight, encoding = excluded.encoding, record = excluded.record`,
      );
      this.#select = db.prepare(`SELECT encoding, record FROM "${table}" WHERE invocation_id = ?`);
      this.#delete = db.prepare(`DELETE FROM "${table}" WHERE invocation_id = ?`);
    } catch (e) {
      if (this.#owned) db.close();
      throw e;
    }
  }

  async save(invocationId: string, record: CheckpointRecord): Promise<void> {
    checkInvocationId(invocationId);
    const text = serializeRecord(record, this.encoding);
    this.#upsert.run({
      invocation_id: invocationId,
      correlation_id: record.correlationId,
      graph_name: record.graphName ?? null,
      schema_version: record.schemaVersion,
      last_saved_at: record.lastSavedAt,
      completed_node_count: record.completedPositions.length,
      resumed_from: record.resumedFrom ?? null,
      fan_out_in_flight: (record.fanOutProgress?.length ?? 0) > 0 ? 1 : 0,
      encoding: this.encoding,
      record: text,
    });
  }

  async load(invocationId: string): Promise<CheckpointRecord | undefined> {
    checkInvocationId(invocationId);
    const row = this.#select.get(invocationId) as { encoding: string; record: string } | undefined;
    if (row === undefined) return undefined;
    if (row.encoding !== "tagged" && row.encoding !== "json") {
      throw new CheckpointRecordInvalidError(`stored record of "${invocationId}" has unknown encoding ${JSON.stringify(row.encoding)}`);
    }
    return deserializeRecord(row.record, row.encoding);
  }

  async list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    const limit = checkLimit(filter?.limit);
    const where: string[] = [];
    const params: unknown[] = [];
    const ms = (t: number | Date): number => (t instanceof Date ? t.getTime() : t);
    if (filter?.correlationId !== undefined) (where.push("correlation_id = ?"), params.push(filter.correlationId));
    if (filter?.graphName !== undefined) (where.push("graph_name = ?"), params.push(filter.graphName));
    if (filter?.resumedFrom !== undefined) (where.push("resumed_from = ?"), params.push(filter.resumedFrom));
    if (filter?.savedAfter !== undefined) (where.push("last_saved_at >= ?"), params.push(ms(filter.savedAfter)));
    if (filter?.savedBefore !== undefined) (where.push("last_saved_at < ?"), params.push(ms(filter.savedBefore)));
    const sql =
      `SELECT invocation_id, correlation_id, graph_name, schema_version, last_saved_at, completed_node_count,
              resumed_from, fan_out_in_flight FROM "${this.table}"` +
      (where.length ? ` WHERE ${where.join(" AND ")}` : "") +
      " ORDER BY last_saved_at DESC" +
      (limit !== undefined ? ` LIMIT ${limit}` : "");
    const rows = this.database.prepare(sql).all(...params) as SummaryRow[];
    return rows.map((r) =>
      Object.freeze({
        invocationId: r.invocation_id,
        correlationId: r.correlation_id,
        lastSavedAt: r.last_saved_at,
        completedNodeCount: r.completed_node_count,
        schemaVersion: r.schema_version,
        ...(r.graph_name !== null ? { graphName: r.graph_name } : {}),
        ...(r.resumed_from !== null ? { resumedFrom: r.resumed_from } : {}),
        fanOutInFlight: r.fan_out_in_flight !== 0,
      }),
    );
  }

  async delete(invocationId: string): Promise<void> {
    checkInvocationId(invocationId);
    this.#delete.run(invocationId);
  }

  /** Close the connection if this checkpointer opened it (a passed-in `Database` stays open). */
  close(): void {
    if (this.#owned && this.database.open) this.database.close();
  }
}
