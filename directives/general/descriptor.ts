import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { suspendedCall } from "../../harness/suspension/reading.ts";

/**
 * `descriptor: {signal_id, metadata}` or `{signal_id, metadata_includes}` (conformance-adapter
 * §5.8): the signal descriptor on the call's suspended outcome (suspension §5). `metadata` is exact;
 * `metadata_includes` matches by named keys (the fan-out / parallel-branches annotation of
 * `fan_out_index` / `branch_name`, §8.2 / §8.3, beside the caller's keys).
 */
@directive({ name: "descriptor", at: "expected", home: "general", summary: "the suspended outcome's signal descriptor" })
export class DescriptorAssertion {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    required: ["signal_id"],
    additionalProperties: false,
    properties: { signal_id: { type: "string" }, metadata: { type: "object" }, metadata_includes: { type: "object" } },
    not: { required: ["metadata", "metadata_includes"] },
  };
  check(value: { signal_id: string; metadata?: Record<string, unknown>; metadata_includes?: Record<string, unknown> }, obs: Observation, ctx: CheckContext): void {
    const s = suspendedCall(obs, ctx);
    if (s === null) return;
    ctx.match(value.signal_id, s.descriptor.signal_id, null, `${ctx.label}.signal_id`);
    if (value.metadata !== undefined) ctx.match(value.metadata, s.descriptor.metadata ?? null, Shapes.exact(), `${ctx.label}.metadata`);
    if (value.metadata_includes !== undefined) ctx.match(value.metadata_includes, s.descriptor.metadata ?? null, Shapes.named(), `${ctx.label}.metadata_includes`);
  }
}
