/**
 * What the checkpoint harness records per call (conformance-adapter §8.4 *What an assertion reads*),
 * as typed facets on the call's observation: every save the Checkpointer received, the record it
 * holds for the call's invocation once the call ended, the record a resume loaded, the migrations
 * applied, the node events the call dispatched, and the case's call log (so a claim in one call's
 * block can compare it with the other run).
 */
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import type { SaveContext } from "../../src/checkpoint/index.ts";
import type { CheckpointRecordDocument } from "../../src/internal.ts";
import type { NodeEvent } from "../../src/graph/index.ts";

/** One `Checkpointer.save` the backend received during a call (the record in the spec's field names). */
export interface SaveEntry {
  readonly invocationId: string;
  /** A detached copy of the saved record (§10.2 field names). */
  readonly record: CheckpointRecordDocument;
  readonly context: SaveContext | undefined;
  /**
   * Whether the record was durable when `save` returned (with a batching backend, a buffered
   * fan-out internal save is not; every other backend's saves always are).
   */
  readonly durable: boolean;
}

/** Every save of the call, in the order the backend received them. */
export const CheckpointSaves = new Facet<SaveEntry[]>("checkpoint saves");
/** Saves a crashed ("dead") process attempted after its crash point: never persisted. */
export const DroppedSaves = new Facet<SaveEntry[]>("saves after a crash (not persisted)");
/**
 * The record `Checkpointer.load` returns for the call's invocation id once the call ended (with a
 * batching backend, the last flushed record); `null` when the backend holds none.
 */
export const RecordAfterCall = new Facet<CheckpointRecordDocument | null>("checkpoint record after the call");
/** For a resume call: the invocation it resumed and the record stored for it when the resume began. */
export const ResumeSource = new Facet<{ readonly invocationId: string; readonly record: CheckpointRecordDocument | null }>("record the resume loaded");
/** Migration applications during the call's load (`"<from>-><to>"`, in application order). */
export const MigrationsRun = new Facet<string[]>("migrations run");
/** Node events the call dispatched (every graph level), in delivery order. */
export const CallNodeEvents = new Facet<NodeEvent[]>("node events of the call");
/** The call's correlation id (from its outcome, else its events / saved records). */
export const CallCorrelationId = new Facet<string | null>("correlation id of the call");
/** The invocation id the caller supplied for the call, if any. */
export const CallerInvocationId = new Facet<string | undefined>("caller-supplied invocation id");
/** Whether a `crash_injection` boundary fired during the call (the run was abandoned there). */
export const CrashFired = new Facet<boolean>("crash injection fired");

/** What kind of call an observation is, in a checkpoint case. */
export type CallKind = "first_run" | "resume";

/** The case's calls in order, shared by every call's observation. */
export interface CallLog {
  readonly calls: Array<{ readonly kind: CallKind; readonly observation: Observation }>;
}
export const CheckpointCallLog = new Facet<CallLog>("checkpoint case calls");

/** The record a record sub-assertion claim reads (`saved_record_assertions`, `checkpoint_saves` entries). */
export const RecordUnderTest = new Facet<CheckpointRecordDocument>("checkpoint record under assertion");
