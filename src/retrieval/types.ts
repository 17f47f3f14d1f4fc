/**
 * The retrieval-provider records (retrieval-provider §2, §4, §6): runtime configs, responses,
 * usage and scored documents. Field names are the spec's (`input_type`, `response_id`,
 * `relevance_score`, ...), as in `openarmature/llm`; call options are camelCase (`topK`).
 */

/** §2 Embedding runtime config: declared `dimensions` / `input_type`, plus the extras bag. */
export interface EmbeddingRuntimeConfig {
  /** Output vector size, on models that support it (a positive integer). */
  readonly dimensions?: number | null;
  /** `"query"` / `"document"` (or a value the mapping recognizes); absent ⇒ symmetric. */
  readonly input_type?: string | null;
  /** Undeclared, vendor-specific request fields (llm-provider §6 extras pass-through). */
  readonly extras?: Readonly<Record<string, unknown>> | null;
}

/** §2 Rerank runtime config: `return_documents` (default false), plus the extras bag. */
export interface RerankRuntimeConfig {
  readonly return_documents?: boolean | null;
  readonly extras?: Readonly<Record<string, unknown>> | null;
}

/** §4: embedding has input tokens only. */
export interface EmbeddingUsage {
  readonly input_tokens: number;
}

/** The verbatim provider response(s): an object or an array (§4 / §6 `raw`). */
export type RawResponse = Record<string, unknown> | unknown[];

/** §4 EmbeddingResponse. */
export interface EmbeddingResponse {
  /** One vector per input, in input order. */
  readonly vectors: number[][];
  readonly model: string;
  /** `null` when the provider reported none (or a malformed figure, §7). */
  readonly usage: EmbeddingUsage | null;
  /** `null` when absent, empty or malformed. */
  readonly response_id: string | null;
  readonly dimensions: number;
  /** The response verbatim; for a chunk-and-stitch call, the list of per-request responses. */
  readonly raw: RawResponse;
}

/** §6 ScoredDocument. */
export interface ScoredDocument {
  /** Position in the caller's `documents`. */
  readonly index: number;
  readonly relevance_score: number;
  /** The provider's echo of the text, or `null` (never filled from the input). */
  readonly document: string | null;
}

/** §6 RerankUsage: each figure `null` when not reported. */
export interface RerankUsage {
  readonly search_units: number | null;
  readonly input_tokens: number | null;
}

/** §6 RerankResponse. */
export interface RerankResponse {
  /** Sorted by `relevance_score`, descending. */
  readonly results: ScoredDocument[];
  readonly model: string;
  readonly usage: RerankUsage | null;
  readonly response_id: string | null;
  readonly raw: RawResponse;
}

export interface ReadyOptions {
  readonly signal?: AbortSignal;
}

export interface EmbedOptions {
  readonly config?: EmbeddingRuntimeConfig;
  readonly signal?: AbortSignal;
}

export interface RerankOptions {
  /** At most this many results (a positive integer); absent ⇒ all. */
  readonly topK?: number;
  readonly config?: RerankRuntimeConfig;
  readonly signal?: AbortSignal;
}

/** §3: bound to one embedding model per instance. */
export interface EmbeddingProvider {
  /** Registry name (`tei`, `openai`, ...). */
  readonly name: string;
  readonly model: string;
  ready(options?: ReadyOptions): Promise<void>;
  embed(input: ReadonlyArray<string>, options?: EmbedOptions): Promise<EmbeddingResponse>;
}

/** §5: bound to one rerank model per instance. */
export interface RerankProvider {
  readonly name: string;
  readonly model: string;
  ready(options?: ReadyOptions): Promise<void>;
  rerank(query: string, documents: ReadonlyArray<string>, options?: RerankOptions): Promise<RerankResponse>;
}
