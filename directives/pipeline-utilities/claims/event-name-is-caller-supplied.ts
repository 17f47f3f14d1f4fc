import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, chainAround, firstReason, isolationConfig, settle } from "../../../harness/pipeline/claims.ts";

/**
 * `event_name_is_caller_supplied` (fixture 058; §6.3 `event_name`, required with no default):
 * each failure-isolation event carries the `event_name` configured on the failure_isolation
 * middleware around the node it isolated — not a generic default.
 */
@directive({ name: "event_name_is_caller_supplied", at: "invariant", home: "pipeline-utilities" })
export class EventNameIsCallerSupplied {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) =>
      isolationConfig(chainAround(obs, ctx, e), e.eventName) ? null : `event_name '${e.eventName}' is not configured on a failure_isolation around '${e.nodeName}'`,
    ));
  }
}
