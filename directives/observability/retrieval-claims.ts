/**
 * The embedding / rerank named claims (observability 074-109, 139, 143, 154; retrieval-provider
 * 013-044's typed-event claims), as claim tables by their plain meaning. Event claims read the
 * typed events the case's `typed_observers` collectors retained (the real §6 queue) beside the
 * provider calls the nodes made; span claims the §6.3 span capture; metric claims the §6.9 metric
 * capture.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { deepEqual } from "../../src/llm/canonical-json.ts";
import { isRetrievalEvent, type EmbeddingResponse, type RerankResponse, type RetrievalEvent } from "../../src/retrieval/index.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { MetricCapture, type Measurement } from "../../harness/observability/metrics.ts";
import { capturedSpans, parentId, spanId } from "../../harness/observability/spans.ts";
import { TypedEvents } from "../../harness/observability/typed-events.ts";
import { RetrievalCallsFacet, type RetrievalCall } from "../../harness/retrieval/facets.ts";
import { show } from "../../harness/suspension/claims.ts";

// ---- typed events ------------------------------------------------------------------------------

/** What an event claim reads: the retrieval events every collector retained, and the calls made. */
interface EventView {
  readonly events: readonly RetrievalEvent[];
  readonly calls: readonly RetrievalCall[];
}

function eventView(obs: Observation, ctx: CheckContext): EventView | null {
  const collected = obs.tryGet(TypedEvents);
  if (collected === undefined) {
    ctx.fail(`${ctx.self.key} reads typed events, but the case declares no typed_observers collector`);
    return null;
  }
  const events = new Set<RetrievalEvent>();
  for (const list of collected.values()) for (const c of list) if (isRetrievalEvent(c.event)) events.add(c.event);
  return { events: [...events], calls: obs.tryGet(RetrievalCallsFacet) ?? [] };
}

type Kind = RetrievalEvent["kind"];
const TYPE: Readonly<Record<Kind, string>> = { embedding: "EmbeddingEvent", embedding_failed: "EmbeddingFailedEvent", rerank: "RerankEvent", rerank_failed: "RerankFailedEvent" };
const ofKind = <K extends Kind>(v: EventView, k: K) => v.events.filter((e): e is Extract<RetrievalEvent, { kind: K }> => e.kind === k);
const count = (v: EventView, k: Kind, n: number): string | null => {
  const got = ofKind(v, k).length;
  return got === n ? null : `${got} ${TYPE[k]} observed, expected ${n}`;
};
const both = (...checks: (string | null)[]): string | null => checks.find((c) => c !== null) ?? null;
const successes = (v: EventView) => v.events.filter((e) => e.kind === "embedding" || e.kind === "rerank");
const failures = (v: EventView) => v.events.filter((e) => e.kind === "embedding_failed" || e.kind === "rerank_failed");
const errCategory = (c: RetrievalCall): string | undefined => (c.error as { category?: string } | undefined)?.category;
/** Each event paired with the provider call it describes (same operation, in call order). */
function paired(v: EventView, op: "embed" | "rerank"): Array<{ e: RetrievalEvent; c: RetrievalCall | undefined }> {
  const calls = v.calls.filter((c) => c.operation === op);
  const evs = v.events.filter((e) => (op === "embed" ? e.kind.startsWith("embedding") : e.kind.startsWith("rerank")));
  return evs.map((e, i) => ({ e, c: calls[i] }));
}
function every(v: EventView, op: "embed" | "rerank", test: (e: RetrievalEvent, c: RetrievalCall) => string | null): string | null {
  const pairs = paired(v, op);
  if (pairs.length === 0) return `no ${op === "embed" ? "embedding" : "rerank"} event was observed`;
  for (const { e, c } of pairs) {
    if (!c) return `${TYPE[e.kind]} ${e.callId} has no matching ${op}() call`;
    const why = test(e, c);
    if (why !== null) return why;
  }
  return null;
}
const config = (c: RetrievalCall): Record<string, unknown> => (c.input["config"] as Record<string, unknown> | undefined) ?? {};
const suppliedParams = (c: RetrievalCall): Record<string, unknown> => {
  const names = c.operation === "embed" ? ["dimensions", "input_type"] : ["return_documents"];
  return Object.fromEntries(names.filter((n) => config(c)[n] !== undefined && config(c)[n] !== null).map((n) => [n, config(c)[n]]));
};
const distinctIds = (evs: readonly RetrievalEvent[], what: string): string | null => {
  if (evs.length < 2) return `${evs.length} ${what} observed; distinctness needs at least two`;
  return new Set(evs.map((e) => e.callId)).size === evs.length ? null : `call_ids repeat: ${show(evs.map((e) => e.callId))}`;
};
const propagated = (v: EventView, op: "embed" | "rerank"): string | null => {
  const failed = failures(v);
  if (failed.length !== 1) return `${failed.length} failure events observed`;
  const call = v.calls.find((c) => c.operation === op && c.error !== undefined);
  if (!call) return `no ${op}() call raised`;
  const f = failed[0] as Extract<RetrievalEvent, { errorCategory: string }>;
  return errCategory(call) === f.errorCategory ? null : `${op}() raised ${errCategory(call) ?? "an uncategorized error"}, the event carries ${f.errorCategory}`;
};
const nonEmpty = (s: unknown) => typeof s === "string" && s.length > 0;

/** The response-side fields a success event mirrors from the response the node stored. */
function mirrorsResponse(e: RetrievalEvent, c: RetrievalCall): string | null {
  if (e.kind === "embedding") {
    const r = c.response as EmbeddingResponse | undefined;
    if (!r) return "the embed() call returned no response";
    const want = { responseModel: r.model, responseId: r.response_id, usage: r.usage, dimensions: r.dimensions, inputCount: r.vectors.length };
    const got = { responseModel: e.responseModel, responseId: e.responseId, usage: e.usage, dimensions: e.dimensions, inputCount: e.inputCount };
    return deepEqual(got, want) ? null : `event ${show(got)} does not mirror the response ${show(want)}`;
  }
  if (e.kind === "rerank") {
    const r = c.response as RerankResponse | undefined;
    if (!r) return "the rerank() call returned no response";
    const want = { responseModel: r.model, responseId: r.response_id, usage: r.usage, resultCount: r.results.length };
    const got = { responseModel: e.responseModel, responseId: e.responseId, usage: e.usage, resultCount: e.resultCount };
    return deepEqual(got, want) ? null : `event ${show(got)} does not mirror the response ${show(want)}`;
  }
  return `${TYPE[e.kind]} is a failure event`;
}

const eventRows: ClaimRow<EventView>[] = [
  { name: "exactly_one_embedding_event_observed", section: "observability 074", summary: "one EmbeddingEvent", check: (v) => count(v, "embedding", 1) },
  { name: "exactly_one_embedding_failed_event_observed", section: "observability 075", summary: "one EmbeddingFailedEvent", check: (v) => count(v, "embedding_failed", 1) },
  { name: "zero_embedding_events_on_failed_call", section: "observability 075", summary: "no EmbeddingEvent for the failed call", check: (v) => both(count(v, "embedding", 0), ofKind(v, "embedding_failed").length ? null : "no EmbeddingFailedEvent either") },
  { name: "exactly_one_rerank_event_observed", section: "observability 099", summary: "one RerankEvent", check: (v) => count(v, "rerank", 1) },
  { name: "exactly_one_rerank_failed_event_observed", section: "observability 100", summary: "one RerankFailedEvent", check: (v) => count(v, "rerank_failed", 1) },
  { name: "zero_rerank_success_events_observed", section: "observability 100", summary: "no RerankEvent for the failed call", check: (v) => both(count(v, "rerank", 0), ofKind(v, "rerank_failed").length ? null : "no RerankFailedEvent either") },
  { name: "success_emits_one_event_zero_failures", section: "observability 076", summary: "a successful call: one success event, no failure event", check: (v) => (successes(v).length === 1 && failures(v).length === 0 ? null : `${successes(v).length} success / ${failures(v).length} failure events`) },
  { name: "failure_emits_one_event_zero_successes", section: "observability 076", summary: "a failed call: one failure event, no success event", check: (v) => (failures(v).length === 1 && successes(v).length === 0 ? null : `${failures(v).length} failure / ${successes(v).length} success events`) },
  { name: "exception_propagates_out_of_rerank_call", section: "observability 100", summary: "rerank() still raised the event's category", check: (v) => propagated(v, "rerank") },
  {
    name: "event_typed_fields_match_provider_response",
    section: "observability 074 / 099",
    summary: "the success event's response-side fields mirror the response",
    check: (v) => both(...["embed", "rerank"].map((op) => (v.calls.some((c) => c.operation === op) ? every(v, op as "embed", mirrorsResponse) : null))),
  },
  { name: "call_ids_distinct_across_embedding_events", section: "observability 077", summary: "each embed() call has its own call_id", check: (v) => distinctIds(v.events.filter((e) => e.kind.startsWith("embedding")), "embedding events") },
  { name: "call_ids_distinct_across_rerank_events", section: "observability 102", summary: "each rerank() call has its own call_id", check: (v) => distinctIds(v.events.filter((e) => e.kind.startsWith("rerank")), "rerank events") },
  { name: "all_call_ids_non_null", section: "observability 077 / 102", summary: "every event carries a call_id", check: (v) => (v.events.length === 0 ? "no retrieval event was observed" : v.events.every((e) => nonEmpty(e.callId)) ? null : "an event has no call_id") },
  {
    name: "request_params_populated_with_caller_supplied_fields",
    section: "observability 079 / 104",
    summary: "request_params is the declared config fields the caller supplied",
    check: (v) => both(...(["embed", "rerank"] as const).filter((op) => v.calls.some((c) => c.operation === op)).map((op) => every(v, op, (e, c) => (Object.keys(suppliedParams(c)).length > 0 && deepEqual(e.requestParams, suppliedParams(c)) ? null : `request_params ${show(e.requestParams)}, the caller supplied ${show(suppliedParams(c))}`)))),
  },
  {
    name: "request_params_empty_when_caller_supplied_none",
    section: "observability 079 / 104",
    summary: "request_params is {} when no config field was supplied",
    check: (v) => (v.events.length === 0 ? "no retrieval event was observed" : v.events.every((e) => Object.keys(e.requestParams).length === 0) ? null : `request_params ${show(v.events.map((e) => e.requestParams))}`),
  },
  { name: "input_count_matches_input_list_length", section: "observability 080", summary: "input_count is the number of inputs", check: (v) => every(v, "embed", (e, c) => (e.kind.startsWith("embedding") && (e as { inputCount: number }).inputCount === (c.input["input"] as unknown[]).length ? null : `input_count ${(e as { inputCount?: number }).inputCount} for ${(c.input["input"] as unknown[]).length} inputs`)) },
  { name: "dimensions_matches_inner_vector_length", section: "observability 080", summary: "dimensions is the vectors' length", check: (v) => every(v, "embed", (e, c) => (e.kind === "embedding" && e.dimensions === (c.response as EmbeddingResponse | undefined)?.vectors[0]?.length ? null : `dimensions ${show((e as { dimensions?: unknown }).dimensions)}`)) },
  { name: "query_carried_verbatim", section: "observability 103", summary: "the event's query is the caller's", check: (v) => every(v, "rerank", (e, c) => (e.kind.startsWith("rerank") && (e as { query: string }).query === c.input["query"] ? null : `query ${show((e as { query?: unknown }).query)}`)) },
  { name: "documents_carried_verbatim", section: "observability 103", summary: "the event's documents are the caller's", check: (v) => every(v, "rerank", (e, c) => (deepEqual((e as { documents?: unknown }).documents, c.input["documents"]) ? null : `documents ${show((e as { documents?: unknown }).documents)}`)) },
  { name: "document_count_matches_input", section: "observability 105", summary: "document_count is the number of documents", check: (v) => every(v, "rerank", (e, c) => ((e as { documentCount?: number }).documentCount === (c.input["documents"] as unknown[]).length ? null : `document_count ${(e as { documentCount?: number }).documentCount}`)) },
  { name: "top_k_matches_caller_supplied_value", section: "observability 105", summary: "top_k is the caller's", check: (v) => every(v, "rerank", (e, c) => (c.input["top_k"] !== undefined && (e as { topK?: unknown }).topK === c.input["top_k"] ? null : `top_k ${show((e as { topK?: unknown }).topK)}, caller ${show(c.input["top_k"])}`)) },
  { name: "top_k_null_when_caller_passed_none", section: "observability 105", summary: "top_k is null when none was passed", check: (v) => every(v, "rerank", (e, c) => (c.input["top_k"] === undefined && (e as { topK?: unknown }).topK === null ? null : `top_k ${show((e as { topK?: unknown }).topK)}`)) },
  { name: "result_count_matches_response", section: "observability 105", summary: "result_count is the number of results returned", check: (v) => every(v, "rerank", (e, c) => (e.kind === "rerank" && e.resultCount === (c.response as RerankResponse | undefined)?.results.length ? null : `result_count ${show((e as { resultCount?: unknown }).resultCount)}`)) },
];
registerClaims("observability", eventView, eventRows);

/**
 * The provider-call events (every typed family whose record carries a `call_id`: LLM, tool,
 * embedding, rerank — success and failure) the case's collectors retained, as spec records.
 */
function providerCallRecords(obs: Observation, ctx: CheckContext): ReadonlyArray<{ type: string; record: Readonly<Record<string, unknown>> }> | null {
  const collected = obs.tryGet(TypedEvents);
  if (collected === undefined) {
    ctx.fail(`${ctx.self.key} reads typed events, but the case declares no typed_observers collector`);
    return null;
  }
  const seen = new Set<unknown>();
  const out: Array<{ type: string; record: Readonly<Record<string, unknown>> }> = [];
  for (const list of collected.values()) {
    for (const c of list) {
      if (seen.has(c.event) || !Object.hasOwn(c.record, "call_id")) continue;
      seen.add(c.event);
      out.push({ type: c.type, record: c.record });
    }
  }
  return out;
}

registerClaims("observability", providerCallRecords, [
  {
    name: "identity_scoping_fields_populated",
    section: "observability 074 / 099 (graph-engine §6 identity fields)",
    summary: "every provider-call event (LLM, tool, embedding, rerank) carries its invocation / correlation ids, node name, namespace, attempt index and call id",
    check: (records) => {
      if (records.length === 0) return "no provider-call event was observed";
      const bad = records.find(({ record: r }) => !nonEmpty(r["invocation_id"]) || !nonEmpty(r["correlation_id"]) || !nonEmpty(r["node_name"]) || !Array.isArray(r["namespace"]) || (r["namespace"] as unknown[]).length === 0 || !Number.isInteger(r["attempt_index"]) || !nonEmpty(r["call_id"]));
      if (bad === undefined) return null;
      const r = bad.record;
      return `${bad.type} lacks an identity field: ${show({ invocation_id: r["invocation_id"], correlation_id: r["correlation_id"], node_name: r["node_name"], namespace: r["namespace"], attempt_index: r["attempt_index"], call_id: r["call_id"] })}`;
    },
  },
]);

/** retrieval-provider 013-044: the EmbeddingEvent beside the wire claims. */
const embeddingEvent = (v: EventView, test: (e: Extract<RetrievalEvent, { kind: "embedding" }>, c: RetrievalCall) => string | null): string | null =>
  every(v, "embed", (e, c) => (e.kind === "embedding" ? test(e, c) : `${TYPE[e.kind]} observed, not an EmbeddingEvent`));
registerClaims("retrieval-provider", eventView, [
  { name: "input_type_in_embedding_event_request_params", section: "retrieval-provider 013", summary: "the caller's input_type is in request_params", check: (v) => embeddingEvent(v, (e, c) => (config(c)["input_type"] !== undefined && e.requestParams["input_type"] === config(c)["input_type"] ? null : `request_params ${show(e.requestParams)}, caller input_type ${show(config(c)["input_type"])}`)) },
  { name: "request_params_empty_when_input_type_absent", section: "retrieval-provider 013", summary: "request_params is {} when no config field was supplied", check: (v) => embeddingEvent(v, (e) => (Object.keys(e.requestParams).length === 0 ? null : `request_params ${show(e.requestParams)}`)) },
  { name: "wire_mandatory_default_not_reflected_onto_event", section: "retrieval-provider 033", summary: "the mapping's wire default input_type stays off the event", check: (v) => embeddingEvent(v, (e) => (e.requestParams["input_type"] === undefined ? null : `request_params carries input_type ${show(e.requestParams["input_type"])}`)) },
  { name: "embedding_event_response_id_null_mirrors_response", section: "retrieval-provider 040", summary: "response_id null on the event as on the response", check: (v) => embeddingEvent(v, (e, c) => (e.responseId === null && (c.response as EmbeddingResponse | undefined)?.response_id === null ? null : `event ${show(e.responseId)}, response ${show((c.response as EmbeddingResponse | undefined)?.response_id)}`)) },
  { name: "embedding_event_usage_null_mirrors_response", section: "retrieval-provider 040", summary: "usage null on the event as on the response", check: (v) => embeddingEvent(v, (e, c) => (e.usage === null && (c.response as EmbeddingResponse | undefined)?.usage === null ? null : `event ${show(e.usage)}, response ${show((c.response as EmbeddingResponse | undefined)?.usage)}`)) },
  { name: "embedding_event_usage_summed_record_mirrors_response", section: "retrieval-provider 042", summary: "the event's usage is the response's stitched record", check: (v) => embeddingEvent(v, (e, c) => (e.usage !== null && deepEqual(e.usage, (c.response as EmbeddingResponse | undefined)?.usage) ? null : `event ${show(e.usage)}, response ${show((c.response as EmbeddingResponse | undefined)?.usage)}`)) },
]);

// ---- spans -------------------------------------------------------------------------------------

const EMBEDDING_SPAN = "openarmature.embedding.complete";
const RERANK_SPAN = "openarmature.rerank.complete";

function spanView(obs: Observation, ctx: CheckContext): readonly ReadableSpan[] | null {
  return capturedSpans(obs, ctx)?.spans ?? null;
}
/** The one provider span named `name`, parented under the calling node's span. */
function oneSpan(spans: readonly ReadableSpan[], name: string): ReadableSpan | string {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) return `${found.length} spans named ${name} (spans: ${show(spans.map((s) => s.name))})`;
  return found[0]!;
}
const spanCheck = (name: string, test: (s: ReadableSpan, all: readonly ReadableSpan[]) => string | null) => (spans: readonly ReadableSpan[]): string | null => {
  const s = oneSpan(spans, name);
  return typeof s === "string" ? s : test(s, spans);
};
const has = (key: string) => (s: ReadableSpan) => (s.attributes[key] !== undefined ? null : `${s.name} has no ${key}`);
const lacks = (key: string) => (s: ReadableSpan) => (s.attributes[key] === undefined ? null : `${s.name} carries ${key} = ${show(s.attributes[key])}`);
const underNode = (s: ReadableSpan, all: readonly ReadableSpan[]): string | null => {
  const parent = all.find((p) => spanId(p) === parentId(s));
  return parent && parent.attributes["openarmature.node.name"] !== undefined ? null : `${s.name}'s parent is ${parent?.name ?? "absent"}, not a node span`;
};
const CORE = ["gen_ai.system", "gen_ai.request.model", "gen_ai.response.model"];
const coreSubset = (s: ReadableSpan): string | null => both(...CORE.map((k) => has(k)(s)));
const providerSpan = (spans: readonly ReadableSpan[]) => {
  const found = spans.filter((s) => s.name === EMBEDDING_SPAN || s.name === RERANK_SPAN);
  return found.length === 1 ? found[0]! : `${found.length} embedding / rerank spans`;
};
const onProvider = (test: (s: ReadableSpan) => string | null) => (spans: readonly ReadableSpan[]): string | null => {
  const s = providerSpan(spans);
  return typeof s === "string" ? s : test(s);
};

registerClaims("observability", spanView, [
  { name: "embedding_span_name_is_openarmature_embedding_complete", section: "observability 082", summary: "one openarmature.embedding.complete span under the node span", check: spanCheck(EMBEDDING_SPAN, underNode) },
  { name: "rerank_span_name_is_openarmature_rerank_complete", section: "observability 107", summary: "one openarmature.rerank.complete span under the node span", check: spanCheck(RERANK_SPAN, underNode) },
  { name: "stable_genai_semconv_subset_emitted", section: "observability 082", summary: "the core gen_ai.* subset is on the provider span", check: onProvider(coreSubset) },
  { name: "core_genai_semconv_subset_emitted", section: "observability 107", summary: "the core gen_ai.* subset is on the provider span", check: onProvider(coreSubset) },
  { name: "operation_name_attribute_not_emitted_in_v1", section: "observability 082 / 107", summary: "no span carries gen_ai.operation.name", check: (spans) => both(...spans.map(lacks("gen_ai.operation.name"))) },
  { name: "usage_input_tokens_attribute_omitted_when_no_usage_record", section: "observability 139", summary: "no gen_ai.usage.input_tokens without a usage record", check: onProvider(lacks("gen_ai.usage.input_tokens")) },
  { name: "input_tokens_omitted_when_provider_reports_none", section: "observability 107", summary: "no gen_ai.usage.input_tokens when none was reported", check: onProvider(lacks("gen_ai.usage.input_tokens")) },
  { name: "input_tokens_emitted_when_provider_reports_it", section: "observability 107", summary: "gen_ai.usage.input_tokens when reported", check: onProvider(has("gen_ai.usage.input_tokens")) },
  { name: "search_units_emitted_when_provider_reports_it", section: "observability 107", summary: "openarmature.rerank.search_units when reported", check: onProvider(has("openarmature.rerank.search_units")) },
  { name: "search_units_omitted_when_provider_reports_none", section: "observability 107", summary: "no openarmature.rerank.search_units when none was reported", check: onProvider(lacks("openarmature.rerank.search_units")) },
]);

// ---- metrics -----------------------------------------------------------------------------------

const TOKENS = "openarmature.gen_ai.client.token.usage";
const DURATION = "openarmature.gen_ai.client.operation.duration";
const OP = "openarmature.gen_ai.operation";

function metricView(obs: Observation, ctx: CheckContext): readonly Measurement[] | null {
  return obs.get(MetricCapture, ctx.locate(ctx.self.path));
}
const of = (ms: readonly Measurement[], instrument: string, operation?: string) => ms.filter((m) => m.instrument === instrument && (operation === undefined || m.dimensions[OP] === operation));
const none = (ms: readonly Measurement[], instrument: string): string | null => (of(ms, instrument).length === 0 ? null : `${of(ms, instrument).length} ${instrument} observations: ${show(of(ms, instrument))}`);
const durationWithError = (operation: string) => (ms: readonly Measurement[]): string | null => {
  const d = of(ms, DURATION, operation);
  if (d.length !== 1) return `${d.length} ${operation} duration observations`;
  return nonEmpty(d[0]!.dimensions["error.type"]) ? null : `the duration observation has no error.type: ${show(d[0]!.dimensions)}`;
};
const BUDGET = ["openarmature.gen_ai.client.token_budget.exceeded", "openarmature.gen_ai.client.token_budget.utilization"];
const budget = (ms: readonly Measurement[], kind?: string) => ms.filter((m) => BUDGET.includes(m.instrument) && (kind === undefined || m.dimensions["openarmature.gen_ai.token_budget.kind"] === kind));
const tokenType = (ms: readonly Measurement[], type: string) => of(ms, TOKENS).filter((m) => m.dimensions["openarmature.gen_ai.token.type"] === type);
const erroredDurations = (ms: readonly Measurement[]) => of(ms, DURATION).filter((m) => nonEmpty(m.dimensions["error.type"]));
const someDuration = (operation?: string) => (ms: readonly Measurement[]): string | null => (of(ms, DURATION, operation).length > 0 ? null : `no ${operation ?? ""} duration observation`);

registerClaims("observability", metricView, [
  { name: "embedding_records_input_token_only", section: "observability 089", summary: "the embedding's token usage is input only", check: (ms) => { const t = of(ms, TOKENS, "embeddings"); return t.length > 0 && t.every((m) => m.dimensions["openarmature.gen_ai.token.type"] === "input") ? null : `token observations ${show(t)}`; } },
  { name: "no_output_token_observation_for_embedding", section: "observability 089", summary: "no output-token observation for an embedding", check: (ms) => (of(ms, TOKENS, "embeddings").some((m) => m.dimensions["openarmature.gen_ai.token.type"] === "output") ? "an output-token observation was recorded" : null) },
  { name: "no_token_usage_observation_on_failure", section: "observability 090 / 109 / 154", summary: "a failed call records no token usage", check: (ms) => none(ms, TOKENS) },
  { name: "no_token_usage_observation_when_search_units_only", section: "observability 109", summary: "search units are not token usage", check: (ms) => none(ms, TOKENS) },
  { name: "no_token_usage_observation_when_usage_absent", section: "observability 143", summary: "no usage record, no token usage", check: (ms) => none(ms, TOKENS) },
  { name: "duration_recorded_for_rerank", section: "observability 109", summary: "a rerank duration observation", check: someDuration("rerank") },
  { name: "duration_recorded_when_usage_absent", section: "observability 143", summary: "a duration observation without usage", check: someDuration() },
  { name: "errored_embedding_records_duration_with_error_type", section: "observability 154", summary: "one embeddings duration carrying error.type", check: durationWithError("embeddings") },
  { name: "errored_rerank_records_duration_with_error_type", section: "observability 109", summary: "one rerank duration carrying error.type", check: durationWithError("rerank") },
  { name: "rerank_records_input_token_when_reported", section: "observability 109", summary: "a rerank input-token observation", check: (ms) => (of(ms, TOKENS, "rerank").some((m) => m.dimensions["openarmature.gen_ai.token.type"] === "input") ? null : "no rerank input-token observation") },
  { name: "rerank_operation_dimension_is_rerank", section: "observability 109", summary: "every observation is dimensioned rerank", check: (ms) => (ms.length > 0 && ms.every((m) => m.dimensions[OP] === "rerank") ? null : `operations ${show(ms.map((m) => m.dimensions[OP]))}`) },
  // LLM calls (observability 088, 090, 125, 129, 131, 145-147)
  { name: "two_token_usage_observations_input_and_output", section: "observability 088 / 125", summary: "one input and one output token observation", check: (ms) => (of(ms, TOKENS).length === 2 && tokenType(ms, "input").length === 1 && tokenType(ms, "output").length === 1 ? null : `token observations ${show(of(ms, TOKENS))}`) },
  { name: "one_duration_observation_per_call", section: "observability 088 / 145", summary: "exactly one duration observation", check: (ms) => (of(ms, DURATION).length === 1 ? null : `${of(ms, DURATION).length} duration observations`) },
  { name: "duration_value_not_asserted", section: "observability 088 / 125", summary: "a duration was recorded (its value is not asserted, §11.4)", check: (ms) => (of(ms, DURATION).length > 0 && of(ms, DURATION).every((m) => m.value >= 0) ? null : "no duration observation") },
  { name: "errored_call_records_duration_with_error_type", section: "observability 090", summary: "one duration observation, carrying error.type", check: (ms) => (of(ms, DURATION).length === 1 && erroredDurations(ms).length === 1 ? null : `durations ${show(of(ms, DURATION))}`) },
  { name: "duration_records_error_type_on_failure", section: "observability 125", summary: "the failed call's duration carries error.type", check: (ms) => (erroredDurations(ms).length > 0 ? null : `durations ${show(of(ms, DURATION))}`) },
  { name: "token_usage_recorded_on_structured_output_failure", section: "observability 125", summary: "token usage recorded although the call failed structured_output_invalid", check: (ms) => (erroredDurations(ms).some((m) => m.dimensions["error.type"] === "structured_output_invalid") && of(ms, TOKENS).length > 0 ? null : `durations ${show(of(ms, DURATION))}, ${of(ms, TOKENS).length} token observations`) },
  { name: "no_token_budget_instrument_observations_when_no_budget", section: "observability 129", summary: "no token-budget observation without a declared budget", check: (ms) => (budget(ms).length === 0 ? null : `${budget(ms).length} token-budget observations`) },
  { name: "no_token_budget_instrument_observations_without_usage", section: "observability 131", summary: "no token-budget observation without usage", check: (ms) => (budget(ms).length === 0 ? null : `${budget(ms).length} token-budget observations`) },
  { name: "no_input_token_usage_observation_when_prompt_tokens_null", section: "observability 145 / 146", summary: "no input-token observation for a null prompt_tokens", check: (ms) => (tokenType(ms, "input").length === 0 ? null : `input-token observations ${show(tokenType(ms, "input"))}`) },
  { name: "no_input_token_usage_observation", section: "observability 147", summary: "no input-token observation", check: (ms) => (tokenType(ms, "input").length === 0 ? null : `input-token observations ${show(tokenType(ms, "input"))}`) },
  { name: "output_token_usage_observation_recorded_when_completion_sound", section: "observability 145", summary: "the output-token observation is recorded", check: (ms) => (tokenType(ms, "output").length === 1 ? null : `output-token observations ${show(tokenType(ms, "output"))}`) },
  { name: "no_input_kind_budget_observation_when_prompt_tokens_null", section: "observability 146", summary: "the input bound is not evaluated", check: (ms) => (budget(ms, "input").length === 0 ? null : `input-kind budget observations ${show(budget(ms, "input"))}`) },
  { name: "no_token_budget_instrument_observation_for_unevaluable_input_bound", section: "observability 147", summary: "the unevaluable input bound records nothing", check: (ms) => (budget(ms, "input").length === 0 ? null : `input-kind budget observations ${show(budget(ms, "input"))}`) },
  { name: "total_bound_evaluated_when_total_tokens_sound", section: "observability 146", summary: "the total bound's utilization is recorded", check: (ms) => (budget(ms, "total").some((m) => m.instrument.endsWith("utilization")) ? null : `total-kind budget observations ${show(budget(ms, "total"))}`) },
  { name: "no_measurements_recorded_when_metrics_off", section: "observability 091", summary: "nothing recorded with enable_metrics off", check: (ms) => (ms.length === 0 ? null : `${ms.length} measurements recorded`) },
]);
