import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { nestedResume } from "../../../harness/checkpoint/nested-resume.ts";

/**
 * `all_inner_instances_re_run_in_every_outer_instance` (fixture 076): every inner index ran in every outer
 * instance on resume (a full re-run).
 */
@directive({ name: "all_inner_instances_re_run_in_every_outer_instance", at: "invariant", home: "pipeline-utilities" })
export class AllInnerInstancesReRunInEveryOuterInstance {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const n = nestedResume(obs);
    if (typeof n === "string") return settle(value, ctx, n);
    settle(value, ctx, n.firstMismatch((o) => (o.executed.size === o.count ? null : `outer instance ${o.index} ran inner ${o.fmtExecuted()} of ${o.count}`)));
  }
}
