/**
 * What the suspension / sessions harness records per call (conformance-adapter §8.4 *What an
 * assertion reads*), as typed facets on the call's observation.
 */
import { Facet } from "../../src/conformance/observation.ts";
import type { CheckpointRecord } from "../../src/checkpoint/index.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import type { PausedInvocationRecord } from "../../src/suspension/index.ts";
import type { SignalDescriptorDocument, StoredRecordType } from "../../src/internal.ts";

/** §5: the suspended outcome of the call, as the library returned it (descriptor in the spec's field names). */
export interface SuspendedCall {
  readonly descriptor: SignalDescriptorDocument;
  /** The outermost-graph node that suspended. */
  readonly nodeName: string;
  /** Down to the node whose body called `suspend()`. */
  readonly namespace: readonly string[];
  readonly markNodeCompleted: boolean;
  readonly record: PausedInvocationRecord;
  /** The fan-out instance / parallel branch the suspending body ran in (outermost one), read from the engine lineage. */
  readonly fanOutIndex: number | undefined;
  readonly branchName: string | undefined;
}
export const SuspendedOutcomeFacet = new Facet<SuspendedCall>("suspended outcome");

/** §6.7: the markers `wrap_with_middleware` middlewares recorded during the call, in recording order. */
export const MiddlewareLog = new Facet<string[]>("middleware log");

/** What the paused-record backend holds for the call's invocation id once the call ended. */
export interface PausedBackendView {
  readonly invocationId: string | null;
  readonly recordType: StoredRecordType;
  /** The raw Checkpointer record (the envelope, when paused). */
  readonly raw: CheckpointRecord | undefined;
  readonly paused: PausedInvocationRecord | undefined;
}
export const PausedBackendAfterCall = new Facet<PausedBackendView>("paused-record backend after the call");

/** A resume call: which id it resumed (placeholder resolved) with which payload, and which record API. */
export interface ResumeCall {
  readonly written: string;
  readonly invocationId: string;
  readonly payload: Readonly<Record<string, unknown>> | undefined;
  readonly kind: "suspension" | "checkpoint";
  /** The paused record the backend held for the id when the resume began (undefined: none). */
  readonly pausedBefore: PausedInvocationRecord | undefined;
}
export const ResumeCallFacet = new Facet<ResumeCall>("resume call");

/** Every completed node event the call dispatched (all graph levels), in dispatch order (engine hook). */
export const CompletedEvents = new Facet<NodeEvent[]>("completed node events of the call");

/** Every node event the call dispatched (all phases, all graph levels), in dispatch order (engine hook). */
export const NodeEventsOfCall = new Facet<NodeEvent[]>("node events of the call");
