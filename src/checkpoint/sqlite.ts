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
 *   tables; the checkpointer then does not close it).
 * - **Several processes may write one file.** Every write is a `BEGIN IMMEDIATE` transaction (the
 *   write lock is taken up front and waited for up to `busyTimeoutMs`; see `src/sqlite/file.ts`),
 *   so concurrent writers queue instead of failing with `database is locked`. Tested with three
 *   processes × 100 invocations on one file (test/checkpoint/multi-process.test.ts).
 * - **Resume once.** `compareAndSave` writes a record only if the stored one is still the one the
 *   caller loaded (same `lastSavedAt`), check and write in one immediate transaction: what a
 *   resume claims its record with (`checkpoint_already_resumed` for the loser).
 * - **A corrupt or foreign file** (not a database, damaged, or a table of this name with other
 *   columns) raises `checkpoint_store_corrupt` naming the file — from the constructor or from the
 *   operation that hits it. **A file that cannot be opened or written** (a directory, a missing
 *   folder, no permission, read-only, a full disk, an I/O error) raises `checkpoint_store_unavailable`
 *   naming the file and what to do, the same way.
 * - Paused-invocation records (§10.15) belong in a different table: give each record type its own
 *   `table` name in the same file.
 * - **Saves cost what changed, not the whole record.** Between two saves of one run little
 *   changes — one more completed position, one fan-out instance's progress — while the state stays
 *   the same for a whole fan-out. The parts that grow with a run live apart from the record row
 *   (`sqlite-parts.ts`): `completed_positions` in `<table>_positions` (appended), the save point
 *   and each fan-out instance in `<table>_parts` (rewritten only when changed), so a save writes
 *   O(what changed) bytes, not O(state + positions + instances). A row written by another
 *   checkpointer (another process) gets every part rewritten on this one's next save. The record
 *   row and its parts commit in one transaction. Rows written by older versions (everything
 *   inline, or only the positions apart) still load.
 */
import Database from "better-sqlite3";
import { checkInvocationId, listQuery, summaryOfRow, type Checkpointer, type CheckpointFilter, type CheckpointSummary, type SummaryRow } from "./checkpointer.ts";
import { configureConnection, fileOf, isUnusableFileError, missingColumn, columnsOf, unavailableFileProblem } from "../sqlite/file.ts";
import { CheckpointRecordInvalidError, CheckpointStoreCorruptError, CheckpointStoreUnavailableError } from "./errors.ts";
import { recordHeaderToDoc, type CheckpointRecord } from "./record.ts";
import { deserializeRecord, encodeValue, type RecordEncoding } from "./serialization.ts";
import { assembleRecord, SqliteRecordParts } from "./sqlite-parts.ts";

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

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The record table's columns a checkpointer needs (a table of that name without them is foreign). */
const RECORD_COLUMNS = [
  "invocation_id",
  "correlation_id",
  "graph_name",
  "schema_version",
  "last_saved_at",
  "completed_node_count",
  "resumed_from",
  "fan_out_in_flight",
  "encoding",
  "record",
] as const;

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
  readonly #update: Database.Statement;
  readonly #select: Database.Statement;
  readonly #delete: Database.Statement;
  readonly #parts: SqliteRecordParts;
  readonly #write: (invocationId: string, record: CheckpointRecord) => void;
  readonly #writeIf: (invocationId: string, expected: number | null, record: CheckpointRecord) => boolean;
  readonly #savedAt: Database.Statement;
  readonly #readTx: (invocationId: string) => CheckpointRecord | undefined;

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
    let db: Database.Database;
    try {
      db = typeof database === "string" ? new Database(database) : database;
    } catch (e) {
      throw storeError(e, String(database), table, "opening it");
    }
    this.database = db;
    try {
      configureConnection(db, { busyTimeoutMs: busy, synchronous: sync === "full" ? "FULL" : "NORMAL" });
      const foreign = missingColumn(db, table, RECORD_COLUMNS);
      if (foreign !== undefined) {
        throw new CheckpointStoreCorruptError(fileOf(db), table, "opening it", `its table "${table}" is a foreign table (no column ${foreign})`);
      }
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
      // A table written before positions / the other parts moved out: its rows keep them inline.
      const columns = columnsOf(db, table);
      const added = (name: string, type: string): void => {
        if (columns.includes(name)) return;
        try {
          db.exec(`ALTER TABLE "${table}" ADD COLUMN ${name} ${type}`);
        } catch (e) {
          if (!columnsOf(db, table).includes(name)) throw e; // else: another process added it first
        }
      };
      added("positions_apart", "INTEGER NOT NULL DEFAULT 0");
      added("parts_apart", "INTEGER NOT NULL DEFAULT 0");
      added("writer", "TEXT");
      this.#parts = new SqliteRecordParts(db, table, encoding);
      this.#upsert = db.prepare(
        `INSERT INTO "${table}" (invocation_id, correlation_id, graph_name, schema_version, last_saved_at,
           completed_node_count, resumed_from, fan_out_in_flight, encoding, record, positions_apart, parts_apart, writer)
         VALUES (@invocation_id, @correlation_id, @graph_name, @schema_version, @last_saved_at,
           @completed_node_count, @resumed_from, @fan_out_in_flight, @encoding, @record, 1, 1, @writer)
         ON CONFLICT (invocation_id) DO UPDATE SET
           correlation_id = excluded.correlation_id, graph_name = excluded.graph_name,
           schema_version = excluded.schema_version, last_saved_at = excluded.last_saved_at,
           completed_node_count = excluded.completed_node_count, resumed_from = excluded.resumed_from,
           fan_out_in_flight = excluded.fan_out_in_flight, encoding = excluded.encoding, record = excluded.record,
           positions_apart = 1, parts_apart = 1, writer = excluded.writer`,
      );
      // The usual save of a run: only these columns change, so the correlation index is not touched.
      this.#update = db.prepare(
        `UPDATE "${table}" SET last_saved_at = @last_saved_at, completed_node_count = @completed_node_count,
           fan_out_in_flight = @fan_out_in_flight, record = @record, writer = @writer
         WHERE invocation_id = @invocation_id AND correlation_id = @correlation_id AND graph_name IS @graph_name
           AND schema_version = @schema_version AND resumed_from IS @resumed_from AND encoding = @encoding
           AND positions_apart = 1 AND parts_apart = 1`,
      );
      this.#select = db.prepare(
        `SELECT encoding, record, positions_apart, parts_apart, completed_node_count FROM "${table}" WHERE invocation_id = ?`,
      );
      this.#delete = db.prepare(`DELETE FROM "${table}" WHERE invocation_id = ?`);
      this.#savedAt = db.prepare(`SELECT last_saved_at AS t FROM "${table}" WHERE invocation_id = ?`);
      // Writes take the write lock up front (BEGIN IMMEDIATE): see src/sqlite/file.ts.
      this.#write = db.transaction((invocationId: string, record: CheckpointRecord) => this.#writeRecord(invocationId, record)).immediate;
      this.#writeIf = db.transaction((invocationId: string, expected: number | null, record: CheckpointRecord): boolean => {
        const stored = (this.#savedAt.get(invocationId) as { t: number } | undefined)?.t ?? null;
        if (stored !== expected) return false;
        this.#writeRecord(invocationId, record);
        return true;
      }).immediate;
      this.#readTx = db.transaction((invocationId: string) => this.#read(invocationId));
    } catch (e) {
      if (this.#owned) db.close();
      throw this.#unusable(e, "opening it");
    }
  }

  /** `e`, or — when SQLite says the file is not a usable database, or cannot be opened or written — the category naming it. */
  #unusable(e: unknown, during: string): unknown {
    return storeError(e, fileOf(this.database), this.table, during);
  }

  async save(invocationId: string, record: CheckpointRecord): Promise<void> {
    checkInvocationId(invocationId);
    try {
      this.#write(invocationId, record);
    } catch (e) {
      this.#parts.forget(invocationId); // the transaction rolled back: trust nothing cached
      throw this.#unusable(e, `saving "${invocationId}"`);
    }
  }

  /**
   * Write `record` only if the stored record of `invocationId` is still the one with `lastSavedAt
   * === expected` (`null`: only if none is stored); check and write in one `BEGIN IMMEDIATE`
   * transaction, so of several processes racing with the same `expected` exactly one writes.
   * Resolves whether it wrote.
   */
  async compareAndSave(invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
    checkInvocationId(invocationId);
    try {
      return this.#writeIf(invocationId, expected, record);
    } catch (e) {
      this.#parts.forget(invocationId);
      throw this.#unusable(e, `saving "${invocationId}"`);
    }
  }

  /** One save, inside a transaction: write the parts that changed, upsert the record row. */
  #writeRecord(invocationId: string, record: CheckpointRecord): void {
    const writer = this.#parts.write(invocationId, record);
    const row = {
      invocation_id: invocationId,
      correlation_id: record.correlationId,
      graph_name: record.graphName ?? null,
      schema_version: record.schemaVersion,
      last_saved_at: record.lastSavedAt,
      completed_node_count: record.completedPositions.length,
      resumed_from: record.resumedFrom ?? null,
      fan_out_in_flight: (record.fanOutProgress?.length ?? 0) > 0 ? 1 : 0,
      encoding: this.encoding,
      record: JSON.stringify(encodeValue(recordHeaderToDoc(record), this.encoding, "record")),
      writer,
    };
    if (this.#update.run(row).changes === 0) this.#upsert.run(row);
  }

  async load(invocationId: string): Promise<CheckpointRecord | undefined> {
    checkInvocationId(invocationId);
    try {
      return this.#readTx(invocationId); // one snapshot: the row and its positions agree
    } catch (e) {
      throw this.#unusable(e, `loading "${invocationId}"`);
    }
  }

  #read(invocationId: string): CheckpointRecord | undefined {
    const row = this.#select.get(invocationId) as
      | { encoding: string; record: string; positions_apart: number; parts_apart: number; completed_node_count: number }
      | undefined;
    if (row === undefined) return undefined;
    if (row.encoding !== "tagged" && row.encoding !== "json") {
      throw new CheckpointRecordInvalidError(`stored record of "${invocationId}" has unknown encoding ${JSON.stringify(row.encoding)}`);
    }
    if (row.positions_apart === 0) return deserializeRecord(row.record, row.encoding);
    const parts = this.#parts.read(invocationId, row.completed_node_count);
    if (row.parts_apart !== 0) return assembleRecord(invocationId, row.record, row.encoding, row.completed_node_count, parts);
    if (parts.positions.length !== row.completed_node_count) {
      throw new CheckpointRecordInvalidError(
        `stored record of "${invocationId}" has ${parts.positions.length} of its ${row.completed_node_count} completed positions`,
      );
    }
    return deserializeRecord(row.record, row.encoding, parts.positions);
  }

  async list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    const { sql, params } = listQuery(this.table, filter, () => "?");
    let rows: SummaryRow[];
    try {
      rows = this.database.prepare(sql).all(...params) as SummaryRow[];
    } catch (e) {
      throw this.#unusable(e, "listing records");
    }
    return rows.map(summaryOfRow);
  }

  async delete(invocationId: string): Promise<void> {
    checkInvocationId(invocationId);
    try {
      this.database.transaction(() => {
        this.#delete.run(invocationId);
        this.#parts.delete(invocationId);
      }).immediate();
    } catch (e) {
      throw this.#unusable(e, `deleting "${invocationId}"`);
    }
  }

  /** Close the connection if this checkpointer opened it (a passed-in `Database` stays open). */
  close(): void {
    if (this.#owned && this.database.open) this.database.close();
  }
}

/**
 * `e` as the store's category when SQLite says the file is unusable: `checkpoint_store_corrupt` (not
 * a database, damaged) or `checkpoint_store_unavailable` (cannot be opened or written); else `e`.
 */
function storeError(e: unknown, file: string, table: string, during: string): unknown {
  if (isUnusableFileError(e)) return new CheckpointStoreCorruptError(file, table, during, `${e.message} (${e.code})`, e);
  const problem = unavailableFileProblem(e, file);
  return problem === undefined ? e : new CheckpointStoreUnavailableError(file, table, during, problem, e);
}
