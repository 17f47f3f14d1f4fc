import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { valuesEqual } from "../../../harness/graph/values.ts";
import { caughtEvents, ReasonedClaim, wrappedNodeEvents } from "../../../harness/pipeline/claims.ts";
import { DegradedCalls } from "../../../harness/pipeline/facets.ts";

/**
 * `callable_receives_pre_merge_state` (fixture 059; §6.3 `degraded_update`): each call of a
 * callable degraded update received the pre-merge state — the state the engine dispatched the
 * wrapped node with (its started event's `pre_state`), which is also the event's `pre_state`.
 */
@directive({ name: "callable_receives_pre_merge_state", at: "invariant", home: "pipeline-utilities" })
export class CallableReceivesPreMergeState extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  const calls = obs.tryGet(DegradedCalls) ?? [];
  if (calls.length === 0) return "no callable degraded_update ran in this call";
  const events = caughtEvents(obs, ctx);
  if (typeof events === "string") return events;
  for (const [i, d] of calls.entries()) {
    const e = events.filter((x) => x.eventName === d.eventName)[calls.slice(0, i).filter((c) => c.eventName === d.eventName).length];
    if (e === undefined) return `no failure-isolation event '${d.eventName}' accompanies callable call #${i + 1}`;
    const started = wrappedNodeEvents(obs, ctx, e).filter((n) => n.phase === "started").pop();
    if (started === undefined) return `node '${e.nodeName}' has no started event`;
    if (!valuesEqual(d.state, started.preState)) return `the callable received ${JSON.stringify(d.state)}, but '${e.nodeName}' was dispatched with ${JSON.stringify(started.preState)}`;
    if (!valuesEqual(d.state, e.preState)) return `the callable received ${JSON.stringify(d.state)}, but the event's pre_state is ${JSON.stringify(e.preState)}`;
  }
  return null;
}
