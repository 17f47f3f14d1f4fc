/**
 * Tiers 3–5 of the provider test obligations, replayed from cassettes (test/llm/cassettes/*.json,
 * written by write-cassettes.ts from each provider's documented wire format):
 * - error paths: HTTP 500, wrong / missing content type, invalid JSON in an SSE event, invalid UTF-8
 *   (the malformed-stream ones for every mapping's streaming);
 * - streaming conformance (`verify_<openai|anthropic|gemini>_<scenario>`): the event timeline,
 *   accumulated text, tool calls and stop reason;
 * - end to end, per native mapping: a graph's agent turn with a tool call through cassette
 *   playback, persisted by a session store.
 */
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { END, GraphBuilder, defineState, field } from "../../src/graph/index.ts";
import {
  CassetteMismatch,
  cassetteFetch,
  loadCassette,
  mergeChunksInterceptor,
  providers,
  type Cassette,
  type Message,
  type Provider,
  type StreamEvent,
} from "../../src/llm/index.ts";
import { InMemorySessionStore, withSessions } from "../../src/sessions/index.ts";
import { rejection } from "./fake-fetch.ts";

const dir = fileURLToPath(new URL("./cassettes/", import.meta.url));
const cassette = (name: string): Cassette => loadCassette(`${dir}${name}.json`);
const hi: Message[] = [{ role: "user", content: "Say hello." }];
const weatherQ: Message[] = [{ role: "user", content: "Weather in Paris?" }];
const weather = { name: "get_weather", description: "Get current weather for a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

function play(name: string, provider = "openai", model = "gpt-4o-mini", strict = true): Provider {
  return providers.create(provider, { model, apiKey: "sk-test", fetch: cassetteFetch(cassette(name), { strict }) });
}

/** The three streamed-call error scenarios every native provider has a cassette for. */
const ERROR_SCENARIOS = [
  ["error_auth_401", "provider_authentication", 401],
  ["error_bad_request_400", "provider_invalid_request", 400],
  ["error_rate_limit_429", "provider_rate_limit", 429],
] as const;

async function timeline(p: Provider, messages: Message[], options = {}): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const e of p.stream(messages, options)) events.push(e);
  return events;
}

describe("llm cassettes: format and hygiene", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  it("every cassette has provenance and no API key", () => {
    for (const f of files) {
      const text = readFileSync(`${dir}${f}`, "utf8");
      const c = JSON.parse(text) as Cassette;
      expect(c.provenance, f).to.match(/documented wire format/);
      expect(text, f).to.not.contain("sk-cassette-writer-secret");
      for (const i of c.interactions) for (const h of ["authorization", "x-api-key", "x-goog-api-key"]) if (h in i.request.headers) expect(i.request.headers[h]).to.equal("[redacted]");
    }
  });
  it("strict playback refuses a request that differs from the cassette (surfacing as the fetch failure's cause)", async () => {
    const e = await rejection(play("verify_openai_simple_text").complete([{ role: "user", content: "Something else." }], { stream: true }));
    expect(e.cause).to.be.instanceOf(CassetteMismatch);
  });
  it("merging chunks does not change the assembled response", async () => {
    const merged = providers.create("openai", { model: "gpt-4o-mini", fetch: cassetteFetch(cassette("verify_openai_tool_call_single"), { interceptors: [mergeChunksInterceptor] }) });
    const a = await merged.complete(weatherQ, { stream: true, tools: [weather] });
    const b = await play("verify_openai_tool_call_single").complete(weatherQ, { stream: true, tools: [weather] });
    expect(a).to.deep.equal(b);
  });
});

describe("llm cassettes: streaming conformance (OpenAI-compatible)", () => {
  it("simple_text: start, deltas, done; text and stop reason", async () => {
    const events = await timeline(play("verify_openai_simple_text"), hi);
    expect(events.map((e) => e.type)).to.deep.equal(["start", "text_delta", "text_delta", "done"]);
    const done = events.at(-1) as Extract<StreamEvent, { type: "done" }>;
    expect([done.response.message.content, done.response.finish_reason, done.response.usage.total_tokens]).to.deep.equal(["Hello there!", "stop", 12]);
    const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
    expect(deltas.join("")).to.equal(done.response.message.content);
  });
  it("tool_call_single: start / delta / end, arguments reassembled", async () => {
    const events = await timeline(play("verify_openai_tool_call_single"), weatherQ, { tools: [weather] });
    expect(events.map((e) => e.type)).to.deep.equal(["start", "tool_call_start", ...Array(6).fill("tool_call_delta"), "tool_call_end", "done"]);
    const done = events.at(-1) as Extract<StreamEvent, { type: "done" }>;
    expect(done.response.finish_reason).to.equal("tool_calls");
    expect(done.response.message.tool_calls).to.deep.equal([{ id: "call_Xz91", name: "get_weather", arguments: { city: "Paris" } }]);
  });
  it("unicode_text: multi-byte characters split across chunks survive", async () => {
    const r = await play("verify_openai_unicode_text").complete(hi, { stream: true });
    expect(r.message.content).to.equal("Grüße, 世界 👋🏽");
  });
  for (const [scenario, category, status] of ERROR_SCENARIOS) {
    it(`${scenario}: ${category}`, async () => {
      const options = scenario === "error_bad_request_400" ? { stream: true, config: { temperature: 5 } } : { stream: true };
      const e = await rejection(play(`verify_openai_${scenario}`).complete(hi, options));
      expect([e.category, e.status]).to.deep.equal([category, status]);
    });
  }
});

for (const [provider, model] of [
  ["anthropic", "claude-sonnet-4-5"],
  ["gemini", "gemini-2.5-flash"],
] as const) {
  describe(`llm cassettes: streaming conformance (${provider})`, () => {
    const base = provider === "anthropic" ? { config: { max_tokens: 64 } } : {};
    const streaming = (name: string): Provider =>
      providers.create(provider, { model, apiKey: "sk-test", fetch: cassetteFetch(cassette(`verify_${provider}_${name}`), { strict: true }), capabilities: { streaming: true } });
    const doneOf = (events: StreamEvent[]) => (events.at(-1) as Extract<StreamEvent, { type: "done" }>).response;
    it("simple_text: start, deltas, done; text, stop reason and usage", async () => {
      const events = await timeline(streaming("simple_text"), hi, base);
      expect(events.map((e) => e.type)).to.deep.equal(["start", "text_delta", "text_delta", "done"]);
      const r = doneOf(events);
      expect([r.message.content, r.finish_reason, r.usage.prompt_tokens, r.usage.completion_tokens]).to.deep.equal(["Hello there!", "stop", 9, 3]);
      expect(events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : [])).join("")).to.equal("Hello there!");
      // the streamed call assembles the Response the timeline's done event carries
      expect(await streaming("simple_text").complete(hi, { ...base, stream: true })).to.deep.equal(r);
    });
    it("tool_call_single: start / delta / end, arguments reassembled", async () => {
      const events = await timeline(streaming("tool_call_single"), weatherQ, { ...base, tools: [weather] });
      // Anthropic streams the arguments as six input_json_delta events; Gemini sends a whole functionCall part.
      const deltas = provider === "anthropic" ? 6 : 1;
      expect(events.map((e) => e.type)).to.deep.equal(["start", "tool_call_start", ...Array(deltas).fill("tool_call_delta"), "tool_call_end", "done"]);
      const r = doneOf(events);
      expect(r.finish_reason).to.equal("tool_calls");
      expect(r.message.tool_calls?.map((c) => [c.name, c.arguments])).to.deep.equal([["get_weather", { city: "Paris" }]]);
      const end = events.find((e) => e.type === "tool_call_end") as Extract<StreamEvent, { type: "tool_call_end" }>;
      expect(end.toolCall).to.deep.equal(r.message.tool_calls![0]);
    });
    it("unicode_text: multi-byte characters split across chunks survive", async () => {
      const r = await streaming("unicode_text").complete(hi, { ...base, stream: true });
      expect(r.message.content).to.equal("Grüße, 世界 👋🏽");
    });
    for (const [scenario, category, status] of ERROR_SCENARIOS) {
      it(`${scenario}: ${category}`, async () => {
        const config = scenario === "error_bad_request_400" ? { ...base.config, temperature: 5 } : base.config;
        const e = await rejection(streaming(scenario).complete(hi, { stream: true, ...(config ? { config } : {}) }));
        expect([e.category, e.status]).to.deep.equal([category, status]);
      });
    }
  });
}

describe("llm cassettes: error paths", () => {
  it("HTTP 500 carries the status and the body text", async () => {
    const e = await rejection(play("openai_error_http_500").complete(hi, { stream: true }));
    expect([e.category, e.status]).to.deep.equal(["provider_unavailable", 500]);
    expect(e.body).to.contain("The server had an error");
  });
  for (const name of ["openai_error_wrong_content_type", "openai_error_missing_content_type", "openai_error_invalid_json_event", "openai_error_invalid_utf8"]) {
    it(`${name.slice(13)}: provider_invalid_response carrying the raw bytes`, async () => {
      const e = await rejection(play(name).complete(hi, { stream: true }));
      expect(e.category).to.equal("provider_invalid_response");
      if (name !== "openai_error_invalid_utf8") expect(e.body).to.be.a("string").and.not.equal("");
    });
  }
  for (const [provider, model] of [
    ["anthropic", "claude-sonnet-4-5"],
    ["gemini", "gemini-2.5-flash"],
  ] as const) {
    // The malformed-stream scenarios, on the mappings' opt-in streaming.
    for (const scenario of ["wrong_content_type", "missing_content_type", "invalid_json_event", "invalid_utf8"]) {
      it(`${provider}: ${scenario}: provider_invalid_response carrying the raw bytes`, async () => {
        const p = providers.create(provider, { model, apiKey: "sk-test", fetch: cassetteFetch(cassette(`${provider}_error_${scenario}`), { strict: true }), capabilities: { streaming: true } });
        const e = await rejection(p.complete(hi, { stream: true, ...(provider === "anthropic" ? { config: { max_tokens: 64 } } : {}) }));
        expect(e.category).to.equal("provider_invalid_response");
        if (scenario !== "invalid_utf8") expect(e.body).to.be.a("string").and.not.equal("");
      });
    }
    it(`${provider}: HTTP 500 and 401`, async () => {
      const options = provider === "anthropic" ? { config: { max_tokens: 64 } } : {};
      const down = await rejection(play(`${provider}_error_http_500`, provider, model).complete(hi, options));
      expect([down.category, down.status]).to.deep.equal(["provider_unavailable", 500]);
      const auth = await rejection(play(`${provider}_error_auth_401`, provider, model).complete(hi, options));
      expect(auth.category).to.equal("provider_authentication");
    });
  }
});

describe("llm cassettes: every provider's text and tool-call cassettes", () => {
  for (const [provider, model] of [
    ["anthropic", "claude-sonnet-4-5"],
    ["gemini", "gemini-2.5-flash"],
    ["vllm", "meta-llama/Llama-3.1-8B-Instruct"],
    ["ollama", "llama3.1"],
    ["lmstudio", "qwen2.5-7b-instruct"],
    ["llamacpp", "llama-3.1-8b-instruct-q4_k_m"],
  ] as const) {
    it(provider, async () => {
      const options = provider === "anthropic" ? { config: { max_tokens: 64 } } : {};
      const text = await play(`${provider}_simple_text`, provider, model).complete(hi, options);
      expect([text.message.content, text.finish_reason]).to.deep.equal(["Hello there!", "stop"]);
      const call = await play(`${provider}_tool_call_single`, provider, model).complete(weatherQ, { ...options, tools: [weather] });
      expect(call.finish_reason).to.equal("tool_calls");
      expect(call.message.tool_calls?.map((c) => [c.name, c.arguments])).to.deep.equal([["get_weather", { city: "Paris" }]]);
    });
  }
  it("preset auth errors", async () => {
    for (const [p, m] of [["vllm", "meta-llama/Llama-3.1-8B-Instruct"], ["ollama", "llama3.1"], ["lmstudio", "qwen2.5-7b-instruct"], ["llamacpp", "llama-3.1-8b-instruct-q4_k_m"]] as const) {
      expect((await rejection(play(`${p}_error_auth_401`, p, m).complete(hi))).category).to.equal("provider_authentication");
    }
  });
});

describe("llm cassettes: end to end", () => {
  // One agent turn per native mapping (the OpenAI-compatible one through the vllm preset).
  for (const [provider, model, prefix] of [
    ["vllm", "meta-llama/Llama-3.1-8B-Instruct", "vllm"],
    ["anthropic", "claude-sonnet-4-5", "anthropic"],
    ["gemini", "gemini-2.5-flash", "gemini"],
  ] as const) {
    it(`${provider}: a graph's agent turn with a tool call, through cassette playback, persisted by a session store`, async () => {
      const turn: Cassette = {
        version: 1,
        provenance: `${prefix}_tool_call_single + ${prefix}_simple_text`,
        interactions: [...cassette(`${prefix}_tool_call_single`).interactions, ...cassette(`${prefix}_simple_text`).interactions],
      };
      const llm = providers.create(provider, { model, fetch: cassetteFetch(turn) });
      const config = provider === "anthropic" ? { config: { max_tokens: 64 } } : {};
      const State = defineState({ messages: field.any<Message[]>().default([]), answer: field.string().default("") });
      const graph = new GraphBuilder(State)
        .addNode("model", async (s) => {
          const r = await llm.complete(s.messages, { tools: [weather], ...config });
          const results: Message[] = (r.message.tool_calls ?? []).map((c) => ({ role: "tool", tool_call_id: c.id, content: `sunny in ${String(c.arguments?.["city"])}` }));
          return { messages: [...s.messages, r.message, ...results], answer: r.finish_reason === "stop" ? String(r.message.content) : "" };
        })
        .addConditionalEdge("model", (s) => (s.answer === "" ? "model" : END))
        .setEntry("model")
        .compile();
      const store = new InMemorySessionStore();
      const chat = withSessions(graph, { store, projection: { fields: ["messages", "answer"] } });
      const { state } = await chat.invoke({ messages: weatherQ }, { sessionId: "s1" });
      expect(state.answer).to.equal("Hello there!");
      expect(state.messages.map((m) => m.role)).to.deep.equal(["user", "assistant", "tool", "assistant"]);
      const asked = state.messages[1] as Extract<Message, { role: "assistant" }>;
      expect(asked.tool_calls?.map((c) => [c.name, c.arguments])).to.deep.equal([["get_weather", { city: "Paris" }]]);
      const saved = await store.load("s1");
      expect(saved?.state["answer"]).to.equal("Hello there!");
      expect((saved?.state["messages"] as Message[] | undefined)?.length).to.equal(4);
    });
  }
});

describe("llm cassettes: record and auto modes", () => {
  const server = (text: string) => async () => new Response(text, { status: 200, headers: { "content-type": "application/json" } });
  const body = JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: "echo sk-live-123" }, finish_reason: "stop" }] });

  it("record: auth headers redacted and secrets scrubbed before anything is kept", async () => {
    const rec = cassetteFetch(undefined, { mode: "record", fetch: server(body), secrets: ["sk-live-123"], provenance: "unit test" });
    const llm = providers.create("openai", { model: "m", apiKey: "sk-live-123", fetch: rec, headers: { "x-trace": "sk-live-123" } });
    const r = await llm.complete([{ role: "user", content: "say sk-live-123" }]);
    expect(r.message.content).to.equal("echo sk-live-123"); // the caller sees the real bytes
    const text = JSON.stringify(rec.recorded());
    expect(text).to.not.contain("sk-live-123");
    expect(rec.recorded().interactions[0]!.request.headers["authorization"]).to.equal("[redacted]");
    // ...and the recording plays back.
    const again = await providers.create("openai", { model: "m", fetch: cassetteFetch(rec.recorded()) }).complete([{ role: "user", content: "x" }]);
    expect(again.message.content).to.equal("echo [redacted]");
  });

  it("auto: plays back what the cassette has and records the rest", async () => {
    let served = 0;
    const auto = cassetteFetch(cassette("verify_openai_simple_text"), {
      mode: "auto",
      fetch: async () => {
        served++;
        return server(body)();
      },
    });
    const llm = providers.create("openai", { model: "gpt-4o-mini", fetch: auto });
    expect((await llm.complete(hi, { stream: true })).message.content).to.equal("Hello there!");
    expect(served).to.equal(0);
    await providers.create("vllm", { model: "m", fetch: auto }).complete(hi);
    expect(served).to.equal(1);
    expect(auto.recorded().interactions).to.have.length(2);
  });
});
