/**
 * Emitting the typed LLM events (graph-engine §6, observability §5.5.7) from one `complete()`
 * call: an {@link LlmCallObservation} is opened when the call enters, records each call-level wire
 * attempt (§7.1) and each streamed delta, and dispatches exactly one terminal event —
 * `LlmCompletionEvent` on a response, `LlmFailedEvent` on a §7 category error — into the calling
 * node's invocation (`ctx.emit`). Outside a graph node there is nobody to tell: no observation.
 */
import { randomUUID } from "node:crypto";
import { currentNodeContext, getInvocationMetadata, lineageOf, preciseNow, type NodeContext } from "../graph/index.ts";
import { activePrompt, activePromptGroup, activeTokenBudget } from "../prompts/context.ts";
import { declaredFields, type RuntimeConfig } from "./config.ts";
import { LlmProviderError, StructuredOutputInvalid } from "./errors.ts";
import { vendorErrorType } from "./wire-errors.ts";
import {
  eventMessage,
  eventToolCall,
  type EventMessage,
  type LlmCallIdentity,
  type LlmRequestSide,
  type LlmResponseSide,
  type LlmWireAttempt,
} from "./events.ts";
import { textOf, type Message } from "./messages.ts";
import type { Response } from "./response.ts";
import type { Attempt } from "./retry.ts";

/** Who is being called: the provider's `gen_ai.system` and bound model. */
export interface CallTarget {
  readonly system: string;
  readonly model: string;
}

/** The §5.5.2 request parameters a config supplies (keys without the `gen_ai.request.` prefix). */
export function requestParams(config: RuntimeConfig | undefined): Readonly<Record<string, unknown>> {
  return declaredFields(config);
}

/** The extras bag of a config (empty when none). */
export function requestExtras(config: RuntimeConfig | undefined): Readonly<Record<string, unknown>> {
  return { ...(config?.extras ?? {}) };
}

/** The response side of a `Response` (graph-engine §6 field names, camelCase). */
export function responseSide(r: Response): LlmResponseSide {
  const content = textOf(r.message.content);
  const calls = r.message.tool_calls;
  return {
    ...responseIds(r.raw),
    usage: r.usage,
    finishReason: r.finish_reason,
    outputContent: content === "" ? null : content,
    outputToolCalls: calls && calls.length ? calls.map(eventToolCall) : null,
  };
}

const NO_RESPONSE: LlmResponseSide = {
  responseId: null,
  responseModel: null,
  usage: null,
  finishReason: null,
  outputContent: null,
  outputToolCalls: null,
};

/** `gen_ai.response.id` / `.model` from a raw provider body (OpenAI / Anthropic `id` + `model`; Gemini `responseId` + `modelVersion`). */
function responseIds(raw: unknown): { readonly responseId: string | null; readonly responseModel: string | null } {
  const r = (raw ?? {}) as { id?: unknown; model?: unknown; modelVersion?: unknown; responseId?: unknown };
  return { responseId: stringOrNull(r.id ?? r.responseId), responseModel: stringOrNull(r.model ?? r.modelVersion) };
}

function stringOrNull(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/** The response a `structured_output_invalid` failure carries (the provider did answer). */
function failureResponse(e: unknown): LlmResponseSide | undefined {
  if (!(e instanceof StructuredOutputInvalid)) return undefined;
  return {
    ...responseIds(e.raw),
    usage: e.usage,
    finishReason: e.finish_reason,
    outputContent: e.output_content,
    outputToolCalls: null,
  };
}

/** One in-flight attempt. */
interface OpenAttempt {
  readonly attempt: Attempt;
  readonly startTime: number;
}

/** The events of one `complete()` call; see the module comment. */
export class LlmCallObservation {
  readonly #ctx: NodeContext;
  readonly #identity: Omit<LlmCallIdentity, "timestamp">;
  readonly #messages: readonly EventMessage[];
  readonly #config: RuntimeConfig | undefined;
  readonly #start = preciseNow();
  readonly #attempts: LlmWireAttempt[] = [];
  readonly #prompt = activePrompt();
  readonly #group = activePromptGroup();
  readonly #budget = activeTokenBudget();
  #open: OpenAttempt | undefined;
  #chunk = 0;
  #done = false;

  private constructor(ctx: NodeContext, target: CallTarget, messages: ReadonlyArray<Message>, config: RuntimeConfig | undefined) {
    this.#ctx = ctx;
    this.#identity = {
      ...lineageOf(ctx),
      provider: target.system,
      model: target.model,
      callId: randomUUID(),
      callerInvocationMetadata: null,
      invocationMetadata: getInvocationMetadata(),
    };
    this.#messages = safeMessages(messages);
    this.#config = config;
  }

  /** Open the observation of a call made inside a graph node; `undefined` anywhere else. */
  static open(target: CallTarget, messages: ReadonlyArray<Message>, config: RuntimeConfig | undefined): LlmCallObservation | undefined {
    const ctx = currentNodeContext();
    return ctx ? new LlmCallObservation(ctx, target, messages, config) : undefined;
  }

  /** The call-level attempt `a` is about to go on the wire. */
  attemptStarted(a: Attempt): void {
    this.#open = { attempt: a, startTime: preciseNow() };
  }

  /** The open attempt ended: with `response`, or raising `error`. */
  attemptEnded(outcome: { readonly response: Response } | { readonly error: unknown }): void {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    const a = open.attempt;
    const base = {
      attemptIndex: a.attemptIndex,
      retryReason: a.retryReason ?? null,
      requestParams: requestParams(a.config),
      requestExtras: requestExtras(a.config),
      inputMessages: a.messages === undefined ? this.#messages : safeMessages(a.messages),
      startTime: open.startTime,
      endTime: preciseNow(),
    };
    if ("response" in outcome) {
      this.#attempts.push({ ...base, response: responseSide(outcome.response) });
      return;
    }
    const e = outcome.error;
    const response = failureResponse(e);
    this.#attempts.push({
      ...base,
      failure: { category: categoryOf(e), type: vendorErrorType(e), message: e instanceof Error ? e.message : String(e), error: e },
      ...(response ? { response } : {}),
    });
  }

  /** A streamed delta of the call (content or reasoning text). */
  token(deltaKind: "content" | "reasoning", delta: string): void {
    if (this.#done || delta === "") return;
    this.#ctx.emit({ kind: "llm_token", ...this.#identity, timestamp: preciseNow(), chunkIndex: this.#chunk++, deltaKind, delta });
  }

  #request(): LlmRequestSide {
    return {
      inputMessages: this.#messages,
      requestParams: requestParams(this.#config),
      requestExtras: requestExtras(this.#config),
      activePrompt: this.#prompt,
      activePromptGroup: this.#group,
      tokenBudget: this.#budget,
      latencyMs: preciseNow() - this.#start,
      startTime: this.#start,
      attempts: [...this.#attempts],
    };
  }

  /** The call returned `response`: dispatch `LlmCompletionEvent`. */
  completed(response: Response): void {
    if (this.#done) return;
    this.#done = true;
    this.#ctx.emit({ kind: "llm_completion", ...this.#identity, ...this.#request(), ...responseSide(response), timestamp: preciseNow() });
  }

  /**
   * The call raised `error`: dispatch `LlmFailedEvent` when it is a §7 category error (a
   * cancellation or a programming error is no provider outcome, so no event).
   */
  failed(error: unknown): void {
    if (this.#done || !(error instanceof LlmProviderError)) return;
    this.#done = true;
    if (this.#open) this.attemptEnded({ error });
    this.#ctx.emit({
      kind: "llm_failed",
      ...this.#identity,
      ...this.#request(),
      ...(failureResponse(error) ?? NO_RESPONSE),
      errorCategory: error.category,
      errorType: vendorErrorType(error),
      errorMessage: error.message,
      timestamp: preciseNow(),
    });
  }
}

function categoryOf(e: unknown): string {
  const c = (e as { category?: unknown } | null)?.category;
  return typeof c === "string" ? c : "provider_invalid_response";
}

/** The event form of messages a caller passed (never throwing on a malformed list: validation reports it). */
function safeMessages(messages: ReadonlyArray<Message>): readonly EventMessage[] {
  if (!Array.isArray(messages)) return [];
  return Object.freeze(messages.map((m) => (m !== null && typeof m === "object" ? eventMessage(m) : Object.freeze({ content: m }))));
}
