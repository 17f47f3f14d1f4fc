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
 * Atomicity across processes is the backend's (a save either lands or raises). Two workers
 * resuming the same suspension at once are not told apart by the protocol (it has no
 * compare-and-set); route one signal to one resume (the harness signal coordinator).
 */
import type { Checkpointer, CheckpointRecord } from "../checkpoint/index.ts";
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

  /** Persist `record` (the latest record of its invocation). Backend errors propagate. */
  async save(record: PausedInvocationRecord): Promise<void> {
    const envelope: CheckpointRecord = deepFreeze({
      invocationId: record.invocationId,
      correlationId: record.correlationId,
      state: { [RECORD_TYPE_KEY]: "suspended", [PAUSED_RECORD_KEY]: toPausedDocument(record) },
      completedPositions: [NOT_A_CHECKPOINT],
      parentStates: [],
      schemaVersion: record.schemaVersion,
      lastSavedAt: Math.max(record.suspendedAt, performance.timeOrigin + performance.now()),
      nextStep: record.nextStep,
      graphName: record.graphName,
    });
    await this.checkpointer.save(record.invocationId, envelope);
  }

  /** What the backend holds for `invocationId`. */
  async recordType(invocationId: string): Promise<StoredRecordType> {
    const r = await this.checkpointer.load(invocationId);
    if (r === undefined || r === null) return "none";
    return isPausedEnvelope(r) ? "suspended" : "checkpoint";
  }

  /**
   * The paused record of `invocationId`, or `undefined` when the backend holds none (or holds a
   * checkpoint record). A stored envelope that cannot be read is `suspension_record_invalid`
   * (`malformed`); a failing backend `load` propagates.
   */
  async load(invocationId: string): Promise<PausedInvocationRecord | undefined> {
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
   * with the reason (`missing`, `not_a_paused_record`, `resumed`, `completed`, `errored`).
   */
  async loadForResume(invocationId: string): Promise<PausedInvocationRecord> {
    let stored: CheckpointRecord | undefined;
    try {
      stored = await this.checkpointer.load(invocationId);
    } catch (cause) {
      throw new SuspensionRecordInvalidError(invocationId, "malformed", "the backend could not load it", { cause });
    }
    if (stored === undefined || stored === null) throw new SuspensionRecordInvalidError(invocationId, "missing");
    if (!isPausedEnvelope(stored)) throw new SuspensionRecordInvalidError(invocationId, "not_a_paused_record");
    const record = await this.load(invocationId);
    if (record === undefined) throw new SuspensionRecordInvalidError(invocationId, "missing");
    if (record.status !== "suspended") throw new SuspensionRecordInvalidError(invocationId, record.status as Exclude<PausedStatus, "suspended">);
    return record;
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
    const r = await this.checkpointer.load(invocationId);
    if (!isPausedEnvelope(r)) return false;
    await this.checkpointer.delete(invocationId);
    return true;
  }
}
