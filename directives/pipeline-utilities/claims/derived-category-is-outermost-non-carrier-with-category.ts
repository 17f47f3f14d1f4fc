import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, settle, walkedChain } from "../../../harness/pipeline/claims.ts";

/**
 * `derived_category_is_outermost_non_carrier_with_category` (fixtures 066, 068; §6.3, §6.4): the
 * event's `chain` is the caught error's cause chain (walked here independently: same links,
 * carriers flagged), and its derived `category` / `message` are those of the outermost non-carrier
 * link with a category (else null, with the outermost non-carrier link's message).
 */
@directive({ name: "derived_category_is_outermost_non_carrier_with_category", at: "invariant", home: "pipeline-utilities" })
export class DerivedCategoryIsOutermostNonCarrierWithCategory {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) => {
      const walked = walkedChain(e.exception);
      const reported = e.caughtException.chain;
      if (walked.length !== reported.length || walked.some((l, i) => l.carrier !== reported[i]!.carrier || l.category !== reported[i]!.category)) {
        return `the reported chain ${JSON.stringify(reported)} is not the caught error's chain ${JSON.stringify(walked)}`;
      }
      const hit = walked.find((l) => !l.carrier && l.category !== null);
      const category = hit?.category ?? null;
      const message = (hit ?? walked.find((l) => !l.carrier) ?? walked[0])?.message;
      if (e.caughtException.category !== category) return `derived category is ${JSON.stringify(e.caughtException.category)}, the outermost non-carrier with a category is ${JSON.stringify(category)}`;
      return e.caughtException.message === message ? null : `derived message is ${JSON.stringify(e.caughtException.message)}, expected ${JSON.stringify(message)}`;
    }));
  }
}
