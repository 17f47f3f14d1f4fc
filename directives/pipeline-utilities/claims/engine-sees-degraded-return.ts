import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, mergedIntoFinalState, settle } from "../../../harness/pipeline/claims.ts";

/**
 * `engine_sees_degraded_return` (fixture 063; §6.3 *Engine continuation*): the call completed and
 * its final state holds each isolated node's degraded update (the event's `post_state`) merged
 * over the node's pre-merge state through the fields' reducers — the engine took it as the node's
 * return.
 */
@directive({ name: "engine_sees_degraded_return", at: "invariant", home: "pipeline-utilities" })
export class EngineSeesDegradedReturn {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) =>
      e.namespace.length !== 1 ? `node '${e.nodeName}' is not in the outermost graph` : mergedIntoFinalState(obs, ctx, e.preState, e.postState),
    ));
  }
}
