import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { topFanOut } from "../../../harness/checkpoint/reading.ts";

/**
 * `instance_<i>_executes_<node>_on_resume` (fixture 050; §10.7): on resume, instance i of the top-level
 * fan-out ran node `<node>` (an `in_flight` instance restarts from its subgraph entry).
 */
@directive({ name: /instance_(?<index>\d+)_executes_(?<node>[A-Za-z0-9_]+)_on_resume/, at: "invariant", home: "pipeline-utilities" })
export class InstanceExecutesNodeOnResume {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const index = Number(ctx.self.groups["index"]);
    const node = ctx.self.groups["node"]!;
    const fan = topFanOut(obs);
    if (typeof fan === "string") return settle(value, ctx, fan);
    const ran = (fan.dispatched.get(index) ?? []).some((e) => e.nodeName === node && e.phase === "started");
    settle(value, ctx, ran ? null : `instance ${index} did not run '${node}' in this call`);
  }
}
