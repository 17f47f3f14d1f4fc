/**
 * The failure-isolation observer event (pipeline-utilities §6.3 *Observability*).
 *
 * A framework-emitted event kind, distinct from the graph-engine §6 node event: it carries no
 * `phase` (so the per-observer `phases` filter does not apply — every observer receives it) and
 * none of `NodeEvent.error`. It rides the same strict-serial delivery queue as node events, and
 * is added to the engine's {@link ObserverEventMap} by declaration merging, so observers narrow
 * it with `event.kind === "failure_isolation"` (or {@link isFailureIsolationEvent}).
 */
import type { EventLineage, StateRecord } from "../../graph/index.ts";
import { nodeLineageRecord, type SpecNodeLineage } from "../../graph/event-families.ts";
import type { CauseClassification, CauseLink } from "./cause-chain.ts";

/** §6.3 `caught_exception`: the §6.4 classification of the caught error. */
export type CaughtException = CauseClassification;

/**
 * Emitted when a failure-isolation middleware catches an error and degrades (§6.3). The lineage
 * fields (`namespace`, `attemptIndex`, `fanOutIndex`, `branchName`, the chains, `nodeName`) identify
 * the wrapped node, for correlation with its node events; `attemptIndex` is the final attempt's
 * when a retry inside the isolation gave up.
 */
export interface FailureIsolationEvent extends EventLineage {
  readonly kind: "failure_isolation";
  /** The caller-supplied catch-site identifier (§6.3 `event_name`). */
  readonly eventName: string;
  /** The state the wrapped inner chain received (the middleware's `state` argument). */
  readonly preState: Readonly<StateRecord>;
  /** The resolved degraded partial update returned to the engine. */
  readonly postState: Readonly<Record<string, unknown>>;
  /** The caught error's cause chain with its derived category and message (§6.3, §6.4). */
  readonly caughtException: CaughtException;
  /** The caught error itself (as the wrapped chain raised it). */
  readonly exception: unknown;
  /** Name of the compiled graph that owns the wrapped node. */
  readonly graphName: string;
  /** Wall-clock time the event was emitted (ms since epoch). */
  readonly timestamp: number;
}

declare module "../../graph/events.ts" {
  interface ObserverEventMap {
    failure_isolation: FailureIsolationEvent;
  }
}

/** Type guard for {@link FailureIsolationEvent}. */
export function isFailureIsolationEvent(event: { readonly kind: string }): event is FailureIsolationEvent {
  return event.kind === "failure_isolation";
}

/** The spec (snake_case) record form of a {@link FailureIsolationEvent}. */
export interface SpecFailureIsolationEventRecord {
  readonly event_name: string;
  /** The wrapped node's lineage without the ids (they close the record). */
  readonly wrapped_node_lineage: SpecNodeLineage;
  readonly pre_state: Readonly<StateRecord>;
  readonly post_state: Readonly<Record<string, unknown>>;
  readonly caught_exception: {
    readonly category: string | null;
    readonly message: string;
    readonly chain: readonly CauseLink[];
  };
  readonly invocation_id: string;
  readonly correlation_id: string;
}

/** Render a failure-isolation event in the spec's field names (logs, JSON export, conformance). */
export function toSpecFailureIsolationEvent(e: FailureIsolationEvent): SpecFailureIsolationEventRecord {
  return {
    event_name: e.eventName,
    wrapped_node_lineage: nodeLineageRecord(e),
    pre_state: e.preState,
    post_state: e.postState,
    caught_exception: {
      category: e.caughtException.category,
      message: e.caughtException.message,
      chain: e.caughtException.chain,
    },
    invocation_id: e.invocationId,
    correlation_id: e.correlationId,
  };
}
