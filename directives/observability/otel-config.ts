/**
 * The OTel observer's configuration for a case (conformance-adapter §5.5, observability §5.5.4 /
 * §5.5.5 / §6): `otel_observer: {disable_provider_payload, disable_genai_semconv,
 * payload_byte_cap, attached}`, the case-level flags the observability fixtures write
 * (`disable_llm_spans`, `disable_provider_payload`, `disable_genai_semconv`), and the §6 isolation
 * check — `caller_global_otel_active` installs a second exporter on the OTel global
 * TracerProvider; `also_emits_via_global_tracer` makes a node emit a span through the global
 * tracer (an external auto-instrumentation stand-in); `span_tree_private` / `span_tree_global` /
 * `no_openarmature_spans_on_global` read the two exporters.
 */
import { trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { detachOtelObserver, useOtelCapture, type OtelCaptureState } from "../../harness/observability/capture.ts";
import { capturedSpans, forest, SPAN_ENTRIES_SCHEMA, SPAN_FOREST } from "../../harness/observability/spans.ts";
import { GlobalSpanCapture, useGlobalOtel } from "../../harness/observability/global-otel.ts";
import { LangfuseCaptureSlot } from "../../harness/observability/langfuse.ts";

type Flags = OtelCaptureState["flags"];
function flagsOf(ctx: ConfigureContext): Flags {
  return useOtelCapture(ctx).flags;
}

/**
 * `otel_observer: {disable_provider_payload?, disable_genai_semconv?, payload_byte_cap?, attached?}`
 * (§5.5), plus the observer's other flags the seed configures "the same way": `disable_llm_spans`
 * and §6.9's `enable_metrics` (observability §11.1), each also written case-level.
 */
@directive({ name: "otel_observer", at: "case", home: "general", section: "conformance-adapter §5.5", summary: "the composed OTel observer's §5.5.4 flags, payload cap, attached" })
export class OtelObserverConfig {
  readonly schema: JsonSchema = {
    type: "object",
    additionalProperties: false,
    properties: {
      disable_provider_payload: { type: "boolean" },
      disable_genai_semconv: { type: "boolean" },
      disable_llm_spans: { type: "boolean" },
      payload_byte_cap: { type: "integer", minimum: 1 },
      attached: { type: "boolean" },
      enable_metrics: { type: "boolean" },
    },
  };
  configure(
    value: { disable_provider_payload?: boolean; disable_genai_semconv?: boolean; disable_llm_spans?: boolean; payload_byte_cap?: number; attached?: boolean; enable_metrics?: boolean },
    ctx: ConfigureContext,
  ): void {
    const f: Flags = flagsOf(ctx);
    if (value.disable_provider_payload !== undefined) f.disableProviderPayload = value.disable_provider_payload;
    if (value.disable_genai_semconv !== undefined) f.disableGenaiSemconv = value.disable_genai_semconv;
    if (value.disable_llm_spans !== undefined) f.disableLlmSpans = value.disable_llm_spans;
    if (value.payload_byte_cap !== undefined) f.payloadByteCap = value.payload_byte_cap;
    if (value.attached === false) detachOtelObserver(ctx);
    if (value.enable_metrics !== undefined) useOtelCapture(ctx).enableMetrics = value.enable_metrics;
  }
}

function flagDirective(name: string, apply: (f: Flags, v: boolean) => void, summary: string): void {
  const cls = class {
    readonly schema: JsonSchema = { type: "boolean" };
    configure(value: boolean, ctx: ConfigureContext): void {
      apply(flagsOf(ctx), value);
    }
  };
  Object.defineProperty(cls, "name", { value: name });
  directive({ name, at: "case", home: "observability", section: "observability §5.5.4", summary })(cls);
}

flagDirective("disable_llm_spans", (f, v) => (f.disableLlmSpans = v), "construct the OTel observer with the §5.5 LLM-span opt-out");
/**
 * The bare case-level `disable_provider_payload` (the pre-0121 form, conformance-adapter §5.5
 * migrated it to `otel_observer` / `langfuse_observer`): a case-wide setting, so it configures
 * every observer the case composes — the OTel observer, and the Langfuse observer when the case
 * composes one and its own block does not set the flag (fixture 098 asserts the Langfuse side,
 * 087 / 096 the OTel side). It composes no Langfuse observer by itself.
 */
@directive({ name: "disable_provider_payload", at: "case", home: "observability", section: "observability §5.5.4", summary: "§5.5.4 payload flag for every composed observer (pre-0121 case-level form; default true)" })
export class DisableProviderPayload {
  readonly schema: JsonSchema = { type: "boolean" };
  configure(value: boolean, ctx: ConfigureContext): void {
    flagsOf(ctx).disableProviderPayload = value;
    ctx.slot(LangfuseCaptureSlot).caseDisableProviderPayload = value;
  }
}
flagDirective("disable_genai_semconv", (f, v) => (f.disableGenaiSemconv = v), "the OTel observer's §5.5.4 GenAI semconv flag (default false)");

/**
 * `caller_global_otel_active: true` (observability §6): a second in-memory exporter on the OTel
 * global TracerProvider, registered for the case's calls and unregistered after each (the harness
 * piece harness/observability/global-otel.ts, which the Langfuse leak assertions read too).
 */
@directive({ name: "caller_global_otel_active", at: "case", home: "observability", section: "observability §6", summary: "a second exporter on the OTel global TracerProvider" })
export class CallerGlobalOtelActive {
  readonly schema: JsonSchema = { type: "boolean" };
  configure(value: boolean, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
    if (value) useGlobalOtel(ctx);
  }
}

/** `also_emits_via_global_tracer: {span_name}` (observability 005): the node starts and ends one span through the OTel global tracer. */
@directive({ name: "also_emits_via_global_tracer", at: "node", home: "observability", section: "observability §6", summary: "node emits one span through the global tracer (external instrumentation stand-in)" })
export class AlsoEmitsViaGlobalTracer {
  readonly schema: JsonSchema = { type: "object", required: ["span_name"], additionalProperties: false, properties: { span_name: { type: "string", minLength: 1 } } };
  contribute(value: { span_name: string }, node: NodeAssembly, _env: BuildEnv, _at: KeyPath): void {
    node.steps.push(() => {
      trace.getTracer("external-instrumentation").startSpan(value.span_name).end();
    });
  }
}

function globalSpans(obs: Observation, ctx: CheckContext): readonly ReadableSpan[] {
  return obs.get(GlobalSpanCapture, ctx.locate(ctx.self.path));
}

/** `span_tree_private: [...]`: the forest on openarmature's private exporter (every trace of the call). */
@directive({ name: "span_tree_private", at: "expected", home: "observability", section: "observability §6", summary: "span forest on openarmature's private exporter" })
export class SpanTreePrivate {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = SPAN_ENTRIES_SCHEMA;
  configure(_v: unknown, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const cap = capturedSpans(obs, ctx);
    if (cap) ctx.match(value, forest(cap.spans), SPAN_FOREST);
  }
}

/** `span_tree_global: [...]`: the forest on the global provider's exporter (needs caller_global_otel_active). */
@directive({ name: "span_tree_global", at: "expected", home: "observability", section: "observability §6", summary: "span forest on the OTel global provider's exporter" })
export class SpanTreeGlobal {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = SPAN_ENTRIES_SCHEMA;
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    ctx.match(value, forest(globalSpans(obs, ctx)), SPAN_FOREST);
  }
}

/** `no_openarmature_spans_on_global: true`: no span on the global exporter carries an `openarmature.*` name or attribute. */
@directive({ name: "no_openarmature_spans_on_global", at: "expected", home: "observability", section: "observability §6", summary: "no openarmature span reached the global provider" })
export class NoOpenarmatureSpansOnGlobal {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const ours = globalSpans(obs, ctx).filter((s) => s.name.startsWith("openarmature.") || Object.keys(s.attributes).some((k) => k.startsWith("openarmature.")));
    if ((ours.length === 0) !== value) ctx.fail(`${ours.length} openarmature spans reached the global exporter (${ours.map((s) => s.name).join(", ")})`, { expected: value, actual: ours.length === 0 });
  }
}
