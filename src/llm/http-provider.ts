/**
 * {@link HttpProvider}: a §5 Provider over any {@link WireMapping}. It validates the request
 * (§3, §4, §5), applies the capability pre-checks, runs call-level retry (§7.1), talks HTTP only
 * through the injected `fetch` (global `fetch` by default) with the caller's `AbortSignal`, parses
 * SSE with `eventsource-parser`, and applies structured output (§5, §7).
 */
import { createParser } from "eventsource-parser";
import { LlmProviderError, StructuredOutputInvalid, invalidRequest, redactError } from "./errors.ts";
import type { Endpoint, PreparedCall, WireMapping, WireRequest } from "./mapping.ts";
import { hasImageBlock, textOf, validateMessages, type Message } from "./messages.ts";
import type { CompleteOptions, Provider, ReadyOptions, StreamEvent } from "./provider.ts";
import type { Response } from "./response.ts";
import { withCallRetry } from "./retry.ts";
import { LlmCallObservation } from "./call-events.ts";
import { endpointScrubber, parseBody, readText, send, type FetchFn } from "./transport.ts";
import type { Scrubber } from "./secrets.ts";
import { validateConfig } from "./config.ts";
import { parseStructured } from "./structured-output.ts";
import { validateResponseSchema, validateToolChoice, validateTools } from "./tools.ts";

export type { FetchFn } from "./transport.ts";

/** What the bound model / server can do; each absent flag means "yes". */
export interface ProviderCapabilities {
  /** Stream when asked (§5 *Provider streaming support*); default: the mapping's `streamsByDefault`. */
  readonly streaming?: boolean;
  /** Native structured output; `false` takes the prompt-augmentation fallback (§8.1.5.1). */
  readonly nativeStructuredOutput?: boolean;
  /** Image input; `false` refuses image blocks pre-send with `provider_unsupported_content_block`. */
  readonly imageInput?: boolean;
}

export interface HttpProviderOptions {
  /** Registry name (`openai`, `vllm`, ...). */
  readonly name: string;
  readonly mapping: WireMapping;
  readonly model: string;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: FetchFn;
  readonly capabilities?: ProviderCapabilities;
  /**
   * The GenAI `gen_ai.system` identifier (observability §5.5.3): default `openai` for the
   * OpenAI-compatible mapping, `anthropic`, `gcp.gemini`; set it for another server behind a
   * compatible mapping (`vllm`, `lm_studio`, ...).
   */
  readonly system?: string;
}

/** The `gen_ai.system` each mapping reports unless the provider is given its own (observability §5.5.3). */
const DEFAULT_SYSTEM: Readonly<Record<string, string>> = { "openai-chat": "openai", "anthropic-messages": "anthropic", gemini: "gcp.gemini" };

export class HttpProvider implements Provider {
  readonly name: string;
  /** `gen_ai.system` on its spans and the `provider` of its typed events. */
  readonly system: string;
  readonly api: string;
  readonly model: string;
  readonly endpoint: Endpoint;
  readonly capabilities: Required<ProviderCapabilities>;
  readonly #mapping: WireMapping;
  readonly #fetch: FetchFn | undefined;
  /** The endpoint's credentials, replaced in every error this provider raises. */
  readonly #scrubber: Scrubber;

  constructor(options: HttpProviderOptions) {
    if (typeof options.model !== "string" || options.model.length === 0) throw new TypeError(`provider '${options.name}': model must be a non-empty string`);
    this.name = options.name;
    this.#mapping = options.mapping;
    this.api = options.mapping.api;
    this.system = options.system ?? DEFAULT_SYSTEM[options.mapping.api] ?? options.name;
    this.model = options.model;
    this.#fetch = options.fetch;
    this.endpoint = {
      baseUrl: (options.baseUrl ?? options.mapping.defaultBaseUrl).replace(/\/+$/, ""),
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.headers !== undefined ? { headers: options.headers } : {}),
    };
    this.capabilities = { streaming: options.mapping.streamsByDefault, nativeStructuredOutput: true, imageInput: true, ...options.capabilities };
    this.#scrubber = endpointScrubber(this.endpoint);
  }

  get mapping(): WireMapping {
    return this.#mapping;
  }

  async ready(options: ReadyOptions = {}): Promise<void> {
    try {
      const request = this.#mapping.readyRequest(this.model, this.endpoint);
      const res = await this.#send(request, options.signal);
      const text = await readText(res, options.signal);
      if (!res.ok) throw this.#mapping.mapError(res.status, text, res.headers);
      this.#mapping.interpretReady(parseBody(text, res.status), this.model);
    } catch (e) {
      throw redactError(e, this.#scrubber);
    }
  }

  /**
   * One completion. Inside a graph node it also dispatches the typed events (graph-engine §6):
   * `LlmTokenEvent` per streamed delta, then exactly one `LlmCompletionEvent` / `LlmFailedEvent`.
   */
  complete(messages: ReadonlyArray<Message>, options: CompleteOptions = {}): Promise<Response> {
    // Not `async`: the unobserved one-attempt call hands back #completeOnce's own promise (one
    // async layer less per call, bench/llm.ts); a synchronous failure still rejects.
    try {
      const observed = LlmCallObservation.open(this, messages, options.config);
      if (observed) return this.#completeObserved(messages, options, observed);
      // Unobserved, no retry policy, not streamed: the one attempt withCallRetry would make, without
      // its attempt record and three async layers.
      if (options.retry === undefined && options.stream !== true) return this.#completeOnce(this.prepare(messages, options), options.signal);
      return this.#complete(messages, options, undefined);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  async #completeObserved(messages: ReadonlyArray<Message>, options: CompleteOptions, observed: LlmCallObservation): Promise<Response> {
    try {
      const response = await this.#complete(messages, options, observed);
      observed.completed(response);
      return response;
    } catch (e) {
      observed.failed(e);
      throw e;
    }
  }

  async #complete(messages: ReadonlyArray<Message>, options: CompleteOptions, observed: LlmCallObservation | undefined): Promise<Response> {
    const base = this.prepare(messages, options);
    return withCallRetry(options.retry, base.messages, base.config, options.signal, async (attempt) => {
      const call: PreparedCall = { ...base, messages: attempt.messages, ...(attempt.config !== undefined ? { config: attempt.config } : {}) };
      observed?.attemptStarted(attempt);
      try {
        const response = await this.#attemptOnce(call, options, observed);
        observed?.attemptEnded({ response });
        return response;
      } catch (error) {
        observed?.attemptEnded({ error });
        throw error;
      }
    });
  }

  async #attemptOnce(call: PreparedCall, options: CompleteOptions, observed: LlmCallObservation | undefined): Promise<Response> {
    if (!call.stream) return this.#completeOnce(call, options.signal);
    let final: Response | undefined;
    for await (const event of this.#streamOnce(call, options.signal)) {
      options.onEvent?.(event);
      if (event.type === "text_delta") observed?.token("content", event.delta);
      else if (event.type === "reasoning_delta") observed?.token("reasoning", event.delta);
      else if (event.type === "done") final = event.response;
    }
    return final!;
  }

  async *stream(messages: ReadonlyArray<Message>, options: Omit<CompleteOptions, "stream" | "retry" | "onEvent"> = {}): AsyncIterable<StreamEvent> {
    yield* this.#streamOnce(this.prepare(messages, { ...options, stream: true }), options.signal);
  }

  /**
   * Validate a call and fix its shape (§3, §4, §5 pre-send validation; capability pre-checks).
   * The result's `structuredOutput` is the path a call with a `responseSchema` takes (§8.1.5.1:
   * inspectable before sending).
   */
  prepare(messages: ReadonlyArray<Message>, options: CompleteOptions): PreparedCall {
    validateMessages(messages);
    validateTools(options.tools);
    validateToolChoice(options.toolChoice, options.tools);
    validateResponseSchema(options.responseSchema);
    validateConfig(options.config);
    options.retry?.perAttemptOverride?.forEach((o, i) => validateConfig(o, `retry.perAttemptOverride[${i}]`));
    const stream = options.stream === true;
    if (stream && (!this.capabilities.streaming || !this.#mapping.supportsStreaming)) {
      const hint = this.#mapping.supportsStreaming ? " unless constructed with capabilities.streaming: true (spec 0.120.1 gives this mapping no streaming)" : "";
      throw invalidRequest("stream", `the '${this.name}' provider's ${this.api} mapping does not support streaming${hint}`);
    }
    if (!this.capabilities.imageInput && hasImageBlock(messages)) {
      throw new LlmProviderError("provider_unsupported_content_block", `messages: model '${this.model}' of provider '${this.name}' does not accept image blocks`);
    }
    const schema = options.responseSchema;
    if (options.structuredOutput !== undefined && options.structuredOutput !== "native" && options.structuredOutput !== "fallback") {
      throw invalidRequest("structuredOutput", `must be "native" or "fallback" (got ${JSON.stringify(options.structuredOutput)})`);
    }
    const path = options.structuredOutput ?? (this.capabilities.nativeStructuredOutput ? "native" : "fallback");
    return {
      model: this.model,
      messages,
      stream,
      ...(options.tools !== undefined ? { tools: options.tools } : {}),
      ...(options.config !== undefined ? { config: options.config } : {}),
      ...(schema !== undefined ? { responseSchema: schema, structuredOutput: path } : {}),
      ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
    } as PreparedCall;
  }

  async #completeOnce(call: PreparedCall, signal: AbortSignal | undefined): Promise<Response> {
    try {
      const request = this.#mapping.buildRequest(call, this.endpoint);
      const res = await this.#send(request, signal);
      const text = await readText(res, signal);
      if (!res.ok) throw this.#mapping.mapError(res.status, text, res.headers);
      return withStructuredOutput(this.#mapping.parseResponse(parseBody(text, res.status), call), call);
    } catch (e) {
      throw redactError(e, this.#scrubber);
    }
  }

  async *#streamOnce(call: PreparedCall, signal: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
    try {
      yield* this.#streamEvents(call, signal);
    } catch (e) {
      throw redactError(e, this.#scrubber);
    }
  }

  async *#streamEvents(call: PreparedCall, signal: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
    const request = this.#mapping.buildRequest(call, this.endpoint);
    const res = await this.#send(request, signal);
    if (!res.ok) throw this.#mapping.mapError(res.status, await readText(res, signal), res.headers);
    const type = res.headers.get("content-type") ?? "";
    if (!type.toLowerCase().startsWith("text/event-stream")) {
      throw new LlmProviderError("provider_invalid_response", `${this.name}: a streamed call answered with content type '${type || "(none)"}', not text/event-stream`, {
        status: res.status,
        body: await readText(res, signal),
      });
    }
    const assembler = this.#mapping.createStreamAssembler(call);
    const pending: StreamEvent[] = [{ type: "start" }];
    let failure: unknown;
    const parser = createParser({
      onEvent: (e) => {
        if (failure !== undefined) return;
        try {
          pending.push(...assembler.push(e.data, e.event));
        } catch (err) {
          failure = err;
        }
      },
    });
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const reader = res.body?.getReader();
    let finished = false;
    try {
      while (reader) {
        const { done, value } = await readChunk(reader, signal, res.status);
        if (done) break;
        parser.feed(decode(decoder, value, this.name));
        if (failure !== undefined) throw failure;
        // Taken as a batch: shift() per event is O(n) on a long queue (one network chunk carrying
        // thousands of events made the stream quadratic).
        for (const event of pending.splice(0)) yield event;
      }
      finished = true;
      parser.feed(decode(decoder, undefined, this.name));
      if (failure !== undefined) throw failure;
    } finally {
      // A consumer that stops early (or a failure) cancels the body so the connection is released;
      // the cancel's own outcome is irrelevant to a stream nobody reads any more.
      if (!finished && reader) await reader.cancel().catch(() => undefined);
      reader?.releaseLock();
    }
    for (const event of pending.splice(0)) yield event;
    yield { type: "done", response: withStructuredOutput(assembler.finish(), call) };
  }

  #send(request: WireRequest, signal: AbortSignal | undefined): Promise<globalThis.Response> {
    return send(this.#fetch, this.name, request, signal);
  }
}

/** One chunk of a streamed body; a connection that drops mid-stream is `provider_unavailable` (as a body read is, transport.ts). */
async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>, signal: AbortSignal | undefined, status: number): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>> {
  try {
    return await reader.read();
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new LlmProviderError("provider_unavailable", `the stream broke off: ${(cause as Error)?.message ?? String(cause)}`, { cause, status });
  }
}

function decode(decoder: InstanceType<typeof TextDecoder>, chunk: Uint8Array | undefined, name: string): string {
  try {
    return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
  } catch (cause) {
    throw new LlmProviderError("provider_invalid_response", `${name}: the stream is not valid UTF-8`, { cause });
  }
}

/** Apply §5 structured output to a mapped response (not on tool calls, §6 `parsed`). */
function withStructuredOutput(response: Response, call: PreparedCall): Response {
  const schema = call.responseSchema;
  if (schema === undefined || response.finish_reason === "tool_calls") return response;
  const content = response.message.content;
  try {
    return { ...response, parsed: parseStructured(schema, textOf(content), response.finish_reason, response.usage) };
  } catch (e) {
    if (e instanceof StructuredOutputInvalid) e.raw = response.raw;
    throw e;
  }
}
