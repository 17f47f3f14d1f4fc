/**
 * `InMemoryCheckpointer` (pipeline-utilities §10.13): records in a `Map`, one (the latest) per
 * invocation id.
 *
 * - **Not durable.** Records live as long as the object; a process crash loses them all. Use it for
 *   tests, development and short-lived runs; use {@link SqliteCheckpointer} to survive crashes.
 * - **Records are kept, not copied, when they are immutable.** A frozen record — every record
 *   `withCheckpointer` saves is frozen, over the engine's frozen states — is stored by reference:
 *   any state shape works (class instances, clients, functions: live objects, §10.1) and a save
 *   costs O(1). A record that is not frozen is deep-copied with `structuredClone` and frozen, so
 *   later mutation of the caller's objects cannot alter it; such a copy accepts what
 *   `structuredClone` accepts (JSON values, `undefined`, `NaN`, `bigint`, `Date`, `Map`, `Set`,
 *   typed arrays; class instances come back as plain objects; functions are rejected).
 * - **Migrations:** supported (§10.12.1): states are plain records, independent of the schema
 *   class; a migration receives a `structuredClone` of them (a state holding functions cannot be
 *   migrated and resumes as `checkpoint_record_invalid` across a version change).
 */
import { checkInvocationId, checkLimit, matchesFilter, summarize, type Checkpointer, type CheckpointFilter, type CheckpointSummary } from "./checkpointer.ts";
import type { CheckpointRecord } from "./record.ts";

function freezeDeep<T>(v: T): T {
  if (typeof v !== "object" || v === null || Object.isFrozen(v)) return v;
  if (ArrayBuffer.isView(v)) return v; // typed arrays cannot be frozen
  Object.freeze(v);
  if (v instanceof Map) for (const [k, x] of v) (freezeDeep(k), freezeDeep(x));
  else if (v instanceof Set) for (const x of v) freezeDeep(x);
  else for (const k of Object.keys(v)) freezeDeep((v as Record<string, unknown>)[k]);
  return v;
}

/** §10.13 the in-memory reference backend (see the module comment). */
export class InMemoryCheckpointer implements Checkpointer {
  readonly backendName = "in_memory";
  readonly supportsStateMigration = true;
  readonly #records = new Map<string, CheckpointRecord>();

  async save(invocationId: string, record: CheckpointRecord): Promise<void> {
    checkInvocationId(invocationId);
    const copy = Object.isFrozen(record) ? record : freezeDeep(structuredClone(record));
    this.#records.delete(invocationId); // keep Map order = save order
    this.#records.set(invocationId, copy);
  }

  /** Compare-and-set on `lastSavedAt` (see `Checkpointer.compareAndSave`); check and write run without yielding. */
  async compareAndSave(invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
    checkInvocationId(invocationId);
    if ((this.#records.get(invocationId)?.lastSavedAt ?? null) !== expected) return false;
    await this.save(invocationId, record);
    return true;
  }

  async load(invocationId: string): Promise<CheckpointRecord | undefined> {
    checkInvocationId(invocationId);
    return this.#records.get(invocationId);
  }

  async list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    const limit = checkLimit(filter?.limit);
    const out: CheckpointSummary[] = [];
    for (const r of this.#records.values()) {
      const s = summarize(r);
      if (matchesFilter(s, filter)) out.push(s);
    }
    out.sort((a, b) => b.lastSavedAt - a.lastSavedAt);
    return limit === undefined ? out : out.slice(0, limit);
  }

  async delete(invocationId: string): Promise<void> {
    checkInvocationId(invocationId);
    this.#records.delete(invocationId);
  }

  /** Number of invocations with a record. */
  get size(): number {
    return this.#records.size;
  }

  /** Remove every record. */
  clear(): void {
    this.#records.clear();
  }
}
