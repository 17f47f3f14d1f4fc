import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { isNodeEvent } from "../../../src/graph/index.ts";
import { caughtEvents, firstReason, ReasonedClaim } from "../../../harness/pipeline/claims.ts";
import { capturedNodeEvents } from "../../../harness/pipeline/reading.ts";

/**
 * `event_is_distinct_from_node_event` (fixture 058; §6.3 *Observability*): each failure-isolation
 * event arrived as its own event kind — not a graph-engine §6 node event (no `phase`), without a
 * node-event `error` — and no node event of the call carries its fields.
 */
@directive({ name: "event_is_distinct_from_node_event", at: "invariant", home: "pipeline-utilities" })
export class EventIsDistinctFromNodeEvent extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  const events = caughtEvents(obs, ctx);
  if (typeof events === "string") return events;
  const own = firstReason(events, (e) => {
    if (e.kind !== "failure_isolation") return `event '${e.eventName}' has kind '${String(e.kind)}'`;
    if (isNodeEvent(e) || "phase" in e) return `event '${e.eventName}' is a node event (it carries a phase)`;
    if ("error" in e) return `event '${e.eventName}' reuses the node event's 'error' field`;
    return null;
  });
  if (own !== null) return own;
  const mixed = capturedNodeEvents(obs, ctx).find((n) => "eventName" in n || "caughtException" in n);
  return mixed ? `the ${mixed.phase} node event of '${mixed.nodeName}' carries failure-isolation fields` : null;
}
