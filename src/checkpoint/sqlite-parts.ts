/**
 * @internal `SqliteCheckpointer`'s tables for the parts of a record that grow with a run:
 * `<table>_positions` and `<table>_parts`, written as {@link RecordParts} plans (see
 * `record-parts.ts` for what each holds and when it is written). Everything here runs inside the
 * caller's transaction, with the record row.
 */
import type Database from "better-sqlite3";
import { RecordParts, type PartRows, type PartsSink } from "./record-parts.ts";
import type { CheckpointRecord } from "./record.ts";
import type { RecordEncoding } from "./serialization.ts";

export { assembleRecord, type PartRows } from "./record-parts.ts";

export class SqliteRecordParts {
  readonly #plan: RecordParts;
  readonly #sink: PartsSink;
  readonly #storedWriter: Database.Statement;
  readonly #selectPositions: Database.Statement;
  readonly #deletePositions: Database.Statement;
  readonly #selectParts: Database.Statement;
  readonly #deleteParts: Database.Statement;

  /** Creates the companion tables of `table` (which must exist, with a `writer` column). */
  constructor(db: Database.Database, table: string, encoding: RecordEncoding) {
    this.#plan = new RecordParts(encoding);
    db.exec(
      `CREATE TABLE IF NOT EXISTS "${table}_positions" (
         invocation_id TEXT NOT NULL,
         seq INTEGER NOT NULL,
         position TEXT NOT NULL,
         PRIMARY KEY (invocation_id, seq)
       ) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS "${table}_parts" (
         invocation_id TEXT NOT NULL,
         part INTEGER NOT NULL,
         slot INTEGER NOT NULL,
         doc TEXT NOT NULL,
         PRIMARY KEY (invocation_id, part, slot)
       ) WITHOUT ROWID;`,
    );
    this.#storedWriter = db.prepare(`SELECT writer FROM "${table}" WHERE invocation_id = ? AND parts_apart = 1`).pluck();
    const insertPosition = db.prepare(`INSERT INTO "${table}_positions" (invocation_id, seq, position) VALUES (?, ?, ?)`);
    this.#selectPositions = db.prepare(`SELECT position FROM "${table}_positions" WHERE invocation_id = ? AND seq < ? ORDER BY seq`).pluck();
    this.#deletePositions = db.prepare(`DELETE FROM "${table}_positions" WHERE invocation_id = ?`);
    const putPart = db.prepare(`INSERT OR REPLACE INTO "${table}_parts" (invocation_id, part, slot, doc) VALUES (?, ?, ?, ?)`);
    this.#selectParts = db.prepare(`SELECT part, slot, doc FROM "${table}_parts" WHERE invocation_id = ? ORDER BY part, slot`);
    this.#deleteParts = db.prepare(`DELETE FROM "${table}_parts" WHERE invocation_id = ?`);
    const deleteEntry = db.prepare(`DELETE FROM "${table}_parts" WHERE invocation_id = ? AND part = ?`);
    const deleteEntries = db.prepare(`DELETE FROM "${table}_parts" WHERE invocation_id = ? AND part > 0`);
    this.#sink = {
      deletePositions: (id) => void this.#deletePositions.run(id),
      insertPosition: (id, seq, doc) => void insertPosition.run(id, seq, doc),
      putPart: (id, part, slot, doc) => void putPart.run(id, part, slot, doc),
      deleteEntry: (id, part) => void deleteEntry.run(id, part),
      deleteEntries: (id) => void deleteEntries.run(id),
      deleteParts: (id) => void this.#deleteParts.run(id),
    };
  }

  /**
   * Write what changed of `record`'s positions, save point and fan-out progress (inside the
   * caller's transaction). Returns the writer token the record row must carry.
   */
  write(invocationId: string, record: CheckpointRecord): string {
    return this.#plan.write(invocationId, record, this.#storedWriter.get(invocationId) as string | undefined, this.#sink);
  }

  /** The stored parts of `invocationId` (its record row says how many positions it has). */
  read(invocationId: string, positionCount: number): PartRows {
    return {
      positions: this.#selectPositions.all(invocationId, positionCount) as string[],
      parts: this.#selectParts.all(invocationId) as { part: number; slot: number; doc: string }[],
    };
  }

  /** Remove every part of `invocationId` (inside the caller's transaction). */
  delete(invocationId: string): void {
    this.#plan.forget(invocationId);
    this.#deletePositions.run(invocationId);
    this.#deleteParts.run(invocationId);
  }

  /** Forget what this process stored for `invocationId` (its transaction rolled back). */
  forget(invocationId: string): void {
    this.#plan.forget(invocationId);
  }
}
