/**
 * {@link HttpRerankProvider}: a §5 RerankProvider over any {@link RerankWireMapping}. It validates
 * pre-send (non-empty query and documents, positive `top_k`), chunks the documents when the
 * mapping has a per-request cap (§8.1 TEI: one request per consecutive chunk, same query), and
 * stitches: indices re-based to absolute positions, every result checked (§6: index in range, no
 * duplicate, a numeric score, the echo's shape), sorted by score descending, `top_k` honoured.
 */
import { invalidRequest, invalidResponse } from "./errors.ts";
import { observeRerank } from "./events.ts";
import { chunks } from "./http-embedding.ts";
import { isRecord } from "./figures.ts";
import { HttpRetrievalProvider, type HttpBaseOptions } from "./http-base.ts";
import type { RerankChunk, RerankRequest, RerankWireMapping } from "./mapping.ts";
import type { RawResponse, RerankOptions, RerankProvider, RerankResponse, RerankRuntimeConfig, RerankUsage, ScoredDocument } from "./types.ts";

export interface HttpRerankProviderOptions extends HttpBaseOptions {
  readonly mapping: RerankWireMapping;
  /** Documents per request (§8.1 TEI `max-client-batch-size`, default 32). */
  readonly chunkSize?: number;
}

export class HttpRerankProvider extends HttpRetrievalProvider implements RerankProvider {
  readonly chunkSize: number | undefined;
  readonly #mapping: RerankWireMapping;

  constructor(options: HttpRerankProviderOptions) {
    super(options, options.mapping, "rerank");
    this.#mapping = options.mapping;
    this.chunkSize = options.chunkSize ?? options.mapping.defaultChunkSize;
  }

  /** §5 `rerank()`; dispatches the typed rerank event of the call inside a graph node (`events.ts`). */
  rerank(query: string, documents: ReadonlyArray<string>, options: RerankOptions = {}): Promise<RerankResponse> {
    return observeRerank(this, query, documents, options.topK, options.config, () => this.#rerank(query, documents, options).catch((e: unknown) => {
        throw this.redact(e);
      }));
  }

  async #rerank(query: string, documents: ReadonlyArray<string>, options: RerankOptions): Promise<RerankResponse> {
    if (typeof query !== "string" || query.length === 0) throw invalidRequest("query", "must be a non-empty string");
    if (!Array.isArray(documents) || documents.length === 0) throw invalidRequest("documents", "must be a non-empty list of strings");
    const bad = documents.findIndex((d) => typeof d !== "string");
    if (bad >= 0) throw invalidRequest(`documents[${bad}]`, "must be a string");
    const { topK } = options;
    if (topK !== undefined && topK !== null && !(Number.isInteger(topK) && topK > 0)) throw invalidRequest("top_k", `must be a positive integer, got ${JSON.stringify(topK)}`);
    const config = validateConfig(options.config);
    const slices = chunks(documents, this.chunkSize);
    const requests: RerankRequest[] = slices.map((docs) => ({ model: this.model, query, documents: docs, topK: topK ?? undefined, config }));
    const wire = requests.map((r) => this.#mapping.buildRequest(r, this.endpoint));
    const parts: RerankChunk[] = [];
    const raws: RawResponse[] = [];
    for (const [i, request] of wire.entries()) {
      const body = await this.roundTrip(request, options.signal);
      parts.push(this.#mapping.parseResponse(body, requests[i]!));
      raws.push(body);
    }
    const results: ScoredDocument[] = [];
    const seen = new Set<number>();
    let offset = 0;
    for (const [c, part] of parts.entries()) {
      const size = requests[c]!.documents.length;
      if (this.#mapping.sendsTopK && topK !== undefined && part.results.length > topK) {
        throw invalidResponse(this.name, `the response has ${part.results.length} results, more than top_k ${topK}`);
      }
      for (const [j, r] of part.results.entries()) {
        if (typeof r.index !== "number" || !Number.isInteger(r.index) || r.index < 0 || r.index >= size) {
          throw invalidResponse(this.name, `result ${j} has index ${JSON.stringify(r.index)}, not a position in the ${size} document(s) sent`);
        }
        const index = offset + r.index;
        if (seen.has(index)) throw invalidResponse(this.name, `index ${index} appears twice in the results`);
        seen.add(index);
        if (typeof r.relevance_score !== "number" || !Number.isFinite(r.relevance_score)) {
          throw invalidResponse(this.name, `result ${j} has relevance_score ${JSON.stringify(r.relevance_score)}, not a number`);
        }
        results.push({ index, relevance_score: r.relevance_score, document: echo(r.document, this.name, j) });
      }
      offset += size;
    }
    // Stable sort: ties keep the provider's order.
    results.sort((a, b) => b.relevance_score - a.relevance_score);
    const searchUnits = sumOrNull(parts.map((p) => p.searchUnits));
    const inputTokens = sumOrNull(parts.map((p) => p.inputTokens));
    const usage: RerankUsage | null = searchUnits === null && inputTokens === null ? null : { search_units: searchUnits, input_tokens: inputTokens };
    return {
      results: topK !== undefined ? results.slice(0, topK) : results,
      model: parts[0]!.model ?? this.model,
      usage,
      response_id: parts[0]!.responseId,
      raw: raws.length === 1 ? raws[0]! : raws,
    };
  }
}

/** A figure across chunks: the sum when every chunk reported it, else `null` (never a partial sum). */
function sumOrNull(figures: ReadonlyArray<number | null>): number | null {
  return figures.every((f): f is number => f !== null) ? figures.reduce((a, b) => a + b, 0) : null;
}

/**
 * §6 `document`: a string verbatim (`""` included); an object → its string `text`, else `null`;
 * absent / `null` → `null`; a number, boolean or array is a malformed response.
 */
export function echo(value: unknown, provider: string, at: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "string") return value;
  if (isRecord(value)) return typeof value["text"] === "string" ? value["text"] : null;
  throw invalidResponse(provider, `result ${at} echoes document ${JSON.stringify(value)}, which is not a string or an object`);
}

function validateConfig(config: RerankRuntimeConfig | undefined): RerankRuntimeConfig {
  if (config === undefined || config === null) return {};
  if (!isRecord(config)) throw invalidRequest("config", "must be an object");
  const rd = config.return_documents;
  if (rd !== undefined && rd !== null && typeof rd !== "boolean") throw invalidRequest("config.return_documents", "must be a boolean");
  if (config.extras !== undefined && config.extras !== null && !isRecord(config.extras)) throw invalidRequest("config.extras", "must be an object");
  return config;
}
