/**
 * Writes the retrieval provider cassettes in this folder. There is no network here, so each
 * response is written from the vendor's documented wire format (the `provenance` field says which
 * document) and served to the real provider through `cassetteFetch` in `record` mode, which
 * captures the request exactly as the mapping sends it (API key redacted). Users with keys
 * re-record against the live APIs with `mode: "record"` and the real `fetch`.
 *
 *   node --import tsx test/retrieval/cassettes/write-cassettes.ts
 */
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { cassetteFetch, saveCassette, type FetchFn } from "../../../src/llm/index.ts";
import { embeddingProviders, rerankProviders } from "../../../src/retrieval/index.ts";

const dir = fileURLToPath(new URL(".", import.meta.url));
const KEY = "sk-cassette-writer-secret";
const TEI = "http://tei.local:8080";

const DOCS: Record<string, string> = {
  tei: "https://huggingface.github.io/text-embeddings-inference/ (OpenAPI: /embed, /rerank, ErrorResponse)",
  jina: "https://api.jina.ai/redoc (/v1/embeddings, /v1/rerank)",
  openai: "https://platform.openai.com/docs/api-reference/embeddings and error codes",
  cohere: "https://docs.cohere.com/reference/embed and https://docs.cohere.com/reference/rerank (v2)",
};

export const INPUTS = ["The quick brown fox.", "Jumps over the lazy dog."];
export const QUERY = "Which animal is lazy?";

async function write(name: string, system: string, status: number, reply: unknown, call: (fetch: FetchFn) => Promise<unknown>, note: string): Promise<void> {
  const server: FetchFn = async () => new Response(JSON.stringify(reply), { status, headers: { "content-type": "application/json" } });
  const rec = cassetteFetch(undefined, { mode: "record", fetch: server, secrets: [KEY], provenance: `Written by hand, not recorded: ${note}; response bytes from the documented wire format (${DOCS[system]}); request captured from this library's ${system} mapping.` });
  try {
    await call(rec);
  } catch {
    // error scenarios: the cassette is what matters
  }
  saveCassette(join(dir, `${name}.json`), rec.recorded());
}

const embedWith = (name: string, model: string, baseUrl?: string) => (fetch: FetchFn) =>
  embeddingProviders.create(name, { model, apiKey: KEY, fetch, ...(baseUrl ? { baseUrl } : {}) }).embed(INPUTS, { config: { input_type: "document" } });
const rerankWith = (name: string, model: string, baseUrl?: string) => (fetch: FetchFn) =>
  rerankProviders.create(name, { model, apiKey: KEY, fetch, ...(baseUrl ? { baseUrl } : {}) }).rerank(QUERY, INPUTS, { topK: 2, config: { return_documents: true } });
const v = (seed: number) => [seed, seed / 2, -seed / 4];

const teiEmbed = (fetch: FetchFn) => embeddingProviders.create("tei", { model: "BAAI/bge-small-en-v1.5", baseUrl: TEI, fetch, inputTypePromptMap: { query: "query", document: "passage" } }).embed(INPUTS, { config: { input_type: "document" } });
await write("verify_tei_embed", "tei", 200, [v(0.1), v(0.2)], teiEmbed, "TEI /embed with a prompt_name");
await write("verify_tei_error_payload_413", "tei", 413, { error: "batch size 2 > maximum allowed batch size 1", error_type: "Validation" }, teiEmbed, "TEI /embed over max-client-batch-size");
await write("verify_tei_rerank", "tei", 200, [{ index: 1, score: 0.98, text: INPUTS[1] }, { index: 0, score: 0.01, text: INPUTS[0] }], rerankWith("tei", "BAAI/bge-reranker-base", TEI), "TEI /rerank with return_text");

await write("verify_jina_embed", "jina", 200, { model: "jina-embeddings-v3", object: "list", usage: { total_tokens: 12, prompt_tokens: 12 }, data: [{ object: "embedding", index: 0, embedding: v(0.3) }, { object: "embedding", index: 1, embedding: v(0.4) }] }, embedWith("jina", "jina-embeddings-v3"), "Jina /v1/embeddings with task retrieval.passage");
await write("verify_jina_rerank", "jina", 200, { model: "jina-reranker-v2-base-multilingual", usage: { total_tokens: 30 }, results: [{ index: 1, relevance_score: 0.72, document: { text: INPUTS[1] } }, { index: 0, relevance_score: 0.05, document: { text: INPUTS[0] } }] }, rerankWith("jina", "jina-reranker-v2-base-multilingual"), "Jina /v1/rerank with TextDoc echoes");
await write("verify_jina_error_rate_limit_429", "jina", 429, { detail: "Rate limit exceeded" }, rerankWith("jina", "jina-reranker-v2-base-multilingual"), "Jina rate limit");

await write("verify_openai_embed", "openai", 200, { object: "list", model: "text-embedding-3-small", data: [{ object: "embedding", index: 0, embedding: v(0.5) }, { object: "embedding", index: 1, embedding: v(0.6) }], usage: { prompt_tokens: 11, total_tokens: 11 } }, embedWith("openai", "text-embedding-3-small"), "OpenAI /v1/embeddings");
await write("verify_openai_error_auth_401", "openai", 401, { error: { message: "Incorrect API key provided: sk-cass***cret.", type: "invalid_request_error", param: null, code: "invalid_api_key" } }, embedWith("openai", "text-embedding-3-small"), "OpenAI invalid key");

await write("verify_cohere_embed", "cohere", 200, { id: "5807ee2e-0cda-445a-9ec8-864c60a06606", embeddings: { float: [v(0.7), v(0.8)] }, texts: INPUTS, meta: { api_version: { version: "2" }, billed_units: { input_tokens: 10 } } }, embedWith("cohere", "embed-v4.0"), "Cohere /v2/embed");
await write("verify_cohere_rerank", "cohere", 200, { id: "07734bd2-2473-4f07-94e1-0d9f0e6843cf", results: [{ index: 1, relevance_score: 0.9 }, { index: 0, relevance_score: 0.1 }], meta: { api_version: { version: "2" }, billed_units: { search_units: 1 } } }, rerankWith("cohere", "rerank-v3.5"), "Cohere /v2/rerank");
await write("verify_cohere_error_http_500", "cohere", 500, { message: "internal server error" }, rerankWith("cohere", "rerank-v3.5"), "Cohere outage");
