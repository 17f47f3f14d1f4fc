import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { noteSpanAssertion, useOtelCapture } from "../../harness/observability/capture.ts";
import { capturedSpans, forest, mainTraceId, SPAN_ENTRIES_SCHEMA, SPAN_FOREST, traceId, traceIds } from "../../harness/observability/spans.ts";
import { SyntheticBase64Slot } from "../../harness/observability/llm.ts";
import type { Resolved } from "../../src/conformance/directive.ts";

const ENTRIES: JsonSchema = SPAN_ENTRIES_SCHEMA;

/** The case's synthesized base64 blobs, per use (bound while the case configures, read at check). */
const synthesized = new WeakMap<Resolved, ReadonlySet<string>>();
const syntheticOf = (self: Resolved): string[] => [...(synthesized.get(self) ?? [])];

/**
 * `span_tree: [<span entry>, ...]` (conformance-adapter §5.8, §6.3; observability §4–§5): the spans
 * the call exported to openarmature's private exporter, restricted to the trace rooted in the
 * call's invocation span, joined into a forest by parent span id; roots and children complete and
 * unordered. Composes the OTel capture without the case declaring an observer.
 */
@directive({ name: "span_tree", at: "expected", home: "general", summary: "the call's span forest (its own trace)" })
export class SpanTree {
  readonly scope = "call" as const;
  readonly schema = ENTRIES;
  configure(_value: unknown, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
    noteSpanAssertion(ctx);
    synthesized.set(ctx.self, ctx.slot(SyntheticBase64Slot));
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const cap = capturedSpans(obs, ctx);
    if (cap === null) return;
    const main = mainTraceId(cap.spans);
    ctx.match(value, forest(cap.spans.filter((s) => traceId(s) === main), cap.fullPayloads, syntheticOf(ctx.self)), SPAN_FOREST);
  }
}

/**
 * `traces: [{trace_id, span_tree}, ...]` (conformance-adapter §5.8; observability §4.4): every
 * trace holding spans from the call — its own and each detached trace — complete and unordered;
 * `trace_id` compares as one value (usually a binding token), `span_tree` is that trace's forest.
 */
@directive({ name: "traces", at: "expected", home: "general", summary: "every trace of the call, detached ones included" })
export class Traces {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = {
    $defs: SPAN_ENTRIES_SCHEMA.$defs,
    type: "array",
    items: { type: "object", required: ["span_tree"], properties: { trace_id: { type: "string" }, span_tree: { type: "array", items: SPAN_ENTRIES_SCHEMA.items } }, additionalProperties: false },
  };
  configure(_value: unknown, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
    noteSpanAssertion(ctx);
    synthesized.set(ctx.self, ctx.slot(SyntheticBase64Slot));
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const cap = capturedSpans(obs, ctx);
    if (cap === null) return;
    const synthetic = syntheticOf(ctx.self);
    const actual = traceIds(cap.spans).map((id) => ({ trace_id: id, span_tree: forest(cap.spans.filter((s) => traceId(s) === id), cap.fullPayloads, synthetic) }));
    ctx.match(value, actual, Shapes.list("unordered", Shapes.named({ keys: { span_tree: SPAN_FOREST } })));
  }
}

/**
 * `detached_trace_count: <n>` (observability §4.4, fixture 008): the call produced this many
 * detached traces besides its own.
 */
@directive({ name: "detached_trace_count", at: "expected", home: "observability", summary: "number of detached traces of the call" })
export class DetachedTraceCount {
  readonly scope = "call" as const;
  readonly schema = { type: "integer", minimum: 0 };
  configure(_value: unknown, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
  }
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const cap = capturedSpans(obs, ctx);
    if (cap !== null) ctx.match(value, traceIds(cap.spans).length - 1, null);
  }
}
