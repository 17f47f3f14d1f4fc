/**
 * The Provider interface (llm-provider §5) and its call options and stream events.
 *
 * A provider is bound to one model, stateless and reentrant. `complete()` returns one `Response`
 * (§6); `stream()` yields typed events as the wire delivers them and ends with a `done` event
 * whose response equals what the non-streamed call returns (§6 *Streaming assembly*).
 * `complete(messages, { stream: true, onEvent })` is the same stream consumed for you.
 */
import type { RuntimeConfig } from "./config.ts";
import type { Message, ToolCall } from "./messages.ts";
import type { Response } from "./response.ts";
import type { CallRetry } from "./retry.ts";
import type { JsonSchema, Tool, ToolChoice } from "./tools.ts";

export interface CompleteOptions {
  readonly tools?: ReadonlyArray<Tool>;
  readonly config?: RuntimeConfig;
  /** Constrain the output to this object schema; the validated value lands on `Response.parsed`. */
  readonly responseSchema?: JsonSchema;
  /**
   * Override, for this call, the structured-output path the provider's capabilities choose
   * (§8.1.5.1 SHOULD): `native` (OpenAI `response_format`, Anthropic `output_config`, Gemini
   * `responseJsonSchema`) or `fallback` (the mapping's documented fallback). Ignored without
   * `responseSchema`.
   */
  readonly structuredOutput?: "native" | "fallback";
  readonly toolChoice?: ToolChoice;
  /** Call-level retry (§7.1): the §6.1 retry record, plus `perAttemptOverride` / `reask`. */
  readonly retry?: CallRetry;
  /** Consume the streaming wire response (§5 *Streaming*); the return value is unchanged. */
  readonly stream?: boolean;
  /** Receives each stream event as it arrives (with `stream: true`). */
  readonly onEvent?: (event: StreamEvent) => void;
  /** Cancels the request (and any retry sleep); the abort reason propagates unclassified. */
  readonly signal?: AbortSignal;
}

export interface ReadyOptions {
  readonly signal?: AbortSignal;
}

/** One typed event of a streamed completion. */
export type StreamEvent =
  | { readonly type: "start" }
  | { readonly type: "text_delta"; readonly delta: string }
  | { readonly type: "reasoning_delta"; readonly delta: string }
  | { readonly type: "tool_call_start"; readonly index: number; readonly id: string; readonly name: string }
  | { readonly type: "tool_call_delta"; readonly index: number; readonly delta: string }
  | { readonly type: "tool_call_end"; readonly index: number; readonly toolCall: ToolCall }
  | { readonly type: "done"; readonly response: Response };

export interface Provider {
  /** The registry name the provider was configured under (`openai`, `anthropic`, `vllm`, ...). */
  readonly name: string;
  /** The wire mapping it speaks (`openai-chat`, `anthropic-messages`, `gemini`). */
  readonly api: string;
  /** The bound model identifier. */
  readonly model: string;
  /** Is the bound model reachable and serving? Raises a §7 category otherwise. */
  ready(options?: ReadyOptions): Promise<void>;
  complete(messages: ReadonlyArray<Message>, options?: CompleteOptions): Promise<Response>;
  /** Stream one completion (no call-level retry: a stream's events cannot be taken back). */
  stream(messages: ReadonlyArray<Message>, options?: Omit<CompleteOptions, "stream" | "retry" | "onEvent">): AsyncIterable<StreamEvent>;
}
