import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { checkpointCase } from "../../harness/checkpoint/case.ts";
import { CrashFired } from "../../harness/checkpoint/facets.ts";
import { callOf } from "../../harness/checkpoint/reading.ts";

type CrashValue = { after_node: string } | { after_fan_out_instance: { node: string; index: number } };

/**
 * `crash_injection: {after_node: <node>} | {after_fan_out_instance: {node, index}}`
 * (conformance-adapter §5.6): run the first run until the named boundary's checkpoint save has
 * fired, then abandon it — the invocation's persistence dies at that point (nothing more is
 * written) and the run is cancelled at its next node boundary — so `resume:` loads exactly that
 * checkpoint. The first run has no asserted outcome. A boundary that never fires fails the case
 * (the resume would not test what the fixture says).
 */
@directive({ name: "crash_injection", at: "case", home: "general", summary: "abandon the first run right after a checkpoint boundary" })
export class CrashInjection {
  readonly schema = {
    type: "object",
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
    properties: {
      after_node: { type: "string", minLength: 1 },
      after_fan_out_instance: {
        type: "object",
        required: ["node", "index"],
        additionalProperties: false,
        properties: { node: { type: "string", minLength: 1 }, index: { type: "integer", minimum: 0 } },
      },
    },
  };
  configure(value: CrashValue, ctx: ConfigureContext): void {
    checkpointCase(ctx).crash =
      "after_node" in value
        ? { kind: "after_node", node: value.after_node }
        : { kind: "after_fan_out_instance", node: value.after_fan_out_instance.node, index: value.after_fan_out_instance.index };
  }
  check(value: CrashValue, obs: Observation, ctx: CheckContext): void {
    const first = callOf(obs, "first_run");
    if (typeof first === "string") return ctx.fail(`crash_injection: ${first}`);
    if (first.tryGet(CrashFired) !== true) {
      ctx.fail(`crash_injection: the boundary ${JSON.stringify(value)} never fired during the first run (its save never happened)`);
    }
  }
}
