import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, settle, walkedChain } from "../../../harness/pipeline/claims.ts";

/**
 * `node_level_chain_is_single_non_carrier_link` (fixture 066; §6.3 *Cause fidelity*): a node-level
 * failure isolation caught the node's raw error — no engine carrier — so the chain is that one
 * non-carrier link.
 */
@directive({ name: "node_level_chain_is_single_non_carrier_link", at: "invariant", home: "pipeline-utilities" })
export class NodeLevelChainIsSingleNonCarrierLink {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) => {
      const chain = e.caughtException.chain;
      if (walkedChain(e.exception).length !== 1) return "the caught error has a cause chain longer than one link";
      return chain.length === 1 && chain[0]!.carrier === false ? null : `the chain is ${JSON.stringify(chain)}`;
    }));
  }
}
