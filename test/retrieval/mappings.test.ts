/**
 * Tier 2 (contract tests through an injected `fetch`) for the four retrieval wire mappings
 * (retrieval-provider §8.1–§8.4) and the provider-level rules they share: chunk-and-stitch,
 * the §4 / §6 invariants, §7 malformed ancillary figures and the managed-field collisions.
 */
import { expect } from "chai";
import { embeddingProviders, rerankProviders, type EmbeddingResponse } from "../../src/retrieval/index.ts";
import { fakeFetch, type Reply } from "../llm/fake-fetch.ts";

const BASE = "https://r.example.test";
const body = (r: { body: string | undefined }): Record<string, unknown> => JSON.parse(r.body!) as Record<string, unknown>;
const oai = (vectors: unknown[], extra: Record<string, unknown> = {}) => ({ object: "list", model: "m", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })), usage: { prompt_tokens: 2, total_tokens: 2 }, ...extra });
const cohere = (vectors: number[][], extra: Record<string, unknown> = {}) => ({ id: "co", embeddings: { float: vectors }, meta: { billed_units: { input_tokens: vectors.length } }, ...extra });

function embedder(name: string, replies: Reply[], extra: Record<string, unknown> = {}) {
  const f = fakeFetch(replies);
  return { p: embeddingProviders.create(name, { model: "m", apiKey: "k", baseUrl: BASE, fetch: f.fetch, ...extra }), requests: f.requests };
}
function reranker(name: string, replies: Reply[], extra: Record<string, unknown> = {}) {
  const f = fakeFetch(replies);
  return { p: rerankProviders.create(name, { model: "rm", apiKey: "k", baseUrl: BASE, fetch: f.fetch, ...extra }), requests: f.requests };
}
async function raises(p: Promise<unknown>, category: string): Promise<Error> {
  try {
    await p;
  } catch (e) {
    expect((e as { category?: string }).category, (e as Error).message).to.equal(category);
    return e as Error;
  }
  throw new Error(`expected ${category}`);
}

describe("retrieval mappings (§8) through an injected fetch", () => {
  describe("§8 batch chunking and the §4 invariants", () => {
    it("splits at the cap, keeps every other field identical, stitches vectors, sums usage, first id, raw per request", async () => {
      const { p, requests } = embedder("cohere", [
        { status: 200, json: cohere([[1, 1], [2, 2]], { id: "first" }) },
        { status: 200, json: cohere([[3, 3]], { id: "second" }) },
      ], { chunkSize: 2 });
      const r = await p.embed(["a", "b", "c"], { config: { input_type: "query", dimensions: 2 } });
      expect(requests.map((q) => body(q)["texts"])).to.deep.equal([["a", "b"], ["c"]]);
      const rest = requests.map((q) => ({ ...body(q), texts: undefined }));
      expect(rest[0]).to.deep.equal(rest[1]);
      expect(r.vectors).to.deep.equal([[1, 1], [2, 2], [3, 3]]);
      expect(r.usage).to.deep.equal({ input_tokens: 3 });
      expect(r.response_id).to.equal("first");
      expect(r.raw).to.be.an("array").with.length(2);
    });
    it("a malformed figure in any chunk makes the stitched usage null (never a partial sum); a malformed first id is null", async () => {
      const { p } = embedder("cohere", [
        { status: 200, json: cohere([[1, 1]], { id: 7, meta: { billed_units: { input_tokens: -1 } } }) },
        { status: 200, json: cohere([[2, 2]], { id: "later" }) },
      ], { chunkSize: 1 });
      const r = await p.embed(["a", "b"]);
      expect(r.usage).to.equal(null);
      expect(r.response_id).to.equal(null);
      expect((r.raw as unknown[])[0]).to.deep.include({ id: 7 });
    });
    it("an empty-string id is null; a \"12\" token count is not coerced", async () => {
      const { p } = embedder("openai", [{ status: 200, json: oai([[1]], { id: "", usage: { prompt_tokens: "12" } }) }]);
      const r = await p.embed(["a"]);
      expect([r.response_id, r.usage]).to.deep.equal([null, null]);
    });
    it("raises provider_invalid_response for a vector count or dimensionality mismatch", async () => {
      await raises(embedder("openai", [{ status: 200, json: oai([[1, 2]]) }]).p.embed(["a", "b"]), "provider_invalid_response");
      await raises(embedder("openai", [{ status: 200, json: oai([[1, 2], [3]]) }]).p.embed(["a", "b"]), "provider_invalid_response");
    });
    it("does not chunk under the cap, and orders data by index", async () => {
      const { p, requests } = embedder("openai", [{ status: 200, json: { data: [{ index: 1, embedding: [2] }, { index: 0, embedding: [1] }] } }]);
      const r: EmbeddingResponse = await p.embed(["a", "b"]);
      expect(requests).to.have.length(1);
      expect(r.vectors).to.deep.equal([[1], [2]]);
      expect(r.model).to.equal("m");
    });
  });

  describe("§8.1 TEI", () => {
    it("/embed: input_type → prompt_name from the map; absent → the minimal symmetric body; chunks at 32 by default", async () => {
      const vec = (n: number) => Array.from({ length: n }, () => [0.5]);
      const { p, requests } = embedder("tei", [{ status: 200, json: vec(1) }, { status: 200, json: vec(32) }, { status: 200, json: vec(1) }], { inputTypePromptMap: { query: "query" } });
      await p.embed(["q"], { config: { input_type: "query" } });
      expect(requests[0]!.body).to.equal('{"inputs":["q"],"prompt_name":"query"}');
      const r = await p.embed(Array.from({ length: 33 }, (_, i) => `t${i}`));
      expect(requests.slice(1).map((q) => (body(q)["inputs"] as unknown[]).length)).to.deep.equal([32, 1]);
      expect([r.usage, r.response_id, r.vectors.length]).to.deep.equal([null, null, 33]);
    });
    it("/embed: a client-side prefix when the map has no prompt; an unmapped input_type without one is refused", async () => {
      const { p, requests } = embedder("tei", [{ status: 200, json: [[1]] }], { queryPrefix: "query: " });
      await p.embed(["x"], { config: { input_type: "query" } });
      expect(body(requests[0]!)["inputs"]).to.deep.equal(["query: x"]);
      await raises(p.embed(["x"], { config: { input_type: "document" } }), "provider_invalid_request");
    });
    it("/embed: extras truncate:false is omitted (relied-upon default); truncate:true is refused pre-send", async () => {
      const { p, requests } = embedder("tei", [{ status: 200, json: [[1]] }]);
      await p.embed(["x"], { config: { extras: { truncate: false } } });
      expect(requests[0]!.body).to.equal('{"inputs":["x"]}');
      await raises(p.embed(["x"], { config: { extras: { truncate: true } } }), "provider_invalid_request");
      expect(requests).to.have.length(1);
    });
    it("ready() reads /info: the bound model passes (twice, idempotent), another model is provider_invalid_model", async () => {
      const info = { model_id: "m", model_dtype: "float16", max_client_batch_size: 32 };
      const { p, requests } = embedder("tei", [{ status: 200, json: info }, { status: 200, json: info }, { status: 200, json: { ...info, model_id: "other/model" } }]);
      await p.ready();
      await p.ready();
      expect(requests.map((r) => [r.method, r.url])).to.deep.equal([["GET", `${BASE}/info`], ["GET", `${BASE}/info`]]);
      const e = await raises(p.ready(), "provider_invalid_model");
      expect(e.message).to.include("other/model");
    });
    it("/rerank: truncate:false and return_text sent; chunks re-based to absolute indices and globally sorted; top_k after the sort", async () => {
      const { p, requests } = reranker("tei", [
        { status: 200, json: [{ index: 0, score: 0.1 }, { index: 1, score: 0.7, text: "d1" }] },
        { status: 200, json: [{ index: 0, score: 0.9, text: "d2" }] },
      ], { chunkSize: 2 });
      const r = await p.rerank("q", ["d0", "d1", "d2"], { topK: 2, config: { return_documents: true } });
      expect(requests.map((q) => q.body)).to.deep.equal(['{"query":"q","return_text":true,"texts":["d0","d1"],"truncate":false}', '{"query":"q","return_text":true,"texts":["d2"],"truncate":false}']);
      expect(r.results).to.deep.equal([{ index: 2, relevance_score: 0.9, document: "d2" }, { index: 1, relevance_score: 0.7, document: "d1" }]);
      expect([r.usage, r.model]).to.deep.equal([null, "rm"]);
    });
  });

  describe("§8.2 Jina", () => {
    it("/v1/embeddings: task from input_type (closed set), truncate:false, dimensions; a conflicting extras task refused while input_type is set", async () => {
      const { p, requests } = embedder("jina", [{ status: 200, json: oai([[1]]) }, { status: 200, json: oai([[1]]) }]);
      await p.embed(["x"], { config: { input_type: "document", dimensions: 1 } });
      expect(body(requests[0]!)).to.deep.equal({ model: "m", input: ["x"], task: "retrieval.passage", dimensions: 1, truncate: false });
      await raises(p.embed(["x"], { config: { input_type: "classification" } }), "provider_invalid_request");
      await raises(p.embed(["x"], { config: { input_type: "query", extras: { task: "text-matching" } } }), "provider_invalid_request");
      await p.embed(["x"], { config: { extras: { task: "text-matching" } } });
      expect(body(requests[1]!)["task"]).to.equal("text-matching");
    });
    it("ready() is a noop (Jina has no model endpoint): no request", async () => {
      const { p, requests } = reranker("jina", []);
      await p.ready();
      expect(requests).to.have.length(0);
    });
    it("/v1/rerank: return_documents sent explicitly, truncation managed, echoes read by shape", async () => {
      const { p, requests } = reranker("jina", [
        { status: 200, json: { model: "rm-echo", usage: { total_tokens: 9 }, results: [{ index: 0, relevance_score: 0.5, document: { text: "t" } }, { index: 1, relevance_score: 0.8, document: { image: "i" } }, { index: 2, relevance_score: 0.1, document: "" }] } },
        { status: 200, json: { results: [{ index: 0, relevance_score: 0.5, document: 3 }] } },
      ]);
      const r = await p.rerank("q", ["a", "b", "c"], { topK: 3 });
      expect(body(requests[0]!)).to.deep.equal({ model: "rm", query: "q", documents: ["a", "b", "c"], top_n: 3, return_documents: false, truncation: false });
      expect(r.results.map((x) => x.document)).to.deep.equal([null, "t", ""]);
      expect([r.model, r.usage]).to.deep.equal(["rm-echo", { search_units: null, input_tokens: 9 }]);
      await raises(p.rerank("q", ["a"]), "provider_invalid_response");
      await raises(p.rerank("q", ["a"], { config: { extras: { truncation: true } } }), "provider_invalid_request");
    });
    it("§6 invariants: duplicate index, out-of-range index and more than top_k are provider_invalid_response", async () => {
      const dup = { results: [{ index: 0, relevance_score: 1 }, { index: 0, relevance_score: 0.5 }] };
      await raises(reranker("jina", [{ status: 200, json: dup }]).p.rerank("q", ["a", "b"]), "provider_invalid_response");
      await raises(reranker("jina", [{ status: 200, json: { results: [{ index: 2, relevance_score: 1 }] } }]).p.rerank("q", ["a", "b"]), "provider_invalid_response");
      const many = { results: [{ index: 0, relevance_score: 1 }, { index: 1, relevance_score: 0.5 }] };
      await raises(reranker("jina", [{ status: 200, json: many }]).p.rerank("q", ["a", "b"], { topK: 1 }), "provider_invalid_response");
    });
  });

  describe("§8.3 OpenAI-compatible", () => {
    it("sends {model, input[, dimensions]}; input_type is a no-op without prefixes; a conflicting extras dimensions is refused", async () => {
      const { p, requests } = embedder("openai", [{ status: 200, json: oai([[1]]) }, { status: 200, json: oai([[1]]) }]);
      await p.embed(["x"], { config: { input_type: "query" } });
      expect(requests[0]!.body).to.equal('{"input":["x"],"model":"m"}');
      await raises(p.embed(["x"], { config: { dimensions: 8, extras: { dimensions: 4 } } }), "provider_invalid_request");
      await p.embed(["x"], { config: { dimensions: 8, extras: { dimensions: 8 } } });
      expect(requests[1]!.body).to.equal('{"dimensions":8,"input":["x"],"model":"m"}');
    });
    it("decodes base64 little-endian float32 embeddings; malformed base64 or a partial float raises", async () => {
      const b64 = Buffer.from(new Float32Array([0.5, -2]).buffer).toString("base64");
      const { p, requests } = embedder("openai", [{ status: 200, json: oai([b64]) }, { status: 200, json: oai(["AAAAAAA="]) }, { status: 200, json: oai(["!!"]) }, { status: 200, json: oai([{ x: 1 }]) }]);
      expect((await p.embed(["x"], { config: { extras: { encoding_format: "base64" } } })).vectors).to.deep.equal([[0.5, -2]]);
      expect(body(requests[0]!)["encoding_format"]).to.equal("base64");
      await raises(p.embed(["x"]), "provider_invalid_response");
      await raises(p.embed(["x"]), "provider_invalid_response");
      await raises(p.embed(["x"]), "provider_invalid_response");
    });
    it("ready() probes the bound model: 404 is provider_invalid_model", async () => {
      const { p, requests } = embedder("openai", [{ status: 404, json: { error: { message: "no such model" } } }]);
      await raises(p.ready(), "provider_invalid_model");
      expect(requests[0]!.url).to.equal(`${BASE}/v1/models/m`);
    });
  });

  describe("§8.4 Cohere", () => {
    it("/v2/embed: mandatory input_type (absent ⇒ search_document), four recognized values, others refused", async () => {
      const { p, requests } = embedder("cohere", Array.from({ length: 3 }, () => ({ status: 200 as const, json: cohere([[1]]) })));
      await p.embed(["x"]);
      await p.embed(["x"], { config: { input_type: "clustering" } });
      await p.embed(["x"], { config: { input_type: "query", dimensions: 256 } });
      expect(requests.map((q) => body(q)["input_type"])).to.deep.equal(["search_document", "clustering", "search_query"]);
      expect(body(requests[2]!)["output_dimension"]).to.equal(256);
      await raises(p.embed(["x"], { config: { input_type: "image" } }), "provider_invalid_request");
    });
    it("merges extras embedding_types after float (de-duplicated); a malformed list falls back to float only; truncate managed", async () => {
      const { p, requests } = embedder("cohere", Array.from({ length: 2 }, () => ({ status: 200 as const, json: cohere([[1]]) })));
      await p.embed(["x"], { config: { extras: { embedding_types: ["int8", "float", "int8"] } } });
      await p.embed(["x"], { config: { extras: { embedding_types: ["int8", 3] } } });
      expect(requests.map((q) => body(q)["embedding_types"])).to.deep.equal([["float", "int8"], ["float"]]);
      await raises(p.embed(["x"], { config: { extras: { truncate: "END" } } }), "provider_invalid_request");
    });
    it("chunks at 96 inputs", async () => {
      const { p, requests } = embedder("cohere", [{ status: 200, json: cohere(Array.from({ length: 96 }, () => [1])) }, { status: 200, json: cohere([[1], [1], [1], [1]]) }]);
      const r = await p.embed(Array.from({ length: 100 }, (_, i) => `t${i}`));
      expect(requests.map((q) => (body(q)["texts"] as unknown[]).length)).to.deep.equal([96, 4]);
      expect(r.usage).to.deep.equal({ input_tokens: 100 });
    });
    it("/v2/rerank: top_n from top_k, no echo whatever return_documents says, search_units, bound model", async () => {
      const { p, requests } = reranker("cohere", [{ status: 200, json: { id: "r1", results: [{ index: 0, relevance_score: 0.3 }], meta: { billed_units: { search_units: 1, input_tokens: true } } } }]);
      const r = await p.rerank("q", ["a"], { topK: 5, config: { return_documents: true } });
      expect(body(requests[0]!)).to.deep.equal({ model: "rm", query: "q", documents: ["a"], top_n: 5 });
      expect(r).to.deep.include({ model: "rm", response_id: "r1", usage: { search_units: 1, input_tokens: null } });
      expect(r.results[0]!.document).to.equal(null);
    });
  });
});
