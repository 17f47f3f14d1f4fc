/**
 * The typed LLM and tool events (graph-engine §6, observability §5.5.7 / §5.5.12): emitted by the
 * real HttpProvider / runToolCall inside a graph node, over a fake fetch (the network edge).
 */
import { expect } from "chai";
import { END, GraphBuilder, stateSchema, toSpecRecord, withCallerInvocationMetadata, type ObserverEvent } from "../../src/graph/index.ts";
import { HttpProvider, openAiChatMapping, runToolCall, type CompleteOptions, type LlmCompletionEvent, type LlmFailedEvent, type Message } from "../../src/llm/index.ts";
import { chatBody, fakeFetch, rejection, type Reply } from "./fake-fetch.ts";

const S = stateSchema({ fields: { out: { type: "string", default: "" } } });

/** Run `body` as the node of a one-node graph; resolve with the events an observer received. */
async function inNode(body: () => Promise<unknown>, metadata?: Record<string, unknown>): Promise<{ events: ObserverEvent[]; error: unknown }> {
  const events: ObserverEvent[] = [];
  let error: unknown;
  const g = new GraphBuilder(S)
    .addNode("ask", async () => {
      try {
        await body();
      } catch (e) {
        error = e;
      }
      return {};
    })
    .addEdge("ask", END)
    .setEntry("ask")
    .compile();
  await g.invoke({}, { observers: [(e) => void events.push(e)], ...(metadata ? { metadata } : {}) });
  await g.drain();
  return { events: events.filter((e) => e.kind !== "node"), error };
}

function provider(replies: Reply[], system?: string): HttpProvider {
  return new HttpProvider({ name: "openai", mapping: openAiChatMapping, model: "gpt-test", baseUrl: "https://x/v1", apiKey: "k", fetch: fakeFetch(replies).fetch, ...(system ? { system } : {}) });
}

const HI: Message[] = [{ role: "user", content: "hi" }];

describe("typed LLM events from complete()", () => {
  it("a completed call dispatches one LlmCompletionEvent with the §5.5.7 fields", async () => {
    const p = provider([{ status: 200, json: chatBody("hello", { model: "gpt-test-2024" }) }], "vllm");
    const opts: CompleteOptions = { config: { temperature: 0.5, extras: { repetition_penalty: 1.1 } } };
    const { events } = await inNode(() => p.complete(HI, opts), { tenant: "t1" });
    expect(events.map((e) => e.kind)).to.deep.equal(["llm_completion"]);
    const e = events[0] as LlmCompletionEvent;
    const r = toSpecRecord(e);
    expect(r).to.deep.include({
      provider: "vllm",
      model: "gpt-test",
      response_model: "gpt-test-2024",
      response_id: "cc-1",
      node_name: "ask",
      namespace: ["ask"],
      attempt_index: 0,
      fan_out_index: null,
      output_content: "hello",
      output_tool_calls: null,
      finish_reason: "stop",
      request_params: { temperature: 0.5 },
      request_extras: { repetition_penalty: 1.1 },
      active_prompt: null,
      caller_invocation_metadata: null,
    });
    expect(r["input_messages"]).to.deep.equal([{ role: "user", content: "hi" }]);
    expect(e.callId).to.be.a("string").and.not.equal("");
    expect(e.attempts).to.have.length(1);
    expect(toSpecRecord(withCallerInvocationMetadata(e))["caller_invocation_metadata"]).to.deep.equal({ tenant: "t1" });
  });

  it("a failed call dispatches one LlmFailedEvent (category, no response side) and still raises", async () => {
    const p = provider([{ status: 503, json: { error: { type: "service_unavailable", message: "down" } } }]);
    const { events, error } = await inNode(() => p.complete(HI));
    expect((error as { category?: string }).category).to.equal("provider_unavailable");
    expect(events.map((e) => e.kind)).to.deep.equal(["llm_failed"]);
    expect(toSpecRecord(events[0]!)).to.deep.include({ error_category: "provider_unavailable", error_type: "service_unavailable", usage: null, output_content: null });
  });

  it("a pre-send refusal is an LlmFailedEvent too", async () => {
    const p = provider([]);
    const { events } = await inNode(() => p.complete([{ role: "user", content: 3 } as unknown as Message]));
    expect(events.map((e) => (e as LlmFailedEvent).errorCategory)).to.deep.equal(["provider_invalid_request"]);
  });

  it("call-level retry: one terminal event, one wire attempt record per attempt", async () => {
    const p = provider([{ status: 503, json: { error: { message: "down" } } }, { status: 200, json: chatBody("ok") }]);
    const { events } = await inNode(() => p.complete(HI, { retry: { maxAttempts: 2, backoff: () => 0 } }));
    expect(events.map((e) => e.kind)).to.deep.equal(["llm_completion"]);
    const attempts = (events[0] as LlmCompletionEvent).attempts;
    expect(attempts.map((a) => [a.attemptIndex, a.retryReason, a.failure?.category ?? null])).to.deep.equal([
      [0, null, "provider_unavailable"],
      [1, "transient", null],
    ]);
  });

  it("a streamed call dispatches a token event per delta (content / reasoning) before the terminal event, sharing its call_id", async () => {
    const p = provider([
      {
        sse: [
          { choices: [{ index: 0, delta: { reasoning_content: "think" }, finish_reason: null }] },
          { choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }] },
          { choices: [{ index: 0, delta: { content: "lo" }, finish_reason: "stop" }] },
          "[DONE]",
        ],
      },
    ]);
    const { events } = await inNode(() => p.complete(HI, { stream: true }));
    const recs = events.map((e) => toSpecRecord(e));
    expect(recs.map((r) => [r["delta_kind"] ?? "terminal", r["chunk_index"] ?? null])).to.deep.equal([
      ["reasoning", 0],
      ["content", 1],
      ["content", 2],
      ["terminal", null],
    ]);
    expect(new Set(recs.map((r) => r["call_id"])).size).to.equal(1);
    expect(recs[3]!["output_content"]).to.equal("Hello");
  });

  it("outside a graph node nothing is emitted and the call is unchanged", async () => {
    const r = await provider([{ status: 200, json: chatBody("plain") }]).complete(HI);
    expect(r.message.content).to.equal("plain");
  });

  it("a stream that breaks off mid-way is provider_unavailable (the dropped connection), after the partial deltas", async () => {
    const bytes = new TextEncoder().encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Par" }, finish_reason: null }] })}\n\n`);
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (!sent) {
          sent = true;
          c.enqueue(bytes);
        } else c.error(new TypeError("terminated"));
      },
    });
    const p = new HttpProvider({ name: "openai", mapping: openAiChatMapping, model: "m", baseUrl: "https://x/v1", fetch: async () => new Response(body, { headers: { "content-type": "text/event-stream" } }) });
    const { events, error } = await inNode(() => p.complete(HI, { stream: true }));
    expect((error as { category?: string }).category).to.equal("provider_unavailable");
    expect(events.map((e) => e.kind)).to.deep.equal(["llm_token", "llm_failed"]);
  });
});

describe("runToolCall (tool-call instrumentation scope)", () => {
  it("dispatches ToolCallEvent with the requesting tool_call_id and the result as produced", async () => {
    const { events } = await inNode(() => runToolCall({ name: "get_weather", toolCallId: "call_1", arguments: { city: "Paris" } }, (a) => ({ t: 20, city: a?.["city"] })));
    expect(events.map((e) => e.kind)).to.deep.equal(["tool_call"]);
    expect(toSpecRecord(events[0]!)).to.deep.include({ tool_name: "get_weather", tool_call_id: "call_1", arguments: { city: "Paris" }, result: { t: 20, city: "Paris" }, node_name: "ask" });
  });

  it("dispatches ToolCallFailedEvent (error_type, error_message, no error_category) and re-raises", async () => {
    const boom = new RangeError("nope");
    const { events, error } = await inNode(() => runToolCall({ name: "t" }, () => Promise.reject(boom)));
    expect(error).to.equal(boom);
    const r = toSpecRecord(events[0]!);
    expect(r).to.deep.include({ tool_name: "t", tool_call_id: null, arguments: null, error_type: "RangeError", error_message: "nope" });
    expect(r).to.not.have.property("error_category");
  });

  it("outside a graph it only runs the tool", async () => {
    expect(await runToolCall({ name: "t" }, () => 7)).to.equal(7);
    const e = await rejection(runToolCall({ name: "" }, () => 1));
    expect(e).to.be.instanceOf(TypeError);
  });
});
