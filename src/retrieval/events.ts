/**
 * The typed embedding and rerank observer events (graph-engine §6 *Typed embedding event*,
 * *Typed rerank event* and their failure variants; observability §5.5.9, §5.5.14).
 *
 * Every `embed()` / `rerank()` of the HTTP providers runs through {@link observeEmbedding} /
 * {@link observeRerank}: inside a graph node it puts exactly one event on the invocation's observer
 * delivery queue — the success variant after the response was parsed and validated, or the failure
 * variant when the call raised a §7 category (pre-send refusals included; an error without a
 * category, such as a caller's abort, dispatches nothing) — before the call returns or the error
 * propagates. The error still propagates unchanged. Outside a graph it does nothing but
 * run the call.
 *
 * Events are camelCase TypeScript records (the engine's convention, see `NodeEvent`); the spec's
 * snake_case record of each is {@link retrievalEventRecord}. Payload-bearing fields (`inputStrings`,
 * `outputVectors`, `query`, `documents`, `outputResults`, `requestExtras`) are populated
 * unconditionally; observers gate them at their rendering boundary (observability §5.5.4).
 * `callerInvocationMetadata` is emitted null (§3.4: off by default); `invocationMetadata` is the
 * snapshot at call time, which an opted-in observer reads through `withCallerInvocationMetadata`.
 */
import { randomUUID } from "node:crypto";
import { currentNodeContext, getInvocationMetadata, lineageOf, lineageRecord, registerEventFamily, type EventLineage, type InvocationMetadata } from "../graph/index.ts";
import { activePrompt, activePromptGroup, type ActivePrompt, type ActivePromptGroup } from "../prompts/context.ts";
import { vendorErrorType } from "../llm/wire-errors.ts";
import type { EmbeddingResponse, EmbeddingRuntimeConfig, EmbeddingUsage, RerankResponse, RerankRuntimeConfig, RerankUsage, ScoredDocument } from "./types.ts";

/** What the embedding and rerank events share: lineage, provider identity, request side. */
interface RetrievalEventBase extends EventLineage {
  /** The wire surface's `gen_ai.system` (`openai`, `cohere`, `tei`, `jina`, ...). */
  readonly provider: string;
  /** The bound model the request was made against. */
  readonly model: string;
  /** Wall-clock ms from the call's entry to its return / raise. */
  readonly latencyMs: number | null;
  /** `caller_invocation_metadata`: null as emitted; filled by `withCallerInvocationMetadata` for an opted-in observer. */
  readonly callerInvocationMetadata: InvocationMetadata | null;
  /** The caller-supplied invocation metadata in scope at call time (the opt-in snapshot's source). */
  readonly invocationMetadata: InvocationMetadata;
  /** The declared runtime-config fields the caller supplied (absent ⇒ not carried). */
  readonly requestParams: Readonly<Record<string, unknown>>;
  /** The config's extras bag (`{}` when none). */
  readonly requestExtras: Readonly<Record<string, unknown>>;
  readonly activePrompt: ActivePrompt | null;
  readonly activePromptGroup: ActivePromptGroup | null;
  /** Freshly minted per call; never shared with a retry-attempt sibling. */
  readonly callId: string;
  /** High-resolution wall-clock time of the call's entry (ms since epoch). */
  readonly startTime: number;
  /** High-resolution wall-clock time the event was dispatched (ms since epoch). */
  readonly timestamp: number;
}

/** The failure side every failure variant carries (§7 category, impl type, message). */
interface FailureFields {
  /** The llm-provider §7 category (retrieval-provider §7 subset). */
  readonly errorCategory: string;
  /** The vendor's error type from the error body, else the exception class name, or `null`. */
  readonly errorType: string | null;
  /** The exception message (`""` when it had none). */
  readonly errorMessage: string;
  /** The raised error itself, for observers that record it (span exception events). */
  readonly error: unknown;
}

interface EmbeddingRequestSide extends RetrievalEventBase {
  readonly inputStrings: readonly string[];
  readonly inputCount: number;
}

/** graph-engine §6 `EmbeddingEvent`: one successful `embed()` call. */
export interface EmbeddingEvent extends EmbeddingRequestSide {
  readonly kind: "embedding";
  readonly responseModel: string | null;
  readonly responseId: string | null;
  readonly usage: EmbeddingUsage | null;
  readonly dimensions: number | null;
  readonly outputVectors: readonly (readonly number[])[];
}

/** graph-engine §6 `EmbeddingFailedEvent`: one `embed()` call that raised a §7 category. */
export interface EmbeddingFailedEvent extends EmbeddingRequestSide, FailureFields {
  readonly kind: "embedding_failed";
}

interface RerankRequestSide extends RetrievalEventBase {
  readonly query: string;
  readonly documents: readonly string[];
  readonly documentCount: number;
  readonly topK: number | null;
}

/** graph-engine §6 `RerankEvent`: one successful `rerank()` call. */
export interface RerankEvent extends RerankRequestSide {
  readonly kind: "rerank";
  readonly responseModel: string | null;
  readonly responseId: string | null;
  readonly usage: RerankUsage | null;
  readonly resultCount: number;
  readonly outputResults: readonly ScoredDocument[];
}

/** graph-engine §6 `RerankFailedEvent`: one `rerank()` call that raised a §7 category. */
export interface RerankFailedEvent extends RerankRequestSide, FailureFields {
  readonly kind: "rerank_failed";
}

declare module "../graph/events.ts" {
  interface ObserverEventMap {
    embedding: EmbeddingEvent;
    embedding_failed: EmbeddingFailedEvent;
    rerank: RerankEvent;
    rerank_failed: RerankFailedEvent;
  }
}

/** Any of the four retrieval events. */
export type RetrievalEvent = EmbeddingEvent | EmbeddingFailedEvent | RerankEvent | RerankFailedEvent;

/** The spec's type name of each kind (graph-engine §6: `EmbeddingEvent`, ...). */
export const RETRIEVAL_EVENT_TYPES = {
  embedding: "EmbeddingEvent",
  embedding_failed: "EmbeddingFailedEvent",
  rerank: "RerankEvent",
  rerank_failed: "RerankFailedEvent",
} as const satisfies Record<RetrievalEvent["kind"], string>;

const RETRIEVAL_KINDS: ReadonlySet<string> = new Set(Object.keys(RETRIEVAL_EVENT_TYPES));

/** Type guard: one of the four retrieval event kinds. */
export function isRetrievalEvent(event: { readonly kind: string }): event is RetrievalEvent {
  return RETRIEVAL_KINDS.has(event.kind);
}

/** Who made the call: the provider's `gen_ai.system` and its bound model. */
export interface RetrievalCaller {
  readonly system: string;
  readonly model: string;
}

function now(): number {
  return performance.timeOrigin + performance.now();
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The declared fields among `names` the caller supplied (non-null), copied. */
function params(config: unknown, names: readonly string[]): Record<string, unknown> {
  if (!isObject(config)) return {};
  const out: Record<string, unknown> = {};
  for (const n of names) if (config[n] !== undefined && config[n] !== null) out[n] = config[n];
  return out;
}

function extras(config: unknown): Record<string, unknown> {
  return isObject(config) && isObject(config["extras"]) ? { ...config["extras"] } : {};
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : [];
}

/** The failure fields of a §7-categorized error, or `undefined` for anything else (no event). */
function failure(e: unknown): FailureFields | undefined {
  const category = (e as { category?: unknown } | null)?.category;
  if (typeof category !== "string") return undefined;
  return {
    errorCategory: category,
    errorType: vendorErrorType(e),
    errorMessage: e instanceof Error ? e.message : e === undefined || e === null ? "" : String(e),
    error: e,
  };
}

/** The request side every variant carries, or `undefined` outside a graph node. */
function base(caller: RetrievalCaller, config: unknown, names: readonly string[], startTime: number) {
  const ctx = currentNodeContext();
  if (!ctx) return undefined;
  const end = now();
  return {
    ctx,
    fields: {
      ...lineageOf(ctx),
      provider: caller.system,
      model: caller.model,
      latencyMs: end - startTime,
      callerInvocationMetadata: null,
      invocationMetadata: getInvocationMetadata(),
      requestParams: params(config, names),
      requestExtras: extras(config),
      activePrompt: activePrompt(),
      activePromptGroup: activePromptGroup(),
      callId: randomUUID(),
      startTime,
      timestamp: end,
    },
  };
}

/**
 * Run one `embed()` call and dispatch its {@link EmbeddingEvent} / {@link EmbeddingFailedEvent}
 * into the current node's observer queue (a no-op outside a graph). A custom `EmbeddingProvider`
 * wraps its own `embed` body in this to be observed like the built-in ones.
 */
export async function observeEmbedding(
  caller: RetrievalCaller,
  input: ReadonlyArray<string>,
  config: EmbeddingRuntimeConfig | undefined,
  call: () => Promise<EmbeddingResponse>,
): Promise<EmbeddingResponse> {
  const startTime = now();
  const inputStrings = strings(input);
  const request = (b: NonNullable<ReturnType<typeof base>>) => ({ ...b.fields, inputStrings, inputCount: inputStrings.length });
  let response: EmbeddingResponse;
  try {
    response = await call();
  } catch (e) {
    const f = failure(e);
    const b = f && base(caller, config, ["dimensions", "input_type"], startTime);
    if (b && f) b.ctx.emit({ kind: "embedding_failed", ...request(b), ...f });
    throw e;
  }
  const b = base(caller, config, ["dimensions", "input_type"], startTime);
  if (b) {
    b.ctx.emit({
      kind: "embedding",
      ...request(b),
      responseModel: response.model ?? null,
      responseId: response.response_id,
      usage: response.usage,
      dimensions: response.vectors[0]?.length ?? null,
      outputVectors: response.vectors,
    });
  }
  return response;
}

/**
 * Run one `rerank()` call and dispatch its {@link RerankEvent} / {@link RerankFailedEvent} (see
 * {@link observeEmbedding}).
 */
export async function observeRerank(
  caller: RetrievalCaller,
  query: string,
  documents: ReadonlyArray<string>,
  topK: number | undefined | null,
  config: RerankRuntimeConfig | undefined,
  call: () => Promise<RerankResponse>,
): Promise<RerankResponse> {
  const startTime = now();
  const docs = strings(documents);
  const request = (b: NonNullable<ReturnType<typeof base>>) => ({
    ...b.fields,
    query: typeof query === "string" ? query : "",
    documents: docs,
    documentCount: docs.length,
    topK: typeof topK === "number" ? topK : null,
  });
  let response: RerankResponse;
  try {
    response = await call();
  } catch (e) {
    const f = failure(e);
    const b = f && base(caller, config, ["return_documents"], startTime);
    if (b && f) b.ctx.emit({ kind: "rerank_failed", ...request(b), ...f });
    throw e;
  }
  const b = base(caller, config, ["return_documents"], startTime);
  if (b) {
    b.ctx.emit({
      kind: "rerank",
      ...request(b),
      responseModel: response.model ?? null,
      responseId: response.response_id,
      usage: response.usage,
      resultCount: response.results.length,
      outputResults: response.results,
    });
  }
  return response;
}

/**
 * The spec's snake_case record of a retrieval event (graph-engine §6 field names) — for logs, JSON
 * export, queryable observers and cross-implementation diffs. Absent lineage scalars render `null`.
 */
export function retrievalEventRecord(e: RetrievalEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...lineageRecord(e),
    provider: e.provider,
    model: e.model,
    latency_ms: e.latencyMs,
    caller_invocation_metadata: e.callerInvocationMetadata === null ? null : { ...e.callerInvocationMetadata },
    request_params: e.requestParams,
    request_extras: e.requestExtras,
    active_prompt: e.activePrompt,
    active_prompt_group: e.activePromptGroup,
    call_id: e.callId,
  };
  switch (e.kind) {
    case "embedding":
    case "embedding_failed":
      out["input_strings"] = e.inputStrings;
      out["input_count"] = e.inputCount;
      break;
    case "rerank":
    case "rerank_failed":
      out["query"] = e.query;
      out["documents"] = e.documents;
      out["document_count"] = e.documentCount;
      out["top_k"] = e.topK;
      break;
  }
  switch (e.kind) {
    case "embedding":
      Object.assign(out, { response_model: e.responseModel, response_id: e.responseId, usage: e.usage, dimensions: e.dimensions, output_vectors: e.outputVectors });
      break;
    case "rerank":
      Object.assign(out, { response_model: e.responseModel, response_id: e.responseId, usage: e.usage, result_count: e.resultCount, output_results: e.outputResults });
      break;
    default:
      Object.assign(out, { error_category: e.errorCategory, error_type: e.errorType, error_message: e.errorMessage });
  }
  return out;
}

for (const [kind, typeName] of Object.entries(RETRIEVAL_EVENT_TYPES) as [RetrievalEvent["kind"], string][]) {
  registerEventFamily({ typeName, kind, toRecord: (e: RetrievalEvent) => retrievalEventRecord(e) });
}
