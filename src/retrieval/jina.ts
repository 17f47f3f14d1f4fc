/**
 * retrieval-provider §8.2 Jina. `/v1/embeddings`: `{model, input, task?, dimensions?, truncate:
 * false}` (`input_type` query / document → `retrieval.query` / `retrieval.passage`, a closed set;
 * `task` managed while `input_type` is set), no client-side cap. `/v1/rerank`: `{model, query,
 * documents, top_n?, return_documents, truncation: false}`, `usage.total_tokens` → `input_tokens`.
 */
import { invalidRequest } from "./errors.ts";
import { arrayMember, counter, dig, floatVector, isRecord, modelEcho, objectBody, responseId } from "./figures.ts";
import type { EmbeddingWireMapping, RerankWireMapping } from "./mapping.ts";
import { invalidResponse } from "./errors.ts";
import { mapHttpError, post, set, withExtras } from "./wire.ts";

const NAME = "Jina";
const TASKS: Readonly<Record<string, string>> = { query: "retrieval.query", document: "retrieval.passage" };

/** `data[]` ordered by each entry's `index` when every entry has a distinct valid one (else wire order). */
export function byIndex(data: unknown[], provider: string): unknown[] {
  const entries = data.map((d, i) => {
    if (!isRecord(d)) throw invalidResponse(provider, `data[${i}] is not an object`);
    return d;
  });
  const idx = entries.map((d) => d["index"]);
  const valid = idx.every((x) => typeof x === "number" && Number.isInteger(x) && x >= 0 && x < entries.length) && new Set(idx).size === idx.length;
  if (!valid) return entries.map((d) => d["embedding"]);
  const out: unknown[] = new Array(entries.length);
  for (const d of entries) out[d["index"] as number] = d["embedding"];
  return out;
}

export const jinaEmbeddingMapping: EmbeddingWireMapping = {
  system: "jina",
  defaultBaseUrl: "https://api.jina.ai",
  maxInputs: undefined,
  buildRequest({ binding, input, config }, endpoint) {
    const inputType = config.input_type ?? undefined;
    const task = inputType === undefined ? undefined : TASKS[inputType];
    if (inputType !== undefined && task === undefined) throw invalidRequest("config.input_type", `'${inputType}' is not one the Jina mapping recognizes (query, document); pass another task through config.extras.task`);
    const body: Record<string, unknown> = { model: binding.model, input: [...input], truncate: false };
    set(body, "task", task);
    set(body, "dimensions", config.dimensions);
    const exclusive: Record<string, unknown> = { model: binding.model, input: body["input"], truncate: false };
    if (task !== undefined) exclusive["task"] = task;
    if (body["dimensions"] !== undefined) exclusive["dimensions"] = body["dimensions"];
    return post(endpoint, "/v1/embeddings", withExtras(body, config.extras, NAME, exclusive));
  },
  parseResponse(body) {
    const o = objectBody(body, NAME);
    const vectors = byIndex(arrayMember(o, "data", NAME), NAME).map((v, i) => floatVector(v, NAME, `data[${i}].embedding`));
    return { vectors, model: modelEcho(o["model"]), inputTokens: counter(dig(o, "usage", "prompt_tokens") ?? dig(o, "usage", "total_tokens")), responseId: responseId(o["id"]) };
  },
  mapError: mapHttpError(NAME),
};

export const jinaRerankMapping: RerankWireMapping = {
  system: "jina",
  defaultBaseUrl: "https://api.jina.ai",
  sendsTopK: true,
  defaultChunkSize: undefined,
  buildRequest({ model, query, documents, topK, config }, endpoint) {
    const returnDocuments = config.return_documents === true;
    const body: Record<string, unknown> = { model, query, documents: [...documents], return_documents: returnDocuments, truncation: false };
    set(body, "top_n", topK);
    const exclusive: Record<string, unknown> = { model, query, documents: body["documents"], return_documents: returnDocuments, truncation: false };
    if (topK !== undefined) exclusive["top_n"] = topK;
    return post(endpoint, "/v1/rerank", withExtras(body, config.extras, NAME, exclusive));
  },
  parseResponse(body) {
    const o = objectBody(body, NAME);
    const results = arrayMember(o, "results", NAME).map((r, i) => {
      if (!isRecord(r)) throw invalidResponse(NAME, `results[${i}] is not an object`);
      return { index: r["index"], relevance_score: r["relevance_score"], document: r["document"] };
    });
    return { results, model: modelEcho(o["model"]), searchUnits: null, inputTokens: counter(dig(o, "usage", "total_tokens")), responseId: responseId(o["id"]) };
  },
  mapError: mapHttpError(NAME),
};
