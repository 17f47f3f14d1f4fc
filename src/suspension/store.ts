/**
 * Persisting paused-invocation records through the Checkpointer protocol (suspension §8.5,
 * pipeline-utilities §10.15: "the same persistence mechanism as checkpointing").
 *
 * {@link PausedInvocationStore} writes each record with `Checkpointer.save(invocationId, …)` —
 * any backend works: `InMemoryCheckpointer`, `SqliteCheckpointer` (durable, WAL), or your own —
 * as a checkpoint-record *envelope*:
 *
 * - **Discriminator.** The envelope's `state` is
 *   `{ "openarmature.record_type": "suspended", "openarmature.paused_invocation": <document> }`;
 *   a record under the id without it is a checkpoint record (`suspension_record_invalid`, reason
 *   `not_a_paused_record`). Its other fields are real: ids, `schemaVersion`, `lastSavedAt`,
 *   `nextStep`, `graphName` (so `list()` shows paused invocations).
 * - **Checkpoint resume refuses it.** Its one completed position names no node of any graph, so a
 *   pipeline-utilities §10.4 `resume()` of a suspended id fails with `checkpoint_record_invalid`
 *   instead of running: a paused record is resumed with a signal payload (§7), never as a checkpoint.
 * - **One store or two.** Give suspension a Checkpointer of its own (a separate SQLite `table`, or
 *   a separate in-memory instance — "separate stores") or share the one checkpointing uses (single
 *   store, discriminator): under one invocation id the latest record wins — a paused record
 *   supersedes the checkpoint record at suspend, and the resumed run's checkpoint saves supersede
 *   the paused record (which then no longer resumes: the suspension was consumed).
 *
 * Atomicity across processes is the backend's (a save either lands or raises).
 *
 * **Resume once.** {@link PausedInvocationStore.claim} moves a record from `suspended` to `resumed`
 * with a compare-and-set on the envelope's `lastSavedAt` (`Checkpointer.compareAndSave`: atomic in
 * both bundled backends, SQLite across processes), so of two workers resuming one suspension — at
 * once or one after the other — exactly one runs; the other gets `suspension_record_invalid`
 * (reason `resumed`). Resume validates first (record, session, payload) and claims last, so a
 * refused resume leaves the record `suspended`.
 */
import type { Checkpointer, CheckpointRecord } from "../checkpoint/index.ts";
import { checkInvocationId, compareAndSave } from "../checkpoint/checkpointer.ts";
import { SuspensionRecordInvalidError } from "./errors.ts";
import { fromPausedDocument, isMalformedRecord, toPausedDocument, type PausedInvocationRecord, type PausedStatus } from "./record.ts";

/** Envelope keys inside the checkpoint record's `state`. */
export const RECORD_TYPE_KEY = "openarmature.record_type";
export const PAUSED_RECORD_KEY = "openarmature.paused_invocation";

/** The envelope's completed position: names no node, so checkpoint resume rejects the envelope. */
const NOT_A_CHECKPOINT = Object.freeze({
  namespace: Object.freeze([]) as readonly string[],
  nodeName: "(paused-invocation record: resume it with a signal payload)",
  step: 0,
  attemptIndex: 0,
});

/** What a Checkpointer holds for an invocation id, as suspension sees it. */
export type StoredRecordType = "suspended" | "checkpoint" | "none";

function deepFreeze<T>(v: T): T {
  if (typeof v !== "object" || v === null || Object.isFrozen(v) || ArrayBuffer.isView(v)) return v;
  Object.freeze(v);
  for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  return v;
}

/** Is `r` a paused-record envelope? */
export function isPausedEnvelope(r: CheckpointRecord | undefined | null): boolean {
  return r !== undefined && r !== null && typeof r.state === "object" && r.state !== null && r.state[RECORD_TYPE_KEY] === "suspended";
}

/** Paused-invocation records over a {@link Checkpointer} (see the module comment). */
export class PausedInvocationStore {
  readonly checkpointer: Checkpointer;

  constructor(checkpointer: Checkpointer) {
    if (typeof checkpointer !== "object" || checkpointer === null || typeof checkpointer.save !== "function" || typeof checkpointer.load !== "function") {
      throw new TypeError("a PausedInvocationStore needs a Checkpointer (save / load / list / delete)");
    }
    this.checkpointer = checkpointer;
  }

  /** The envelope's `lastSavedAt` of each record `loadForResume` returned: what `claim` compares against. */
  readonly #loadedAt = new WeakMap<PausedInvocationRecord, number>();

  /** Persist `record` (the latest record of its invocation). Backend errors propagate. */
  async save(record: PausedInvocationRecord): Promise<void> {
    await this.checkpointer.save(record.invocationId, this.#envelope(record));
  }

  /** The checkpoint-record envelope of `record`, saved strictly after `after` (ms). */
  #envelope(record: PausedInvocationRecord, after = -Infinity): CheckpointRecord {
    return deepFreeze({
      invocationId: record.invocationId,
      correlationId: record.correlationId,
      state: { [RECORD_TYPE_KEY]: "suspended", [PAUSED_RECORD_KEY]: toPausedDocument(record) },
      completedPositions: [NOT_A_CHECKPOINT],
      parentStates: [],
      schemaVersion: record.schemaVersion,
      lastSavedAt: Math.max(record.suspendedAt, performance.timeOrigin + performance.now(), after + 0.001),
      nextStep: record.nextStep,
      graphName: record.graphName,
    });
  }

  /** What the backend holds for `invocationId`. */
  async recordType(invocationId: string): Promise<StoredRecordType> {
    checkInvocationId(invocationId);
    const r = await this.checkpointer.load(invocationId);
    if (r === undefined || r === null) return "none";
    return isPausedEnvelope(r) ? "suspended" : "checkpoint";
  }

  /**
   * The paused record of `invocationId`, or `undefined` when the backend holds none (or holds a
   * checkpoint record). A stored envelope that cannot be read is `suspension_record_invalid`
   * (`malformed`); a failing backend `load` propagates; an id that is not a non-empty string is
   * `checkpoint_invalid_id` (as the backend's own methods raise it).
   */
  async load(invocationId: string): Promise<PausedInvocationRecord | undefined> {
    checkInvocationId(invocationId);
    const r = await this.checkpointer.load(invocationId);
    if (!isPausedEnvelope(r)) return undefined;
    try {
      return fromPausedDocument(r!.state[PAUSED_RECORD_KEY]);
    } catch (e) {
      if (isMalformedRecord(e)) throw new SuspensionRecordInvalidError(invocationId, "malformed", e.message, { cause: e });
      throw e;
    }
  }

  /**
   * §7 step 1–2: the record to resume — present and `suspended` — else `suspension_record_invalid`
   * with the reason (`missing`, `not_a_paused_record`, `resumed`, `completed`, `errored`;
   * `invalid_id` for an id that is not a non-empty string, before the backend is asked).
   */
  async loadForResume(invocationId: string): Promise<PausedInvocationRecord> {
    if (typeof invocationId !== "string" || invocationId.length === 0) throw new SuspensionRecordInvalidError(invocationId as unknown, "invalid_id");
    let stored: CheckpointRecord | undefined;
    try {
      stored = await this.checkpointer.load(invocationId);
    } catch (cause) {
      throw new SuspensionRecordInvalidError(invocationId, "malformed", "the backend could not load it", { cause });
    }
    if (stored === undefined || stored === null) throw new SuspensionRecordInvalidError(invocationId, "missing");
    if (!isPausedEnvelope(stored)) throw new SuspensionRecordInvalidError(invocationId, "not_a_paused_record");
    let record: PausedInvocationRecord;
    try {
      record = fromPausedDocument(stored.state[PAUSED_RECORD_KEY]);
    } catch (e) {
      if (isMalformedRecord(e)) throw new SuspensionRecordInvalidError(invocationId, "malformed", e.message, { cause: e });
      throw e;
    }
    if (record.status !== "suspended") throw new SuspensionRecordInvalidError(invocationId, record.status as Exclude<PausedStatus, "suspended">);
    this.#loadedAt.set(record, stored.lastSavedAt);
    return record;
  }

  /**
   * Claim `record` — as {@link loadForResume} returned it — for one resume: rewrite it with status
   * `resumed` only if the stored envelope is still the one loaded (compare-and-set, see the module
   * comment). Resolves the claimed record; raises `suspension_record_invalid` when another resume
   * claimed (or a cancel deleted) it first. Call it after every validation, right before running.
   */
  async claim(record: PausedInvocationRecord): Promise<PausedInvocationRecord> {
    const loadedAt = this.#loadedAt.get(record);
    if (loadedAt === undefined) throw new TypeError("claim() takes a record returned by this store's loadForResume()");
    const claimed: PausedInvocationRecord = Object.freeze({ ...record, status: "resumed" });
    if (await compareAndSave(this.checkpointer, record.invocationId, loadedAt, this.#envelope(claimed, loadedAt))) {
      this.#loadedAt.delete(record);
      return claimed;
    }
    let now: PausedInvocationRecord | undefined;
    try {
      now = await this.load(record.invocationId);
    } catch {
      now = undefined; // the reason below stays truthful: whatever is stored is not this suspension
    }
    const reason = now === undefined ? "missing" : now.status === "suspended" ? "resumed" : now.status;
    throw new SuspensionRecordInvalidError(record.invocationId, reason, "another resume claimed it first");
  }

  /** Rewrite the record with another status. */
  async setStatus(record: PausedInvocationRecord, status: PausedStatus): Promise<PausedInvocationRecord> {
    const next = Object.freeze({ ...record, status });
    await this.save(next);
    return next;
  }

  /**
   * Delete the paused record of `invocationId` (cancellation, §1). Idempotent; resolves `false`
   * when the backend holds no paused record for it (a checkpoint record there is left alone).
   */
  async delete(invocationId: string): Promise<boolean> {
    checkInvocationId(invocationId);
    const r = await this.checkpointer.load(invocationId);
    if (!isPausedEnvelope(r)) return false;
    await this.checkpointer.delete(invocationId);
    return true;
  }
}
