import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { completedState } from "../../harness/graph/reading.ts";

/**
 * `final_state:` (conformance-adapter §5.8): the invocation's final state, exact (§8.4): every
 * declared field and no other key, plain data compared exactly at every depth.
 */
@directive({ name: "final_state", at: "expected", home: "general", summary: "the final state, exact" })
export class FinalState {
  readonly schema = { type: "object" };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const state = completedState(obs, ctx);
    if (state !== null) ctx.match(value, state, Shapes.exact());
  }
}
