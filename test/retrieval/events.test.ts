/**
 * The typed embedding / rerank events (graph-engine §6; observability §5.5.9, §5.5.14): every
 * `embed()` / `rerank()` of the HTTP providers inside a node dispatches exactly one success or
 * failure event with the call's lineage, request and response side; the error still propagates;
 * outside a graph nothing is dispatched.
 */
import { expect } from "chai";
import { defineState, END, field, GraphBuilder, withCallerInvocationMetadata, type ObserverEvent } from "../../src/graph/index.ts";
import { constantBackoff, retry } from "../../src/pipeline/middleware/index.ts";
import { withPrompt } from "../../src/prompts/context.ts";
import type { PromptResult } from "../../src/prompts/index.ts";
import {
  embeddingProviders,
  isRetrievalEvent,
  rerankProviders,
  retrievalEventRecord,
  type EmbeddingEvent,
  type EmbeddingFailedEvent,
  type RerankEvent,
  type RerankFailedEvent,
  type RetrievalEvent,
} from "../../src/retrieval/index.ts";
import { fakeFetch, type Reply } from "../llm/fake-fetch.ts";

const BASE = "https://r.example.test";
const oai = (vectors: number[][], extra: Record<string, unknown> = {}) => ({ object: "list", model: "emb-echo", id: "emb-id", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })), usage: { prompt_tokens: 3, total_tokens: 3 }, ...extra });
const cohereRerank = { id: "rr-id", results: [{ index: 1, relevance_score: 0.9 }, { index: 0, relevance_score: 0.2 }], meta: { billed_units: { search_units: 1 } } };

const S = defineState({ out: field.any().default(null) });

/** Run `body` as the one node of a graph, collecting the retrieval events its observer receives. */
async function inNode(body: () => Promise<unknown>, metadata: Record<string, string> = {}): Promise<{ events: RetrievalEvent[]; error: unknown }> {
  const g = new GraphBuilder(S).addNode("call", async () => ({ out: await body() })).addEdge("call", END).setEntry("call").compile({ name: "g" });
  const events: RetrievalEvent[] = [];
  g.attachObserver((e: ObserverEvent) => {
    if (isRetrievalEvent(e)) events.push(e);
  });
  let error: unknown;
  await g.invoke({}, { metadata }).catch((e: unknown) => (error = e));
  await g.drain({ timeoutMs: 2000 });
  return { events, error };
}

const embedder = (replies: Reply[]) => embeddingProviders.create("openai", { model: "emb-bound", apiKey: "k", baseUrl: BASE, fetch: fakeFetch(replies).fetch });
const reranker = (replies: Reply[]) => rerankProviders.create("cohere", { model: "rr-bound", apiKey: "k", baseUrl: BASE, fetch: fakeFetch(replies).fetch });

describe("retrieval typed events (graph-engine §6, observability §5.5.9 / §5.5.14)", () => {
  it("a successful embed() dispatches one EmbeddingEvent with lineage, request and response side", async () => {
    const p = embedder([{ status: 200, json: oai([[1, 2, 3], [4, 5, 6]]) }]);
    const { events, error } = await inNode(() => p.embed(["a", "b"], { config: { dimensions: 3, extras: { user: "u" } } }), { tenant: "t" });
    expect(error).to.equal(undefined);
    expect(events.map((e) => e.kind)).to.deep.equal(["embedding"]);
    const e = events[0] as EmbeddingEvent;
    expect(e).to.deep.include({ provider: "openai", model: "emb-bound", responseModel: "emb-echo", responseId: "emb-id", inputCount: 2, dimensions: 3, nodeName: "call", attemptIndex: 0 });
    expect(e.usage).to.deep.equal({ input_tokens: 3 });
    expect(e.inputStrings).to.deep.equal(["a", "b"]);
    expect(e.outputVectors).to.deep.equal([[1, 2, 3], [4, 5, 6]]);
    expect(e.requestParams).to.deep.equal({ dimensions: 3 });
    expect(e.requestExtras).to.deep.equal({ user: "u" });
    expect(e.callId).to.be.a("string").and.not.equal("");
    expect(e.latencyMs).to.be.a("number").and.at.least(0);
    expect(e.namespace).to.deep.equal(["call"]);
    const rec = retrievalEventRecord(e);
    expect(rec).to.deep.include({ node_name: "call", fan_out_index: null, branch_name: null, caller_invocation_metadata: null, input_count: 2, request_params: { dimensions: 3 } });
    expect(retrievalEventRecord(withCallerInvocationMetadata(e))["caller_invocation_metadata"]).to.deep.equal({ tenant: "t" });
  });

  it("request_params is empty when no declared field was supplied (absence is meaningful)", async () => {
    const p = embedder([{ status: 200, json: oai([[1]]) }]);
    const { events } = await inNode(() => p.embed(["a"], { config: { input_type: null, extras: {} } }));
    expect(events[0]!.requestParams).to.deep.equal({});
  });

  it("a failed embed() dispatches one EmbeddingFailedEvent, no success event, and the error still propagates", async () => {
    const p = embedder([{ status: 503, json: { error: { message: "down" } } }]);
    const { events, error } = await inNode(() => p.embed(["a"]));
    expect((error as { cause?: { category?: string } }).cause?.category).to.equal("provider_unavailable");
    expect(events.map((e) => e.kind)).to.deep.equal(["embedding_failed"]);
    const e = events[0] as EmbeddingFailedEvent;
    expect(e).to.deep.include({ errorCategory: "provider_unavailable", provider: "openai", model: "emb-bound", inputCount: 1 });
    expect(e.errorMessage).to.contain("down");
    expect(retrievalEventRecord(e)).to.not.have.any.keys("usage", "response_id", "output_vectors", "dimensions");
  });

  it("a failure event carries the vendor's error type and message verbatim (error_type / error_message; the status fixes the category)", async () => {
    // Before: error_type was the class name (LlmProviderError) and error_message "<provider>: <message> (HTTP 503)".
    const p = embedder([{ status: 503, json: { error: { type: "ServiceUnavailableError", message: "the embedding endpoint returned 503" } } }]);
    const { events } = await inNode(() => p.embed(["a"]));
    const e = events[0] as EmbeddingFailedEvent;
    expect([e.errorCategory, e.errorType, e.errorMessage]).to.deep.equal(["provider_unavailable", "ServiceUnavailableError", "the embedding endpoint returned 503"]);
    // TEI's error body names its type at the top level; without any type the class name stays.
    const tei = embeddingProviders.create("tei", { model: "m", baseUrl: BASE, fetch: fakeFetch([{ status: 413, json: { error: "too long", error_type: "Validation" } }]).fetch });
    const t = (await inNode(() => tei.embed(["a"]))).events[0] as EmbeddingFailedEvent;
    expect([t.errorCategory, t.errorType, t.errorMessage]).to.deep.equal(["provider_invalid_request", "Validation", "too long"]);
    const bare = (await inNode(() => embedder([{ status: 503, json: {} }]).embed(["a"]))).events[0] as EmbeddingFailedEvent;
    expect([bare.errorType, bare.errorMessage]).to.deep.equal(["LlmProviderError", "OpenAI-compatible embeddings answered HTTP 503"]);
  });

  it("a pre-send refusal is a failure event too (nothing was sent)", async () => {
    const p = embedder([]);
    const { events } = await inNode(() => p.embed([]));
    expect(events.map((e) => e.kind)).to.deep.equal(["embedding_failed"]);
    expect((events[0] as EmbeddingFailedEvent).errorCategory).to.equal("provider_invalid_request");
  });

  it("each call mints its own call_id; a retried node carries its attempt_index", async () => {
    const p = embedder([{ status: 503, json: {} }, { status: 200, json: oai([[1]]) }, { status: 200, json: oai([[1]]) }]);
    const g = new GraphBuilder(S)
      .addNode("call", async () => ({ out: [await p.embed(["x"]).then(() => p.embed(["y"]))] }), { middleware: [retry({ maxAttempts: 2, backoff: constantBackoff(0) })] })
      .addEdge("call", END)
      .setEntry("call")
      .compile({ name: "g" });
    const events: RetrievalEvent[] = [];
    g.attachObserver((e: ObserverEvent) => void (isRetrievalEvent(e) && events.push(e)));
    await g.invoke({});
    await g.drain({ timeoutMs: 2000 });
    expect(events.map((e) => [e.kind, e.attemptIndex])).to.deep.equal([["embedding_failed", 0], ["embedding", 1], ["embedding", 1]]);
    expect(new Set(events.map((e) => e.callId)).size).to.equal(3);
  });

  it("a successful rerank() dispatches one RerankEvent; the active prompt is snapshotted", async () => {
    const p = reranker([{ status: 200, json: cohereRerank }]);
    const prompt = { name: "p", version: "1", label: "prod", template_hash: "th", rendered_hash: "rh" } as unknown as PromptResult;
    const { events } = await inNode(() => withPrompt(prompt, () => p.rerank("q?", ["d0", "d1"], { topK: 2, config: { return_documents: false } })));
    expect(events.map((e) => e.kind)).to.deep.equal(["rerank"]);
    const e = events[0] as RerankEvent;
    expect(e).to.deep.include({ provider: "cohere", model: "rr-bound", query: "q?", documentCount: 2, topK: 2, resultCount: 2, responseId: "rr-id" });
    expect(e.usage).to.deep.equal({ search_units: 1, input_tokens: null });
    expect(e.requestParams).to.deep.equal({ return_documents: false });
    expect(e.outputResults.map((r) => r.index)).to.deep.equal([1, 0]);
    expect(e.activePrompt).to.deep.equal({ name: "p", version: "1", label: "prod", template_hash: "th", rendered_hash: "rh" });
    expect(retrievalEventRecord(e)["top_k"]).to.equal(2);
  });

  it("a failed rerank() dispatches one RerankFailedEvent with top_k null when none was passed", async () => {
    const p = reranker([{ status: 429, json: { message: "slow down" } }]);
    const { events, error } = await inNode(() => p.rerank("q", ["d"]));
    expect((error as { cause?: { category?: string } }).cause?.category).to.equal("provider_rate_limit");
    expect(events.map((e) => e.kind)).to.deep.equal(["rerank_failed"]);
    expect(events[0] as RerankFailedEvent).to.deep.include({ errorCategory: "provider_rate_limit", topK: null, documentCount: 1 });
  });

  it("outside a graph the call runs and nothing is dispatched", async () => {
    const p = embedder([{ status: 200, json: oai([[1]]) }]);
    const r = await p.embed(["a"]);
    expect(r.vectors).to.deep.equal([[1]]);
  });
});
