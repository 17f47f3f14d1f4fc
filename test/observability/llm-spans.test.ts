/**
 * LLM provider and tool-execution spans (observability §5.5, §5.5.10, §5.5.11): the real OTel
 * observer renders them from the typed events the real HttpProvider / runToolCall emit inside a
 * node (fake fetch at the network edge).
 */
import { expect } from "chai";
import { SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { END, GraphBuilder, stateSchema, type Middleware } from "../../src/graph/index.ts";
import { HttpProvider, openAiChatMapping, runToolCall, type Message } from "../../src/llm/index.ts";
import { OTelObserver } from "../../src/observability/index.ts";
import { chatBody, fakeFetch, type Reply } from "../llm/fake-fetch.ts";

const S = stateSchema({ fields: { out: { type: "string", default: "" } } });
const HI: Message[] = [{ role: "user", content: "hi" }];

function provider(replies: Reply[]): HttpProvider {
  return new HttpProvider({ name: "openai", mapping: openAiChatMapping, model: "gpt-test", baseUrl: "https://x/v1", apiKey: "k", fetch: fakeFetch(replies).fetch });
}

async function run(body: () => Promise<unknown>, options: ConstructorParameters<typeof OTelObserver>[0] = {}, middleware?: Middleware): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const errors: unknown[] = [];
  const otel = new OTelObserver({ spanProcessors: [new SimpleSpanProcessor(exporter)], onError: (e) => errors.push(e), ...options });
  const g = new GraphBuilder(S)
    .addNode(
      "ask",
      async () => {
        await body().catch(() => undefined);
        return {};
      },
      middleware ? { middleware: [middleware as never] } : {},
    )
    .addEdge("ask", END)
    .setEntry("ask")
    .compile();
  await g.invoke({}, { hooks: otel });
  expect(errors).to.deep.equal([]);
  return exporter.getFinishedSpans();
}

const named = (spans: ReadableSpan[], n: string) => spans.filter((s) => s.name === n);
const parentName = (spans: ReadableSpan[], s: ReadableSpan) => spans.find((p) => p.spanContext().spanId === s.parentSpanContext?.spanId)?.name;

describe("observability: LLM provider spans (§5.5)", () => {
  it("one openarmature.llm.complete span under the calling node: OA + GenAI attributes, no payload by default", async () => {
    const p = provider([{ status: 200, json: chatBody("hello", { model: "gpt-test-2024-01-01" }) }]);
    const spans = await run(() => p.complete(HI, { config: { temperature: 0.2, extras: { k: 1 } } }));
    const [s] = named(spans, "openarmature.llm.complete");
    expect(parentName(spans, s!)).to.equal("ask");
    expect(s!.status.code).to.equal(SpanStatusCode.OK);
    expect(s!.attributes).to.include({
      "openarmature.llm.model": "gpt-test",
      "openarmature.llm.finish_reason": "stop",
      "openarmature.llm.usage.prompt_tokens": 3,
      "openarmature.llm.attempt_index": 0,
      "gen_ai.system": "openai",
      "gen_ai.request.model": "gpt-test",
      "gen_ai.response.model": "gpt-test-2024-01-01",
      "gen_ai.request.temperature": 0.2,
      "gen_ai.usage.input_tokens": 3,
    });
    expect(s!.attributes["gen_ai.response.finish_reasons"]).to.deep.equal(["stop"]);
    expect(Object.keys(s!.attributes).filter((k) => k.includes(".input.messages") || k.includes("output.content") || k.includes("request.extras"))).to.deep.equal([]);
    expect(s!.attributes).to.include({ "openarmature.correlation_id": s!.attributes["openarmature.correlation_id"] as string });
  });

  it("payload on: sorted-key JSON messages, content, extras, each cut at the cap with the marker", async () => {
    const p = provider([{ status: 200, json: chatBody("x".repeat(400)) }]);
    const spans = await run(() => p.complete(HI, { config: { extras: { b: 1, a: 2 } } }), { disableProviderPayload: false, payloadByteCap: 256 });
    const s = named(spans, "openarmature.llm.complete")[0]!;
    expect(s.attributes["openarmature.llm.input.messages"]).to.equal('[{"content":"hi","role":"user"}]');
    expect(s.attributes["openarmature.llm.request.extras"]).to.equal('{"a":2,"b":1}');
    const out = s.attributes["openarmature.llm.output.content"] as string;
    expect(Buffer.byteLength(out)).to.be.at.most(256);
    expect(out).to.match(/…\[truncated, 400 bytes total\]$/);
  });

  it("refuses a payload cap below 256 bytes at construction (§5.5.5)", () => {
    expect(() => new OTelObserver({ payloadByteCap: 255 })).to.throw(RangeError, /256/);
  });

  it("disableGenaiSemconv drops gen_ai.*; disableLlmSpans drops the span and nothing else", async () => {
    const noGenai = await run(() => provider([{ status: 200, json: chatBody("a") }]).complete(HI), { disableGenaiSemconv: true });
    expect(Object.keys(named(noGenai, "openarmature.llm.complete")[0]!.attributes).filter((k) => k.startsWith("gen_ai."))).to.deep.equal([]);
    const none = await run(() => provider([{ status: 200, json: chatBody("a") }]).complete(HI), { disableLlmSpans: true });
    expect(named(none, "openarmature.llm.complete")).to.have.length(0);
    expect(named(none, "ask")).to.have.length(1);
  });

  it("call-level retry: one span per attempt, failed ones ERROR with the category, retry_reason from attempt 1", async () => {
    const p = provider([{ status: 503, json: { error: { message: "down" } } }, { status: 200, json: chatBody("ok") }]);
    const spans = await run(() => p.complete(HI, { retry: { maxAttempts: 2, backoff: () => 0 } }));
    const llm = named(spans, "openarmature.llm.complete").sort((a, b) => (a.attributes["openarmature.llm.attempt_index"] as number) - (b.attributes["openarmature.llm.attempt_index"] as number));
    expect(llm.map((s) => [s.attributes["openarmature.llm.attempt_index"], s.status.code, s.attributes["openarmature.error.category"] ?? null, s.attributes["openarmature.llm.retry_reason"] ?? null])).to.deep.equal([
      [0, SpanStatusCode.ERROR, "provider_unavailable", null],
      [1, SpanStatusCode.OK, null, "transient"],
    ]);
    expect(llm.every((s) => parentName(spans, s) === "ask")).to.equal(true);
  });

  it("tool calls requested: ungated count / names / ids; the full serialization only with payload", async () => {
    const body = chatBody(null, { choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: '{"q":1}' } }] }, finish_reason: "tool_calls" }] });
    const tools = [{ name: "f", description: "", parameters: { type: "object" } }];
    const spans = await run(() => provider([{ status: 200, json: body }]).complete(HI, { tools }));
    const s = named(spans, "openarmature.llm.complete")[0]!;
    expect(s.attributes["openarmature.llm.output.tool_calls.count"]).to.equal(1);
    expect(s.attributes["openarmature.llm.output.tool_calls.names"]).to.deep.equal(["f"]);
    expect(s.attributes["openarmature.llm.output.tool_calls.ids"]).to.deep.equal(["c1"]);
    expect(s.attributes).to.not.have.property("openarmature.llm.output.tool_calls");
    expect(s.attributes).to.not.have.property("openarmature.llm.output.content");
  });

  it("a call from a pre-phase middleware (node span not open) parents under the nearest wrapper — here the invocation", async () => {
    const p = provider([{ status: 200, json: chatBody("guard") }]);
    const mw: Middleware = async (s, next) => {
      await p.complete(HI);
      return next(s);
    };
    const spans = await run(async () => undefined, {}, mw);
    const s = named(spans, "openarmature.llm.complete")[0]!;
    expect(parentName(spans, s)).to.equal("openarmature.invocation");
  });

  it("a call from a post-phase middleware is orphaned too, though the node span is still open (§5.5, conformance-adapter §5.1)", async () => {
    const p = provider([{ status: 200, json: chatBody("body") }, { status: 200, json: chatBody("guard") }]);
    const mw: Middleware = async (s, next) => {
      const update = await next(s);
      await p.complete(HI);
      return update;
    };
    // The body's own call (and work it leaves running) still parents under the node span.
    const spans = await run(() => p.complete(HI), {}, mw);
    const [body, post] = named(spans, "openarmature.llm.complete").sort((x, y) => x.startTime[0] - y.startTime[0] || x.startTime[1] - y.startTime[1]);
    expect(parentName(spans, body!)).to.equal("ask");
    expect(parentName(spans, post!)).to.equal("openarmature.invocation");
    const tools = await run(async () => undefined, {}, async (s, next) => {
      const update = await next(s);
      await runToolCall({ name: "w" }, () => 1);
      return update;
    });
    expect(parentName(tools, named(tools, "openarmature.tool.call")[0]!)).to.equal("openarmature.invocation");
  });
});

describe("observability: tool-execution spans (§5.5.11)", () => {
  it("openarmature.tool.call with the tool identity; payload gated; failure ERROR with error.type", async () => {
    const ok = await run(() => runToolCall({ name: "w", toolCallId: "c9", arguments: { city: "P" } }, () => ({ t: 1 })), { disableProviderPayload: false });
    const s = named(ok, "openarmature.tool.call")[0]!;
    expect(parentName(ok, s)).to.equal("ask");
    expect(s.attributes).to.include({ "openarmature.tool.name": "w", "openarmature.tool.call.id": "c9", "openarmature.tool.call.arguments": '{"city":"P"}', "openarmature.tool.call.result": '{"t":1}' });
    const failed = await run(() => runToolCall({ name: "w" }, () => Promise.reject(new TypeError("bad"))));
    const f = named(failed, "openarmature.tool.call")[0]!;
    expect(f.status.code).to.equal(SpanStatusCode.ERROR);
    expect(f.attributes["error.type"]).to.equal("TypeError");
    expect(f.attributes).to.not.have.property("openarmature.tool.call.arguments");
    expect(f.events.some((e) => e.name === "exception")).to.equal(true);
  });
});
