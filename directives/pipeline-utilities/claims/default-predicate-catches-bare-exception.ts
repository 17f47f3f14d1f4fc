import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { firstCaughtReason, ReasonedClaim, walkedChain } from "../../../harness/pipeline/claims.ts";

/**
 * `default_predicate_catches_bare_exception` (fixture 063; §6.3 `predicate` default always-true):
 * a failure isolation configured with no `predicate` and no `catch` caught an error that carries
 * no category anywhere in its chain, and the call completed.
 */
@directive({ name: "default_predicate_catches_bare_exception", at: "invariant", home: "pipeline-utilities" })
export class DefaultPredicateCatchesBareException extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  return firstCaughtReason(obs, ctx, (e, cfg) => {
    if (cfg.entry.predicate !== undefined || cfg.entry.catch !== undefined) return `failure_isolation '${e.eventName}' configures a predicate / catch`;
    const categorized = walkedChain(e.exception).find((l) => !l.carrier && l.category !== null);
    return categorized ? `the caught error is categorized (${categorized.category})` : null;
  });
}
