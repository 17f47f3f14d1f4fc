/**
 * {@link HttpEmbeddingProvider}: a §3 EmbeddingProvider over any {@link EmbeddingWireMapping}. It
 * validates the call pre-send, splits an over-cap input list into consecutive chunks (§8 *Batch
 * chunking*: every request field but the inputs identical), sends them in order through the
 * injected `fetch`, and stitches: vectors concatenated in input order, `input_tokens` summed only
 * when every chunk reported it, the first chunk's id, `raw` the list of per-request responses.
 * The §4 invariants (one vector per input, one dimensionality) are enforced on the whole call.
 */
import { invalidRequest, invalidResponse } from "./errors.ts";
import { observeEmbedding } from "./events.ts";
import { isRecord } from "./figures.ts";
import { HttpRetrievalProvider, type HttpBaseOptions } from "./http-base.ts";
import type { EmbedChunk, EmbedRequest, EmbeddingBinding, EmbeddingWireMapping } from "./mapping.ts";
import type { EmbedOptions, EmbeddingProvider, EmbeddingResponse, EmbeddingRuntimeConfig, RawResponse } from "./types.ts";

export interface HttpEmbeddingProviderOptions extends HttpBaseOptions, EmbeddingBinding {
  readonly mapping: EmbeddingWireMapping;
  /**
   * The per-request input cap. TEI: the server's `max-client-batch-size` (default 32). For a
   * fixed-cap vendor (OpenAI 2048, Cohere 96) it lowers the cap, for tests that drive chunking.
   */
  readonly chunkSize?: number;
}

export class HttpEmbeddingProvider extends HttpRetrievalProvider implements EmbeddingProvider {
  /** The cap applied per request (`undefined`: no client-side chunking). */
  readonly chunkSize: number | undefined;
  readonly #mapping: EmbeddingWireMapping;
  readonly #binding: EmbeddingBinding;

  constructor(options: HttpEmbeddingProviderOptions) {
    super(options, options.mapping, "embedding");
    this.#mapping = options.mapping;
    this.chunkSize = options.chunkSize ?? options.mapping.maxInputs;
    this.#binding = {
      model: options.model,
      ...(options.inputTypePromptMap !== undefined ? { inputTypePromptMap: options.inputTypePromptMap } : {}),
      ...(options.queryPrefix !== undefined ? { queryPrefix: options.queryPrefix } : {}),
      ...(options.documentPrefix !== undefined ? { documentPrefix: options.documentPrefix } : {}),
    };
  }

  /** §3 `embed()`; dispatches the typed embedding event of the call inside a graph node (`events.ts`). */
  embed(input: ReadonlyArray<string>, options: EmbedOptions = {}): Promise<EmbeddingResponse> {
    return observeEmbedding(this, input, options.config, () => this.#embed(input, options).catch((e: unknown) => {
        throw this.redact(e);
      }));
  }

  async #embed(input: ReadonlyArray<string>, options: EmbedOptions): Promise<EmbeddingResponse> {
    validateInput(input);
    const config = validateConfig(options.config);
    const requests: EmbedRequest[] = chunks(input, this.chunkSize).map((slice) => ({ binding: this.#binding, input: slice, config }));
    // Every request is built before any is sent, so a pre-send refusal sends nothing.
    const wire = requests.map((r) => this.#mapping.buildRequest(r, this.endpoint));
    const parts: EmbedChunk[] = [];
    const raws: RawResponse[] = [];
    for (const [i, request] of wire.entries()) {
      const body = await this.roundTrip(request, options.signal);
      const part = this.#mapping.parseResponse(body, requests[i]!);
      if (part.vectors.length !== requests[i]!.input.length) {
        throw invalidResponse(this.name, `request ${i} carried ${requests[i]!.input.length} input(s) but the response has ${part.vectors.length} vector(s)`);
      }
      parts.push(part);
      raws.push(body);
    }
    const vectors = parts.flatMap((p) => p.vectors.map((v) => [...v]));
    const dimensions = vectors[0]!.length;
    const odd = vectors.findIndex((v) => v.length !== dimensions);
    if (odd >= 0) throw invalidResponse(this.name, `vector ${odd} has ${vectors[odd]!.length} dimensions, vector 0 has ${dimensions}`);
    if (dimensions === 0) throw invalidResponse(this.name, "the vectors are empty");
    const tokens = parts.map((p) => p.inputTokens);
    return {
      vectors,
      model: parts[0]!.model ?? this.model,
      usage: tokens.every((t): t is number => t !== null) ? { input_tokens: tokens.reduce((a, b) => a + b, 0) } : null,
      response_id: parts[0]!.responseId,
      dimensions,
      raw: raws.length === 1 ? raws[0]! : raws,
    };
  }
}

/** Consecutive slices of at most `size` items (one slice when there is no cap). */
export function chunks<T>(items: ReadonlyArray<T>, size: number | undefined): T[][] {
  if (size === undefined || items.length <= size) return [[...items]];
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function validateInput(input: ReadonlyArray<string>): void {
  if (!Array.isArray(input)) throw invalidRequest("input", "must be a list of strings (wrap a single string as a one-element list)");
  if (input.length === 0) throw invalidRequest("input", "must not be empty");
  const bad = input.findIndex((s) => typeof s !== "string");
  if (bad >= 0) throw invalidRequest(`input[${bad}]`, "must be a string");
}

/** §2 / §7: `dimensions` a positive integer, `input_type` a non-empty string, `extras` an object. */
export function validateConfig(config: EmbeddingRuntimeConfig | undefined): EmbeddingRuntimeConfig {
  if (config === undefined || config === null) return {};
  if (!isRecord(config)) throw invalidRequest("config", "must be an object");
  const { dimensions, input_type: inputType, extras } = config as EmbeddingRuntimeConfig;
  if (dimensions !== undefined && dimensions !== null && !(typeof dimensions === "number" && Number.isInteger(dimensions) && dimensions > 0)) throw invalidRequest("config.dimensions", `must be a positive integer, got ${JSON.stringify(dimensions)}`);
  if (inputType !== undefined && inputType !== null && (typeof inputType !== "string" || inputType.length === 0)) throw invalidRequest("config.input_type", "must be a non-empty string");
  if (extras !== undefined && extras !== null && !isRecord(extras)) throw invalidRequest("config.extras", "must be an object");
  return config as EmbeddingRuntimeConfig;
}
