/**
 * The retrieval wire-mapping contract (retrieval-provider §8): what differs between TEI, Jina,
 * OpenAI-compatible and Cohere. A mapping is pure translation — one request's inputs to a URL,
 * headers and a JSON body; one response body back to vectors / scored results and the ancillary
 * figures — and {@link HttpEmbeddingProvider} / {@link HttpRerankProvider} do validation,
 * chunk-and-stitch, the §4 / §6 invariants and the transport for all of them.
 */
import type { LlmProviderError } from "../llm/errors.ts";
import type { Endpoint, WireRequest } from "../llm/mapping.ts";
import type { EmbeddingRuntimeConfig, RerankRuntimeConfig } from "./types.ts";

export type { Endpoint, WireRequest };

/** Construction-time options a mapping may read (§8.1 / §8.3 prompts and prefixes). */
export interface EmbeddingBinding {
  readonly model: string;
  /** §8.1 TEI: OA `input_type` → TEI `prompt_name`. */
  readonly inputTypePromptMap?: Readonly<Record<string, string>>;
  /** §8.1 / §8.3 client-side prefixes for asymmetric models without server-side prompts. */
  readonly queryPrefix?: string;
  readonly documentPrefix?: string;
}

/** One embedding request: a chunk of the caller's inputs (§8 *Batch chunking*). */
export interface EmbedRequest {
  readonly binding: EmbeddingBinding;
  readonly input: ReadonlyArray<string>;
  readonly config: EmbeddingRuntimeConfig;
}

/** What one embedding response carries, before the §4 invariants are checked. */
export interface EmbedChunk {
  /** Decoded vectors in the order the response places them for the chunk's inputs. */
  readonly vectors: ReadonlyArray<ReadonlyArray<number>>;
  /** The echoed model, when the wire carries one. */
  readonly model: string | undefined;
  /** `input_tokens`, or `null` when not reported or malformed (§7 *Malformed ancillary figures*). */
  readonly inputTokens: number | null;
  /** The response id, `null` when absent, empty or malformed. */
  readonly responseId: string | null;
}

export interface EmbeddingWireMapping {
  /** `tei`, `jina`, `openai`, `cohere`: the `gen_ai.system` of the wire surface. */
  readonly system: string;
  readonly defaultBaseUrl?: string;
  /** The provider's documented per-call input cap; `undefined` when it batches server-side. */
  readonly maxInputs: number | undefined;
  /** Build one request; refuses a bad config pre-send (`provider_invalid_request`). */
  buildRequest(request: EmbedRequest, endpoint: Endpoint): WireRequest;
  /** Read one successful response; a malformed payload raises `provider_invalid_response`. */
  parseResponse(body: unknown, request: EmbedRequest): EmbedChunk;
  mapError(status: number, bodyText: string, headers: Headers): LlmProviderError;
  /** The readiness probe, or `undefined` for a noop `ready()`. */
  readyRequest?(model: string, endpoint: Endpoint): WireRequest;
  /** Reads the probe's 2xx body; throws (e.g. `provider_invalid_model`) when it shows the model unusable. */
  interpretReady?(body: unknown, model: string): void;
}

/** One rerank request: the query and a chunk of the documents (§8.1 TEI chunking). */
export interface RerankRequest {
  readonly model: string;
  readonly query: string;
  readonly documents: ReadonlyArray<string>;
  readonly topK: number | undefined;
  readonly config: RerankRuntimeConfig;
}

/** One result as the wire gave it (index relative to the request's documents). */
export interface WireResult {
  readonly index: unknown;
  readonly relevance_score: unknown;
  /** The echo as sent (`undefined` when absent); §6's shape rule is applied by the provider. */
  readonly document: unknown;
}

export interface RerankChunk {
  readonly results: ReadonlyArray<WireResult>;
  readonly model: string | undefined;
  /** Each figure `null` when not reported or malformed. */
  readonly searchUnits: number | null;
  readonly inputTokens: number | null;
  readonly responseId: string | null;
}

export interface RerankWireMapping {
  readonly system: string;
  readonly defaultBaseUrl?: string;
  /** Whether `top_k` reaches the wire (so more results than `top_k` is a provider defect). */
  readonly sendsTopK: boolean;
  /** The default per-request document cap (§8.1 TEI: 32); `undefined`: no client-side chunking. */
  readonly defaultChunkSize: number | undefined;
  buildRequest(request: RerankRequest, endpoint: Endpoint): WireRequest;
  parseResponse(body: unknown, request: RerankRequest): RerankChunk;
  mapError(status: number, bodyText: string, headers: Headers): LlmProviderError;
  readyRequest?(model: string, endpoint: Endpoint): WireRequest;
  interpretReady?(body: unknown, model: string): void;
}
