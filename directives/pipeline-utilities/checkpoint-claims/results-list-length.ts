import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { finalState } from "../../../harness/checkpoint/reading.ts";

/**
 * `results_list_length: <n>` (fixtures 049, 054; §10.11.1): the call's final `results` has exactly n entries
 * (one per instance).
 */
@directive({ name: "results_list_length", at: "invariant", home: "pipeline-utilities" })
export class ResultsListLength {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const s = finalState(obs, ctx);
    if (typeof s === "string") return ctx.fail(`${ctx.self.key}: ${s}`);
    const list = s["results"];
    ctx.match(value, Array.isArray(list) ? list.length : null, null);
  }
}
