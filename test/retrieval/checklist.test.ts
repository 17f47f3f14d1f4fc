/**
 * Tier 1 of the provider test obligations for retrieval (seed 004), over every entry the registries
 * list: construction and model binding, the request's method / route / auth header / JSON body,
 * one vector or result per item in order, the §7 status table (401, 404, 429, 400, 413, 422, 500),
 * a transport failure, and the API key never appearing in an error.
 */
import { expect } from "chai";
import { embeddingProviders, rerankProviders, RetrievalProviderError, type EmbeddingEntry, type RerankEntry } from "../../src/retrieval/index.ts";
import { fakeFetch, type Reply } from "../llm/fake-fetch.ts";

const KEY = "sk-retrieval-secret-key";
const BASE = "https://retrieval.example.test";

/** A sound embedding response for `n` inputs (2-d vectors 0.1·i) in each mapping's wire shape. */
function embedReply(system: string, n: number): unknown {
  const vectors = Array.from({ length: n }, (_, i) => [i / 10, 1 - i / 10]);
  if (system === "tei") return vectors;
  if (system === "cohere") return { id: "co-1", embeddings: { float: vectors }, texts: [], meta: { billed_units: { input_tokens: 3 } } };
  return { object: "list", model: "echoed-model", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })), usage: { prompt_tokens: 3, total_tokens: 3 } };
}
function rerankReply(system: string): unknown {
  if (system === "tei") return [{ index: 1, score: 0.9 }, { index: 0, score: 0.2 }];
  if (system === "cohere") return { id: "co-r", results: [{ index: 1, relevance_score: 0.9 }, { index: 0, relevance_score: 0.2 }], meta: { billed_units: { search_units: 1 } } };
  return { model: "echoed-model", usage: { total_tokens: 7 }, results: [{ index: 1, relevance_score: 0.9 }, { index: 0, relevance_score: 0.2 }] };
}
const ROUTES: Record<string, { embed: string; rerank?: string }> = {
  tei: { embed: "/embed", rerank: "/rerank" },
  jina: { embed: "/v1/embeddings", rerank: "/v1/rerank" },
  openai: { embed: "/v1/embeddings" },
  cohere: { embed: "/v2/embed", rerank: "/v2/rerank" },
};
const STATUS: ReadonlyArray<[number, string]> = [
  [400, "provider_invalid_request"],
  [401, "provider_authentication"],
  [404, "provider_invalid_model"],
  [413, "provider_invalid_request"],
  [422, "provider_invalid_request"],
  [429, "provider_rate_limit"],
  [500, "provider_unavailable"],
  [503, "provider_unavailable"],
];

async function category(p: Promise<unknown>): Promise<RetrievalProviderError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(Error);
    return e as RetrievalProviderError;
  }
  throw new Error("expected the call to raise");
}

describe("retrieval providers: unit checklist over the registries", () => {
  it("lists the four §8 embedding mappings and three rerank mappings (OpenAI has no rerank API)", () => {
    expect(embeddingProviders.entries().filter((e) => !e.preset).map((e) => e.name)).to.deep.equal(["tei", "jina", "openai", "cohere"]);
    expect(rerankProviders.entries().map((e) => e.name)).to.deep.equal(["tei", "jina", "cohere"]);
    expect(() => embeddingProviders.create("nope", { model: "m" })).to.throw(/unknown embedding provider 'nope' \(registered: tei, jina/);
  });

  for (const entry of embeddingProviders.entries() as EmbeddingEntry[]) {
    describe(`embedding '${entry.name}' (${entry.system})`, () => {
      const create = (replies: Reply[]) => {
        const f = fakeFetch(replies);
        return { p: entry.create({ model: "bound-model", apiKey: KEY, baseUrl: BASE, fetch: f.fetch }), requests: f.requests };
      };
      it("binds its model and sends one POST to its route with the bearer key and a JSON body", async () => {
        const { p, requests } = create([{ status: 200, json: embedReply(entry.system, 3) }]);
        expect(p.model).to.equal("bound-model");
        const r = await p.embed(["a", "b", "c"]);
        expect(requests).to.have.length(1);
        expect(requests[0]!.method).to.equal("POST");
        expect(requests[0]!.url).to.equal(`${BASE}${ROUTES[entry.system]!.embed}`);
        expect(requests[0]!.headers["authorization"]).to.equal(`Bearer ${KEY}`);
        expect(requests[0]!.headers["content-type"]).to.equal("application/json");
        expect(() => JSON.parse(requests[0]!.body!)).not.to.throw();
        expect(r.vectors).to.deep.equal([[0, 1], [0.1, 0.9], [0.2, 0.8]]);
        expect(r.dimensions).to.equal(2);
        expect(r.raw).to.deep.equal(embedReply(entry.system, 3));
      });
      for (const [status, cat] of STATUS) {
        it(`maps HTTP ${status} to ${cat}, keeping status and body, never the key`, async () => {
          const { p } = create([{ status, json: { error: { message: `failed with ${KEY}` } } }]);
          const e = await category(p.embed(["a"]));
          expect(e.category).to.equal(cat);
          expect(e.status).to.equal(status);
          expect(e.message).not.to.include(KEY);
          expect(e.body).not.to.include(KEY);
        });
      }
      it("maps a transport failure to provider_unavailable, keeping the cause", async () => {
        const { p } = create([{ networkError: "connect ECONNREFUSED" }]);
        const e = await category(p.embed(["a"]));
        expect(e.category).to.equal("provider_unavailable");
        expect((e.cause as Error).message).to.include("ECONNREFUSED");
      });
      it("refuses an empty input list and a bad dimensions pre-send", async () => {
        const { p, requests } = create([]);
        expect((await category(p.embed([]))).category).to.equal("provider_invalid_request");
        expect((await category(p.embed(["a"], { config: { dimensions: 0 } }))).category).to.equal("provider_invalid_request");
        expect(requests).to.have.length(0);
      });
    });
  }

  for (const entry of rerankProviders.entries() as RerankEntry[]) {
    describe(`rerank '${entry.name}' (${entry.system})`, () => {
      const create = (replies: Reply[]) => {
        const f = fakeFetch(replies);
        return { p: entry.create({ model: "bound-rerank", apiKey: KEY, baseUrl: BASE, fetch: f.fetch }), requests: f.requests };
      };
      it("sends one POST to its route and returns results sorted, indices into the input", async () => {
        const { p, requests } = create([{ status: 200, json: rerankReply(entry.system) }]);
        const r = await p.rerank("q", ["d0", "d1"]);
        expect(requests[0]!.url).to.equal(`${BASE}${ROUTES[entry.system]!.rerank}`);
        expect(requests[0]!.headers["authorization"]).to.equal(`Bearer ${KEY}`);
        expect(r.results.map((x) => [x.index, x.relevance_score])).to.deep.equal([[1, 0.9], [0, 0.2]]);
      });
      for (const [status, cat] of STATUS) {
        it(`maps HTTP ${status} to ${cat}`, async () => {
          const { p } = create([{ status, json: { error: { message: "nope" } } }]);
          expect((await category(p.rerank("q", ["d"]))).category).to.equal(cat);
        });
      }
      it("refuses an empty query, no documents and top_k 0 pre-send", async () => {
        const { p, requests } = create([]);
        expect((await category(p.rerank("", ["d"]))).category).to.equal("provider_invalid_request");
        expect((await category(p.rerank("q", []))).category).to.equal("provider_invalid_request");
        expect((await category(p.rerank("q", ["d"], { topK: 0 }))).category).to.equal("provider_invalid_request");
        expect(requests).to.have.length(0);
      });
    });
  }
});
