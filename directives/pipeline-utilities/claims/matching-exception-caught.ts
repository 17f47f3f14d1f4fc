import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { firstCaughtReason, ReasonedClaim } from "../../../harness/pipeline/claims.ts";
import { gateAccepts, gateOf } from "../../../harness/pipeline/gates.ts";

/**
 * `matching_exception_caught` (fixture 060; §6.3 `predicate`): the isolated error matches the
 * gate configured on the failure_isolation that caught it (its `predicate` / `catch`), the
 * middleware degraded, and the call completed.
 */
@directive({ name: "matching_exception_caught", at: "invariant", home: "pipeline-utilities" })
export class MatchingExceptionCaught extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  return firstCaughtReason(obs, ctx, (e, cfg) => {
    const gate = gateOf(cfg);
    if (gate.predicateCategory === undefined && gate.catchCategories === undefined) return `failure_isolation '${e.eventName}' configures no predicate or catch to match`;
    return gateAccepts(gate, e.exception) ? null : `the caught error (${e.caughtException.category ?? "uncategorized"}) does not match the configured gate`;
  });
}
