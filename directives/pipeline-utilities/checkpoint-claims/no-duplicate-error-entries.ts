import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { finalState } from "../../../harness/checkpoint/reading.ts";

/**
 * `no_duplicate_error_entries` (fixture 052; §10.11.2): the call's final `errors` holds one entry per failed
 * instance — a rolled-forward error contribution was not recorded again.
 */
@directive({ name: "no_duplicate_error_entries", at: "invariant", home: "pipeline-utilities" })
export class NoDuplicateErrorEntries {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const s = finalState(obs, ctx);
    if (typeof s === "string") return settle(value, ctx, s);
    const list = s["errors"];
    if (!Array.isArray(list)) return settle(value, ctx, "the final state has no 'errors' list");
    const keys = list.map((x) => JSON.stringify(x));
    const dup = keys.find((k, i) => keys.indexOf(k) !== i);
    const idx = list.map((x) => (typeof x === "object" && x !== null ? (x as Record<string, unknown>)["fan_out_index"] : undefined)).filter((x) => x !== undefined);
    const dupIdx = idx.find((k, i) => idx.indexOf(k) !== i);
    settle(value, ctx, dup === undefined && dupIdx === undefined ? null : `'errors' records an instance twice: ${JSON.stringify(list)}`);
  }
}
