import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { capturedEvents } from "../../../harness/pipeline/reading.ts";
import { caughtEvents, firstReason, ReasonedClaim, wrappedNodeEvents } from "../../../harness/pipeline/claims.ts";
import { composition } from "../../../harness/pipeline/retry-reading.ts";

/**
 * `retry_exhausts_before_isolation_catches` (fixture 061; §6.3 three-piece pattern): the inner
 * retry ran all its `max_attempts` attempts, each ending in an error, and only then did the outer
 * failure isolation catch — its event is delivered after the last attempt's completed event and
 * names the final attempt (`attempt_index = max_attempts - 1`).
 */
@directive({ name: "retry_exhausts_before_isolation_catches", at: "invariant", home: "pipeline-utilities" })
export class RetryExhaustsBeforeIsolationCatches extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  const events = caughtEvents(obs, ctx);
  if (typeof events === "string") return events;
  const all = capturedEvents(obs, ctx);
  return firstReason(events, (e) => {
    const c = composition(obs, ctx, e);
    if (typeof c === "string") return c;
    if (c.started !== c.maxAttempts || c.failed !== c.maxAttempts) {
      return `'${e.nodeName}' ran ${c.started} attempt(s), ${c.failed} failed, before isolation caught (retry max_attempts ${c.maxAttempts})`;
    }
    const lastCompleted = wrappedNodeEvents(obs, ctx, e).filter((n) => n.phase === "completed").pop();
    if (lastCompleted !== undefined && all.indexOf(e) < all.indexOf(lastCompleted)) return "the failure-isolation event was delivered before the last attempt completed";
    return e.attemptIndex === c.maxAttempts - 1 ? null : `the event's lineage names attempt ${e.attemptIndex}, not the final attempt ${c.maxAttempts - 1}`;
  });
}
