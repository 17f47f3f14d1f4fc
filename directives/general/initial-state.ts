import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { INITIAL_STATE } from "../../harness/graph/executor.ts";


/**
 * `initial_state:` (conformance-adapter §5.2): the invocation's initial state; fields it omits
 * take the schema defaults, and the engine validates the result before running.
 */
@directive({ name: "initial_state", at: ["case", "invocation"], home: "general", summary: "the invocation's initial state" })
export class InitialState {
  readonly schema = { type: "object" };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    ctx.plan.setInput(INITIAL_STATE, value);
  }
}
