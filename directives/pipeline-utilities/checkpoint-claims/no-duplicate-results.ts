import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { finalState } from "../../../harness/checkpoint/reading.ts";

/**
 * `no_duplicate_results` (fixtures 048, 049, 054, 067; §10.11.1): the call's final `results` holds no entry
 * twice — no completed instance's contribution merged a second time.
 */
@directive({ name: "no_duplicate_results", at: "invariant", home: "pipeline-utilities" })
export class NoDuplicateResults {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const s = finalState(obs, ctx);
    if (typeof s === "string") return settle(value, ctx, s);
    const list = s["results"];
    if (!Array.isArray(list)) return settle(value, ctx, "the final state has no 'results' list");
    const keys = list.map((x) => JSON.stringify(x));
    const dup = keys.find((k, i) => keys.indexOf(k) !== i);
    settle(value, ctx, dup === undefined ? null : `'results' holds ${dup} more than once: ${JSON.stringify(list)}`);
  }
}
