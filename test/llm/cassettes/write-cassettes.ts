/**
 * Writes the provider test cassettes in this folder. There is no network here, so each response is
 * written from the provider's documented wire format (the `provenance` field says which document)
 * and served to the real provider through `cassetteFetch` in `record` mode, which captures the
 * request exactly as the mapping sends it (API key redacted). Users with keys re-record against the
 * live APIs with `mode: "record"` and the real `fetch`.
 *
 *   node --import tsx test/llm/cassettes/write-cassettes.ts
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { cassetteFetch, providers, saveCassette, type CassetteChunk, type CompleteOptions, type FetchFn, type Message } from "../../../src/llm/index.ts";

const dir = fileURLToPath(new URL(".", import.meta.url));
const KEY = "sk-cassette-writer-secret";
const hi: Message[] = [{ role: "user", content: "Say hello." }];
const weatherQ: Message[] = [{ role: "user", content: "Weather in Paris?" }];
const weather = { name: "get_weather", description: "Get current weather for a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

const DOCS: Record<string, string> = {
  openai: "https://platform.openai.com/docs/api-reference/chat (chat completion object, chat completion chunk object, error codes)",
  anthropic: "https://docs.anthropic.com/en/api/messages and https://docs.anthropic.com/en/api/errors",
  gemini: "https://ai.google.dev/api/generate-content and https://ai.google.dev/gemini-api/docs/troubleshooting",
};

interface Served {
  status: number;
  contentType?: string | null;
  chunks: CassetteChunk[];
}
const json = (status: number, body: unknown): Served => ({ status, contentType: "application/json", chunks: [{ utf8: JSON.stringify(body) }] });
const sse = (events: unknown[], split = 1, named = false): Served => {
  // Anthropic names each event (`event: <type>` before its data line), as its documented stream does.
  const name = (e: unknown) => (named && typeof e === "object" && e !== null && "type" in e ? `event: ${String(e.type)}\n` : "");
  const text = events.map((e) => `${name(e)}data: ${typeof e === "string" ? e : JSON.stringify(e)}\n\n`);
  // Chunk boundaries fall mid-event on purpose (every `split` events, cut at a third of the bytes,
  // possibly inside a multi-byte character), as TCP does.
  const chunks: CassetteChunk[] = [];
  for (let i = 0; i < text.length; i += split) {
    const bytes = Buffer.from(text.slice(i, i + split).join(""), "utf8");
    let cut = Math.max(1, Math.floor(bytes.length / 3));
    const inside = bytes.findIndex((b, k) => k >= cut && (b & 0xc0) === 0x80);
    if (inside > 0) cut = inside;
    chunks.push({ base64: bytes.subarray(0, cut).toString("base64") }, { base64: bytes.subarray(cut).toString("base64") });
  }
  return { status: 200, contentType: "text/event-stream", chunks };
};

async function write(name: string, provider: string, baseUrl: string | undefined, model: string, served: Served, messages: Message[], options: CompleteOptions, note: string, streaming = false): Promise<void> {
  const server: FetchFn = async () => {
    const headers: Record<string, string> = served.contentType ? { "content-type": served.contentType } : {};
    const bytes = served.chunks.map((c) => ("utf8" in c ? Buffer.from(c.utf8) : Buffer.from(c.base64, "base64")));
    const body = new ReadableStream<Uint8Array>({
      pull(ctl) {
        const next = bytes.shift();
        if (next) ctl.enqueue(new Uint8Array(next));
        else ctl.close();
      },
    });
    return new Response(body, { status: served.status, headers });
  };
  const entry = providers.lookup(provider)!;
  const api = entry.api.startsWith("openai") ? "openai" : entry.api.startsWith("anthropic") ? "anthropic" : "gemini";
  const rec = cassetteFetch(undefined, { mode: "record", fetch: server, secrets: [KEY], provenance: `Written by hand, not recorded: ${note}; response bytes from the documented wire format (${DOCS[api]}); request captured from this library's ${entry.api} mapping.` });
  const p = providers.create(provider, { model, apiKey: KEY, fetch: rec, ...(baseUrl ? { baseUrl } : {}), ...(streaming ? { capabilities: { streaming: true } } : {}) });
  try {
    await p.complete(messages, options);
  } catch {
    // error scenarios: the cassette is what matters
  }
  saveCassette(join(dir, `${name}.json`), rec.recorded());
}

const chunk = (delta: unknown, finish: string | null = null, extra = {}) => ({ id: "chatcmpl-c1", object: "chat.completion.chunk", created: 1733000000, model: "gpt-4o-mini", choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
const usageChunk = (p: number, c: number) => ({ id: "chatcmpl-c1", object: "chat.completion.chunk", created: 1733000000, model: "gpt-4o-mini", choices: [], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c } });
const openAiError = (status: number, type: string, code: string | null, message: string): Served => json(status, { error: { message, type, param: null, code } });

const openAiStreams: Record<string, [Served, Message[], CompleteOptions, string]> = {
  simple_text: [sse([chunk({ role: "assistant", content: "" }), chunk({ content: "Hello" }), chunk({ content: " there!" }), chunk({}, "stop"), usageChunk(9, 3), "[DONE]"]), hi, { stream: true }, "streamed text"],
  tool_call_single: [
    sse([
      chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_Xz91", type: "function", function: { name: "get_weather", arguments: "" } }] }),
      ...['{"', "city", '":"', "Par", "is", '"}'].map((a) => chunk({ tool_calls: [{ index: 0, function: { arguments: a } }] })),
      chunk({}, "tool_calls"),
      usageChunk(40, 17),
      "[DONE]",
    ]),
    weatherQ,
    { stream: true, tools: [weather] },
    "streamed tool call split over six argument deltas",
  ],
  unicode_text: [sse([chunk({ role: "assistant", content: "" }), chunk({ content: "Grüße, " }), chunk({ content: "世界 " }), chunk({ content: "👋🏽" }), chunk({}, "stop"), usageChunk(8, 9), "[DONE]"]), hi, { stream: true }, "streamed multi-byte text"],
  error_auth_401: [openAiError(401, "invalid_request_error", "invalid_api_key", "Incorrect API key provided: sk-cass***cret. You can find your API key at https://platform.openai.com/account/api-keys."), hi, { stream: true }, "401 on a streamed call"],
  error_bad_request_400: [openAiError(400, "invalid_request_error", null, "Invalid value for 'temperature': must be between 0 and 2."), hi, { stream: true, config: { temperature: 5 } }, "400 on a streamed call"],
  error_rate_limit_429: [{ ...openAiError(429, "requests", "rate_limit_exceeded", "Rate limit reached for gpt-4o-mini on requests per min (RPM): Limit 3, Used 3, Requested 1."), contentType: "application/json" }, hi, { stream: true }, "429 on a streamed call"],
};

for (const [scenario, [served, messages, options, note]] of Object.entries(openAiStreams)) {
  await write(`verify_openai_${scenario}`, "openai", undefined, "gpt-4o-mini", served, messages, options, `OpenAI ${note}`);
}

// Error paths (OpenAI streaming).
await write("openai_error_http_500", "openai", undefined, "gpt-4o-mini", openAiError(500, "server_error", null, "The server had an error while processing your request."), hi, { stream: true }, "HTTP 500");
await write("openai_error_wrong_content_type", "openai", undefined, "gpt-4o-mini", { status: 200, contentType: "text/html; charset=utf-8", chunks: [{ utf8: "<html><body>Bad gateway page</body></html>" }] }, hi, { stream: true }, "a proxy answering a stream with HTML");
await write("openai_error_missing_content_type", "openai", undefined, "gpt-4o-mini", { status: 200, contentType: null, chunks: [{ utf8: `data: ${JSON.stringify(chunk({ content: "Hi" }, "stop"))}\n\ndata: [DONE]\n\n` }] }, hi, { stream: true }, "a stream without a content type");
await write("openai_error_invalid_json_event", "openai", undefined, "gpt-4o-mini", { status: 200, contentType: "text/event-stream", chunks: [{ utf8: `data: ${JSON.stringify(chunk({ content: "Hi" }))}\n\ndata: {"id":"chatcmpl-c1","choices":[{"delta":{"content":\n\n` }] }, hi, { stream: true }, "an SSE event whose data is truncated JSON");
await write("openai_error_invalid_utf8", "openai", undefined, "gpt-4o-mini", { status: 200, contentType: "text/event-stream", chunks: [{ utf8: `data: ${JSON.stringify(chunk({ content: "Hi" }))}\n\n` }, { base64: Buffer.concat([Buffer.from('data: {"choices":[{"index":0,"delta":{"content":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}]}\n\n')]).toString("base64") }] }, hi, { stream: true }, "a stream carrying an invalid UTF-8 sequence (0xC3 0x28)");

// OpenAI-compatible presets: the lighter obligation (simple text, tool call, auth error).
const PRESET_MODELS: Record<string, string> = { vllm: "meta-llama/Llama-3.1-8B-Instruct", ollama: "llama3.1", lmstudio: "qwen2.5-7b-instruct", llamacpp: "llama-3.1-8b-instruct-q4_k_m" };
for (const [preset, model] of Object.entries(PRESET_MODELS)) {
  const done = (content: string | null, extra: Record<string, unknown> = {}, finish = "stop") => json(200, { id: "chatcmpl-p1", object: "chat.completion", created: 1733000000, model, choices: [{ index: 0, message: { role: "assistant", content, ...extra }, finish_reason: finish }], usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } });
  await write(`${preset}_simple_text`, preset, undefined, model, done("Hello there!"), hi, {}, `${preset} text completion`);
  await write(`${preset}_tool_call_single`, preset, undefined, model, done(null, { tool_calls: [{ id: "chatcmpl-tool-1", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } }] }, "tool_calls"), weatherQ, { tools: [weather] }, `${preset} tool call`);
  await write(`${preset}_error_auth_401`, preset, undefined, model, openAiError(401, "invalid_request_error", null, "Unauthorized"), hi, {}, `${preset} behind an API-key gate`);
}

// Anthropic (no streaming in spec 0.120.1 §8.2).
const aMsg = (content: unknown[], stop: string) => json(200, { id: "msg_01XFDUDYJgAACzvnptvVoYEL", type: "message", role: "assistant", model: "claude-sonnet-4-5", content, stop_reason: stop, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 6 } });
await write("anthropic_simple_text", "anthropic", undefined, "claude-sonnet-4-5", aMsg([{ type: "text", text: "Hello there!" }], "end_turn"), hi, { config: { max_tokens: 64 } }, "Anthropic text message");
await write("anthropic_tool_call_single", "anthropic", undefined, "claude-sonnet-4-5", aMsg([{ type: "text", text: "Let me check." }, { type: "tool_use", id: "toolu_01A09q90qw90lq917835lq9", name: "get_weather", input: { city: "Paris" } }], "tool_use"), weatherQ, { tools: [weather], config: { max_tokens: 64 } }, "Anthropic tool_use");
await write("anthropic_error_auth_401", "anthropic", undefined, "claude-sonnet-4-5", json(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" }, request_id: "req_011CSHoEeqs5C35K2UUqR7Fy" }), hi, { config: { max_tokens: 64 } }, "Anthropic authentication_error");
await write("anthropic_error_http_500", "anthropic", undefined, "claude-sonnet-4-5", json(500, { type: "error", error: { type: "api_error", message: "Internal server error" } }), hi, { config: { max_tokens: 64 } }, "Anthropic api_error");

// Gemini (no streaming in spec 0.120.1 §8.3).
const gen = (parts: unknown[], finish = "STOP") => json(200, { candidates: [{ content: { role: "model", parts }, finishReason: finish, index: 0 }], usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 4, totalTokenCount: 12 }, modelVersion: "gemini-2.5-flash", responseId: "mAitaN2cKqGk1MkPhqCMcA" });
await write("gemini_simple_text", "gemini", undefined, "gemini-2.5-flash", gen([{ text: "Hello there!" }]), hi, {}, "Gemini text candidate");
await write("gemini_tool_call_single", "gemini", undefined, "gemini-2.5-flash", gen([{ functionCall: { id: "fc-1", name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "CiQB0e2Kb1sig" }]), weatherQ, { tools: [weather] }, "Gemini functionCall part");
await write("gemini_error_auth_401", "gemini", undefined, "gemini-2.5-flash", json(401, { error: { code: 401, message: "API key not valid. Please pass a valid API key.", status: "UNAUTHENTICATED" } }), hi, {}, "Gemini UNAUTHENTICATED");
await write("gemini_error_http_500", "gemini", undefined, "gemini-2.5-flash", json(500, { error: { code: 500, message: "An internal error has occurred.", status: "INTERNAL" } }), hi, {}, "Gemini INTERNAL");

// Streaming conformance for the two native mappings whose streaming is opt-in
// (`capabilities: { streaming: true }`): the same six scenarios as OpenAI's.
const aStart = (input: number) => ({ type: "message_start", message: { id: "msg_01Stream", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 1 } } });
const aText = (parts: string[], input: number, output: number) => [
  aStart(input),
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "ping" },
  ...parts.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: output } },
  { type: "message_stop" },
];
const anthropicError = (status: number, type: string, message: string): Served => json(status, { type: "error", error: { type, message }, request_id: "req_011Stream" });
const anthropicStreams: Record<string, [Served, Message[], CompleteOptions, string]> = {
  simple_text: [sse(aText(["Hello", " there!"], 9, 3), 1, true), hi, { stream: true, config: { max_tokens: 64 } }, "streamed text (message_start, content_block_*, ping, message_delta, message_stop)"],
  tool_call_single: [
    sse(
      [
        aStart(40),
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_01Stream", name: "get_weather", input: {} } },
        ...['{"', "city", '":"', "Par", "is", '"}'].map((partial_json) => ({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json } })),
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 17 } },
        { type: "message_stop" },
      ],
      1,
      true,
    ),
    weatherQ,
    { stream: true, tools: [weather], config: { max_tokens: 64 } },
    "streamed tool_use split over six input_json_delta events",
  ],
  unicode_text: [sse(aText(["Grüße, ", "世界 ", "👋🏽"], 8, 9), 1, true), hi, { stream: true, config: { max_tokens: 64 } }, "streamed multi-byte text"],
  error_auth_401: [anthropicError(401, "authentication_error", "invalid x-api-key"), hi, { stream: true, config: { max_tokens: 64 } }, "401 on a streamed call"],
  error_bad_request_400: [anthropicError(400, "invalid_request_error", "temperature: range: 0..1"), hi, { stream: true, config: { max_tokens: 64, temperature: 5 } }, "400 on a streamed call"],
  error_rate_limit_429: [anthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit."), hi, { stream: true, config: { max_tokens: 64 } }, "429 on a streamed call"],
};
for (const [scenario, [served, messages, options, note]] of Object.entries(anthropicStreams)) {
  await write(`verify_anthropic_${scenario}`, "anthropic", undefined, "claude-sonnet-4-5", served, messages, options, `Anthropic ${note}`, true);
}

const gChunk = (parts: unknown[], finish?: string, usage?: [number, number]) => ({
  candidates: [{ content: { role: "model", parts }, ...(finish ? { finishReason: finish } : {}), index: 0 }],
  ...(usage ? { usageMetadata: { promptTokenCount: usage[0], candidatesTokenCount: usage[1], totalTokenCount: usage[0] + usage[1] } } : {}),
  modelVersion: "gemini-2.5-flash",
  responseId: "mAitaStream",
});
const geminiError = (status: number, state: string, message: string): Served => json(status, { error: { code: status, message, status: state } });
const geminiStreams: Record<string, [Served, Message[], CompleteOptions, string]> = {
  simple_text: [sse([gChunk([{ text: "Hello" }]), gChunk([{ text: " there!" }], "STOP", [9, 3])]), hi, { stream: true }, "streamGenerateContent?alt=sse text chunks"],
  tool_call_single: [sse([gChunk([{ functionCall: { id: "fc-1", name: "get_weather", args: { city: "Paris" } }, thoughtSignature: "CiQB0e2Kb1sig" }], "STOP", [40, 17])]), weatherQ, { stream: true, tools: [weather] }, "a functionCall part (Gemini streams whole calls, not argument deltas)"],
  unicode_text: [sse([gChunk([{ text: "Grüße, " }]), gChunk([{ text: "世界 " }]), gChunk([{ text: "👋🏽" }], "STOP", [8, 9])]), hi, { stream: true }, "streamed multi-byte text"],
  error_auth_401: [geminiError(401, "UNAUTHENTICATED", "API key not valid. Please pass a valid API key."), hi, { stream: true }, "401 on a streamed call"],
  error_bad_request_400: [geminiError(400, "INVALID_ARGUMENT", "Unable to submit request because it has a temperature value of 5 but the supported range is from 0 (inclusive) to 2.0001 (exclusive)."), hi, { stream: true, config: { temperature: 5 } }, "400 on a streamed call"],
  error_rate_limit_429: [geminiError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota)."), hi, { stream: true }, "429 on a streamed call"],
};
for (const [scenario, [served, messages, options, note]] of Object.entries(geminiStreams)) {
  await write(`verify_gemini_${scenario}`, "gemini", undefined, "gemini-2.5-flash", served, messages, options, `Gemini ${note}`, true);
}

// Error paths for the opt-in streaming of the Anthropic and Gemini mappings (tier 3: wrong /
// missing content type, invalid JSON in an SSE event, invalid UTF-8), as OpenAI's above.
const badUtf8 = (prefix: string, suffix: string) => Buffer.concat([Buffer.from(prefix), Buffer.from([0xc3, 0x28]), Buffer.from(suffix)]).toString("base64");
const aEvent = (e: { type: string }) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
const aHead = aEvent(aStart(9)) + aEvent({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } } as { type: string });
const aWhole = aHead + aEvent({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } } as { type: string }) + aEvent({ type: "content_block_stop", index: 0 } as { type: string }) + aEvent({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } } as { type: string }) + aEvent({ type: "message_stop" });
const gWhole = `data: ${JSON.stringify(gChunk([{ text: "Hi" }], "STOP", [9, 1]))}\n\n`;
const malformedStreams: Record<"anthropic" | "gemini", { model: string; options: CompleteOptions; whole: string; head: string; truncated: string; utf8: [string, string] }> = {
  anthropic: {
    model: "claude-sonnet-4-5",
    options: { stream: true, config: { max_tokens: 64 } },
    whole: aWhole,
    head: aHead,
    truncated: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":\n\n',
    utf8: ['event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"', '"}}\n\n'],
  },
  gemini: {
    model: "gemini-2.5-flash",
    options: { stream: true },
    whole: gWhole,
    head: `data: ${JSON.stringify(gChunk([{ text: "Hi" }]))}\n\n`,
    truncated: 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":\n\n',
    utf8: ['data: {"candidates":[{"content":{"role":"model","parts":[{"text":"', '"}]},"finishReason":"STOP","index":0}]}\n\n'],
  },
};
for (const [provider, m] of Object.entries(malformedStreams)) {
  const label = provider === "anthropic" ? "Anthropic" : "Gemini";
  await write(`${provider}_error_wrong_content_type`, provider, undefined, m.model, { status: 200, contentType: "text/html; charset=utf-8", chunks: [{ utf8: "<html><body>Bad gateway page</body></html>" }] }, hi, m.options, `${label}: a proxy answering a stream with HTML`, true);
  await write(`${provider}_error_missing_content_type`, provider, undefined, m.model, { status: 200, contentType: null, chunks: [{ utf8: m.whole }] }, hi, m.options, `${label}: a stream without a content type`, true);
  await write(`${provider}_error_invalid_json_event`, provider, undefined, m.model, { status: 200, contentType: "text/event-stream", chunks: [{ utf8: m.head + m.truncated }] }, hi, m.options, `${label}: an SSE event whose data is truncated JSON`, true);
  await write(`${provider}_error_invalid_utf8`, provider, undefined, m.model, { status: 200, contentType: "text/event-stream", chunks: [{ utf8: m.head }, { base64: badUtf8(...m.utf8) }] }, hi, m.options, `${label}: a stream carrying an invalid UTF-8 sequence (0xC3 0x28)`, true);
}
