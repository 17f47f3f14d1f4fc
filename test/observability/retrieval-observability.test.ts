/**
 * Embedding / rerank spans (observability §5.5.8, §5.5.13) and the §11 metrics, rendered from the
 * typed events real providers dispatch (through an injected fetch) inside a graph.
 */
import { expect } from "chai";
import { ROOT_CONTEXT, SpanStatusCode } from "@opentelemetry/api";
import { AggregationTemporality, DataPointType, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { append, defineState, END, field, GraphBuilder, type ObserverEvent } from "../../src/graph/index.ts";
import { fanOut } from "../../src/pipeline/index.ts";
import { OTelObserver } from "../../src/observability/index.ts";
import { ProviderMetrics, MetricName } from "../../src/observability/metrics.ts";
import { EMBEDDING_SPAN_NAME, embeddingSpanAttributes, renderRetrievalSpan, RERANK_SPAN_NAME, rerankSpanAttributes } from "../../src/observability/retrieval-spans.ts";
import { DEFAULT_PAYLOAD_BYTE_CAP, truncationMarker } from "../../src/observability/truncation.ts";
import { embeddingProviders, isRetrievalEvent, rerankProviders, type RetrievalEvent } from "../../src/retrieval/index.ts";
import { fakeFetch, type Reply } from "../llm/fake-fetch.ts";

const BASE = "https://r.example.test";
const oai = (vectors: number[][], usage: unknown = { prompt_tokens: 4, total_tokens: 4 }) => ({ object: "list", model: "emb-echo", id: "emb-id", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })), ...(usage === null ? {} : { usage }) });
const jinaRr = { model: "rr-echo", results: [{ index: 0, relevance_score: 0.5, document: { text: "d0" } }, { index: 1, relevance_score: 0.4 }], usage: { total_tokens: 42 } };
const rr = (billed: Record<string, number>) => ({ id: "rr-id", results: [{ index: 1, relevance_score: 0.9, document: { text: "d1" } }, { index: 0, relevance_score: 0.2 }], meta: { billed_units: billed } });

const S = defineState({ out: field.any().default(null) });

async function eventsOf(body: () => Promise<unknown>): Promise<RetrievalEvent[]> {
  const g = new GraphBuilder(S).addNode("call", async () => ({ out: await body() })).addEdge("call", END).setEntry("call").compile({ name: "g" });
  const events: RetrievalEvent[] = [];
  g.attachObserver((e: ObserverEvent) => void (isRetrievalEvent(e) && events.push(e)));
  await g.invoke({}).catch(() => undefined);
  await g.drain({ timeoutMs: 2000 });
  return events;
}
const embedder = (replies: Reply[]) => embeddingProviders.create("openai", { model: "emb-bound", apiKey: "k", baseUrl: BASE, fetch: fakeFetch(replies).fetch });
const reranker = (replies: Reply[]) => rerankProviders.create("cohere", { model: "rr-bound", apiKey: "k", baseUrl: BASE, fetch: fakeFetch(replies).fetch });

describe("observability: embedding / rerank spans (§5.5.8, §5.5.13)", () => {
  it("an embedding span carries the GenAI subset and the openarmature.embedding.* set; payload off by default", async () => {
    const [e] = await eventsOf(() => embedder([{ status: 200, json: oai([[1, 2, 3], [4, 5, 6]]) }]).embed(["a", "b"], { config: { input_type: "query" } }));
    const attrs = embeddingSpanAttributes(e as never);
    expect(attrs).to.deep.equal({
      "gen_ai.system": "openai",
      "gen_ai.request.model": "emb-bound",
      "gen_ai.response.model": "emb-echo",
      "gen_ai.response.id": "emb-id",
      "gen_ai.usage.input_tokens": 4,
      "openarmature.embedding.input_count": 2,
      "openarmature.embedding.dimensions": 3,
      "openarmature.embedding.input_type": "query",
    });
  });

  it("omits gen_ai.usage.input_tokens when no usage was reported; the semconv flag drops the gen_ai.* subset", async () => {
    const [e] = await eventsOf(() => embedder([{ status: 200, json: oai([[1]], null) }]).embed(["a"]));
    expect(embeddingSpanAttributes(e as never)).to.not.have.property("gen_ai.usage.input_tokens");
    expect(Object.keys(embeddingSpanAttributes(e as never, { disableGenaiSemconv: true })).filter((k) => k.startsWith("gen_ai."))).to.deep.equal([]);
  });

  it("payload attributes appear with disableProviderPayload: false, canonical JSON, cut at the cap", async () => {
    const long = "x".repeat(400);
    const [e] = await eventsOf(() => embedder([{ status: 200, json: oai([[1], [2]]) }]).embed(["b", long], { config: { extras: { z: 1, a: 2 } } }));
    const attrs = embeddingSpanAttributes(e as never, { disableProviderPayload: false, payloadByteCap: 300 });
    expect(attrs["openarmature.embedding.request.extras"]).to.equal('{"a":2,"z":1}');
    const strings = attrs["openarmature.embedding.input.strings"] as string;
    expect(Buffer.byteLength(strings)).to.be.at.most(300);
    expect(strings.endsWith(truncationMarker(Buffer.byteLength(JSON.stringify(["b", long]))))).to.equal(true);
    expect(DEFAULT_PAYLOAD_BYTE_CAP).to.equal(65536);
  });

  it("a rerank span: query byte length, counts, search units xor input tokens, results payload", async () => {
    const [e] = await eventsOf(() => reranker([{ status: 200, json: rr({ search_units: 1 }) }]).rerank("é?", ["d0", "d1"], { topK: 2 }));
    expect(rerankSpanAttributes(e as never)).to.deep.equal({
      "gen_ai.system": "cohere",
      "gen_ai.request.model": "rr-bound",
      "gen_ai.response.model": "rr-bound",
      "gen_ai.response.id": "rr-id",
      "openarmature.rerank.query_length": 3,
      "openarmature.rerank.document_count": 2,
      "openarmature.rerank.top_k": 2,
      "openarmature.rerank.result_count": 2,
      "openarmature.rerank.search_units": 1,
    });
    const jina = rerankProviders.create("jina", { model: "rr-bound", apiKey: "k", baseUrl: BASE, fetch: fakeFetch([{ status: 200, json: jinaRr }]).fetch });
    const [t] = await eventsOf(() => jina.rerank("q", ["d0", "d1"], { config: { return_documents: true } }));
    const attrs = rerankSpanAttributes(t as never, { disableProviderPayload: false });
    expect(attrs).to.include({ "gen_ai.usage.input_tokens": 42, "openarmature.rerank.query": "q", "openarmature.rerank.documents": '["d0","d1"]' });
    expect(attrs).to.not.have.any.keys("openarmature.rerank.search_units", "openarmature.rerank.top_k");
    expect(JSON.parse(attrs["openarmature.rerank.results"] as string)).to.deep.equal([{ document: "d0", index: 0, relevance_score: 0.5 }, { index: 1, relevance_score: 0.4 }]);
  });

  it("renders one span per event: OK on success; ERROR with the §7 category and an exception event on failure", async () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("t");
    const ok = await eventsOf(() => embedder([{ status: 200, json: oai([[1]]) }]).embed(["a"]));
    const bad = await eventsOf(() => reranker([{ status: 503, json: { message: "down" } }]).rerank("q", ["d"]));
    for (const e of [...ok, ...bad]) renderRetrievalSpan(tracer, e, ROOT_CONTEXT, { "openarmature.correlation_id": "c" });
    const [a, b] = exporter.getFinishedSpans();
    expect(a!.name).to.equal(EMBEDDING_SPAN_NAME);
    expect(a!.status.code).to.equal(SpanStatusCode.OK);
    expect(a!.attributes["openarmature.correlation_id"]).to.equal("c");
    expect(b!.name).to.equal(RERANK_SPAN_NAME);
    expect(b!.status).to.deep.equal({ code: SpanStatusCode.ERROR, message: "provider_unavailable" });
    expect(b!.attributes["openarmature.error.category"]).to.equal("provider_unavailable");
    expect(b!.attributes).to.not.have.property("openarmature.rerank.result_count");
    expect(b!.events.map((x) => x.name)).to.deep.equal(["exception"]);
  });
});

describe("observability: the OTel observer renders retrieval events as it hears them", () => {
  it("parents each embedding span under the calling node's span of its own fan-out instance (lineage, not the scalar)", async () => {
    const exporter = new InMemorySpanExporter();
    const errors: unknown[] = [];
    const otel = new OTelObserver({ spanProcessors: [new SimpleSpanProcessor(exporter)], onError: (e) => errors.push(e) });
    const replies: Reply[] = [0, 1, 2].map(() => ({ status: 200, json: oai([[1]]) }));
    const p = embedder(replies);
    const Inner = defineState({ idx: field.int().default(0), out: field.int().default(0) });
    const inner = new GraphBuilder(Inner).addNode("work", async (s) => ({ out: (await p.embed([`q${s.idx}`])).dimensions })).setEntry("work").compile({ name: "inner" });
    const P = defineState({ items: field.list(field.int()).default([]), outs: field.list(field.int()).default([]).reducer(append) });
    const g = new GraphBuilder(P)
      .addNode("fan", fanOut({ subgraph: inner, itemsField: "items", itemField: "idx", collectField: "out", targetField: "outs" }))
      .setEntry("fan")
      .compile({ name: "outer" });
    await g.invoke({ items: [0, 1, 2] }, { hooks: otel, correlationId: "c-1" });
    expect(errors).to.deep.equal([]);
    const spans = exporter.getFinishedSpans();
    const embeds = spans.filter((s) => s.name === EMBEDDING_SPAN_NAME);
    expect(embeds).to.have.length(3);
    const parents = embeds.map((e) => spans.find((s) => s.spanContext().spanId === e.parentSpanContext?.spanId)!);
    expect(parents.map((s) => s.name)).to.deep.equal(["work", "work", "work"]);
    expect(new Set(parents.map((s) => s.attributes["openarmature.node.fan_out_index"])).size).to.equal(3);
    for (const e of embeds) expect(e.attributes["openarmature.correlation_id"]).to.equal("c-1");
  });

  it("records metrics only with enableMetrics (no instrument is created otherwise)", async () => {
    const run = async (enableMetrics: boolean) => {
      const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
      const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 })] });
      const otel = new OTelObserver({ enableMetrics, meterProvider });
      const p = embedder([{ status: 200, json: oai([[1]]) }]);
      await new GraphBuilder(S).addNode("call", async () => ({ out: (await p.embed(["a"])).dimensions })).setEntry("call").compile({ name: "g" }).invoke({}, { hooks: otel });
      await meterProvider.forceFlush();
      return exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics.map((m) => m.descriptor.name))).sort();
    };
    expect(await run(false)).to.deep.equal([]);
    expect(await run(true)).to.deep.equal([MetricName.operationDuration, MetricName.tokenUsage]);
  });
});

describe("observability: §11 metrics from the typed events", () => {
  function sdk() {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const points = async () => {
      await provider.forceFlush();
      const out: { name: string; attributes: Record<string, unknown>; count: number; sum: number | undefined }[] = [];
      for (const rm of exporter.getMetrics()) for (const sm of rm.scopeMetrics) for (const m of sm.metrics) {
        for (const p of m.dataPoints) {
          const hist = m.dataPointType === DataPointType.HISTOGRAM ? (p.value as HistogramMetricData["dataPoints"][number]["value"]) : undefined;
          out.push({ name: m.descriptor.name, attributes: { ...p.attributes }, count: hist ? hist.count : Number(p.value), sum: hist?.sum });
        }
      }
      return out;
    };
    return { provider, points };
  }

  it("an embedding records one input-token observation and one duration, dimensioned by §11.3", async () => {
    const { provider, points } = sdk();
    const m = new ProviderMetrics(provider);
    for (const e of await eventsOf(() => embedder([{ status: 200, json: oai([[1]]) }]).embed(["a"]))) m.record(e);
    const base = { "openarmature.gen_ai.operation": "embeddings", "gen_ai.request.model": "emb-bound", "gen_ai.system": "openai" };
    const got = await points();
    expect(got.find((p) => p.name === MetricName.tokenUsage)).to.deep.include({ attributes: { ...base, "openarmature.gen_ai.token.type": "input" }, count: 1, sum: 4 });
    expect(got.find((p) => p.name === MetricName.operationDuration)).to.deep.include({ attributes: base, count: 1 });
  });

  it("a failed call records only the duration, with error.type; search units are not tokens", async () => {
    const { provider, points } = sdk();
    const m = new ProviderMetrics(provider);
    for (const e of await eventsOf(() => reranker([{ status: 503, json: {} }]).rerank("q", ["d"]))) m.record(e);
    for (const e of await eventsOf(() => reranker([{ status: 200, json: rr({ search_units: 3 }) }]).rerank("q", ["d0", "d1"]))) m.record(e);
    const got = await points();
    expect(got.filter((p) => p.name === MetricName.tokenUsage)).to.deep.equal([]);
    const durations = got.filter((p) => p.name === MetricName.operationDuration).map((p) => p.attributes["error.type"] ?? null);
    expect(durations.sort()).to.deep.equal(["provider_unavailable", null].sort());
  });

  it("with no MeterProvider configured (the global no-op) recording is silent", async () => {
    const m = new ProviderMetrics();
    for (const e of await eventsOf(() => embedder([{ status: 200, json: oai([[1]]) }]).embed(["a"]))) expect(() => m.record(e)).to.not.throw();
  });

  it("an LLM call: a duration per wire attempt (error.type on the failed one), tokens of the attempt with usage, the budget from the terminal event", async () => {
    const { provider, points } = sdk();
    const m = new ProviderMetrics(provider);
    const usage = { prompt_tokens: 5, completion_tokens: 1, total_tokens: null };
    const response = { responseId: "r", responseModel: "m", usage, finishReason: "stop", outputContent: "hi", outputToolCalls: null };
    const attempt = { retryReason: null, requestParams: {}, requestExtras: {}, inputMessages: [], startTime: 0, endTime: 20 };
    const event = {
      kind: "llm_completion", provider: "openai", model: "m", ...response,
      attempts: [{ ...attempt, attemptIndex: 0, failure: { category: "provider_unavailable", type: null, message: "", error: null } }, { ...attempt, attemptIndex: 1, response }],
      tokenBudget: { input_max_tokens: 4, total_max_tokens: 100 }, latencyMs: 40,
    } as unknown as ObserverEvent;
    m.record(event);
    const got = await points();
    const base = { "openarmature.gen_ai.operation": "chat", "gen_ai.request.model": "m", "gen_ai.system": "openai" };
    expect(got.filter((p) => p.name === MetricName.tokenUsage).map((p) => [p.attributes["openarmature.gen_ai.token.type"], p.sum])).to.deep.equal([["input", 5], ["output", 1]]);
    expect(got.filter((p) => p.name === MetricName.operationDuration).map((p) => p.attributes)).to.deep.equal([{ ...base, "error.type": "provider_unavailable" }, base]);
    expect(got.filter((p) => p.name === MetricName.tokenBudgetExceeded).map((p) => [p.attributes["openarmature.gen_ai.token_budget.kind"], p.count])).to.deep.equal([["input", 1]]);
    // total = prompt + completion when the provider omitted total_tokens: 6 / 100.
    expect(got.filter((p) => p.name === MetricName.tokenBudgetUtilization).map((p) => [p.attributes["openarmature.gen_ai.token_budget.kind"], p.sum])).to.deep.equal([["input", 1.25], ["total", 0.06]]);
  });

  it("token-budget bounds: utilization always, exceeded once per breached bound, nothing for an unreported counter", async () => {
    const { provider, points } = sdk();
    const m = new ProviderMetrics(provider);
    const call = { operation: "chat", model: "m", system: "openai" } as const;
    m.recordBudget(call, "input", 120, 100);
    m.recordBudget(call, "total", 50, 100);
    m.recordBudget(call, "total", null, 100);
    const got = await points();
    expect(got.filter((p) => p.name === MetricName.tokenBudgetExceeded).map((p) => [p.attributes["openarmature.gen_ai.token_budget.kind"], p.count])).to.deep.equal([["input", 1]]);
    expect(got.filter((p) => p.name === MetricName.tokenBudgetUtilization).map((p) => [p.attributes["openarmature.gen_ai.token_budget.kind"], p.sum])).to.deep.equal([["input", 1.2], ["total", 0.5]]);
  });
});
