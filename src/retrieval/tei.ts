/**
 * retrieval-provider §8.1 TEI (Text Embeddings Inference). `/embed` takes `{inputs[, prompt_name]
 * [, dimensions]}` and answers a bare vector array (no usage, no id); `input_type` becomes the
 * bound `prompt_name`, else a bound client-side prefix. `/rerank` always sends `truncate: false`
 * and `return_text`, answers `[{index, score, text?}]`, and is chunked at `chunk_size` (default 32).
 * `truncate` is managed on both endpoints (fail-loud); `dimensions` while the declared field is set.
 * `ready()` reads `/info` and refuses a deployment serving another model.
 */
import { invalidRequest, invalidResponse, RetrievalProviderError } from "./errors.ts";
import { floatVector, isRecord } from "./figures.ts";
import type { EmbeddingWireMapping, Endpoint, RerankWireMapping } from "./mapping.ts";
import { get, mapHttpError, post, prefixed, set, withExtras } from "./wire.ts";

const NAME = "TEI";

/**
 * `ready()`: TEI serves one model per deployment, and `GET /info` names it (`model_id`); a
 * deployment serving another model than the bound one is `provider_invalid_model`.
 */
const readyRequest = (_model: string, endpoint: Endpoint) => get(endpoint, "/info");
function interpretReady(body: unknown, model: string): void {
  const served = isRecord(body) ? body["model_id"] : undefined;
  if (typeof served === "string" && served !== model) {
    throw new RetrievalProviderError("provider_invalid_model", `TEI: the deployment serves '${served}', not the bound model '${model}'`);
  }
}

export const teiEmbeddingMapping: EmbeddingWireMapping = {
  system: "tei",
  maxInputs: 32,
  buildRequest({ binding, input, config }, endpoint) {
    const inputType = config.input_type ?? undefined;
    const promptName = inputType === undefined ? undefined : binding.inputTypePromptMap?.[inputType];
    const hasPrefix = inputType === "query" ? binding.queryPrefix !== undefined : inputType === "document" ? binding.documentPrefix !== undefined : false;
    if (inputType !== undefined && promptName === undefined && !hasPrefix) {
      throw invalidRequest("config.input_type", `'${inputType}' has no prompt_name in the TEI provider's input_type map and no client-side prefix`);
    }
    const body: Record<string, unknown> = { inputs: promptName === undefined ? prefixed(input, binding, inputType) : [...input] };
    set(body, "prompt_name", promptName);
    set(body, "dimensions", config.dimensions);
    const exclusive: Record<string, unknown> = { inputs: body["inputs"], truncate: false };
    if (promptName !== undefined) exclusive["prompt_name"] = promptName;
    if (body["dimensions"] !== undefined) exclusive["dimensions"] = body["dimensions"];
    return post(endpoint, "/embed", withExtras(body, config.extras, NAME, exclusive));
  },
  parseResponse(body) {
    if (!Array.isArray(body)) throw invalidResponse(NAME, "the /embed response is not a vector array", body);
    return { vectors: body.map((v, i) => floatVector(v, NAME, `vector ${i}`)), model: undefined, inputTokens: null, responseId: null };
  },
  mapError: mapHttpError(NAME),
  readyRequest,
  interpretReady,
};

export const teiRerankMapping: RerankWireMapping = {
  system: "tei",
  sendsTopK: false,
  defaultChunkSize: 32,
  buildRequest({ query, documents, config }, endpoint) {
    const returnText = config.return_documents === true;
    const body: Record<string, unknown> = { query, texts: [...documents], truncate: false, return_text: returnText };
    return post(endpoint, "/rerank", withExtras(body, config.extras, NAME, { query, texts: body["texts"], truncate: false, return_text: returnText }));
  },
  parseResponse(body) {
    if (!Array.isArray(body)) throw invalidResponse(NAME, "the /rerank response is not a result array", body);
    const results = body.map((r, i) => {
      if (!isRecord(r)) throw invalidResponse(NAME, `result ${i} is not an object`, body);
      return { index: r["index"], relevance_score: r["score"], document: r["text"] };
    });
    return { results, model: undefined, searchUnits: null, inputTokens: null, responseId: null };
  },
  mapError: mapHttpError(NAME),
  readyRequest,
  interpretReady,
};
