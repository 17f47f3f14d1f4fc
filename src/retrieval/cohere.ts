/**
 * retrieval-provider §8.4 Cohere v2. `/v2/embed`: `{model, input_type, texts, embedding_types,
 * truncate: "NONE", output_dimension?}` — `input_type` always sent (absent ⇒ `search_document`),
 * `embedding_types` merged with the mandatory `"float"` (a malformed extra counts as absent),
 * `truncate` managed, 96 inputs per request; `embeddings.float` → vectors,
 * `meta.billed_units.input_tokens` → `input_tokens`, `id` → `response_id`. `/v2/rerank`: `{model,
 * query, documents, top_n?}`; no echo (so `return_documents` is a silent no-op), `search_units`.
 */
import { invalidRequest, invalidResponse } from "./errors.ts";
import { arrayMember, counter, dig, floatVector, isRecord, objectBody, responseId } from "./figures.ts";
import type { EmbeddingWireMapping, RerankWireMapping } from "./mapping.ts";
import { get, mapHttpError, post, set, withExtras } from "./wire.ts";

const NAME = "Cohere";
const INPUT_TYPES: Readonly<Record<string, string>> = { query: "search_query", document: "search_document", classification: "classification", clustering: "clustering" };

/** A precision list, or `undefined` (malformed: not a list of strings — never salvaged). */
function precisions(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;
}

export const cohereEmbeddingMapping: EmbeddingWireMapping = {
  system: "cohere",
  defaultBaseUrl: "https://api.cohere.com",
  maxInputs: 96,
  buildRequest({ binding, input, config }, endpoint) {
    const inputType = config.input_type ?? "document";
    const wireType = INPUT_TYPES[inputType];
    if (wireType === undefined) throw invalidRequest("config.input_type", `'${inputType}' is not one the Cohere mapping recognizes (${Object.keys(INPUT_TYPES).join(", ")})`);
    const body: Record<string, unknown> = { model: binding.model, input_type: wireType, texts: [...input], embedding_types: ["float"], truncate: "NONE" };
    set(body, "output_dimension", config.dimensions);
    const exclusive: Record<string, unknown> = { model: binding.model, input_type: wireType, texts: body["texts"], truncate: "NONE" };
    if (body["output_dimension"] !== undefined) exclusive["output_dimension"] = body["output_dimension"];
    return post(endpoint, "/v2/embed", withExtras(body, config.extras, NAME, exclusive, { embedding_types: precisions }));
  },
  parseResponse(body) {
    const o = objectBody(body, NAME);
    const floats = dig(o, "embeddings", "float");
    if (!Array.isArray(floats)) throw invalidResponse(NAME, "the response has no embeddings.float array", body);
    return {
      vectors: floats.map((v, i) => floatVector(v, NAME, `embeddings.float[${i}]`)),
      model: undefined,
      inputTokens: counter(dig(o, "meta", "billed_units", "input_tokens")),
      responseId: responseId(o["id"]),
    };
  },
  mapError: mapHttpError(NAME),
  readyRequest: (model, endpoint) => get(endpoint, `/v1/models/${encodeURIComponent(model)}`),
};

export const cohereRerankMapping: RerankWireMapping = {
  system: "cohere",
  defaultBaseUrl: "https://api.cohere.com",
  sendsTopK: true,
  defaultChunkSize: undefined,
  buildRequest({ model, query, documents, topK, config }, endpoint) {
    const body: Record<string, unknown> = { model, query, documents: [...documents] };
    set(body, "top_n", topK);
    const exclusive: Record<string, unknown> = { model, query, documents: body["documents"] };
    if (topK !== undefined) exclusive["top_n"] = topK;
    return post(endpoint, "/v2/rerank", withExtras(body, config.extras, NAME, exclusive));
  },
  parseResponse(body) {
    const o = objectBody(body, NAME);
    const results = arrayMember(o, "results", NAME).map((r, i) => {
      if (!isRecord(r)) throw invalidResponse(NAME, `results[${i}] is not an object`);
      // The v2 wire never echoes documents: `document` stays null whatever return_documents says.
      return { index: r["index"], relevance_score: r["relevance_score"], document: undefined };
    });
    return {
      results,
      model: undefined,
      searchUnits: counter(dig(o, "meta", "billed_units", "search_units")),
      inputTokens: null,
      responseId: responseId(o["id"]),
    };
  },
  mapError: mapHttpError(NAME),
  readyRequest: (model, endpoint) => get(endpoint, `/v1/models/${encodeURIComponent(model)}`),
};
