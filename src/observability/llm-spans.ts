/**
 * LLM provider spans (observability §5.5), rendered from the terminal typed event of a
 * `complete()` call (§5.5.7): one `openarmature.llm.complete` span per call-level wire attempt
 * (llm-provider §7.1), siblings under the parent the OTel observer resolved, each timed by its
 * attempt and carrying:
 *
 * - the baseline `openarmature.llm.*` attributes (model, finish_reason, usage, attempt_index,
 *   retry_reason on a retry) and the ungated tool-call identity projections (§5.5.10);
 * - the GenAI semconv subset (§5.5.2 request parameters, §5.5.3 response attributes, the §5.5.3.1
 *   cache mirror) unless `disableGenaiSemconv`;
 * - the payload attributes (§5.5.1) only when `disableProviderPayload` is false, each cut by the
 *   §5.5.5 truncation contract (inline images were already redacted on the event);
 * - the prompt identity (§5.5.7 / prompt-management §12) and the token-budget signal (§5.5.15).
 *
 * A failed attempt is `ERROR` with its §7 category as description, `openarmature.error.category` and
 * an exception event (§4.2). Token events are never rendered (§5.5.7: the span stays atomic).
 */
import { SpanKind, SpanStatusCode, type Attributes, type AttributeValue, type Context, type Tracer } from "@opentelemetry/api";
import { canonicalJson } from "../llm/canonical-json.ts";
import type { LlmCompletionEvent, LlmFailedEvent, LlmResponseSide, LlmWireAttempt } from "../llm/events.ts";
import { DEFAULT_PAYLOAD_BYTE_CAP, truncatePayload } from "./truncation.ts";

export const LLM_SPAN_NAME = "openarmature.llm.complete";

/** The §5.5.4 flags as they apply to LLM spans (`disable_llm_spans` is the observer's: no span at all). */
export interface LlmSpanFlags {
  /** Default `true`: no payload attributes. */
  readonly disableProviderPayload?: boolean;
  /** Default `false`: the GenAI semconv attributes are emitted. */
  readonly disableGenaiSemconv?: boolean;
  /** §5.5.5 per-attribute cap (default 65,536 bytes). */
  readonly payloadByteCap?: number;
}

type LlmEvent = LlmCompletionEvent | LlmFailedEvent;

const set = (out: Attributes, key: string, v: AttributeValue | null | undefined): void => {
  if (v !== null && v !== undefined) out[key] = v;
};

/** §5.5.10: which tools the model requested — identifiers, not payload (ungated). */
function toolCallIdentity(out: Attributes, r: LlmResponseSide): void {
  const calls = r.outputToolCalls;
  if (!calls || calls.length === 0) return;
  out["openarmature.llm.output.tool_calls.count"] = calls.length;
  out["openarmature.llm.output.tool_calls.names"] = calls.map((c) => c.name);
  out["openarmature.llm.output.tool_calls.ids"] = calls.map((c) => c.id);
}

/** §5.5.15: the declared budget and whether the actual usage crossed it (a not-reported counter is not evaluated). */
function tokenBudget(out: Attributes, e: LlmEvent, r: LlmResponseSide | undefined): void {
  const b = e.tokenBudget;
  if (!b || (b.input_max_tokens === null && b.total_max_tokens === null)) return;
  set(out, "openarmature.prompt.token_budget.input_max_tokens", b.input_max_tokens);
  set(out, "openarmature.prompt.token_budget.total_max_tokens", b.total_max_tokens);
  const u = r?.usage;
  if (!u) return;
  const total = u.total_tokens ?? (u.prompt_tokens !== null && u.completion_tokens !== null ? u.prompt_tokens + u.completion_tokens : null);
  const input = b.input_max_tokens !== null && u.prompt_tokens !== null ? u.prompt_tokens > b.input_max_tokens : null;
  const overall = b.total_max_tokens !== null && total !== null ? total > b.total_max_tokens : null;
  if (input === null && overall === null) return;
  out["openarmature.llm.token_budget.exceeded"] = input === true || overall === true;
}

/** The attributes of the span of `attempt` (cross-cutting attributes excluded). */
export function llmSpanAttributes(e: LlmEvent, attempt: LlmWireAttempt, flags: LlmSpanFlags = {}): Attributes {
  const out: Attributes = { "openarmature.llm.model": e.model, "openarmature.llm.attempt_index": attempt.attemptIndex };
  set(out, "openarmature.llm.retry_reason", attempt.retryReason);
  const r = attempt.response;
  if (r) {
    set(out, "openarmature.llm.finish_reason", r.finishReason);
    set(out, "openarmature.llm.usage.prompt_tokens", r.usage?.prompt_tokens);
    set(out, "openarmature.llm.usage.completion_tokens", r.usage?.completion_tokens);
    set(out, "openarmature.llm.usage.total_tokens", r.usage?.total_tokens);
    toolCallIdentity(out, r);
  }
  if (flags.disableGenaiSemconv !== true) {
    out["gen_ai.system"] = e.provider;
    out["gen_ai.request.model"] = e.model;
    for (const [k, v] of Object.entries(attempt.requestParams)) set(out, `gen_ai.request.${k}`, v as AttributeValue);
    if (r) {
      set(out, "gen_ai.response.model", r.responseModel);
      set(out, "gen_ai.response.id", r.responseId);
      set(out, "gen_ai.usage.input_tokens", r.usage?.prompt_tokens);
      set(out, "gen_ai.usage.output_tokens", r.usage?.completion_tokens);
      if (r.finishReason !== null) out["gen_ai.response.finish_reasons"] = [r.finishReason];
      set(out, "openarmature.llm.cache_read.input_tokens", r.usage?.cached_tokens);
      set(out, "openarmature.llm.cache_creation.input_tokens", r.usage?.cache_creation_tokens);
    }
  }
  if (flags.disableProviderPayload === false) {
    const cap = flags.payloadByteCap ?? DEFAULT_PAYLOAD_BYTE_CAP;
    out["openarmature.llm.input.messages"] = truncatePayload(canonicalJson(attempt.inputMessages), cap);
    if (r?.outputContent) out["openarmature.llm.output.content"] = truncatePayload(r.outputContent, cap);
    if (r?.outputToolCalls && r.outputToolCalls.length) out["openarmature.llm.output.tool_calls"] = truncatePayload(canonicalJson(r.outputToolCalls), cap);
    if (Object.keys(attempt.requestExtras).length) out["openarmature.llm.request.extras"] = truncatePayload(canonicalJson(attempt.requestExtras), cap);
  }
  const p = e.activePrompt;
  if (p) {
    out["openarmature.prompt.name"] = p.name;
    out["openarmature.prompt.version"] = p.version;
    out["openarmature.prompt.label"] = p.label;
    out["openarmature.prompt.template_hash"] = p.template_hash;
    out["openarmature.prompt.rendered_hash"] = p.rendered_hash;
  }
  if (e.activePromptGroup) out["openarmature.prompt.group_name"] = e.activePromptGroup.group_name;
  tokenBudget(out, e, r);
  return out;
}

/** The event's wire attempts (an event built without them renders one span for the whole call). */
function attemptsOf(e: LlmEvent): readonly LlmWireAttempt[] {
  if (e.attempts.length) return e.attempts;
  const response: LlmResponseSide = e;
  const failure = e.kind === "llm_failed" ? { category: e.errorCategory, type: e.errorType, message: e.errorMessage, error: undefined } : undefined;
  return [
    {
      attemptIndex: 0,
      retryReason: null,
      requestParams: e.requestParams,
      requestExtras: e.requestExtras,
      inputMessages: e.inputMessages,
      startTime: e.startTime,
      endTime: e.timestamp,
      ...(failure ? { failure } : {}),
      ...(e.kind === "llm_completion" || e.responseId !== null || e.usage !== null ? { response } : {}),
    },
  ];
}

/** Start and end one span per wire attempt of `e` under `parent`, with `cross` (§5.6) added. */
export function renderLlmSpans(tracer: Tracer, e: LlmEvent, parent: Context, cross: Attributes, flags: LlmSpanFlags = {}): void {
  for (const a of attemptsOf(e)) {
    const span = tracer.startSpan(LLM_SPAN_NAME, { kind: SpanKind.CLIENT, attributes: { ...llmSpanAttributes(e, a, flags), ...cross }, startTime: a.startTime }, parent);
    if (a.failure) {
      span.setAttribute("openarmature.error.category", a.failure.category);
      span.setStatus({ code: SpanStatusCode.ERROR, message: a.failure.category });
      const err = a.failure.error instanceof Error ? a.failure.error : { name: a.failure.type ?? "Error", message: a.failure.message };
      span.recordException(err, a.endTime);
    } else span.setStatus({ code: SpanStatusCode.OK });
    span.end(a.endTime);
  }
}
