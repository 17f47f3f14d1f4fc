/**
 * The wire-mapping contract (llm-provider §8): what differs between OpenAI-compatible, Anthropic
 * Messages and Gemini. A mapping is pure translation — request records to a URL, headers and a
 * canonical JSON body; a response body, an SSE event or an error response back to §6 / §7 — and
 * {@link HttpProvider} does the transport, validation, retry and structured-output steps for all.
 */
import type { LlmProviderError } from "./errors.ts";
import type { RuntimeConfig } from "./config.ts";
import type { Message } from "./messages.ts";
import type { Response } from "./response.ts";
import type { StreamEvent } from "./provider.ts";
import type { JsonSchema, Tool, ToolChoice } from "./tools.ts";

/** Where and how to reach a provider. */
export interface Endpoint {
  readonly baseUrl: string;
  /** Sent in the mapping's auth header; never logged or placed in an error. */
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One call, validated, as a mapping sees it. */
export interface PreparedCall {
  readonly model: string;
  readonly messages: ReadonlyArray<Message>;
  readonly tools?: ReadonlyArray<Tool>;
  readonly config?: RuntimeConfig;
  readonly responseSchema?: JsonSchema;
  /**
   * `native`: the mapping constrains the model (e.g. OpenAI `response_format`); `fallback`: the
   * provider lacks native structured output and the mapping takes its documented fallback
   * (prompt augmentation, or Anthropic's forced-tool coercion).
   */
  readonly structuredOutput?: "native" | "fallback";
  readonly toolChoice?: ToolChoice;
  readonly stream: boolean;
}

export interface WireRequest {
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Canonical JSON (§8 wire-byte stability), absent for a GET. */
  readonly body?: string;
}

/** Reassembles one streamed response from its SSE events. */
export interface StreamAssembler {
  /** One SSE event's `data` (and `event` name); returns the typed events it completes. */
  push(data: string, event: string | undefined): StreamEvent[];
  /** The stream ended: the assembled response (throws `provider_invalid_response` if incomplete). */
  finish(): Response;
}

export interface WireMapping {
  /** `openai-chat`, `anthropic-messages`, `gemini`. */
  readonly api: string;
  /** Does the mapping consume streaming responses? A `false` mapping refuses `stream: true` pre-send (§5). */
  readonly supportsStreaming: boolean;
  /**
   * Is streaming on unless the provider is constructed with `capabilities.streaming: false`? The
   * §8.2 / §8.3 mappings do not stream in spec 0.120.1: theirs is opt-in (`streaming: true`).
   */
  readonly streamsByDefault: boolean;
  /** The default base URL of the vendor's hosted API. */
  readonly defaultBaseUrl: string;
  /** Build the request; throws `provider_invalid_request` for a managed-field collision. */
  buildRequest(call: PreparedCall, endpoint: Endpoint): WireRequest;
  /** Map a successful body (already JSON-parsed) to a Response (without structured output). */
  parseResponse(body: unknown, call: PreparedCall): Response;
  /** Map a non-2xx response to its §7 category (status, body text verbatim, Retry-After). */
  mapError(status: number, bodyText: string, headers: Headers): LlmProviderError;
  createStreamAssembler(call: PreparedCall): StreamAssembler;
  /** The `ready()` probe request and its interpretation of a 2xx body. */
  readyRequest(model: string, endpoint: Endpoint): WireRequest;
  interpretReady(body: unknown, model: string): void;
}
