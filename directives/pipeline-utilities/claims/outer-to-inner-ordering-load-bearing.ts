import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, ReasonedClaim } from "../../../harness/pipeline/claims.ts";
import { composition } from "../../../harness/pipeline/retry-reading.ts";

/**
 * `outer_to_inner_ordering_load_bearing` (fixture 061; §6.3 *Outer-to-inner ordering is
 * load-bearing*): the failure isolation is declared outside the retry, and the order shows in
 * the run — retry saw the raw transients and re-attempted (more than one attempt) before the
 * single isolation catch (per wrapped execution: each fan-out instance or branch has its own), rather
 * than isolation swallowing the first failure.
 */
@directive({ name: "outer_to_inner_ordering_load_bearing", at: "invariant", home: "pipeline-utilities" })
export class OuterToInnerOrderingLoadBearing extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  const events = caughtEvents(obs, ctx);
  if (typeof events === "string") return events;
  return firstReason(events, (e) => {
    const c = composition(obs, ctx, e);
    if (typeof c === "string") return c;
    if (!c.isolationOuter) return `failure_isolation '${e.eventName}' is declared inside the retry around '${e.nodeName}'`;
    if (c.started < 2) return `retry made ${c.started} attempt(s) before isolation caught: the order was not exercised`;
    // One catch per wrapped execution: a fan-out instance or a branch is its own execution (its lineage).
    const lineage = (x: typeof e): string => JSON.stringify([x.namespace, x.fanOutIndexChain, x.branchNameChain]);
    const same = events.filter((x) => x.nodeName === e.nodeName && x.eventName === e.eventName && lineage(x) === lineage(e)).length;
    return same === 1 ? null : `isolation caught ${same} times around one execution of '${e.nodeName}' (${lineage(e)})`;
  });
}
