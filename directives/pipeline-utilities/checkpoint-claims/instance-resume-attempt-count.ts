import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { topFanOut } from "../../../harness/checkpoint/reading.ts";

/**
 * `instance_<i>_resume_attempt_count: <n>` (fixture 053; §10.11.3): how many attempts instance i made on resume
 * — each attempt re-runs the instance's subgraph from its entry node, so: how often that node started.
 */
@directive({ name: /instance_(?<index>\d+)_resume_attempt_count/, at: "invariant", home: "pipeline-utilities" })
export class InstanceResumeAttemptCount {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const index = Number(ctx.self.groups["index"]);
    const fan = topFanOut(obs);
    if (typeof fan === "string") return ctx.fail(`${ctx.self.key}: ${fan}`);
    const events = fan.dispatched.get(index) ?? [];
    const entry = events.find((e) => e.phase === "started");
    const starts = entry === undefined ? 0 : events.filter((e) => e.phase === "started" && JSON.stringify(e.namespace) === JSON.stringify(entry.namespace)).length;
    ctx.match(value, starts, null);
  }
}
