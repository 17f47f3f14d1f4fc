/**
 * `openarmature/retrieval`: the retrieval-provider capability — EmbeddingProvider and
 * RerankProvider, their responses, §7 errors, chunk-and-stitch, the TEI / Jina /
 * OpenAI-compatible / Cohere wire mappings and the provider registries.
 */
export type {
  EmbeddingProvider,
  RerankProvider,
  EmbeddingRuntimeConfig,
  RerankRuntimeConfig,
  EmbeddingResponse,
  EmbeddingUsage,
  RerankResponse,
  RerankUsage,
  ScoredDocument,
  RawResponse,
  EmbedOptions,
  RerankOptions,
  ReadyOptions,
} from "./types.ts";
export { RetrievalProviderError, statusCategory } from "./errors.ts";
export type { RetrievalErrorCategory } from "./errors.ts";
export type { EmbeddingWireMapping, RerankWireMapping, EmbedRequest, EmbedChunk, EmbeddingBinding, RerankRequest, RerankChunk, WireResult } from "./mapping.ts";
export { HttpEmbeddingProvider } from "./http-embedding.ts";
export type { HttpEmbeddingProviderOptions } from "./http-embedding.ts";
export { HttpRerankProvider } from "./http-rerank.ts";
export type { HttpRerankProviderOptions } from "./http-rerank.ts";
export { teiEmbeddingMapping, teiRerankMapping } from "./tei.ts";
export { jinaEmbeddingMapping, jinaRerankMapping } from "./jina.ts";
export { openAiEmbeddingMapping } from "./openai.ts";
export { cohereEmbeddingMapping, cohereRerankMapping } from "./cohere.ts";
export { RetrievalRegistry, embeddingProviders, rerankProviders, embeddingEntry, rerankEntry } from "./registry.ts";
export type { RetrievalEntry, EmbeddingEntry, RerankEntry, RetrievalProviderConfig, EmbeddingProviderConfig } from "./registry.ts";
export { observeEmbedding, observeRerank, retrievalEventRecord, isRetrievalEvent, RETRIEVAL_EVENT_TYPES } from "./events.ts";
export type { EmbeddingEvent, EmbeddingFailedEvent, RerankEvent, RerankFailedEvent, RetrievalEvent, RetrievalCaller } from "./events.ts";
