import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { categoryOf } from "../../../src/pipeline/middleware/index.ts";
import { ReasonedClaim } from "../../../harness/pipeline/claims.ts";
import { gateAccepts, isolationGatesFor, raisedError } from "../../../harness/pipeline/gates.ts";
import { failureIsolationEvents } from "../../../harness/pipeline/reading.ts";

/**
 * `non_matching_exception_propagates` (fixture 060; §6.3 `predicate`): the node's error fails the
 * gate of the failure_isolation around it, so it propagated to the caller as the graph-engine §4
 * `node_exception` carrier raised from that node, and nothing was isolated.
 */
@directive({ name: "non_matching_exception_propagates", at: "invariant", home: "pipeline-utilities" })
export class NonMatchingExceptionPropagates extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  const raised = raisedError(obs, ctx);
  if (typeof raised === "string") return raised;
  if ((raised.error as { category?: unknown }).category !== "node_exception") return `the raised carrier is ${String((raised.error as { category?: unknown }).category)}, not node_exception`;
  const gates = isolationGatesFor(obs, ctx, raised.node);
  if (gates.length === 0) return `no failure_isolation is configured around '${raised.node}'`;
  const accepting = gates.find((g) => gateAccepts(g, raised.surface));
  if (accepting) return `the error (${categoryOf(raised.surface) ?? "uncategorized"}) matches the gate of '${String(accepting.config.entry.event_name)}'`;
  const n = failureIsolationEvents(obs, ctx).length;
  return n === 0 ? null : `${n} failure-isolation event(s) were emitted`;
}
