import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, settle, walkedChain } from "../../../harness/pipeline/claims.ts";

/**
 * `uncategorized_cause_yields_null_derived_category` (fixture 066; §6.3): no non-carrier link of the
 * caught error's chain carries a category, so the derived `category` is null while the derived
 * `message` is still the outermost non-carrier link's.
 */
@directive({ name: "uncategorized_cause_yields_null_derived_category", at: "invariant", home: "pipeline-utilities" })
export class UncategorizedCauseYieldsNullDerivedCategory {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) => {
      const walked = walkedChain(e.exception);
      const first = walked.find((l) => !l.carrier);
      if (first === undefined) return "the caught error's chain has no non-carrier link";
      const categorized = walked.find((l) => !l.carrier && l.category !== null);
      if (categorized) return `a non-carrier link is categorized (${categorized.category})`;
      if (e.caughtException.category !== null) return `derived category is ${JSON.stringify(e.caughtException.category)}`;
      return e.caughtException.message === first.message ? null : `derived message is ${JSON.stringify(e.caughtException.message)}, expected ${JSON.stringify(first.message)}`;
    }));
  }
}
