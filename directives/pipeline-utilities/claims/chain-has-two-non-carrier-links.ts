import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, settle, walkedChain } from "../../../harness/pipeline/claims.ts";

/**
 * `chain_has_two_non_carrier_links` (fixture 068; §6.3, conformance-adapter §5.1 `cause`): the
 * caught error's chain holds exactly two non-carrier links (the surface re-categorization and the
 * originating cause the mock chained), and the reported chain lists both.
 */
@directive({ name: "chain_has_two_non_carrier_links", at: "invariant", home: "pipeline-utilities" })
export class ChainHasTwoNonCarrierLinks {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) => {
      const walked = walkedChain(e.exception).filter((l) => !l.carrier).length;
      const reported = e.caughtException.chain.filter((l) => !l.carrier).length;
      return walked === 2 && reported === 2 ? null : `the caught error has ${walked} non-carrier link(s); the event reports ${reported}`;
    }));
  }
}
