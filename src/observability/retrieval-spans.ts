/**
 * Embedding and rerank provider spans (observability §5.5.8, §5.5.13), rendered from the typed
 * events (§5.5.9, §5.5.14): one span per `embed()` / `rerank()` call, named
 * `openarmature.embedding.complete` / `openarmature.rerank.complete`, timed from the call's entry to
 * its return or raise, carrying the core GenAI semconv subset (gated by `disable_genai_semconv`),
 * the `openarmature.embedding.*` / `openarmature.rerank.*` attributes, and the payload attributes
 * (gated by `disable_provider_payload`, default on, each cut by the §5.5.5 truncation contract).
 * A failure variant maps to `ERROR` with the §7 category and an exception event (§4.2).
 * `disable_llm_spans` does not apply to these spans (§5.5.8).
 *
 * The OTel observer resolves the parent (the calling node's span by lineage, else the nearest open
 * wrapper) and adds the §5.6 cross-cutting attributes; this module knows only the two families.
 */
import { SpanKind, SpanStatusCode, type Attributes, type Context, type Tracer } from "@opentelemetry/api";
import { canonicalJson } from "../llm/canonical-json.ts";
import type { EmbeddingEvent, EmbeddingFailedEvent, RerankEvent, RerankFailedEvent } from "../retrieval/events.ts";
import { DEFAULT_PAYLOAD_BYTE_CAP, truncatePayload } from "./truncation.ts";

export const EMBEDDING_SPAN_NAME = "openarmature.embedding.complete";
export const RERANK_SPAN_NAME = "openarmature.rerank.complete";

/** The §5.5.4 flags as they apply to embedding / rerank spans (`disable_llm_spans` does not). */
export interface ProviderSpanFlags {
  /** Default `true`: no payload attributes. */
  readonly disableProviderPayload?: boolean;
  /** Default `false`: the core `gen_ai.*` subset is emitted. */
  readonly disableGenaiSemconv?: boolean;
  /** §5.5.5 per-attribute cap (default 65,536 bytes). */
  readonly payloadByteCap?: number;
}

type Embedding = EmbeddingEvent | EmbeddingFailedEvent;
type Rerank = RerankEvent | RerankFailedEvent;

/** The §5.5.8 attribute set of an embedding event (cross-cutting attributes excluded). */
export function embeddingSpanAttributes(e: Embedding, flags: ProviderSpanFlags = {}): Attributes {
  const out: Attributes = {};
  if (flags.disableGenaiSemconv !== true) {
    out["gen_ai.system"] = e.provider;
    out["gen_ai.request.model"] = e.model;
    if (e.kind === "embedding") {
      if (e.responseModel !== null) out["gen_ai.response.model"] = e.responseModel;
      if (e.responseId !== null) out["gen_ai.response.id"] = e.responseId;
      if (e.usage !== null) out["gen_ai.usage.input_tokens"] = e.usage.input_tokens;
    }
  }
  out["openarmature.embedding.input_count"] = e.inputCount;
  if (e.kind === "embedding" && e.dimensions !== null) out["openarmature.embedding.dimensions"] = e.dimensions;
  const inputType = e.requestParams["input_type"];
  if (typeof inputType === "string") out["openarmature.embedding.input_type"] = inputType;
  if (flags.disableProviderPayload === false) {
    const cap = flags.payloadByteCap ?? DEFAULT_PAYLOAD_BYTE_CAP;
    out["openarmature.embedding.input.strings"] = truncatePayload(canonicalJson(e.inputStrings), cap);
    out["openarmature.embedding.request.extras"] = truncatePayload(canonicalJson(e.requestExtras), cap);
  }
  return out;
}

/** The §5.5.13 attribute set of a rerank event (cross-cutting attributes excluded). */
export function rerankSpanAttributes(e: Rerank, flags: ProviderSpanFlags = {}): Attributes {
  const out: Attributes = {};
  const usage = e.kind === "rerank" ? e.usage : null;
  if (flags.disableGenaiSemconv !== true) {
    out["gen_ai.system"] = e.provider;
    out["gen_ai.request.model"] = e.model;
    if (e.kind === "rerank") {
      if (e.responseModel !== null) out["gen_ai.response.model"] = e.responseModel;
      if (e.responseId !== null) out["gen_ai.response.id"] = e.responseId;
      if (usage?.input_tokens != null) out["gen_ai.usage.input_tokens"] = usage.input_tokens;
    }
  }
  out["openarmature.rerank.query_length"] = Buffer.byteLength(e.query, "utf8");
  out["openarmature.rerank.document_count"] = e.documentCount;
  if (e.topK !== null) out["openarmature.rerank.top_k"] = e.topK;
  if (e.kind === "rerank") out["openarmature.rerank.result_count"] = e.resultCount;
  if (usage?.search_units != null) out["openarmature.rerank.search_units"] = usage.search_units;
  if (flags.disableProviderPayload === false) {
    const cap = flags.payloadByteCap ?? DEFAULT_PAYLOAD_BYTE_CAP;
    out["openarmature.rerank.query"] = truncatePayload(e.query, cap);
    out["openarmature.rerank.documents"] = truncatePayload(canonicalJson(e.documents), cap);
    if (e.kind === "rerank") {
      const results = e.outputResults.map((r) => (r.document === null ? { index: r.index, relevance_score: r.relevance_score } : r));
      out["openarmature.rerank.results"] = truncatePayload(canonicalJson(results), cap);
    }
  }
  return out;
}

/**
 * Start and end the span of one embedding / rerank event under `parent`, with `cross` (the §5.6
 * cross-cutting attributes) added. Success is `OK`; a failure variant is `ERROR` with its §7
 * category as the description, `openarmature.error.category` and an exception event.
 */
export function renderRetrievalSpan(tracer: Tracer, e: Embedding | Rerank, parent: Context, cross: Attributes, flags: ProviderSpanFlags = {}): void {
  const embedding = e.kind === "embedding" || e.kind === "embedding_failed";
  const attributes = { ...(embedding ? embeddingSpanAttributes(e, flags) : rerankSpanAttributes(e, flags)), ...cross };
  const span = tracer.startSpan(embedding ? EMBEDDING_SPAN_NAME : RERANK_SPAN_NAME, { kind: SpanKind.CLIENT, attributes, startTime: e.startTime }, parent);
  if (e.kind === "embedding_failed" || e.kind === "rerank_failed") {
    span.setAttribute("openarmature.error.category", e.errorCategory);
    span.setStatus({ code: SpanStatusCode.ERROR, message: e.errorCategory });
    const error = e.error instanceof Error ? e.error : { name: e.errorType ?? "Error", message: e.errorMessage };
    span.recordException(error, e.timestamp);
  } else {
    span.setStatus({ code: SpanStatusCode.OK });
  }
  span.end(e.timestamp);
}
