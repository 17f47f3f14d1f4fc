/**
 * LLM provider span assertions (conformance-adapter §5.5, §5.11; observability §5.5): `llm_spans`
 * (exhaustive, positional per attempt; a bare llm-provider call is traced inside a one-node
 * invocation), `llm_span_attributes` / `llm_span_attributes_absent` (the call's LLM span),
 * `no_llm_provider_span`, and `response_usage` (the usage record the call's response carried).
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { LLM_CASE } from "../../harness/llm/case.ts";
import { LlmCallFacet } from "../../harness/llm/facets.ts";
import { tracedCall } from "../../harness/llm/traced.ts";
import { callsProvider } from "../../harness/provider-context.ts";
import { noteSpanAssertion, OtelCaptureSlot, useOtelCapture } from "../../harness/observability/capture.ts";
import { LlmResponses, useLlmResponses } from "../../harness/observability/llm.ts";
import { ABSENT, capturedSpans, statusName } from "../../harness/observability/spans.ts";

export const LLM_SPAN = "openarmature.llm.complete";

/** Every span of the call: a traced bare llm-provider call's, else the §6.3 capture's (null: already reported). */
export function callSpans(obs: Observation, ctx: CheckContext): readonly ReadableSpan[] | null {
  const call = obs.tryGet(LlmCallFacet);
  if (call?.spans !== undefined) return call.spans as ReadableSpan[];
  return capturedSpans(obs, ctx)?.spans ?? null;
}

export const byStart = (a: ReadableSpan, b: ReadableSpan): number => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1];

/** The call's LLM provider spans in start order. */
export function llmSpansOf(obs: Observation, ctx: CheckContext): ReadableSpan[] | null {
  return callSpans(obs, ctx)?.filter((s) => s.name === LLM_SPAN).sort(byStart) ?? null;
}

/**
 * Compose span capture for the case, by what it runs (decided once the case is configured): a case
 * making bare provider calls (`call:` / `calls:`, in any directory) traces each call; any other case
 * gets the §6.3 capture of its graph.
 */
export function traceCalls(ctx: ConfigureContext): void {
  ctx.whenConfigured(() => {
    if (callsProvider(ctx, "llm")) {
      // The case's otel_observer flags (§5.5.4 / §5.5.5), which the traced call's observer honors.
      const flags = ctx.slot(OtelCaptureSlot).flags;
      ctx.slot(LLM_CASE).traced = (run) => tracedCall(run, flags);
    } else useOtelCapture(ctx);
  });
}

function spanRecord(s: ReadableSpan): Record<string, unknown> {
  const attributes = { ...s.attributes };
  const category = attributes["openarmature.error.category"];
  return {
    attempt_index: attributes["openarmature.llm.attempt_index"],
    attributes,
    attributes_absent: attributes,
    error_category: statusName(s) === "ERROR" ? (category ?? null) : null,
  };
}

/** `llm_spans: [{attempt_index?, attributes?, attributes_absent?, error_category?}, ...]` — one entry per attempt, in order (§5.11). */
@directive({ name: "llm_spans", at: "expected", home: "general", section: "conformance-adapter §5.11", summary: "the call's LLM provider spans, one per attempt, in order" })
export class LlmSpans {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = {
    type: "array",
    items: {
      type: "object",
      additionalProperties: false,
      properties: { attempt_index: { type: "integer" }, attributes: { type: "object" }, attributes_absent: { type: "array", items: { type: "string" } }, error_category: { type: ["string", "null"] } },
    },
  };
  configure(_v: unknown, ctx: ConfigureContext): void {
    traceCalls(ctx);
    noteSpanAssertion(ctx);
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const spans = llmSpansOf(obs, ctx);
    if (spans === null) return;
    // error_category: null is "this attempt succeeded" — compared as JSON (null is not "absent").
    const entry = Shapes.named({ keys: { attributes: Shapes.typed(Shapes.named()), attributes_absent: ABSENT, error_category: Shapes.document() } });
    ctx.match(value, spans.map(spanRecord), Shapes.list("ordered", entry));
  }
}

/** The one LLM span of the call (a case making several checks the first). */
function theSpan(obs: Observation, ctx: CheckContext): ReadableSpan | null {
  const spans = llmSpansOf(obs, ctx);
  if (spans === null) return null;
  if (spans.length === 0) {
    ctx.fail("the call produced no openarmature.llm.complete span");
    return null;
  }
  return spans[0]!;
}

/** `llm_span_attributes: {<key>: <value>}` — the call's LLM span carries them (span-attribute typing). */
@directive({ name: "llm_span_attributes", at: "expected", home: "observability", section: "observability §5.5", summary: "attributes of the call's LLM provider span (subset)" })
export class LlmSpanAttributes {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "object", minProperties: 1 };
  configure(_v: unknown, ctx: ConfigureContext): void {
    traceCalls(ctx);
  }
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const s = theSpan(obs, ctx);
    if (s) ctx.match(value, { ...s.attributes }, Shapes.typed(Shapes.named()));
  }
}

/** `llm_span_attributes_absent: [<key>, ...]` — the call's LLM span carries none of them. */
@directive({ name: "llm_span_attributes_absent", at: "expected", home: "observability", section: "observability §5.5", summary: "attributes the call's LLM provider span must not carry" })
export class LlmSpanAttributesAbsent {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "array", minItems: 1, items: { type: "string" } };
  configure(_v: unknown, ctx: ConfigureContext): void {
    traceCalls(ctx);
  }
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    const s = theSpan(obs, ctx);
    if (!s) return;
    const present = value.filter((k) => Object.hasOwn(s.attributes, k));
    if (present.length) ctx.fail(`the LLM span carries ${present.join(", ")}`, { expected: [], actual: present });
  }
}

/** `no_llm_provider_span: true` — the call produced no `openarmature.llm.complete` span. */
@directive({ name: "no_llm_provider_span", at: "expected", home: "observability", section: "observability §5.5", summary: "the call produced no LLM provider span" })
export class NoLlmProviderSpan {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "boolean" };
  configure(_v: unknown, ctx: ConfigureContext): void {
    traceCalls(ctx);
  }
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const spans = llmSpansOf(obs, ctx);
    if (spans !== null && (spans.length === 0) !== value) ctx.fail(`the call produced ${spans.length} openarmature.llm.complete spans`, { expected: value, actual: spans.length === 0 });
  }
}

/** `response_usage: {...}` — the usage record of the call's (last) LLM response (llm-provider §6; null counters match null or missing). */
@directive({ name: "response_usage", at: "expected", home: "observability", section: "observability §5.5.3.1", summary: "the usage record the call's LLM response carried" })
export class ResponseUsage {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "object" };
  configure(_v: unknown, ctx: ConfigureContext): void {
    useLlmResponses(ctx);
  }
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const responses = obs.get(LlmResponses, ctx.locate(ctx.self.path));
    const last = responses[responses.length - 1];
    if (!last) ctx.fail("the call received no LLM response");
    else ctx.match(value, last.usage, Shapes.record());
  }
}

