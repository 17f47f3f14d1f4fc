import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, settle, walkedChain } from "../../../harness/pipeline/claims.ts";

/**
 * `caught_exception_category_null_for_non_categorized` (fixture 063; §6.3 *Observability*): the
 * caught error carries no category (walking its cause chain finds no non-carrier link with one),
 * and the event reports `caught_exception.category` as null — not a fabricated value.
 */
@directive({ name: "caught_exception_category_null_for_non_categorized", at: "invariant", home: "pipeline-utilities" })
export class CaughtExceptionCategoryNullForNonCategorized {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) => {
      const categorized = walkedChain(e.exception).find((l) => !l.carrier && l.category !== null);
      if (categorized) return `the caught error is categorized (${categorized.category})`;
      return e.caughtException.category === null ? null : `caught_exception.category is ${JSON.stringify(e.caughtException.category)}`;
    }));
  }
}
