import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { ReasonedClaim } from "../../../harness/pipeline/claims.ts";
import { gateAccepts, isolationGatesFor, raisedError } from "../../../harness/pipeline/gates.ts";
import { failureIsolationEvents } from "../../../harness/pipeline/reading.ts";

/**
 * `no_event_when_predicate_does_not_match` (fixture 060; §6.3): the node raised an error the
 * configured predicate / catch rejects, and the call emitted no failure-isolation event.
 */
@directive({ name: "no_event_when_predicate_does_not_match", at: "invariant", home: "pipeline-utilities" })
export class NoEventWhenPredicateDoesNotMatch extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  const events = failureIsolationEvents(obs, ctx);
  if (events.length > 0) return `the call emitted ${events.length} failure-isolation event(s) ('${events[0]!.eventName}')`;
  const raised = raisedError(obs, ctx);
  if (typeof raised === "string") return raised;
  const gated = isolationGatesFor(obs, ctx, raised.node).filter((g) => g.predicateCategory !== undefined || g.catchCategories !== undefined);
  if (gated.length === 0) return `no failure_isolation with a predicate is configured around '${raised.node}'`;
  return gated.some((g) => gateAccepts(g, raised.surface)) ? "the raised error matches a configured predicate" : null;
}
