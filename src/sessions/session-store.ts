/**
 * The `SessionStore` protocol (sessions §5): four async operations keyed by `session_id`.
 *
 * - `load(id)` → the record or `null` (§5.1), with its `schemaVersion` so migration (§7) can run
 *   before the state is merged.
 * - `save(id, record, options?)` — overwrite, last-write-wins (§5.2); `options.expectedVersion`
 *   opts into §8.2 optimistic concurrency (`session_write_conflict` on mismatch). The protocol is
 *   void-returning; the bundled stores resolve with a {@link SessionSaveResult} (the new version).
 * - `delete(id)` — idempotent (§5.3).
 * - `list(filter?)` — summaries without state (§5.4); no filter lists every session.
 *
 * Implement it for any backend (Redis, Postgres, …). Bundled: `InMemorySessionStore`,
 * `SqliteSessionStore`.
 */
import type { SessionRecord, SessionRecordInput, SessionSaveResult, SessionSummary } from "./record.ts";

/** §8.2 options of `save()`. */
export interface SessionSaveOptions {
  /**
   * Save only if the stored record is at this version (`0` = only if no record exists); otherwise
   * raise `session_write_conflict`. Omitted: last-write-wins (§8.1).
   */
  readonly expectedVersion?: number;
}

/**
 * §5.4 list filter (implementation-defined; these are the spec's recommended ones). All given
 * conditions must hold. Results are ordered by `sessionId` (UTF-8 byte order).
 */
export interface SessionListFilter {
  /** Only sessions last saved strictly after this instant. */
  readonly updatedAfter?: Date;
  /** Only sessions first saved strictly after this instant. */
  readonly createdAfter?: Date;
  /** Only sessions saved under exactly this schema version. */
  readonly schemaVersion?: string;
  /** Offset pagination. */
  readonly offset?: number;
  readonly limit?: number;
}

/** The §5 protocol. */
export interface SessionStore {
  /** §5.1: the record stored under `sessionId`, or `null`. */
  load(sessionId: string): Promise<SessionRecord | null>;
  /** §5.2: write `record` under `sessionId`, overwriting (last-write-wins unless `expectedVersion`). */
  save(sessionId: string, record: SessionRecordInput, options?: SessionSaveOptions): Promise<SessionSaveResult | void>;
  /** §5.3: remove the record; deleting a missing session does not raise. */
  delete(sessionId: string): Promise<void>;
  /** §5.4: summaries of the stored sessions (all of them when `filter` is omitted). */
  list(filter?: SessionListFilter): Promise<readonly SessionSummary[]>;
}

/** Calls a counting store has received (each call counts once, whether or not it succeeded). */
export interface SessionStoreStats {
  readonly load: number;
  readonly save: number;
  readonly delete: number;
  readonly list: number;
}

/** @internal mutable counters behind `stats()` / `resetStats()`. */
export class StoreCounters {
  load = 0;
  save = 0;
  delete = 0;
  list = 0;
  snapshot(): SessionStoreStats {
    return Object.freeze({ load: this.load, save: this.save, delete: this.delete, list: this.list });
  }
  reset(): void {
    this.load = this.save = this.delete = this.list = 0;
  }
}

/** @internal validate a §8.2 `expectedVersion`. */
export function checkExpectedVersion(options: SessionSaveOptions | undefined): number | undefined {
  const v = options?.expectedVersion;
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 0) throw new RangeError("expectedVersion must be a non-negative integer");
  return v;
}

/** @internal validate a list filter's pagination. */
export function checkListFilter(filter: SessionListFilter | undefined): void {
  if (filter === undefined) return;
  for (const k of ["offset", "limit"] as const) {
    const v = filter[k];
    if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw new RangeError(`${k} must be a non-negative integer`);
  }
  for (const k of ["updatedAfter", "createdAfter"] as const) {
    const v = filter[k];
    if (v !== undefined && !(v instanceof Date && !Number.isNaN(v.getTime()))) throw new TypeError(`${k} must be a valid Date`);
  }
  if (filter.schemaVersion !== undefined && typeof filter.schemaVersion !== "string") throw new TypeError("schemaVersion must be a string");
}

/** @internal UTF-8 byte order (what SQLite's BINARY collation uses). */
export function compareSessionIds(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}
