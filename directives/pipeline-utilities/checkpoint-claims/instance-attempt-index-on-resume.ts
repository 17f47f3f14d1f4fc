import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { topFanOut } from "../../../harness/checkpoint/reading.ts";

/**
 * `instance_<i>_attempt_index_on_resume: <n>` (fixtures 051, 053; §10.6): the attempt index instance i's
 * execution started with on resume (retry budgets restart at 0).
 */
@directive({ name: /instance_(?<index>\d+)_attempt_index_on_resume/, at: "invariant", home: "pipeline-utilities" })
export class InstanceAttemptIndexOnResume {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const index = Number(ctx.self.groups["index"]);
    const fan = topFanOut(obs);
    if (typeof fan === "string") return ctx.fail(`${ctx.self.key}: ${fan}`);
    const first = (fan.dispatched.get(index) ?? []).find((e) => e.phase === "started");
    if (first === undefined) return ctx.fail(`${ctx.self.key}: instance ${index} was not dispatched in this call`);
    ctx.match(value, first.attemptIndex, null);
  }
}
