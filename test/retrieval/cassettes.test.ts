/**
 * Tiers 3–5 of the provider test obligations for retrieval, replayed strictly from cassettes
 * (test/retrieval/cassettes/verify_<provider>_<scenario>.json, written by write-cassettes.ts from
 * each vendor's documented wire format): each mapping's request bytes must match what was
 * recorded (a drifting mapping fails here), its success path normalizes the recorded response, its
 * error paths keep their §7 category; end to end, a graph node retrieves with embed + rerank.
 */
import { expect } from "chai";
import { fileURLToPath } from "node:url";
import { END, GraphBuilder, defineState, field } from "../../src/graph/index.ts";
import { cassetteFetch, loadCassette, type FetchFn } from "../../src/llm/index.ts";
import { embeddingProviders, rerankProviders, type RerankResponse } from "../../src/retrieval/index.ts";

const dir = fileURLToPath(new URL("./cassettes/", import.meta.url));
const play = (name: string): FetchFn => cassetteFetch(loadCassette(`${dir}${name}.json`), { strict: true });
const INPUTS = ["The quick brown fox.", "Jumps over the lazy dog."];
const QUERY = "Which animal is lazy?";
const TEI = "http://tei.local:8080";
const KEY = "sk-test";
const v = (seed: number) => [seed, seed / 2, -seed / 4];

async function category(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    return (e as { category?: string }).category;
  }
}

describe("retrieval cassettes (strict playback)", () => {
  it("tei /embed and /rerank; the 413 over-batch error is provider_invalid_request", async () => {
    const embed = (f: FetchFn) => embeddingProviders.create("tei", { model: "BAAI/bge-small-en-v1.5", baseUrl: TEI, fetch: f, inputTypePromptMap: { query: "query", document: "passage" } }).embed(INPUTS, { config: { input_type: "document" } });
    const r = await embed(play("verify_tei_embed"));
    expect([r.vectors, r.usage, r.response_id, r.model]).to.deep.equal([[v(0.1), v(0.2)], null, null, "BAAI/bge-small-en-v1.5"]);
    expect(await category(embed(play("verify_tei_error_payload_413")))).to.equal("provider_invalid_request");
    const rr = await rerankProviders.create("tei", { model: "BAAI/bge-reranker-base", baseUrl: TEI, apiKey: KEY, fetch: play("verify_tei_rerank") }).rerank(QUERY, INPUTS, { topK: 2, config: { return_documents: true } });
    expect(rr.results.map((x) => [x.index, x.document])).to.deep.equal([[1, INPUTS[1]], [0, INPUTS[0]]]);
  });
  it("jina embeddings and rerank (TextDoc echoes unwrapped); 429 is provider_rate_limit", async () => {
    const e = await embeddingProviders.create("jina", { model: "jina-embeddings-v3", apiKey: KEY, fetch: play("verify_jina_embed") }).embed(INPUTS, { config: { input_type: "document" } });
    expect([e.usage, e.dimensions]).to.deep.equal([{ input_tokens: 12 }, 3]);
    const rerank = (f: FetchFn): Promise<RerankResponse> => rerankProviders.create("jina", { model: "jina-reranker-v2-base-multilingual", apiKey: KEY, fetch: f }).rerank(QUERY, INPUTS, { topK: 2, config: { return_documents: true } });
    const r = await rerank(play("verify_jina_rerank"));
    expect(r.results.map((x) => x.document)).to.deep.equal([INPUTS[1], INPUTS[0]]);
    expect(r.usage).to.deep.equal({ search_units: null, input_tokens: 30 });
    expect(await category(rerank(play("verify_jina_error_rate_limit_429")))).to.equal("provider_rate_limit");
  });
  it("openai embeddings; 401 is provider_authentication", async () => {
    const embed = (f: FetchFn) => embeddingProviders.create("openai", { model: "text-embedding-3-small", apiKey: KEY, fetch: f }).embed(INPUTS, { config: { input_type: "document" } });
    expect((await embed(play("verify_openai_embed"))).usage).to.deep.equal({ input_tokens: 11 });
    expect(await category(embed(play("verify_openai_error_auth_401")))).to.equal("provider_authentication");
  });
  it("cohere embed and rerank; 500 is provider_unavailable", async () => {
    const e = await embeddingProviders.create("cohere", { model: "embed-v4.0", apiKey: KEY, fetch: play("verify_cohere_embed") }).embed(INPUTS, { config: { input_type: "document" } });
    expect([e.response_id, e.usage, e.model]).to.deep.equal(["5807ee2e-0cda-445a-9ec8-864c60a06606", { input_tokens: 10 }, "embed-v4.0"]);
    const rerank = (f: FetchFn) => rerankProviders.create("cohere", { model: "rerank-v3.5", apiKey: KEY, fetch: f }).rerank(QUERY, INPUTS, { topK: 2, config: { return_documents: true } });
    expect((await rerank(play("verify_cohere_rerank"))).usage).to.deep.equal({ search_units: 1, input_tokens: null });
    expect(await category(rerank(play("verify_cohere_error_http_500")))).to.equal("provider_unavailable");
  });
  it("a drifted request (another model) does not match the cassette", async () => {
    const p = embeddingProviders.create("openai", { model: "text-embedding-3-large", apiKey: KEY, fetch: play("verify_openai_embed") });
    let error: unknown;
    await p.embed(INPUTS).catch((e: unknown) => (error = e));
    // The transport reports what `fetch` threw as provider_unavailable, the mismatch as its cause.
    expect((error as { category?: string }).category).to.equal("provider_unavailable");
    expect(((error as Error).cause as Error).name).to.equal("CassetteMismatch");
  });
  it("end to end: a graph node embeds the corpus and reranks it from cassettes", async () => {
    const State = defineState({ hits: field.list(field.string()).default([]), dims: field.int().default(0) });
    const embedder = embeddingProviders.create("cohere", { model: "embed-v4.0", apiKey: KEY, fetch: play("verify_cohere_embed") });
    const reranker = rerankProviders.create("cohere", { model: "rerank-v3.5", apiKey: KEY, fetch: play("verify_cohere_rerank") });
    const graph = new GraphBuilder(State)
      .addNode("retrieve", async () => {
        const e = await embedder.embed(INPUTS, { config: { input_type: "document" } });
        const r = await reranker.rerank(QUERY, INPUTS, { topK: 2, config: { return_documents: true } });
        return { dims: e.dimensions, hits: r.results.map((x) => INPUTS[x.index]!) };
      })
      .addEdge("retrieve", END)
      .setEntry("retrieve")
      .compile();
    const { state } = await graph.invoke({});
    expect(state).to.deep.include({ dims: 3, hits: [INPUTS[1], INPUTS[0]] });
  });
});
