/**
 * `InMemorySessionStore` — the bundled in-memory backend (sessions §5.5): the full §5.1–§5.4
 * protocol plus §8.2 optimistic concurrency; ephemeral (state vanishes with the process).
 *
 * States are kept JSON-encoded (the same encoding as `SqliteSessionStore`), so a loaded state is
 * always a fresh copy, later mutation of a saved object never leaks into the store, and both
 * bundled stores accept and return exactly the same shapes.
 *
 * It counts the calls it receives: {@link InMemorySessionStore.stats} / `resetStats()` (what a
 * test — or the conformance harness — reads to assert "no load", "one save", "store untouched").
 */
import { SessionWriteConflictError } from "./errors.ts";
import {
  checkSchemaVersion,
  checkSessionId,
  encodeSessionState,
  sessionRecordOf,
  type SessionRecord,
  type SessionRecordInput,
  type SessionSaveResult,
  type SessionSummary,
} from "./record.ts";
import {
  checkExpectedVersion,
  checkListFilter,
  compareSessionIds,
  StoreCounters,
  type SessionListFilter,
  type SessionSaveOptions,
  type SessionStore,
  type SessionStoreStats,
} from "./session-store.ts";

interface Row {
  readonly state: string;
  readonly schemaVersion: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly version: number;
}

/** The §5.5 in-memory reference backend (see the module comment). */
export class InMemorySessionStore implements SessionStore {
  readonly #rows = new Map<string, Row>();
  readonly #counters = new StoreCounters();

  /** §5.1 */
  async load(sessionId: string): Promise<SessionRecord | null> {
    this.#counters.load++;
    checkSessionId(sessionId);
    const row = this.#rows.get(sessionId);
    if (!row) return null;
    return sessionRecordOf(sessionId, row);
  }

  /** §5.2 (+ §8.2 `expectedVersion`). */
  async save(sessionId: string, record: SessionRecordInput, options?: SessionSaveOptions): Promise<SessionSaveResult> {
    this.#counters.save++;
    checkSessionId(sessionId);
    const expected = checkExpectedVersion(options);
    const state = encodeSessionState(record.state);
    const schemaVersion = checkSchemaVersion(record.schemaVersion);
    const prior = this.#rows.get(sessionId);
    const current = prior?.version ?? 0;
    if (expected !== undefined && expected !== current) throw new SessionWriteConflictError(sessionId, expected, current);
    const now = Date.now();
    const row: Row = { state, schemaVersion, createdAt: prior?.createdAt ?? now, updatedAt: now, version: current + 1 };
    this.#rows.set(sessionId, row);
    return Object.freeze({ version: row.version, updatedAt: new Date(now) });
  }

  /** §5.3 (idempotent). */
  async delete(sessionId: string): Promise<void> {
    this.#counters.delete++;
    checkSessionId(sessionId);
    this.#rows.delete(sessionId);
  }

  /** §5.4 */
  async list(filter?: SessionListFilter): Promise<readonly SessionSummary[]> {
    this.#counters.list++;
    checkListFilter(filter);
    const out: SessionSummary[] = [];
    for (const [sessionId, r] of this.#rows) {
      if (filter?.updatedAfter !== undefined && !(r.updatedAt > filter.updatedAfter.getTime())) continue;
      if (filter?.createdAfter !== undefined && !(r.createdAt > filter.createdAfter.getTime())) continue;
      if (filter?.schemaVersion !== undefined && r.schemaVersion !== filter.schemaVersion) continue;
      out.push(
        Object.freeze({
          sessionId,
          schemaVersion: r.schemaVersion,
          createdAt: new Date(r.createdAt),
          updatedAt: new Date(r.updatedAt),
          version: r.version,
        }),
      );
    }
    out.sort((a, b) => compareSessionIds(a.sessionId, b.sessionId));
    const start = filter?.offset ?? 0;
    return Object.freeze(out.slice(start, filter?.limit === undefined ? undefined : start + filter.limit));
  }

  /** Calls received since construction or the last {@link resetStats}. */
  stats(): SessionStoreStats {
    return this.#counters.snapshot();
  }

  /** Zero the call counters (the stored sessions are kept). */
  resetStats(): void {
    this.#counters.reset();
  }

  /** Number of stored sessions (not counted as a call). */
  get size(): number {
    return this.#rows.size;
  }

  /** Drop every session (not counted as a call). */
  clear(): void {
    this.#rows.clear();
  }
}
