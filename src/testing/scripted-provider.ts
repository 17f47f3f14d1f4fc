/**
 * {@link ScriptedProvider} (ADR-0052 D5): a §5 Provider that answers from a {@link Script} without
 * any network. It is an {@link HttpProvider} over the real OpenAI-compatible mapping whose `fetch`
 * is in-process: the mapping builds the real request body, the script picks the entry for it, the
 * entry is encoded as an OpenAI Chat Completions body (or SSE stream, or HTTP error), and the real
 * response / streaming / tool-call / structured-output parsing reads it back. Every served call is
 * recorded.
 *
 * Scripted errors, by kind (llm-provider §7 category as the OpenAI-compatible mapping assigns it):
 * `rate_limit` → HTTP 429 → `provider_rate_limit`; `server_error` → HTTP 500 →
 * `provider_unavailable`; `bad_request` → HTTP 400 → `provider_invalid_request`; `timeout` → the
 * transport fails with a `TimeoutError` → `provider_unavailable`; `value_error` → a 200 whose body
 * (or stream) reports an error → `provider_invalid_response`. `delay_ms` waits first (abortable).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { HttpProvider, type ProviderCapabilities } from "../llm/http-provider.ts";
import { openAiChatMapping } from "../llm/openai/mapping.ts";
import type { Message } from "../llm/messages.ts";
import type { CompleteOptions, Provider, ReadyOptions, StreamEvent } from "../llm/provider.ts";
import type { ProviderConfig, ProviderEntry } from "../llm/registry.ts";
import type { Response } from "../llm/response.ts";
import { ScriptExhaustedError } from "./errors.ts";
import { Script, type ResponseEntry, type ScriptRequest, type ScriptSource, type StreamChunkSpec } from "./script.ts";

/** The environment variable naming a script file, read when no script option is given. */
export const TEST_SCRIPT_ENV = "OPENARMATURE_TEST_SCRIPT";
/** The environment variable naming a file to which each provider appends its calls as JSON lines. */
export const TEST_RECORD_ENV = "OPENARMATURE_TEST_RECORD";
export const SCRIPTED_DEFAULT_MODEL = "scripted-test";
const BASE_URL = "scripted://internal";

/** One served call. */
export interface RecordedCall {
  /** The provider's 0-based call index. */
  readonly index: number;
  /** The request body the real mapping built (a copy). */
  readonly payload: { readonly [key: string]: unknown };
  readonly headers: { readonly [key: string]: string };
  readonly responseType: ResponseEntry["type"];
  /** The script entry that answered. */
  readonly response: ResponseEntry;
  readonly streamed: boolean;
  /** Why this entry: `positional[0]`, `when[2]: prompt_contains="x"`. */
  readonly reason: string;
}

export interface ScriptedProviderOptions {
  /** Default `OPENARMATURE_TEST_SCRIPT`; with neither, a warning and an empty script (the first call raises). */
  readonly script?: ScriptSource;
  readonly model?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly capabilities?: ProviderCapabilities;
  /** Append each call (and the construction) to this file as JSON lines; default `OPENARMATURE_TEST_RECORD`. */
  readonly recordTo?: string;
}

interface CallSlot {
  exhausted?: ScriptExhaustedError;
}

export class ScriptedProvider implements Provider {
  readonly name = "scripted";
  readonly api = openAiChatMapping.api;
  readonly model: string;
  #script: Script;
  #calls: RecordedCall[] = [];
  #callCount = 0;
  readonly #inner: HttpProvider;
  readonly #slot = new AsyncLocalStorage<CallSlot>();
  readonly #options: ScriptedProviderOptions;
  readonly #recordTo: string | undefined;

  constructor(options: ScriptedProviderOptions = {}) {
    this.#options = options;
    this.model = options.model ?? SCRIPTED_DEFAULT_MODEL;
    const source = options.script ?? process.env[TEST_SCRIPT_ENV];
    if (source === undefined || source === "") {
      process.emitWarning(`scripted provider: no script given (option 'script' or ${TEST_SCRIPT_ENV}); its first call will raise ScriptExhaustedError`, { code: "OPENARMATURE_NO_SCRIPT" });
      this.#script = new Script();
    } else {
      this.#script = Script.coerce(source);
    }
    this.#inner = new HttpProvider({
      name: this.name,
      mapping: openAiChatMapping,
      model: this.model,
      baseUrl: BASE_URL,
      apiKey: "scripted-dummy-key",
      ...(options.headers !== undefined ? { headers: options.headers } : {}),
      fetch: (url, init) => this.#serve(url, init),
      capabilities: { streaming: true, ...options.capabilities },
    });
    const recordTo = options.recordTo ?? process.env[TEST_RECORD_ENV];
    this.#recordTo = recordTo === "" ? undefined : recordTo;
    this.#record({ event: "constructed", model: this.model });
  }

  /** The live script (its cursor is the provider's). */
  get script(): Script {
    return this.#script;
  }
  /** The recorded calls (a copy of the list). */
  get calls(): ReadonlyArray<RecordedCall> {
    return [...this.#calls];
  }
  /** Forget the records; the script cursor is kept. */
  clearCalls(): void {
    this.#calls = [];
  }
  /** Replace the script (reset, with the call index back to 0). */
  attachScript(source: ScriptSource): void {
    this.#script = Script.coerce(source);
    this.#callCount = 0;
  }
  /** A provider with a reset copy of the script and a shallow copy of the records; neither consumes the other's entries. */
  copy(): ScriptedProvider {
    const clone = new ScriptedProvider({ ...this.#options, script: this.#script.copy(), model: this.model });
    clone.#calls = [...this.#calls];
    return clone;
  }

  async ready(options: ReadyOptions = {}): Promise<void> {
    await this.#inner.ready(options);
  }

  async complete(messages: ReadonlyArray<Message>, options: CompleteOptions = {}): Promise<Response> {
    const slot: CallSlot = {};
    try {
      return await this.#slot.run(slot, () => this.#inner.complete(messages, options));
    } catch (e) {
      throw slot.exhausted ?? e;
    }
  }

  async *stream(messages: ReadonlyArray<Message>, options: Omit<CompleteOptions, "stream" | "retry" | "onEvent"> = {}): AsyncIterable<StreamEvent> {
    const slot: CallSlot = {};
    const it = this.#inner.stream(messages, options)[Symbol.asyncIterator]();
    try {
      for (;;) {
        const r = await this.#slot.run(slot, () => it.next());
        if (r.done) return;
        yield r.value;
      }
    } catch (e) {
      throw slot.exhausted ?? e;
    } finally {
      await it.return?.();
    }
  }

  /** The in-process `fetch`: the only "server" a scripted provider talks to. */
  async #serve(url: string, init: RequestInit): Promise<globalThis.Response> {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    delete headers["authorization"];
    if (init.method === "GET" && url === `${BASE_URL}/models`) return json(200, { object: "list", data: [{ id: this.model, object: "model" }] });
    if (init.method !== "POST" || url !== `${BASE_URL}/chat/completions`) return json(404, { error: { message: `scripted provider: no route ${init.method} ${url}` } });
    const payload = JSON.parse(String(init.body)) as Record<string, unknown>;
    const streamed = payload["stream"] === true;
    const callIndex = this.#callCount++;
    let served;
    try {
      served = this.#script.next(scriptRequest(payload), callIndex);
    } catch (e) {
      const slot = this.#slot.getStore();
      if (!(e instanceof ScriptExhaustedError) || slot === undefined) throw e;
      slot.exhausted = e;
      // A non-transient status, so no call-level retry spins on it; complete() rethrows the real error.
      return json(400, { error: { message: e.message, type: "script_exhausted" } });
    }
    const { entry, reason } = served;
    const call: RecordedCall = { index: callIndex, payload: { ...payload }, headers, responseType: entry.type, response: entry, streamed, reason };
    this.#calls.push(call);
    this.#record({ event: "call", ...call });
    if (entry.type === "error") {
      if (entry.delay_ms) await delay(entry.delay_ms, undefined, init.signal ? { signal: init.signal } : {});
      return errorResponse(entry.kind ?? "value_error", entry.message ?? "scripted error", streamed);
    }
    return streamed ? sse(this.model, streamChunks(entry)) : json(200, completion(this.model, entry));
  }

  #record(line: Record<string, unknown>): void {
    if (this.#recordTo !== undefined) appendFileSync(this.#recordTo, `${JSON.stringify(line)}\n`);
  }
}

/** The request as a matcher sees it: the last user message's text, the offered tool names. */
function scriptRequest(payload: Record<string, unknown>): ScriptRequest {
  const messages = Array.isArray(payload["messages"]) ? (payload["messages"] as Array<Record<string, unknown>>) : [];
  const lastUser = [...messages].reverse().find((m) => m["role"] === "user");
  let text: string | null = null;
  if (lastUser !== undefined) {
    const c = lastUser["content"];
    text = typeof c === "string" ? c : Array.isArray(c) ? c.map((p) => (typeof p?.text === "string" ? p.text : "")).join("") : null;
  }
  const tools = Array.isArray(payload["tools"]) ? (payload["tools"] as Array<{ function?: { name?: unknown } }>) : [];
  return { lastUserMessage: text, toolNames: tools.map((t) => t.function?.name).filter((n): n is string => typeof n === "string") };
}

const ZERO_USAGE = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
const toolCallId = (id: string | null | undefined): string => id ?? `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`;

/** A non-streamed Chat Completions body for an entry (a stream entry: its text chunks concatenated). */
function completion(model: string, entry: Exclude<ResponseEntry, { type: "error" }>): Record<string, unknown> {
  let message: Record<string, unknown>;
  let finish = "stop";
  switch (entry.type) {
    case "text":
      message = { role: "assistant", content: entry.content };
      break;
    case "structured":
      message = { role: "assistant", content: JSON.stringify(entry.data) };
      break;
    case "tool_call":
      message = { role: "assistant", content: null, tool_calls: [{ id: toolCallId(entry.id), type: "function", function: { name: entry.name, arguments: JSON.stringify(entry.arguments ?? {}) } }] };
      finish = "tool_calls";
      break;
    case "stream":
      message = { role: "assistant", content: entry.chunks.filter((c) => c.type === "text").map((c) => c.content ?? "").join("") };
      break;
  }
  return { id: `chatcmpl-scripted-${randomUUID()}`, object: "chat.completion", created: 0, model, choices: [{ index: 0, message, finish_reason: finish }], usage: ZERO_USAGE };
}

/**
 * The chunk specs an entry streams as. A text entry is one text delta, a structured entry its JSON
 * as one text delta, a tool_call entry one tool_use chunk. A stream's `system` and `tool_result`
 * chunks have no form on an assistant's Chat Completions stream and are not sent; a stream without
 * a `result` chunk is completed (finish reason, usage, `[DONE]`) so the consumer sees a whole stream.
 */
function streamChunks(entry: Exclude<ResponseEntry, { type: "error" }>): ReadonlyArray<StreamChunkSpec> {
  switch (entry.type) {
    case "text":
      return [{ type: "text", content: entry.content }];
    case "structured":
      return [{ type: "text", content: JSON.stringify(entry.data) }];
    case "tool_call":
      return [{ type: "tool_use", tool_name: entry.name, tool_input: entry.arguments ?? {}, tool_id: entry.id ?? null }];
    case "stream":
      return entry.chunks;
  }
}

function sse(model: string, chunks: ReadonlyArray<StreamChunkSpec>): globalThis.Response {
  const id = `chatcmpl-scripted-${randomUUID()}`;
  const envelope = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ id, object: "chat.completion.chunk", created: 0, model, choices: [choice], ...extra });
  const events: unknown[] = [envelope({ index: 0, delta: { role: "assistant" }, finish_reason: null })];
  let tools = 0;
  let failed = false;
  for (const c of chunks) {
    if (c.type === "result") break;
    if (c.type === "error") {
      events.push({ error: { message: c.content ?? "scripted stream error", type: "scripted_error" } });
      failed = true;
      break;
    }
    if (c.type === "text" && c.content) events.push(envelope({ index: 0, delta: { content: c.content }, finish_reason: null }));
    if (c.type === "thinking" && c.content) events.push(envelope({ index: 0, delta: { reasoning_content: c.content }, finish_reason: null }));
    if (c.type === "tool_use") {
      const call = { index: tools++, id: toolCallId(c.tool_id), type: "function", function: { name: c.tool_name, arguments: JSON.stringify(c.tool_input ?? {}) } };
      events.push(envelope({ index: 0, delta: { tool_calls: [call] }, finish_reason: null }));
    }
  }
  if (!failed) {
    events.push(envelope({ index: 0, delta: {}, finish_reason: tools > 0 ? "tool_calls" : "stop" }));
    events.push({ id, object: "chat.completion.chunk", created: 0, model, choices: [], usage: ZERO_USAGE });
  }
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + (failed ? "" : "data: [DONE]\n\n");
  return new globalThis.Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });
}

function errorResponse(kind: NonNullable<Extract<ResponseEntry, { type: "error" }>["kind"]>, message: string, streamed: boolean): globalThis.Response {
  switch (kind) {
    case "rate_limit":
      return json(429, { error: { message, type: "rate_limit_exceeded" } });
    case "server_error":
      return json(500, { error: { message, type: "server_error" } });
    case "bad_request":
      return json(400, { error: { message, type: "invalid_request_error" } });
    case "timeout":
      throw new DOMException(`scripted timeout: ${message}`, "TimeoutError");
    case "value_error":
      if (streamed) return new globalThis.Response(`data: ${JSON.stringify({ error: { message, type: "value_error" } })}\n\n`, { status: 200, headers: { "content-type": "text/event-stream" } });
      return json(200, { error: { message, type: "value_error" } });
  }
}

function json(status: number, body: unknown): globalThis.Response {
  return new globalThis.Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

const SCRIPT_OPTION = Symbol.for("openarmature.testing.script");

/** A registry config carrying a script: `providers.create("scripted", scriptedConfig(script))`. */
export function scriptedConfig(script: ScriptSource, model: string = SCRIPTED_DEFAULT_MODEL): ProviderConfig {
  return { model, [SCRIPT_OPTION]: script } as ProviderConfig;
}

/** The `scripted` registry entry (registered in the default `providers` registry). */
export const scriptedEntry: ProviderEntry = {
  name: "scripted",
  api: openAiChatMapping.api,
  kind: "test",
  defaultBaseUrl: BASE_URL,
  create(config: ProviderConfig): Provider {
    const script = (config as ProviderConfig & { [SCRIPT_OPTION]?: ScriptSource })[SCRIPT_OPTION];
    return new ScriptedProvider({
      model: config.model,
      ...(script !== undefined ? { script } : {}),
      ...(config.headers !== undefined ? { headers: config.headers } : {}),
      ...(config.capabilities !== undefined ? { capabilities: config.capabilities } : {}),
    });
  },
};
