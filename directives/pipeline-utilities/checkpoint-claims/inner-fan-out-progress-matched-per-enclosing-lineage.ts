import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { nestedResume } from "../../../harness/checkpoint/nested-resume.ts";

/**
 * `inner_fan_out_progress_matched_per_enclosing_lineage` (fixture 076; §10.11): each re-entering outer
 * instance's inner skips are exactly the `completed` set of the saved inner entry whose
 * `enclosing_fan_out_lineage` is its own — never a sibling's.
 */
@directive({ name: "inner_fan_out_progress_matched_per_enclosing_lineage", at: "invariant", home: "pipeline-utilities" })
export class InnerFanOutProgressMatchedPerEnclosingLineage {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const n = nestedResume(obs);
    if (typeof n === "string") return settle(value, ctx, n);
    settle(value, ctx, n.firstMismatch((o) => (o.skippedEquals(o.ownCompleted) ? null : `outer instance ${o.index} skipped ${o.fmtSkipped()}, its own entry has ${o.fmtOwn()} completed`)));
  }
}
