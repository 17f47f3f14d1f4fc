import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { nestedResume } from "../../../harness/checkpoint/nested-resume.ts";

/**
 * `each_outer_instance_skips_only_its_own_completed_inner_instances` (fixture 076; §10.11): per outer instance,
 * the skipped inner indices equal that instance's lineage-matched `completed` set, and some outer
 * instance did skip.
 */
@directive({ name: "each_outer_instance_skips_only_its_own_completed_inner_instances", at: "invariant", home: "pipeline-utilities" })
export class EachOuterInstanceSkipsOnlyItsOwnCompletedInnerInstances {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const n = nestedResume(obs);
    if (typeof n === "string") return settle(value, ctx, n);
    const mismatch = n.firstMismatch((o) => (o.skippedEquals(o.ownCompleted) ? null : `outer instance ${o.index} skipped ${o.fmtSkipped()}, not its own ${o.fmtOwn()}`));
    settle(value, ctx, mismatch ?? (n.outer.every((o) => o.skipped.size === 0) ? "no outer instance skipped anything" : null));
  }
}
