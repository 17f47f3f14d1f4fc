/**
 * The harness-internal stand-in wire shapes (conformance-adapter §5.15 `mapping:` absent): the
 * pre-wire-mapping fixtures mock an OpenAI-compatible `/v1/embeddings` body (plus a top-level
 * `id`), which the real §8.3 mapping consumes, and a rerank body `{id, model, results: [{index,
 * relevance_score, document?}], meta.billed_units}` that no vendor pins — this mapping reads it,
 * through the library's real {@link HttpRerankProvider} (validation, invariants, sorting).
 */
import { RetrievalProviderError, statusCategory, type RerankWireMapping } from "../../src/retrieval/index.ts";
import { canonicalJson } from "../../src/llm/canonical-json.ts";
import { httpError, errorBody, errorMessage } from "../../src/llm/wire-errors.ts";
import { counter, dig, isRecord, modelEcho, responseId } from "../../src/retrieval/figures.ts";


export const STAND_IN_BASE_URL = "https://stand-in.openarmature.test";
/**
 * The stand-ins' bound models when no mock response names one: the names the stand-in suites'
 * prose uses (observability 074-083 / 099-108). A case whose mocks echo a model binds that one
 * ({@link echoedModel}).
 */
export const STAND_IN_EMBEDDING_MODEL = "text-embedding-test";
export const STAND_IN_RERANK_MODEL = "rerank-test";

/**
 * The model the case's stand-in mock responses echo (the first body naming one): the stand-in is
 * bound to the model its own server reports, as a real deployment's client is.
 */
export function echoedModel(entries: ReadonlyArray<{ readonly body?: unknown }>): string | undefined {
  for (const e of entries) {
    const m = isRecord(e.body) ? e.body["model"] : undefined;
    if (typeof m === "string" && m.length > 0) return m;
  }
  return undefined;
}

/** Its body is Cohere-shaped (`meta.billed_units`), so its `gen_ai.system` is `cohere` (observability 099's header). */
export const standInRerankMapping: RerankWireMapping = {
  system: "cohere",
  sendsTopK: true,
  defaultChunkSize: undefined,
  buildRequest({ model, query, documents, topK, config }, endpoint) {
    const body = { model, query, documents: [...documents], return_documents: config.return_documents === true, ...(topK !== undefined ? { top_n: topK } : {}), ...config.extras };
    return { method: "POST", url: `${endpoint.baseUrl}/v1/rerank`, headers: { "content-type": "application/json" }, body: canonicalJson(body) };
  },
  parseResponse(body) {
    if (!isRecord(body) || !Array.isArray(body["results"])) throw new RetrievalProviderError("provider_invalid_response", "stand-in rerank: the response has no results array");
    const results = body["results"].map((r) => (isRecord(r) ? { index: r["index"], relevance_score: r["relevance_score"], document: r["document"] } : { index: undefined, relevance_score: undefined, document: undefined }));
    return {
      results,
      model: modelEcho(body["model"]),
      searchUnits: counter(dig(body, "meta", "billed_units", "search_units")),
      inputTokens: counter(dig(body, "meta", "billed_units", "input_tokens")),
      responseId: responseId(body["id"]),
    };
  },
  mapError(status, text, headers) {
    return httpError("stand-in rerank", statusCategory(status), status, text, errorMessage(errorBody(text)), headers);
  },
};
