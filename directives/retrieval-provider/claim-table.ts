/**
 * The retrieval-provider named claims as predicates over one recorded call. A claim's test returns
 * `null` when it holds, else why not. Expected values are derived from the fixture's inputs and the
 * bodies the mock served by the §8 rules (an oracle written from the spec, not from the library),
 * then compared with what the provider returned or sent. Claims about typed events
 * (`EmbeddingEvent.request_params`, ...) wait for graph-engine §6 typed events and are not defined.
 */
import { deepEqual } from "../../src/llm/canonical-json.ts";
import type { EmbeddingResponse, RerankResponse } from "../../src/retrieval/index.ts";
import type { RetrievalCall } from "../../harness/retrieval/facets.ts";

type Json = Record<string, unknown>;
export type Test = (c: RetrievalCall, key: string) => string | null;

const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const get = (v: unknown, ...path: string[]): unknown => path.reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), v);
const sound = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
const category = (c: RetrievalCall): string | undefined => (c.error as { category?: string } | undefined)?.category;
const bodies = (c: RetrievalCall): Json[] => c.requests.map((r) => r.body ?? {});
const first = (c: RetrievalCall): Json => bodies(c)[0] ?? {};
const config = (c: RetrievalCall): Json => (c.input["config"] as Json | undefined) ?? {};
const extras = (c: RetrievalCall): Json => (config(c)["extras"] as Json | undefined) ?? {};
const emb = (c: RetrievalCall): EmbeddingResponse | undefined => (c.operation === "embed" ? (c.response as EmbeddingResponse | undefined) : undefined);
const rr = (c: RetrievalCall): RerankResponse | undefined => (c.operation === "rerank" ? (c.response as RerankResponse | undefined) : undefined);
const items = (c: RetrievalCall): string[] => (c.operation === "embed" ? (c.input["input"] as string[]) : (c.input["documents"] as string[]));
const topK = (c: RetrievalCall): number | undefined => c.input["top_k"] as number | undefined;
const describe = (c: RetrievalCall): string => (c.error !== undefined ? `the call raised ${category(c) ?? "an uncategorized error"}: ${(c.error as Error).message}` : "the call returned");

/** The wire key carrying the chunked items, per mapping and operation. */
function itemKey(c: RetrievalCall): string {
  if (c.operation === "rerank") return c.mapping === "tei" ? "texts" : "documents";
  return c.mapping === "tei" ? "inputs" : c.mapping === "cohere" ? "texts" : "input";
}
const sentItems = (c: RetrievalCall): unknown[][] => bodies(c).map((b) => (Array.isArray(b[itemKey(c)]) ? (b[itemKey(c)] as unknown[]) : []));

/** The §8 default per-request cap, unless the construction block's chunk_size (§5.14) overrides it. */
function cap(c: RetrievalCall): number | undefined {
  const size = c.construction["chunk_size"] as number | undefined;
  if (size !== undefined) return size;
  if (c.operation === "rerank") return c.mapping === "tei" ? 32 : undefined;
  return { tei: 32, openai: 2048, cohere: 96 }[c.mapping];
}
function expectedSlices(c: RetrievalCall): string[][] {
  const all = items(c);
  const n = cap(c);
  if (n === undefined || all.length <= n) return [all];
  const out: string[][] = [];
  for (let i = 0; i < all.length; i += n) out.push(all.slice(i, i + n));
  return out;
}

// ---- oracles over the served bodies ---------------------------------------------------------

function decodeBase64(s: string): number[] | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return undefined;
  const b = Buffer.from(s, "base64");
  if (b.length % 4 !== 0) return undefined;
  return Array.from({ length: b.length / 4 }, (_, i) => b.readFloatLE(i * 4));
}
/** The vectors the served bodies carry, in input order, by each mapping's §8 response rule. */
function wireVectors(c: RetrievalCall): unknown[] {
  return c.served.flatMap((body) => {
    if (c.mapping === "tei") return body as unknown[];
    if (c.mapping === "cohere") return (get(body, "embeddings", "float") as unknown[] | undefined) ?? [];
    const data = [...((get(body, "data") as Json[] | undefined) ?? [])].sort((a, b) => (a["index"] as number) - (b["index"] as number));
    return data.map((d) => (typeof d["embedding"] === "string" ? decodeBase64(d["embedding"]) : d["embedding"]));
  });
}
const wireTokenPath: Readonly<Record<string, string[]>> = { openai: ["usage", "prompt_tokens"], "stand-in": ["usage", "prompt_tokens"], jina: ["usage", "prompt_tokens"], cohere: ["meta", "billed_units", "input_tokens"] };
/** §4 / §7: the stitched usage the served bodies imply (sum when every chunk reported a sound figure). */
function expectedEmbedUsage(c: RetrievalCall): Json | null {
  const path = wireTokenPath[c.mapping];
  if (!path) return null;
  const figures = c.served.map((b) => get(b, ...path) ?? (c.mapping === "jina" ? get(b, "usage", "total_tokens") : undefined));
  return figures.every(sound) ? { input_tokens: figures.reduce((a, b) => a + b, 0) } : null;
}
function expectedRerankUsage(c: RetrievalCall): Json | null {
  const one = (path: string[]): number | null => {
    const f = c.served.map((b) => get(b, ...path));
    return f.every(sound) ? f.reduce((a, b) => a + b, 0) : null;
  };
  const su = c.mapping === "cohere" || c.mapping === "stand-in" ? one(["meta", "billed_units", "search_units"]) : null;
  const it = c.mapping === "jina" ? one(["usage", "total_tokens"]) : c.mapping === "stand-in" ? one(["meta", "billed_units", "input_tokens"]) : null;
  return su === null && it === null ? null : { search_units: su, input_tokens: it };
}
/** §4 / §6: the first response's id when it is a non-empty string, else null. */
const expectedId = (c: RetrievalCall): string | null => {
  const id = get(c.served[0], "id");
  return typeof id === "string" && id.length > 0 ? id : null;
};
/** Every wire result with its absolute index and its echo as sent. */
function wireResults(c: RetrievalCall): Array<{ index: number; score: number; echo: unknown; hasEcho: boolean }> {
  let offset = 0;
  return c.served.flatMap((body, k) => {
    // A malformed served body (results not a list, entries not objects) implies no results.
    const raw: unknown = Array.isArray(body) ? body : get(body, "results");
    const list = (Array.isArray(raw) ? raw : []).filter(isObj) as Json[];
    const echoKey = c.mapping === "tei" ? "text" : "document";
    const out = list.map((r) => ({ index: offset + (r["index"] as number), score: (r[c.mapping === "tei" ? "score" : "relevance_score"] as number), echo: c.mapping === "cohere" ? undefined : r[echoKey], hasEcho: c.mapping !== "cohere" && Object.hasOwn(r, echoKey) }));
    offset += sentItems(c)[k]?.length ?? 0;
    return out;
  });
}
/** §6: the results the wire implies — sorted by score descending, top_k applied. */
function expectedRanking(c: RetrievalCall): Array<{ index: number; score: number }> {
  const all = wireResults(c).map(({ index, score }) => ({ index, score })).sort((a, b) => b.score - a.score);
  const k = topK(c);
  return k === undefined ? all : all.slice(0, k);
}
/** §6 `document` for one echo: string verbatim, object → string text or null, absent → null. */
function expectedEcho(echo: unknown): string | null {
  if (typeof echo === "string") return echo;
  if (isObj(echo)) return typeof echo["text"] === "string" ? echo["text"] : null;
  return null;
}

// ---- building blocks ------------------------------------------------------------------------

const holds = (ok: (c: RetrievalCall) => boolean, why: (c: RetrievalCall) => string): Test => (c) => (ok(c) ? null : why(c));
const all =
  (...tests: Test[]): Test =>
  (c, k) => {
    for (const t of tests) {
      const why = t(c, k);
      if (why !== null) return why;
    }
    return null;
  };
const raised = (cat: string): Test => holds((c) => category(c) === cat, (c) => `expected ${cat}, but ${describe(c)}`);
const raisedWithStatus = (cat: string, status: number): Test => all(raised(cat), holds((c) => (c.error as { status?: number }).status === status, () => `the error is not from the HTTP ${status} response`));
const failed = holds((c) => c.error !== undefined && category(c) !== undefined, describe);
const returned = holds((c) => c.response !== undefined, describe);
const noRequest = holds((c) => c.requests.length === 0, (c) => `${c.requests.length} request(s) were issued`);
const rejectedPreSend = all(raised("provider_invalid_request"), noRequest);
const nothingReturned = all(failed, holds((c) => c.response === undefined, () => "a response was returned"));
const notUnavailable = all(failed, holds((c) => category(c) !== "provider_unavailable", () => "mapped to provider_unavailable"));
const requests = (n: number): Test => holds((c) => c.requests.length === n, (c) => `${c.requests.length} request(s) were issued, not ${n}`);
const wire = (what: string, ok: (b: Json, c: RetrievalCall) => boolean): Test =>
  holds((c) => c.requests.length > 0 && bodies(c).every((b) => ok(b, c)), (c) => `${what} does not hold on the wire: ${c.requests.map((r) => r.bodyText).join(" | ") || "no request"}`);
const field = (key: string, value: unknown): Test => wire(`${key} = ${JSON.stringify(value)}`, (b) => deepEqual(b[key], value));
const omits = (key: string): Test => wire(`no '${key}'`, (b) => !Object.hasOwn(b, key));
const once = (key: string, value: (c: RetrievalCall) => unknown): Test =>
  holds(
    (c) => c.requests.length > 0 && c.requests.every((r) => r.repeatedMember === undefined && (r.bodyText ?? "").split(`"${key}"`).length === 2 && deepEqual(r.body?.[key], value(c))),
    (c) => `'${key}' is not sent exactly once as ${JSON.stringify(value(c))}: ${c.requests.map((r) => r.bodyText).join(" | ")}`,
  );

const vectorsMatchWire = holds((c) => emb(c) !== undefined && deepEqual(emb(c)!.vectors, wireVectors(c)), (c) => `vectors ${JSON.stringify(emb(c)?.vectors)} are not the wire's in input order ${JSON.stringify(wireVectors(c))}`);
const vectorAt = (i: number): Test => holds((c) => emb(c) !== undefined && deepEqual(emb(c)!.vectors[i], wireVectors(c)[i]), (c) => `vector ${i} is ${JSON.stringify(emb(c)?.vectors[i])}`);
const embedUsage = holds((c) => c.response !== undefined && deepEqual(emb(c)?.usage ?? null, expectedEmbedUsage(c)), (c) => `usage is ${JSON.stringify(emb(c)?.usage)}, the wire implies ${JSON.stringify(expectedEmbedUsage(c))}`);
const rerankUsage = holds((c) => c.response !== undefined && deepEqual(rr(c)?.usage ?? null, expectedRerankUsage(c)), (c) => `usage is ${JSON.stringify(rr(c)?.usage)}, the wire implies ${JSON.stringify(expectedRerankUsage(c))}`);
const usage: Test = (c, k) => (c.operation === "embed" ? embedUsage(c, k) : rerankUsage(c, k));
const usageNull = all(usage, holds((c) => (c.response as { usage: unknown }).usage === null, () => "usage is not null"));
const usagePresent = all(usage, holds((c) => (c.response as { usage: unknown }).usage !== null, () => "usage is null"));
const idFaithful = holds((c) => c.response !== undefined && (c.response as { response_id: unknown }).response_id === expectedId(c), (c) => `response_id is ${JSON.stringify((c.response as { response_id?: unknown } | undefined)?.response_id)}, the wire implies ${JSON.stringify(expectedId(c))}`);
const idNull = all(idFaithful, holds((c) => (c.response as { response_id: unknown }).response_id === null, () => "response_id is not null"));
const idPresent = all(idFaithful, holds((c) => (c.response as { response_id: unknown }).response_id !== null, () => "response_id is null"));
const rawVerbatim = holds(
  (c) => c.response !== undefined && deepEqual((c.response as { raw: unknown }).raw, c.served.length === 1 ? c.served[0] : c.served),
  (c) => `raw ${JSON.stringify((c.response as { raw?: unknown } | undefined)?.raw)} is not the served response(s) verbatim`,
);
const rawSingle = all(rawVerbatim, requests(1), holds((c) => !Array.isArray((c.response as { raw: unknown }).raw), () => "raw is a list"));
const rawList = all(rawVerbatim, holds((c) => c.requests.length > 1, () => "only one request was issued"));
const boundModel = holds((c) => c.response !== undefined && (c.response as { model: string }).model === ((c.input["model"] as string | undefined) ?? c.construction["model"]), (c) => `model is ${JSON.stringify((c.response as { model?: string } | undefined)?.model)}, not the bound id`);

const sorted = holds((c) => rr(c) !== undefined && rr(c)!.results.every((r, i, a) => i === 0 || a[i - 1]!.relevance_score >= r.relevance_score), (c) => `results are not sorted by score: ${JSON.stringify(rr(c)?.results)}`);
const validIndices = holds((c) => rr(c) !== undefined && rr(c)!.results.every((r) => Number.isInteger(r.index) && r.index >= 0 && r.index < items(c).length), () => "an index is outside the input documents");
const noDuplicates = holds((c) => rr(c) !== undefined && new Set(rr(c)!.results.map((r) => r.index)).size === rr(c)!.results.length, () => "an index appears twice");
const ranking = holds(
  (c) => rr(c) !== undefined && deepEqual(rr(c)!.results.map((r) => ({ index: r.index, score: r.relevance_score })), expectedRanking(c)),
  (c) => `results ${JSON.stringify(rr(c)?.results.map((r) => [r.index, r.relevance_score]))}, the wire implies ${JSON.stringify(expectedRanking(c).map((r) => [r.index, r.score]))}`,
);
const echoes = holds(
  (c) => {
    const byIndex = new Map(wireResults(c).map((w) => [w.index, w]));
    return rr(c) !== undefined && rr(c)!.results.every((r) => r.document === expectedEcho(byIndex.get(r.index)?.echo));
  },
  (c) => `documents ${JSON.stringify(rr(c)?.results.map((r) => r.document))} are not the §6 reading of the wire echoes`,
);
const someEcho = (what: string, ok: (echo: unknown, hasEcho: boolean) => boolean): Test => holds((c) => wireResults(c).some((w) => ok(w.echo, w.hasEcho)), () => `no result echoes ${what}`);
const allNullDocs = all(returned, holds((c) => rr(c)!.results.every((r) => r.document === null), () => "a document is not null"));
const resultCount = (ok: (n: number, c: RetrievalCall) => boolean, what: string): Test => all(returned, holds((c) => ok(rr(c)!.results.length, c), (c) => `${rr(c)!.results.length} results: not ${what}`));

const vectorsCount = all(returned, holds((c) => emb(c)!.vectors.length === items(c).length, (c) => `${emb(c)!.vectors.length} vectors for ${items(c).length} inputs`));
const sameDims = all(returned, holds((c) => emb(c)!.vectors.every((v) => v.length === emb(c)!.vectors[0]!.length), () => "vectors differ in dimensionality"));
const dimsField = all(returned, holds((c) => emb(c)!.vectors.every((v) => v.length === emb(c)!.dimensions), (c) => `dimensions ${emb(c)!.dimensions} is not the vector length`));

/** The requests carry consecutive slices of the input at the cap (§8 *Batch chunking*, §5.14). */
const chunked = holds((c) => deepEqual(sentItems(c), expectedSlices(c)), (c) => `sent slices of sizes ${JSON.stringify(sentItems(c).map((s) => s.length))}, expected ${JSON.stringify(expectedSlices(c).map((s) => s.length))}`);
const sizes = (n: number[]): Test => all(chunked, holds((c) => deepEqual(sentItems(c).map((s) => s.length), n), (c) => `chunk sizes ${JSON.stringify(sentItems(c).map((s) => s.length))}`));
const identicalParams = holds(
  (c) => {
    const rest = bodies(c).map((b) => {
      const { [itemKey(c)]: _items, ...others } = b;
      return others;
    });
    return rest.length > 0 && rest.every((r) => deepEqual(r, rest[0]));
  },
  () => "the requests differ in a field other than the chunked items",
);
const itemsInOrder = holds((c) => deepEqual(sentItems(c).flat(), items(c)), (c) => `the wire items ${JSON.stringify(sentItems(c).flat())} are not the inputs in order`);
const prefixedWith = (which: "query_prefix" | "document_prefix"): Test =>
  holds((c) => deepEqual(sentItems(c).flat(), items(c).map((s) => `${c.construction[which] as string}${s}`)), (c) => `the wire input ${JSON.stringify(sentItems(c).flat())} does not carry the ${which}`);
/** The body carries nothing beyond the mapping's minimal members for a symmetric / default call. */
const MINIMAL: Readonly<Record<string, string[]>> = {
  "embed openai": ["model", "input", "dimensions"],
  "embed tei": ["inputs", "prompt_name", "dimensions"],
  "embed jina": ["model", "input", "task", "dimensions", "truncate"],
  "embed cohere": ["model", "input_type", "texts", "embedding_types", "truncate", "output_dimension"],
  "rerank tei": ["query", "texts", "truncate", "return_text"],
  "rerank jina": ["model", "query", "documents", "top_n", "return_documents", "truncation"],
  "rerank cohere": ["model", "query", "documents", "top_n"],
};
const minimalBody = holds(
  (c) => c.requests.length > 0 && c.requests.every((r) => r.repeatedMember === undefined && Object.keys(r.body ?? {}).every((k) => (MINIMAL[`${c.operation} ${c.mapping}`] ?? []).includes(k)) && r.bodyText === JSON.stringify(r.body)),
  (c) => `the body is not the minimal default body: ${c.requests.map((r) => r.bodyText).join(" | ")}`,
);
const embeddingTypes = (c: RetrievalCall): unknown => first(c)["embedding_types"];
const extraPrecisions = (c: RetrievalCall): string[] => {
  const e = extras(c)["embedding_types"];
  return Array.isArray(e) && e.every((x) => typeof x === "string") ? (e as string[]) : [];
};
const mergedTypes = (c: RetrievalCall): string[] => [...new Set(["float", ...extraPrecisions(c)])];
const malformedExtrasTypes = holds((c) => Object.hasOwn(extras(c), "embedding_types") && extraPrecisions(c).length === 0 && extras(c)["embedding_types"] !== undefined && !(Array.isArray(extras(c)["embedding_types"]) && (extras(c)["embedding_types"] as unknown[]).length === 0), () => "the extras embedding_types is not malformed");
const inputTypeAbsent = holds((c) => config(c)["input_type"] === undefined || config(c)["input_type"] === null, () => "input_type is set");
const noDuplicateBytes = holds((c) => new Set(c.requests.map((r) => r.bodyText)).size === c.requests.length, () => "a request was sent twice (a retry)");

export const CLAIMS: Readonly<Record<string, Test>> = {
  // Raised errors.
  exception_raised_out_of_embed_call: all(failed, holds((c) => c.operation === "embed", () => "not an embed call")),
  exception_raised_out_of_rerank_call: all(failed, holds((c) => c.operation === "rerank", () => "not a rerank call")),
  provider_invalid_response_raised: raised("provider_invalid_response"),
  duplicate_index_detected: all(raised("provider_invalid_response"), holds((c) => new Set(wireResults(c).map((w) => w.index)).size < wireResults(c).length, () => "the wire has no duplicate index")),
  top_k_violation_detected: all(raised("provider_invalid_response"), holds((c) => topK(c) !== undefined && wireResults(c).length > topK(c)!, () => "the wire does not exceed top_k")),
  non_object_scalar_document_echo_detected: all(raised("provider_invalid_response"), someEcho("a number, boolean or array", (e) => e !== null && e !== undefined && typeof e !== "string" && !isObj(e))),
  non_conforming_embedding_shape_raises_provider_invalid_response: raised("provider_invalid_response"),
  malformed_base64_raises_provider_invalid_response: raised("provider_invalid_response"),
  malformed_base64_not_truncated_or_padded: nothingReturned,
  bare_400_maps_to_provider_invalid_request: raisedWithStatus("provider_invalid_request", 400),
  bare_400_not_misclassified_as_unavailable: notUnavailable,
  over_token_400_maps_to_provider_invalid_request: raisedWithStatus("provider_invalid_request", 400),
  rate_limit_not_misclassified_as_unavailable: all(raised("provider_rate_limit"), notUnavailable),
  no_retry_loop: all(failed, noDuplicateBytes, holds((c) => c.requests.length <= expectedSlices(c).length, (c) => `${c.requests.length} requests for ${expectedSlices(c).length} chunk(s)`)),
  fails_loud_no_embedding_response_stored: nothingReturned,
  no_embedding_response_stored_on_failure: nothingReturned,
  whole_call_fails_loud_no_partial_stitch: nothingReturned,
  no_truncated_vector_returned: nothingReturned,
  no_truncated_score_returned: nothingReturned,
  both_chunk_requests_reached_wire_before_raise: all(failed, requests(2), chunked),
  token_sub_chunker_would_issue_two_requests_and_fail: all(failed, chunked, requests(1)),
  multi_input_chunk_sent_as_one_request_not_token_sub_chunked: all(failed, chunked, requests(1), holds((c) => sentItems(c)[0]!.length > 1, () => "the request carries one input")),
  over_token_chunk_not_sub_chunked_by_tokens: all(failed, chunked),
  // Pre-send rejections (§5.15 and managed-field collisions).
  no_embed_request_issued: noRequest,
  no_rerank_request_issued: noRequest,
  conflicting_managed_truncate_rejected_pre_send: rejectedPreSend,
  conflicting_managed_truncation_rejected_pre_send: rejectedPreSend,
  declared_dimensions_conflict_rejected_pre_send: rejectedPreSend,
  task_managed_while_input_type_set_conflict_rejected_pre_send: all(rejectedPreSend, holds((c) => config(c)["input_type"] !== undefined, () => "input_type is not set")),
  conflicting_value_not_forwarded_to_wire: rejectedPreSend,
  conflicting_value_not_silently_dropped: rejectedPreSend,
  extras_dimensions_neither_dropped_nor_forwarded: rejectedPreSend,
  extras_task_neither_dropped_nor_forwarded: rejectedPreSend,
  // Returned without error.
  no_provider_invalid_response_raised: returned,
  no_error_raised_on_malformed_extras: returned,
  mapping_does_not_error_on_input_type: returned,
  mapping_does_not_error_on_return_documents: returned,
  classification_not_rejected_pre_send: all(returned, field("input_type", "classification")),
  clustering_not_rejected_pre_send: all(returned, field("input_type", "clustering")),
  // §4 embedding invariants and vectors.
  vectors_length_matches_input_length: vectorsCount,
  all_vectors_same_dimensionality: sameDims,
  dimensions_field_matches_inner_vector_length: dimsField,
  vectors_in_input_order: vectorsMatchWire,
  vectors_concatenated_in_input_order: all(vectorsMatchWire, chunked),
  decoded_vectors_in_input_order: vectorsMatchWire,
  base64_embedding_decoded_to_float_vector: all(vectorsMatchWire, holds((c) => c.served.some((b) => ((get(b, "data") as Json[] | undefined) ?? []).some((d) => typeof d["embedding"] === "string")), () => "no base64 embedding was served")),
  vectors_assembled_from_embeddings_float_in_input_order: vectorsMatchWire,
  vector_at_index_zero_matches_first_input: vectorAt(0),
  vector_at_index_one_matches_second_input: vectorAt(1),
  vector_at_index_two_matches_third_input: vectorAt(2),
  // Usage and ids (§4 / §6 / §7 malformed ancillary figures).
  prompt_tokens_maps_to_input_tokens: usagePresent,
  total_tokens_maps_to_input_tokens: usagePresent,
  billed_units_input_tokens_maps_to_input_tokens: usagePresent,
  input_tokens_summed_across_chunks: all(usagePresent, holds((c) => c.requests.length > 1, () => "one request")),
  billed_units_input_tokens_summed_across_chunks: all(usagePresent, holds((c) => c.requests.length > 1, () => "one request")),
  stitched_usage_is_sum_of_sound_chunk_figures: all(usagePresent, holds((c) => c.requests.length > 1, () => "one request")),
  malformed_input_tokens_not_reported_usage_null: usageNull,
  malformed_chunk_input_tokens_collapses_stitched_usage_null: all(usageNull, holds((c) => c.requests.length > 1, () => "one request")),
  stitched_usage_not_partial_sum_of_wellformed_chunks: usageNull,
  usage_not_coerced_or_fabricated: usage,
  input_tokens_null_when_cohere_omits: all(usage, holds((c) => rr(c)?.usage?.input_tokens === null || rr(c)?.usage === null, () => "input_tokens is not null")),
  search_units_maps_to_search_units: all(usagePresent, holds((c) => rr(c)?.usage?.search_units !== null, () => "search_units is null")),
  search_units_null_when_jina_omits: all(usage, holds((c) => rr(c)?.usage === null || rr(c)?.usage?.search_units === null, () => "search_units is not null")),
  usage_unaffected_by_empty_response_id: usagePresent,
  usage_unaffected_by_malformed_first_chunk_id: usagePresent,
  usage_unaffected_by_malformed_response_id: usagePresent,
  response_id_from_top_level_id: idPresent,
  response_id_from_first_chunk_id: all(idPresent, holds((c) => c.requests.length > 1, () => "one request")),
  response_id_null_openai_surfaces_none: idNull,
  response_id_null_tei_surfaces_none: idNull,
  response_id_null_when_jina_omits: idNull,
  response_id_null_when_openai_omits: idNull,
  malformed_response_id_nulled: idNull,
  malformed_first_chunk_id_nulled: idNull,
  no_fall_through_to_later_chunk_id: all(idNull, holds((c) => c.requests.length > 1, () => "one request")),
  empty_string_response_id_nulled: idNull,
  response_id_empty_string_not_surfaced: idNull,
  response_id_not_coerced_to_string: idNull,
  model_is_bound_id: boundModel,
  model_is_bound_id_when_cohere_omits_echo: boundModel,
  model_is_bound_id_when_tei_omits_echo: boundModel,
  // raw (§4 / §6).
  verbatim_response_preserved_on_raw: rawVerbatim,
  raw_is_single_verbatim_response_object_not_list: rawSingle,
  raw_is_list_of_per_chunk_response_objects: rawList,
  both_chunk_responses_preserved_verbatim_on_raw_list: rawList,
  raw_preserves_base64_strings_verbatim: rawVerbatim,
  verbatim_imagedoc_object_on_raw: rawVerbatim,
  verbatim_textdoc_object_on_raw: rawVerbatim,
  verbatim_mixed_shapes_on_raw: rawVerbatim,
  malformed_id_preserved_verbatim_on_raw: rawVerbatim,
  malformed_first_chunk_id_preserved_verbatim_on_raw: rawVerbatim,
  empty_id_preserved_verbatim_on_raw: rawVerbatim,
  malformed_value_preserved_verbatim_on_raw: rawVerbatim,
  extra_precision_preserved_on_raw: rawVerbatim,
  // §6 rerank invariants, ranking and echoes.
  results_sorted_by_relevance_descending: sorted,
  each_index_valid_into_input_documents: validIndices,
  no_duplicate_index_across_stitched_results: noDuplicates,
  chunk_local_indices_rebased_to_absolute_positions: ranking,
  results_globally_sorted_by_score_descending_across_chunks: all(ranking, sorted),
  top_k_honored_after_global_sort: all(ranking, holds((c) => topK(c) !== undefined, () => "no top_k")),
  result_indices_are_absolute_into_original_document_list: all(ranking, validIndices),
  result_count_equals_top_k: resultCount((n, c) => n === topK(c), "top_k"),
  result_count_at_most_top_k: resultCount((n, c) => topK(c) !== undefined && n <= topK(c)!, "at most top_k"),
  result_count_below_top_k_permitted: resultCount((n, c) => topK(c) !== undefined && n < topK(c)!, "below top_k"),
  result_count_at_most_document_count: resultCount((n, c) => n <= items(c).length, "at most the document count"),
  top_k_exceeding_document_count_permitted: resultCount((n, c) => topK(c) !== undefined && topK(c)! > items(c).length && n <= items(c).length, "a top_k above the document count"),
  result_count_matches_response: all(ranking, resultCount((n, c) => n === expectedRanking(c).length, "the wire's count")),
  document_null_when_provider_omits_echo: all(echoes, someEcho("nothing (an omitted echo)", (_e, has) => !has)),
  omitted_echo_left_null_not_autofilled: all(echoes, someEcho("nothing (an omitted echo)", (_e, has) => !has)),
  absent_echo_surfaced_as_null: all(echoes, someEcho("nothing (an omitted echo)", (e) => e === undefined || e === null)),
  echo_not_fabricated_from_input_documents: echoes,
  every_document_null_when_cohere_omits_echo: allNullDocs,
  echoed_document_preserved_verbatim: all(echoes, someEcho("a string", (e) => typeof e === "string")),
  echoed_documents_preserved_verbatim: all(echoes, someEcho("a string", (e) => typeof e === "string" || isObj(e))),
  echoed_text_preserved_verbatim_on_document: all(echoes, someEcho("text", (e) => typeof e === "string")),
  textdoc_object_unwrapped_to_text: all(echoes, someEcho("a TextDoc", (e) => isObj(e) && typeof e["text"] === "string")),
  imagedoc_maps_document_to_null: all(echoes, someEcho("an ImageDoc", (e) => isObj(e) && typeof e["text"] !== "string")),
  per_result_document_shape_variance_preserved: all(echoes, holds((c) => new Set(wireResults(c).map((w) => (w.echo === undefined ? "absent" : typeof w.echo === "string" ? "string" : "object"))).size > 1, () => "the echoes do not vary in shape")),
  empty_string_echo_present_surfaced_as_empty_string: all(echoes, someEcho('""', (e) => e === "")),
  // Request counts and chunking (§8 *Batch chunking*, §8.1 rerank chunking, §5.14).
  exactly_one_request_issued: requests(1),
  exactly_one_embed_request_issued: all(requests(1), holds((c) => c.operation === "embed", () => "not embed")),
  exactly_one_rerank_request_issued: all(requests(1), holds((c) => c.operation === "rerank", () => "not rerank")),
  exactly_two_embed_requests_issued: all(requests(2), chunked),
  exactly_three_embed_requests_issued: all(requests(3), chunked),
  exactly_three_rerank_requests_issued: all(requests(3), chunked),
  over_cap_request_chunked_not_sent_whole: all(chunked, holds((c) => c.requests.length > 1, () => "sent whole")),
  chunk_inputs_sizes_2_2_1_consecutive_slices: sizes([2, 2, 1]),
  chunk_texts_sizes_4_4_1_consecutive_slices: sizes([4, 4, 1]),
  chunk_texts_sizes_96_4_consecutive_slices: sizes([96, 4]),
  chunked_by_count_into_sizes_2_1: sizes([2, 1]),
  identical_per_call_params_across_chunks: all(identicalParams, holds((c) => c.requests.length > 1, () => "one request")),
  same_query_on_every_chunk_request: all(identicalParams, wire("the query", (b, c) => b["query"] === c.input["query"])),
  chunk_requests_omit_dimensions_and_encoding_format: all(omits("dimensions"), omits("encoding_format")),
  chunk_requests_omit_output_dimension: omits("output_dimension"),
  chunk_requests_omit_prompt_name_and_dimensions: all(omits("prompt_name"), omits("dimensions")),
  // Wire fields.
  authorization_bearer_header_present: holds(
    (c) => c.requests.length > 0 && c.requests.every((r) => r.headers.filter(([k]) => k === "authorization").map(([, v]) => v).join() === `Bearer ${c.construction["api_key"] as string}`),
    () => "a request lacks the bearer header of the bound api_key",
  ),
  wire_request_carries_model: wire("model = the bound model", (b, c) => b["model"] === ((c.input["model"] as string | undefined) ?? c.construction["model"])),
  wire_request_is_array_form: wire("the items as an array", (b, c) => Array.isArray(b[itemKey(c)])),
  wire_request_input_sent_verbatim: itemsInOrder,
  wire_request_documents_match_in_order: itemsInOrder,
  wire_request_texts_match_documents_in_order: itemsInOrder,
  wire_request_texts_match_in_order: itemsInOrder,
  wire_request_input_carries_query_prefix: prefixedWith("query_prefix"),
  wire_request_input_carries_document_prefix: prefixedWith("document_prefix"),
  wire_request_routes_to_base_url: holds((c) => c.requests.length > 0 && c.requests.every((r) => r.url.startsWith(`${c.construction["base_url"] as string}/`)), (c) => `requests went to ${c.requests.map((r) => r.url).join(", ")}`),
  wire_request_truncate_false: field("truncate", false),
  wire_request_truncate_none: field("truncate", "NONE"),
  wire_request_truncation_false: field("truncation", false),
  wire_request_return_documents_true: field("return_documents", true),
  wire_request_return_documents_false: field("return_documents", false),
  wire_request_return_documents_false_explicit: field("return_documents", false),
  wire_request_overrides_jina_true_default: field("return_documents", false),
  wire_request_return_text_true: field("return_text", true),
  wire_request_return_text_false: field("return_text", false),
  wire_request_carries_top_n_from_top_k: wire("top_n = top_k", (b, c) => b["top_n"] === topK(c)),
  wire_request_carries_input_type_search_query: field("input_type", "search_query"),
  wire_request_carries_input_type_search_document: field("input_type", "search_document"),
  wire_request_carries_input_type_classification: field("input_type", "classification"),
  wire_request_carries_input_type_clustering: field("input_type", "clustering"),
  wire_request_carries_input_type_search_document_when_input_type_absent: all(inputTypeAbsent, field("input_type", "search_document")),
  wire_request_input_type_search_document_default: all(inputTypeAbsent, field("input_type", "search_document")),
  wire_request_carries_prompt_name_query: field("prompt_name", "query"),
  wire_request_carries_prompt_name_passage: field("prompt_name", "passage"),
  wire_request_carries_task_retrieval_query: field("task", "retrieval.query"),
  wire_request_carries_task_retrieval_passage: field("task", "retrieval.passage"),
  wire_request_carries_task_text_matching: field("task", "text-matching"),
  wire_request_carries_dimensions_field: wire("dimensions = config.dimensions", (b, c) => b["dimensions"] === config(c)["dimensions"] && b["dimensions"] !== undefined),
  wire_request_carries_output_dimension_field: wire("output_dimension = config.dimensions", (b, c) => b["output_dimension"] === config(c)["dimensions"] && b["output_dimension"] !== undefined),
  wire_request_omits_input_type_field: omits("input_type"),
  wire_request_omits_output_dimension_when_dimensions_absent: all(holds((c) => config(c)["dimensions"] === undefined, () => "dimensions is set"), omits("output_dimension")),
  wire_request_omits_prompt_name_when_input_type_absent: all(inputTypeAbsent, omits("prompt_name")),
  wire_request_omits_task_when_input_type_absent: all(inputTypeAbsent, omits("task")),
  wire_request_omits_top_n_when_top_k_absent: all(holds((c) => topK(c) === undefined, () => "top_k is set"), omits("top_n")),
  wire_request_omits_return_documents: omits("return_documents"),
  wire_request_omits_return_documents_field: omits("return_documents"),
  wire_request_omits_truncation: omits("truncation"),
  wire_request_embedding_types_float: wire("embedding_types carries float", (b) => Array.isArray(b["embedding_types"]) && (b["embedding_types"] as unknown[]).includes("float")),
  wire_request_embedding_types_is_float_only: field("embedding_types", ["float"]),
  wire_request_embedding_types_contains_float: wire("embedding_types carries float", (b) => Array.isArray(b["embedding_types"]) && (b["embedding_types"] as unknown[]).includes("float")),
  wire_request_embedding_types_contains_float_exactly_once: wire("float once", (b) => Array.isArray(b["embedding_types"]) && (b["embedding_types"] as unknown[]).filter((x) => x === "float").length === 1),
  wire_request_embedding_types_contains_extras_precision: wire("the extras precision", (b, c) => extraPrecisions(c).length > 0 && extraPrecisions(c).every((p) => (b["embedding_types"] as unknown[] | undefined)?.includes(p))),
  wire_request_embedding_types_contains_all_extras_precisions: wire("every extras precision", (b, c) => extraPrecisions(c).length > 0 && extraPrecisions(c).every((p) => (b["embedding_types"] as unknown[] | undefined)?.includes(p))),
  extras_embedding_types_merged_not_replaced: holds((c) => c.requests.length > 0 && deepEqual(embeddingTypes(c), mergedTypes(c)), (c) => `embedding_types ${JSON.stringify(embeddingTypes(c))}, expected ${JSON.stringify(mergedTypes(c))}`),
  managed_float_not_dropped_by_extras: holds((c) => Array.isArray(embeddingTypes(c)) && (embeddingTypes(c) as unknown[])[0] === "float", (c) => `embedding_types ${JSON.stringify(embeddingTypes(c))}`),
  caller_supplied_float_not_duplicated: all(holds((c) => extraPrecisions(c).includes("float"), () => "the extras do not name float"), holds((c) => deepEqual(embeddingTypes(c), mergedTypes(c)), (c) => `embedding_types ${JSON.stringify(embeddingTypes(c))}`)),
  malformed_extras_embedding_types_treated_as_absent: all(malformedExtrasTypes, field("embedding_types", ["float"])),
  malformed_list_not_salvaged: all(malformedExtrasTypes, field("embedding_types", ["float"])),
  encoding_format_base64_forwarded_to_wire: field("encoding_format", "base64"),
  extras_task_rides_untouched_to_wire: all(inputTypeAbsent, wire("task = the extras task", (b, c) => b["task"] === extras(c)["task"] && b["task"] !== undefined)),
  input_type_absent_no_managed_task: all(inputTypeAbsent, returned),
  matching_extras_truncate_is_noop: all(returned, holds((c) => Object.hasOwn(extras(c), "truncate"), () => "no extras truncate"), wire("truncate as managed", (b, c) => (c.mapping === "tei" && c.operation === "embed" ? !Object.hasOwn(b, "truncate") : deepEqual(b["truncate"], extras(c)["truncate"])))),
  matching_extras_truncation_is_noop: all(returned, holds((c) => Object.hasOwn(extras(c), "truncation"), () => "no extras truncation"), field("truncation", false)),
  matching_extras_dimensions_no_op: all(returned, holds((c) => deepEqual(extras(c)["dimensions"], config(c)["dimensions"]), () => "the extras dimensions differs"), once("dimensions", (c) => config(c)["dimensions"])),
  wire_truncate_is_managed_none_unduplicated: once("truncate", () => "NONE"),
  wire_truncation_is_managed_false_unduplicated: once("truncation", () => false),
  wire_dimensions_is_declared_value_once: once("dimensions", (c) => config(c)["dimensions"]),
  wire_body_byte_identical_to_default_path: minimalBody,
  wire_body_byte_identical_to_symmetric_path: minimalBody,
};

const NUMBERS: Readonly<Record<string, number>> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };
/** A Jina task written in a claim name: `retrieval_query` → `retrieval.query`, `text_matching` → `text-matching`. */
const taskOf = (v: string): string => (v.startsWith("retrieval_") ? `retrieval.${v.slice("retrieval_".length)}` : v.replace(/_/g, "-"));

/**
 * Claim families, for the names the fixtures spell by a pattern (a held-back fixture naming another
 * member of a family is read by the same rule). An exact name above wins over a family.
 */
export const CLAIM_FAMILIES: ReadonlyArray<readonly [RegExp, (g: Readonly<Record<string, string>>) => Test]> = [
  [/^exactly_(?<n>one|two|three|four|five|six)_(?:(?<op>embed|rerank)_)?requests?_issued$/, (g) => all(requests(NUMBERS[g["n"]!]!), holds((c) => g["op"] === undefined || c.operation === g["op"], (c) => `the call is ${c.operation}`))],
  [/^wire_request_carries_input_type_(?<v>[a-z_]+)$/, (g) => field("input_type", g["v"])],
  [/^wire_request_carries_prompt_name_(?<v>[a-z0-9_]+)$/, (g) => field("prompt_name", g["v"])],
  [/^wire_request_carries_task_(?<v>[a-z0-9_]+)$/, (g) => field("task", taskOf(g["v"]!))],
  [/^wire_request_return_(?<f>documents|text)_(?<v>true|false)(?:_explicit)?$/, (g) => field(`return_${g["f"]}`, g["v"] === "true")],
  [/^wire_request_omits_(?<f>[a-z_]+?)(?:_field)?(?:_when_[a-z_]+)?$/, (g) => omits(g["f"]!)],
  [/^chunk_requests_omit_(?<fs>[a-z_]+)$/, (g) => all(...g["fs"]!.split("_and_").map(omits))],
  [/^chunk_(?:inputs|texts|documents)_sizes_(?<s>\d+(?:_\d+)+)_consecutive_slices$/, (g) => sizes(g["s"]!.split("_").map(Number))],
  [/^chunked_by_count_into_sizes_(?<s>\d+(?:_\d+)*)$/, (g) => sizes(g["s"]!.split("_").map(Number))],
];
