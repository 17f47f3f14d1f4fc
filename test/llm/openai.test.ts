import { expect } from "chai";
import { providers, StructuredOutputInvalid, type Message, type StreamEvent } from "../../src/llm/index.ts";
import { chatBody, fakeFetch, type Reply, rejection } from "./fake-fetch.ts";

const hi: Message[] = [{ role: "user", content: "hi" }];
const weather = { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

function openai(replies: Reply[], extra: Record<string, unknown> = {}) {
  const f = fakeFetch(replies);
  const provider = providers.create("openai", { model: "gpt-test", apiKey: "sk-secret-123", fetch: f.fetch, ...extra });
  return { provider, requests: f.requests };
}


describe("llm: OpenAI-compatible mapping", () => {
  it("sends a canonical body with the bearer key and maps the response", async () => {
    const { provider, requests } = openai([{ status: 200, json: chatBody("Hello") }]);
    const r = await provider.complete([{ role: "system", content: "Be brief." }, ...hi], { config: { temperature: 0.5, stop_sequences: ["X"] } });
    expect(r.message).to.deep.equal({ role: "assistant", content: "Hello", tool_calls: null });
    expect(r.finish_reason).to.equal("stop");
    expect(r.usage).to.deep.equal({ prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 });
    expect(requests[0]!.url).to.equal("https://api.openai.com/v1/chat/completions");
    expect(requests[0]!.headers["authorization"]).to.equal("Bearer sk-secret-123");
    expect(requests[0]!.body).to.equal(
      '{"messages":[{"content":"Be brief.","role":"system"},{"content":"hi","role":"user"}],"model":"gpt-test","stop":["X"],"temperature":0.5}',
    );
  });

  it("round-trips tool calls with verbatim ids and serialized arguments", async () => {
    const { provider, requests } = openai([
      {
        status: 200,
        json: chatBody(null, {
          choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_A_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } }] }, finish_reason: "tool_calls" }],
        }),
      },
    ]);
    const r = await provider.complete(hi, { tools: [weather], toolChoice: { type: "tool", name: "get_weather" } });
    expect(r.message.tool_calls).to.deep.equal([{ id: "call_A_1", name: "get_weather", arguments: { city: "Oslo" } }]);
    const body = JSON.parse(requests[0]!.body!);
    expect(body.tool_choice).to.deep.equal({ type: "function", function: { name: "get_weather" } });
    expect(body.tools[0].function.parameters).to.deep.equal(weather.parameters);
  });

  it("refuses malformed input before any request, naming the field", async () => {
    const { provider, requests } = openai([]);
    const cases: Array<[Message[], Record<string, unknown>, string]> = [
      [[{ role: "user", content: "" }], {}, "messages[0].content"],
      [[{ role: "user", content: [{ type: "image", source: { type: "inline", base64_data: "AA" } }] }], {}, "messages[0].content[0].media_type"],
      [hi, { tools: [weather, weather] }, "tools[1].name"],
      [hi, { toolChoice: "required" }, "tool_choice"],
      [hi, { config: { extras: { model: "other" } } }, "config.extras.model"],
    ];
    for (const [messages, options, field] of cases) {
      const e = await rejection(provider.complete(messages, options));
      expect(e.category, field).to.equal("provider_invalid_request");
      expect(e.message).to.contain(field);
    }
    expect(requests).to.have.length(0);
  });

  it("maps HTTP errors to §7 categories with status, body and Retry-After, never the key", async () => {
    const { provider } = openai([
      { status: 401, json: { error: { message: "Incorrect API key provided: sk-secret-123" } } },
      { status: 429, json: { error: { message: "slow" } }, headers: { "retry-after": "7" } },
      { status: 500, text: "boom" },
      { networkError: "ECONNREFUSED" },
    ]);
    const auth = await rejection(provider.complete(hi));
    expect(auth.category).to.equal("provider_authentication");
    expect(auth.message + auth.body).to.not.contain("sk-secret-123");
    const rate = await rejection(provider.complete(hi));
    expect([rate.category, rate.retry_after_seconds]).to.deep.equal(["provider_rate_limit", 7]);
    const down = await rejection(provider.complete(hi));
    expect([down.category, down.status, down.body]).to.deep.equal(["provider_unavailable", 500, "boom"]);
    const net = await rejection(provider.complete(hi));
    expect(net.category).to.equal("provider_unavailable");
    expect(net.cause).to.be.instanceOf(TypeError);
  });

  it("raises structured_output_invalid with its diagnostics, and reask recovers within the budget", async () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"], additionalProperties: false };
    const { provider, requests } = openai([
      { status: 200, json: chatBody('{"n":"x"}') },
      { status: 200, json: chatBody('{"n":1}') },
    ]);
    const r = await provider.complete(hi, {
      responseSchema: schema,
      retry: { maxAttempts: 2, backoff: () => 0, reask: (e) => `fix: ${e.output_content}` },
    });
    expect(r.parsed).to.deep.equal({ n: 1 });
    expect(JSON.parse(requests[1]!.body!).messages.slice(1)).to.deep.equal([
      { role: "assistant", content: '{"n":"x"}' },
      { role: "user", content: 'fix: {"n":"x"}' },
    ]);
    const { provider: p2 } = openai([{ status: 200, json: chatBody("nope") }]);
    const e = (await rejection(p2.complete(hi, { responseSchema: schema }))) as StructuredOutputInvalid;
    expect(e).to.be.instanceOf(StructuredOutputInvalid);
    expect([e.output_content, e.finish_reason, e.usage.total_tokens]).to.deep.equal(["nope", "stop", 4]);
  });

  it("streams typed events that accumulate to the non-streamed response", async () => {
    const chunks = [
      { id: "s", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { role: "assistant", content: "He" }, finish_reason: null }] },
      { id: "s", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: "llo" }, finish_reason: "stop" }] },
      { id: "s", object: "chat.completion.chunk", model: "m", choices: [], usage: { prompt_tokens: 3, completion_tokens: true, total_tokens: 4 } },
      "[DONE]",
    ];
    const { provider, requests } = openai([{ sse: chunks }]);
    const events: StreamEvent[] = [];
    const r = await provider.complete(hi, { stream: true, onEvent: (e) => events.push(e) });
    expect(events.map((e) => e.type)).to.deep.equal(["start", "text_delta", "text_delta", "done"]);
    expect(r.message.content).to.equal("Hello");
    expect(r.usage).to.deep.equal({ prompt_tokens: 3, completion_tokens: null, total_tokens: 4 });
    expect((r.raw["usage"] as Record<string, unknown>)["completion_tokens"]).to.equal(true);
    expect(JSON.parse(requests[0]!.body!)).to.include({ stream: true });
  });

  it("reassembles streamed tool-call fragments", async () => {
    const d = (delta: unknown, finish: string | null = null) => ({ id: "s", choices: [{ index: 0, delta, finish_reason: finish }] });
    const { provider } = openai([
      {
        sse: [
          d({ tool_calls: [{ index: 0, id: "call_1", function: { name: "get_weather", arguments: '{"ci' } }] }),
          d({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Rome"}' } }] }, "tool_calls"),
          "[DONE]",
        ],
      },
    ]);
    const events: string[] = [];
    for await (const e of provider.stream(hi, { tools: [weather] })) events.push(e.type === "done" ? JSON.stringify(e.response.message.tool_calls) : e.type);
    expect(events).to.deep.equal([
      "start",
      "tool_call_start",
      "tool_call_delta",
      "tool_call_delta",
      "tool_call_end",
      '[{"id":"call_1","name":"get_weather","arguments":{"city":"Rome"}}]',
    ]);
  });

  it("ready() checks the model is listed and loaded", async () => {
    const { provider } = openai([
      { status: 200, json: { object: "list", data: [{ id: "gpt-test" }] } },
      { status: 200, json: { object: "list", data: [{ id: "other" }] } },
      { status: 200, json: { object: "list", data: [{ id: "gpt-test", status: "not_loaded" }] } },
    ]);
    await provider.ready();
    expect((await rejection(provider.ready())).category).to.equal("provider_invalid_model");
    expect((await rejection(provider.ready())).category).to.equal("provider_model_not_loaded");
  });

  it("honours the caller's AbortSignal without classifying it", async () => {
    const { provider } = openai([{ status: 200, json: chatBody("x") }]);
    const ac = new AbortController();
    ac.abort(new Error("stop now"));
    const e = await rejection(provider.complete(hi, { signal: ac.signal, retry: { maxAttempts: 3 } }));
    expect(e.message).to.equal("stop now");
  });
});

describe("llm: a stream abandoned early", () => {
  it("cancels the response body", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "a" }, finish_reason: null }] })}\n\n`));
      },
      cancel() {
        cancelled = true;
      },
    });
    const provider = providers.create("openai", { model: "m", fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }) });
    for await (const e of provider.stream(hi)) if (e.type === "text_delta") break;
    expect(cancelled).to.equal(true);
  });
});
