import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { topFanOut } from "../../harness/checkpoint/reading.ts";

/**
 * `instances_executed_during_resume: [<index>, ...]` (conformance-adapter §5.8 *Checkpoint
 * records*), under a `resume:` block's `expected:`: every instance of the case's top-level fan-out
 * the resumed call dispatched (any node event inside it), once each. Complete and unordered.
 */
@directive({ name: "instances_executed_during_resume", at: "expected", home: "general", summary: "fan-out instances the resumed call dispatched" })
export class InstancesExecutedDuringResume {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "integer", minimum: 0 } };
  check(value: number[], obs: Observation, ctx: CheckContext): void {
    const fan = topFanOut(obs);
    if (typeof fan === "string") return ctx.fail(fan);
    ctx.match(value, [...fan.dispatched.keys()].sort((a, b) => a - b), Shapes.list("unordered"));
  }
}
