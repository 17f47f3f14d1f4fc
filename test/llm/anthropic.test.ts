import { expect } from "chai";
import { providers, type Message } from "../../src/llm/index.ts";
import { fakeFetch, type Reply, rejection } from "./fake-fetch.ts";

const weather = { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

function anthropic(replies: Reply[], capabilities = {}) {
  const f = fakeFetch(replies);
  return { provider: providers.create("anthropic", { model: "claude-test", apiKey: "ak-secret", fetch: f.fetch, capabilities }), requests: f.requests };
}
const message = (content: unknown[], stop = "end_turn") => ({ type: "message", id: "msg_1", model: "claude-test", role: "assistant", content, stop_reason: stop, usage: { input_tokens: 5, output_tokens: 2 } });


describe("llm: Anthropic Messages mapping", () => {
  it("lifts system, collapses tool results, sends x-api-key, maps tool_use back", async () => {
    const { provider, requests } = anthropic([{ status: 200, json: message([{ type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Rome" } }], "tool_use") }]);
    const messages: Message[] = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather?" },
      { role: "assistant", content: null, tool_calls: [{ id: "toolu_1", name: "get_weather", arguments: { city: "Oslo" } }] },
      { role: "tool", tool_call_id: "toolu_1", content: "cold" },
    ];
    const r = await provider.complete(messages, { tools: [weather], toolChoice: "required", config: { max_tokens: 64 } });
    expect(r.finish_reason).to.equal("tool_calls");
    expect(r.message.tool_calls).to.deep.equal([{ id: "toolu_2", name: "get_weather", arguments: { city: "Rome" } }]);
    expect(r.usage).to.deep.equal({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
    const req = requests[0]!;
    expect(req.url).to.equal("https://api.anthropic.com/v1/messages");
    expect([req.headers["x-api-key"], req.headers["anthropic-version"]]).to.deep.equal(["ak-secret", "2023-06-01"]);
    const body = JSON.parse(req.body!);
    expect(body.system).to.equal("Be brief.");
    expect(body.tool_choice).to.deep.equal({ type: "any" });
    expect(body.tools[0].input_schema).to.deep.equal(weather.parameters);
    expect(body.messages.slice(1)).to.deep.equal([
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "cold" }] },
    ]);
  });

  it("requires max_tokens and refuses seed / penalties / stream before any request", async () => {
    const { provider, requests } = anthropic([]);
    const hi: Message[] = [{ role: "user", content: "hi" }];
    for (const [options, field] of [
      [{}, "config.max_tokens"],
      [{ config: { max_tokens: 9, seed: 1 } }, "config.seed"],
      [{ config: { max_tokens: 9, presence_penalty: 1 } }, "config.presence_penalty"],
      [{ config: { max_tokens: 9 }, stream: true }, "stream"],
    ] as const) {
      const e = await rejection(provider.complete(hi, options));
      expect([e.category, e.message.startsWith(field)]).to.deep.equal(["provider_invalid_request", true]);
    }
    expect(requests).to.have.length(0);
  });

  it("round-trips thinking blocks and derives a null total from a malformed addend", async () => {
    const { provider } = anthropic([
      { status: 200, json: { ...message([{ type: "thinking", thinking: "hmm", signature: "sig" }, { type: "text", text: "42" }]), usage: { input_tokens: -1, output_tokens: 2 } } },
    ]);
    const r = await provider.complete([{ role: "user", content: "?" }], { config: { max_tokens: 9 } });
    expect(r.message.content).to.deep.equal([{ type: "thinking", text: "hmm", signature: "sig" }, { type: "text", text: "42" }]);
    expect(r.usage).to.deep.equal({ prompt_tokens: null, completion_tokens: 2, total_tokens: null });
  });

  it("strips reasoning another provider produced (§3.1.7): unsigned thinking, text / tool-call signatures", async () => {
    const { provider, requests } = anthropic([{ status: 200, json: message([{ type: "text", text: "ok" }]) }]);
    const history: Message[] = [
      { role: "user", content: "?" },
      { role: "assistant", content: [{ type: "thinking", text: "gemini summary" }, { type: "thinking", text: "mine", signature: "sig" }, { type: "text", text: "t", signature: "g-sig" }], tool_calls: [{ id: "c1", name: "get_weather", arguments: { city: "SF" }, signature: "g-call" }] },
      { role: "tool", tool_call_id: "c1", content: "72F" },
    ];
    await provider.complete(history, { tools: [weather], config: { max_tokens: 9 } });
    expect(JSON.parse(requests[0]!.body!).messages[1].content).to.deep.equal([
      { type: "thinking", thinking: "mine", signature: "sig" },
      { type: "text", text: "t" },
      { type: "tool_use", id: "c1", name: "get_weather", input: { city: "SF" } },
    ]);
  });

  it("coerces structured output through a forced tool when native output is unavailable", async () => {
    const schema = { type: "object", properties: { v: { type: "integer" } }, required: ["v"] };
    const { provider, requests } = anthropic([{ status: 200, json: message([{ type: "tool_use", id: "t", name: "structured_output", input: { v: 1 } }], "tool_use") }], { nativeStructuredOutput: false });
    const r = await provider.complete([{ role: "user", content: "go" }], { responseSchema: schema, config: { max_tokens: 9 } });
    expect(r.parsed).to.deep.equal({ v: 1 });
    expect(JSON.parse(requests[0]!.body!).tool_choice).to.deep.equal({ type: "tool", name: "structured_output" });
  });

  it("maps the error envelope by type", async () => {
    const { provider } = anthropic([{ status: 529, json: { type: "error", error: { type: "overloaded_error", message: "overloaded" } } }]);
    const e = await rejection(provider.complete([{ role: "user", content: "hi" }], { config: { max_tokens: 9 } }));
    expect([e.category, e.message, e.status]).to.deep.equal(["provider_unavailable", "overloaded", 529]);
  });
});

describe("llm: Anthropic streaming (opt-in)", () => {
  it("assembles message events into the Response the non-streamed call returns", async () => {
    const full = message([{ type: "thinking", thinking: "hmm", signature: "sig" }, { type: "text", text: "Hi there" }, { type: "tool_use", id: "toolu_9", name: "get_weather", input: { city: "Rome" } }], "tool_use");
    const events = [
      { type: "message_start", message: { ...full, content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "ping" },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi " } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "there" } },
      { type: "content_block_stop", index: 1 },
      { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "toolu_9", name: "get_weather", input: {} } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"city":' } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '"Rome"}' } },
      { type: "content_block_stop", index: 2 },
      { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 2 } },
      { type: "message_stop" },
    ];
    const streamed = anthropic([{ sse: events }], { streaming: true });
    const seen: string[] = [];
    const r = await streamed.provider.complete([{ role: "user", content: "?" }], { stream: true, tools: [weather], config: { max_tokens: 9 }, onEvent: (e) => seen.push(e.type) });
    expect(seen).to.deep.equal(["start", "reasoning_delta", "text_delta", "text_delta", "tool_call_start", "tool_call_delta", "tool_call_delta", "tool_call_end", "done"]);
    expect(JSON.parse(streamed.requests[0]!.body!).stream).to.equal(true);
    const atomic = await anthropic([{ status: 200, json: full }]).provider.complete([{ role: "user", content: "?" }], { tools: [weather], config: { max_tokens: 9 } });
    expect([r.message, r.finish_reason, r.usage]).to.deep.equal([atomic.message, atomic.finish_reason, atomic.usage]);
  });
});
