/**
 * Tool-execution spans (observability §5.5.11), rendered from the typed tool events (§5.5.12): one
 * `openarmature.tool.call` span per execution, timed from scope entry to outcome, with the
 * `openarmature.tool.*` attributes (no `gen_ai.tool.*` in v1); arguments / result are payload
 * (`disableProviderPayload`, default on; §5.5.5 truncation). A failure is `ERROR` with the standard
 * `error.type` and an exception event. `disable_llm_spans` does not gate tool spans.
 */
import { SpanKind, SpanStatusCode, type Attributes, type Context, type Tracer } from "@opentelemetry/api";
import { canonicalJson } from "../llm/canonical-json.ts";
import type { ToolCallEvent, ToolCallFailedEvent } from "../llm/tool-events.ts";
import type { LlmSpanFlags } from "./llm-spans.ts";
import { DEFAULT_PAYLOAD_BYTE_CAP, truncatePayload } from "./truncation.ts";

export const TOOL_SPAN_NAME = "openarmature.tool.call";

type ToolEvent = ToolCallEvent | ToolCallFailedEvent;

/** JSON for a result as the tool produced it (a string stays a JSON string). */
function encode(v: unknown): string {
  return v === undefined ? "null" : canonicalJson(v);
}

/** The §5.5.11 attribute set of a tool event (cross-cutting attributes excluded). */
export function toolSpanAttributes(e: ToolEvent, flags: LlmSpanFlags = {}): Attributes {
  const out: Attributes = { "openarmature.tool.name": e.toolName };
  if (e.toolCallId !== null) out["openarmature.tool.call.id"] = e.toolCallId;
  if (flags.disableProviderPayload === false) {
    const cap = flags.payloadByteCap ?? DEFAULT_PAYLOAD_BYTE_CAP;
    out["openarmature.tool.call.arguments"] = truncatePayload(encode(e.arguments), cap);
    if (e.kind === "tool_call") out["openarmature.tool.call.result"] = truncatePayload(encode(e.result), cap);
  }
  if (e.kind === "tool_call_failed") out["error.type"] = e.errorType ?? "Error";
  return out;
}

/** Start and end the span of one tool execution under `parent`, with `cross` (§5.6) added. */
export function renderToolSpan(tracer: Tracer, e: ToolEvent, parent: Context, cross: Attributes, flags: LlmSpanFlags = {}): void {
  const span = tracer.startSpan(TOOL_SPAN_NAME, { kind: SpanKind.INTERNAL, attributes: { ...toolSpanAttributes(e, flags), ...cross }, startTime: e.startTime }, parent);
  if (e.kind === "tool_call_failed") {
    span.setStatus({ code: SpanStatusCode.ERROR, message: e.errorType ?? "Error" });
    span.recordException(e.error instanceof Error ? e.error : { name: e.errorType ?? "Error", message: e.errorMessage }, e.timestamp);
  } else span.setStatus({ code: SpanStatusCode.OK });
  span.end(e.timestamp);
}
