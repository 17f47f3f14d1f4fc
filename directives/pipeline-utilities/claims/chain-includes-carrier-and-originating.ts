import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, settle, walkedChain } from "../../../harness/pipeline/claims.ts";

/**
 * `chain_includes_carrier_and_originating` (fixture 066; §6.3 *Cause fidelity*): the reported
 * chain starts with the engine's carrier link(s), flagged `carrier: true`, and ends with the
 * originating raise — the innermost link of the caught error's cause chain, a non-carrier.
 */
@directive({ name: "chain_includes_carrier_and_originating", at: "invariant", home: "pipeline-utilities" })
export class ChainIncludesCarrierAndOriginating {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) => {
      const chain = e.caughtException.chain;
      const origin = walkedChain(e.exception).pop();
      const last = chain[chain.length - 1];
      if (chain[0]?.carrier !== true) return "the chain's outermost link is not a carrier";
      if (last === undefined || last.carrier || origin === undefined) return "the chain does not end in a non-carrier link";
      return last.message === origin.message && last.category === origin.category ? null : `the chain ends in ${JSON.stringify(last)}, the originating raise is ${JSON.stringify(origin)}`;
    }));
  }
}
