import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { nestedResume } from "../../../harness/checkpoint/nested-resume.ts";

/**
 * `no_inner_instance_skipped_across_enclosing_instances` (fixture 076; §10.11 *No mis-skip*): no inner
 * instance was skipped unless its own enclosing instance's entry marks it `completed`.
 */
@directive({ name: "no_inner_instance_skipped_across_enclosing_instances", at: "invariant", home: "pipeline-utilities" })
export class NoInnerInstanceSkippedAcrossEnclosingInstances {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const n = nestedResume(obs);
    if (typeof n === "string") return settle(value, ctx, n);
    settle(value, ctx, n.firstMismatch((o) => {
      const foreign = [...o.skipped].filter((i) => !o.ownCompleted.has(i));
      return foreign.length === 0 ? null : `outer instance ${o.index} skipped inner ${foreign.join(", ")} without its own completed entry`;
    }));
  }
}
