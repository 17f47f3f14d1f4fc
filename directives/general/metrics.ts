/**
 * Metrics (conformance-adapter §5.8 *metrics*, §6.9; observability §11): `enable_metrics` turns the
 * composed OTel observer's §11.1 flag on, and `metrics:` asserts the measurements the §6.9 capture
 * recorded for the call — a complete, unordered multiset; each entry one recording, matched on
 * `instrument`, `dimensions` (exact: §11.3 fixes the complete set) and, when written, `value`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { useOtelCapture } from "../../harness/observability/capture.ts";
import { MetricCapture } from "../../harness/observability/metrics.ts";

/** `enable_metrics: <bool>` (§6.9): the observer-level §11.1 flag, default off. */
@directive({ name: "enable_metrics", at: "case", home: "general", summary: "the OTel observer records §11 metrics", section: "§6.9" })
export class EnableMetrics {
  readonly schema: JsonSchema = { type: "boolean" };
  configure(value: boolean, ctx: ConfigureContext): void {
    useOtelCapture(ctx).enableMetrics = value;
  }
}

/**
 * `metrics: [{instrument, dimensions, value?}, ...]` (§5.8): the measurements recorded "in the
 * block's scope" — the call's in a block scoped to one call, every call's in the case-level block
 * of a multi-invocation case (§8.4).
 */
@directive({ name: "metrics", at: "expected", home: "general", summary: "the block's metric measurements (a multiset)", section: "§5.8" })
export class Metrics {
  readonly schema: JsonSchema = {
    type: "array",
    items: {
      type: "object",
      required: ["instrument", "dimensions"],
      additionalProperties: false,
      properties: { instrument: { type: "string", minLength: 1 }, dimensions: { type: "object" }, value: { type: "number" } },
    },
  };
  configure(_value: unknown, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const where = ctx.locate(ctx.self.path);
    const measurements = obs.calls.length > 0 ? obs.calls.flatMap((c) => c.get(MetricCapture, where)) : obs.get(MetricCapture, where);
    ctx.match(value, measurements, Shapes.list("unordered", Shapes.named({ keys: { dimensions: Shapes.exact() } })));
  }
}
