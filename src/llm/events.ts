/**
 * The typed LLM events of graph-engine §6 (observability §5.5.7): {@link LlmCompletionEvent},
 * {@link LlmFailedEvent} and the streaming sub-event {@link LlmTokenEvent}, declared into the
 * engine's `ObserverEventMap` and registered as event families (spec type name ↔ `kind`, spec
 * record). `complete()` emits them into the calling node's invocation (see `call-events.ts`).
 *
 * Fields are camelCase like the engine's `EventLineage`; nested records (`usage`, messages, tool
 * calls, the prompt snapshots) keep the spec's names, as the rest of `openarmature/llm` does.
 * {@link toSpecRecord} renders the spec's snake_case record.
 */
import { lineageRecord, registerEventFamily, type EventLineage, type InvocationMetadata } from "../graph/index.ts";
import type { ContentBlock, JsonObject, Message, ToolCall } from "./messages.ts";
import type { Usage } from "./response.ts";
import type { RetryReason } from "./retry.ts";

/** A §3 message in the event's native form: inline image bytes replaced per observability §5.5.5. */
export type EventMessage = Readonly<Record<string, unknown>>;

/** An output tool call `{id, name, arguments}` (graph-engine §6 `output_tool_calls`). */
export interface EventToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: JsonObject | null;
}

/** `active_prompt`: the prompt-identity snapshot at call time (prompt-management §12). */
export interface EventActivePrompt {
  readonly name: string;
  readonly version: string;
  readonly label: string;
  readonly template_hash: string;
  readonly rendered_hash: string;
}

/** `token_budget`: the active prompt's declared bounds (prompt-management §3). */
export interface EventTokenBudget {
  readonly input_max_tokens: number | null;
  readonly total_max_tokens: number | null;
}

/** The failure of one call-level attempt (llm-provider §7.1), as a span renders it. */
export interface LlmAttemptFailure {
  readonly category: string;
  readonly type: string | null;
  readonly message: string;
  /** The error itself, for the span's exception event. */
  readonly error: unknown;
}

/**
 * One wire attempt of the call (llm-provider §7.1): what the OTel observer renders one
 * `openarmature.llm.complete` span per (observability §5.5). Not part of the spec record.
 */
export interface LlmWireAttempt {
  /** The call-level attempt index (`openarmature.llm.attempt_index`), 0 first. */
  readonly attemptIndex: number;
  /** Why this attempt was scheduled; `null` on attempt 0. */
  readonly retryReason: RetryReason | null;
  /** The attempt's request parameters (a `per_attempt_override` changes them). */
  readonly requestParams: Readonly<Record<string, unknown>>;
  readonly requestExtras: Readonly<Record<string, unknown>>;
  /** The attempt's outbound messages (a reask appends to them). */
  readonly inputMessages: readonly EventMessage[];
  /** Wall-clock start / end, ms since epoch (fractional). */
  readonly startTime: number;
  readonly endTime: number;
  /** Absent on the attempt that succeeded. */
  readonly failure?: LlmAttemptFailure;
  /** The response side this attempt received (a success, or a `structured_output_invalid` body). */
  readonly response?: LlmResponseSide;
}

/** The response-side surface (§5.5.3 / graph-engine §6). */
export interface LlmResponseSide {
  readonly responseId: string | null;
  readonly responseModel: string | null;
  readonly usage: Usage | null;
  readonly finishReason: string | null;
  readonly outputContent: string | null;
  readonly outputToolCalls: readonly EventToolCall[] | null;
}

/** What every LLM event carries beside the §6 lineage. */
export interface LlmCallIdentity extends EventLineage {
  /** `gen_ai.system`: the provider's system identifier (e.g. `openai`, `vllm`). */
  readonly provider: string;
  /** The model the request was made against. */
  readonly model: string;
  /** Fresh per `complete()` call; shared by the call's token events and its terminal event. */
  readonly callId: string;
  /**
   * `caller_invocation_metadata`: null as emitted — an observer that opts in (§3.4) reads the
   * event through `withCallerInvocationMetadata(event)`, which fills it from {@link invocationMetadata}.
   */
  readonly callerInvocationMetadata: Readonly<Record<string, unknown>> | null;
  /** The caller-supplied invocation metadata in scope at call time (the opt-in snapshot's source). */
  readonly invocationMetadata: InvocationMetadata;
  /** Wall-clock time of dispatch, ms since epoch (fractional). */
  readonly timestamp: number;
}

/** The request side shared by the completion and failure events. */
export interface LlmRequestSide {
  readonly inputMessages: readonly EventMessage[];
  /** §5.5.2 request parameters actually supplied (no `gen_ai.request.` prefix). */
  readonly requestParams: Readonly<Record<string, unknown>>;
  readonly requestExtras: Readonly<Record<string, unknown>>;
  readonly activePrompt: EventActivePrompt | null;
  readonly activePromptGroup: { readonly group_name: string } | null;
  readonly tokenBudget: EventTokenBudget | null;
  /** From `complete()` entry to the outcome, ms. */
  readonly latencyMs: number | null;
  /** Wall-clock time `complete()` was entered. */
  readonly startTime: number;
  /** The call's wire attempts, in order (one without call-level retry). */
  readonly attempts: readonly LlmWireAttempt[];
}

/** `LlmCompletionEvent` (graph-engine §6): a `complete()` call produced a response. */
export interface LlmCompletionEvent extends LlmCallIdentity, LlmRequestSide, LlmResponseSide {
  readonly kind: "llm_completion";
}

/** `LlmFailedEvent` (graph-engine §6): a `complete()` call raised a §7 category. */
export interface LlmFailedEvent extends LlmCallIdentity, LlmRequestSide, LlmResponseSide {
  readonly kind: "llm_failed";
  readonly errorCategory: string;
  readonly errorType: string | null;
  readonly errorMessage: string;
}

/** `LlmTokenEvent` (graph-engine §6): one streamed delta of an in-progress call. */
export interface LlmTokenEvent extends LlmCallIdentity {
  readonly kind: "llm_token";
  readonly chunkIndex: number;
  readonly deltaKind: "content" | "reasoning";
  readonly delta: string;
}

declare module "../graph/events.ts" {
  interface ObserverEventMap {
    llm_completion: LlmCompletionEvent;
    llm_failed: LlmFailedEvent;
    llm_token: LlmTokenEvent;
  }
}

function identityRecord(e: LlmCallIdentity): Record<string, unknown> {
  return {
    ...lineageRecord(e),
    provider: e.provider,
    model: e.model,
    call_id: e.callId,
    caller_invocation_metadata: e.callerInvocationMetadata,
  };
}

function requestRecord(e: LlmRequestSide): Record<string, unknown> {
  return {
    input_messages: e.inputMessages,
    request_params: e.requestParams,
    request_extras: e.requestExtras,
    active_prompt: e.activePrompt,
    active_prompt_group: e.activePromptGroup,
    token_budget: e.tokenBudget,
    latency_ms: e.latencyMs,
  };
}

function responseRecord(e: LlmResponseSide, withToolCalls: boolean): Record<string, unknown> {
  return {
    response_id: e.responseId,
    response_model: e.responseModel,
    usage: e.usage,
    finish_reason: e.finishReason,
    output_content: e.outputContent,
    ...(withToolCalls ? { output_tool_calls: e.outputToolCalls } : {}),
  };
}

registerEventFamily({
  typeName: "LlmCompletionEvent",
  kind: "llm_completion",
  toRecord: (e) => ({ ...identityRecord(e), ...requestRecord(e), ...responseRecord(e, true) }),
});
registerEventFamily({
  typeName: "LlmFailedEvent",
  kind: "llm_failed",
  toRecord: (e) => ({
    ...identityRecord(e),
    ...requestRecord(e),
    ...responseRecord(e, false),
    error_category: e.errorCategory,
    error_type: e.errorType,
    error_message: e.errorMessage,
  }),
});
registerEventFamily({
  typeName: "LlmTokenEvent",
  kind: "llm_token",
  toRecord: (e) => ({ ...identityRecord(e), chunk_index: e.chunkIndex, delta_kind: e.deltaKind, delta: e.delta }),
});

/**
 * A message in the typed-event form: `{role, content, tool_calls?, tool_call_id?}` with every
 * inline image source replaced by `{type: "inline_redacted", byte_count}` (observability §5.5.5 —
 * inline image bytes never reach an event or a span).
 */
export function eventMessage(m: Message): EventMessage {
  const out: Record<string, unknown> = { role: m.role, content: eventContent(m.content) };
  const calls = (m as { tool_calls?: readonly ToolCall[] | null }).tool_calls;
  if (calls) out["tool_calls"] = calls.map(eventToolCall);
  const id = (m as { tool_call_id?: string }).tool_call_id;
  if (id !== undefined) out["tool_call_id"] = id;
  return Object.freeze(out);
}

function eventContent(content: Message["content"]): unknown {
  if (!Array.isArray(content)) return content;
  return (content as readonly ContentBlock[]).map((b) => {
    if (b.type !== "image" || b.source.type !== "inline") return b;
    const { source, ...rest } = b;
    return { ...rest, source: { type: "inline_redacted", byte_count: Buffer.byteLength(source.base64_data, "utf8") } };
  });
}

/** `{id, name, arguments}` of a tool call (the §5.5.5 tool-call serialization shape). */
export function eventToolCall(c: ToolCall): EventToolCall {
  return { id: c.id, name: c.name, arguments: c.arguments };
}
