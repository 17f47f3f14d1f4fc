import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { valuesEqual } from "../../../harness/graph/values.ts";
import { caughtEvents, mergedIntoFinalState, ReasonedClaim } from "../../../harness/pipeline/claims.ts";
import { DegradedCalls } from "../../../harness/pipeline/facets.ts";

/**
 * `callable_return_merges_via_reducer` (fixture 059; §6.3): what each callable degraded update
 * returned is the partial update the middleware handed the engine (the event's `post_state`),
 * and the final state holds it merged over the pre-merge state through the fields' reducers.
 */
@directive({ name: "callable_return_merges_via_reducer", at: "invariant", home: "pipeline-utilities" })
export class CallableReturnMergesViaReducer extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  const calls = obs.tryGet(DegradedCalls) ?? [];
  if (calls.length === 0) return "no callable degraded_update ran in this call";
  const events = caughtEvents(obs, ctx);
  if (typeof events === "string") return events;
  for (const d of calls) {
    const e = events.find((x) => x.eventName === d.eventName && valuesEqual(x.postState, d.returned));
    if (e === undefined) return `the callable returned ${JSON.stringify(d.returned)}, which no '${d.eventName}' event carries as post_state`;
    if (e.namespace.length !== 1) return `node '${e.nodeName}' is not in the outermost graph; its merge is not in the final state`;
    const r = mergedIntoFinalState(obs, ctx, e.preState, d.returned);
    if (r !== null) return r;
  }
  return null;
}
