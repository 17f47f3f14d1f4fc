/**
 * Named claims of the observability fixtures about the typed LLM and tool events (their meaning is
 * the fixture prose that uses them, conformance-adapter §5.9), as a claim table. Each reads the
 * events the case's typed_observers collectors retained during the call (the union, in delivery
 * order) and the call's outcome.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { TypedEvents, type CollectedEvent } from "../../harness/observability/typed-events.ts";
import * as F from "../../harness/graph/facets.ts";
import { classify } from "../../harness/graph/reading.ts";
import { show } from "../../harness/suspension/claims.ts";
import { LlmResponses } from "../../harness/observability/llm.ts";
import type { Response } from "../../src/llm/index.ts";

type Rec = Readonly<Record<string, unknown>>;

interface EventView {
  readonly events: readonly CollectedEvent[];
  readonly result: F.CallResult | undefined;
  /** The responses the call's LLM calls returned (an LLM-mock case records them). */
  readonly responses: readonly Response[];
}

function read(obs: Observation, ctx: CheckContext): EventView | null {
  const all = obs.get(TypedEvents, ctx.locate(ctx.self.path));
  const seen = new Set<unknown>();
  const merged: CollectedEvent[] = [];
  // Every collector saw the same delivery order: merge by the longest one, then the others' extras.
  for (const list of [...all.values()].sort((a, b) => b.length - a.length)) {
    for (const e of list) {
      if (seen.has(e.event)) continue;
      seen.add(e.event);
      merged.push(e);
    }
  }
  merged.sort((a, b) => ((a.event as { timestamp?: number }).timestamp ?? 0) - ((b.event as { timestamp?: number }).timestamp ?? 0));
  return { events: merged, result: obs.tryGet(F.Result), responses: obs.tryGet(LlmResponses) ?? [] };
}

const of = (v: EventView, type: string): Rec[] => v.events.filter((e) => e.type === type).map((e) => e.record);
const tokens = (v: EventView) => of(v, "LlmTokenEvent");
const completions = (v: EventView) => of(v, "LlmCompletionEvent");
const failures = (v: EventView) => of(v, "LlmFailedEvent");

function count(type: string, n: number): (v: EventView) => string | null {
  return (v) => {
    const got = of(v, type).length;
    return got === n ? null : `${got} ${type} retained (expected ${n})`;
  };
}

function raised(v: EventView, category?: string): string | null {
  const r = v.result;
  if (r === undefined || r.kind !== "errored") return `the call did not raise (${r?.kind ?? "no result"})`;
  if (category === undefined) return null;
  const c = classify(r.error).category;
  return c === category ? null : `the call raised ${c}, not ${category}`;
}

function callIds(records: readonly Rec[]): string | null {
  const bad = records.filter((r) => typeof r["call_id"] !== "string" || r["call_id"] === "");
  return bad.length ? `${bad.length} events carry no non-empty call_id (${show(bad.map((r) => r["call_id"]))})` : null;
}

function distinct(values: readonly unknown[], what: string): string | null {
  return new Set(values).size === values.length ? null : `${what} repeat: ${show(values)}`;
}

function allOf(...checks: Array<string | null>): string | null {
  return checks.find((c) => c !== null) ?? null;
}

/** Token events share one call_id, which is the terminal event's. */
function tokensLinked(v: EventView, terminal: readonly Rec[]): string | null {
  const ids = new Set(tokens(v).map((t) => t["call_id"]));
  if (ids.size !== 1) return `token events carry ${ids.size} call ids`;
  const [id] = [...ids];
  return terminal.some((t) => t["call_id"] === id) ? null : `the token events' call_id ${show(id)} is no terminal event's`;
}

function chunkIndicesFromZero(records: readonly Rec[]): string | null {
  const idx = records.map((r) => r["chunk_index"]);
  return idx.every((x, i) => x === i) ? null : `chunk indices ${show(idx)} are not 0, 1, 2, ...`;
}

const concat = (records: readonly Rec[], kind?: string): string =>
  records.filter((r) => kind === undefined || r["delta_kind"] === kind).map((r) => String(r["delta"])).join("");

function contentIs(v: EventView, want: () => string): string | null {
  const c = completions(v);
  if (c.length !== 1) return `${c.length} LlmCompletionEvent retained`;
  return c[0]!["output_content"] === want() ? null : `output_content ${show(c[0]!["output_content"])} is not ${show(want())}`;
}

function kindsInOrder(v: EventView): string | null {
  const kinds = tokens(v).map((t) => t["delta_kind"]);
  const firstContent = kinds.indexOf("content");
  const lastReasoning = kinds.lastIndexOf("reasoning");
  if (lastReasoning < 0) return "no reasoning token event";
  return firstContent < 0 || lastReasoning < firstContent ? null : `delta kinds ${show(kinds)}: reasoning after content`;
}

/** The reasoning deltas concatenate to the text of the response's thinking block(s). */
function thinkingAssembled(v: EventView): string | null {
  const reasoning = concat(tokens(v), "reasoning");
  if (reasoning === "") return "no reasoning deltas";
  const content = v.responses[v.responses.length - 1]?.message.content;
  const thinking = Array.isArray(content) ? content.filter((b) => b.type === "thinking").map((b) => (b as { text: string }).text).join("") : "";
  return thinking === reasoning ? null : `the response's thinking text ${show(thinking)} is not the reasoning deltas ${show(reasoning)}`;
}

const ONE_TERMINAL = (v: EventView) => allOf(count("LlmCompletionEvent", 1)(v), count("LlmFailedEvent", 0)(v));

const rows: ClaimRow<EventView>[] = [
  // 051 type discrimination
  { name: "type_discrimination_filter_works", section: "observability 051", summary: "the filtered collector retains LlmCompletionEvents only", check: (v) => (v.events.length > 0 ? null : "nothing retained") },
  { name: "type_filtered_count_independent_of_sentinel_emission", section: "observability 051", summary: "exactly one LlmCompletionEvent per call, whatever sentinel NodeEvents exist", check: count("LlmCompletionEvent", 1) },
  // 052 caller metadata opt-in
  { name: "opt_in_disabled_yields_null_caller_metadata", section: "observability 052", summary: "without the opt-in caller_invocation_metadata is null", check: (v) => (completions(v).every((c) => c["caller_invocation_metadata"] === null) && completions(v).length > 0 ? null : "caller_invocation_metadata is set") },
  {
    name: "opt_in_enabled_yields_snapshot_caller_metadata",
    section: "observability 052",
    summary: "with the opt-in caller_invocation_metadata is the in-scope metadata",
    check: (v) => (completions(v).length > 0 && completions(v).every((c) => c["caller_invocation_metadata"] !== null && typeof c["caller_invocation_metadata"] === "object") ? null : "caller_invocation_metadata is not a mapping"),
  },
  {
    name: "snapshot_is_immutable_mapping",
    section: "observability 052",
    summary: "the snapshot is a frozen mapping",
    check: (v) => (completions(v).every((c) => Object.isFrozen(c["caller_invocation_metadata"])) && completions(v).length > 0 ? null : "the snapshot is mutable"),
  },
  // 053 no completion event on failure
  { name: "no_typed_event_on_failure", section: "observability 053", summary: "no LlmCompletionEvent for a failed call", check: count("LlmCompletionEvent", 0) },
  { name: "failure_surfaces_via_exception_path", section: "observability 053", summary: "the failure raised out of the call", check: (v) => raised(v) },
  // 060-068 field population
  {
    name: "input_messages_populated_unconditionally",
    section: "observability 060",
    summary: "input_messages is populated with payload off",
    check: (v) => (completions(v).length > 0 && completions(v).every((c) => Array.isArray(c["input_messages"]) && (c["input_messages"] as unknown[]).length > 0) ? null : "input_messages empty"),
  },
  {
    name: "input_messages_shape_matches_llm_provider_section_3",
    section: "observability 060",
    summary: "each input message is a {role, content, ...} record",
    check: (v) => (completions(v).flatMap((c) => c["input_messages"] as Rec[]).every((m) => typeof m["role"] === "string" && "content" in m) ? null : "a message lacks role / content"),
  },
  {
    name: "output_content_null_when_tool_calls_present_with_empty_content",
    section: "observability 061",
    summary: "a tool-call-only response has null output_content and its tool calls",
    check: (v) => (completions(v).some((c) => c["output_content"] === null && Array.isArray(c["output_tool_calls"])) ? null : "no completion with null output_content and tool calls"),
  },
  {
    name: "request_extras_is_native_mapping_not_json_string",
    section: "observability 063",
    summary: "request_extras is a mapping",
    check: (v) => (completions(v).length > 0 && completions(v).every((c) => typeof c["request_extras"] === "object" && c["request_extras"] !== null && !Array.isArray(c["request_extras"])) ? null : "request_extras is not a mapping"),
  },
  { name: "active_prompt_null_parallels_prompt_attr_absence_on_span", section: "observability 065", summary: "active_prompt is null outside a prompt context", check: (v) => (completions(v).length > 0 && completions(v).every((c) => c["active_prompt"] === null) ? null : "active_prompt is set") },
  { name: "all_call_ids_present", section: "observability 067", summary: "every completion event carries a call_id", check: (v) => callIds(completions(v)) },
  { name: "all_call_ids_are_non_empty_strings", section: "observability 067", summary: "every call_id is a non-empty string", check: (v) => callIds(completions(v)) },
  { name: "call_ids_pairwise_distinct", section: "observability 067", summary: "the calls' call_ids differ", check: (v) => distinct(completions(v).map((c) => c["call_id"]), "call ids") },
  {
    name: "response_model_distinct_from_request_model",
    section: "observability 068",
    summary: "response_model is the provider's, model the requested one",
    check: (v) => (completions(v).some((c) => typeof c["response_model"] === "string" && c["response_model"] !== c["model"]) ? null : "response_model equals model or is absent"),
  },
  { name: "response_model_null_when_absent_from_response", section: "observability 068", summary: "response_model is null when the response names none", check: (v) => (completions(v).some((c) => c["response_model"] === null) ? null : "response_model is set") },
  // 071 / 072 failure event
  { name: "completion_event_call_id_present_and_non_empty", section: "observability 071", summary: "the completion event carries a call_id", check: (v) => allOf(completions(v).length ? null : "no completion event", callIds(completions(v))) },
  { name: "failed_event_call_id_present_and_non_empty", section: "observability 071", summary: "the failure event carries a call_id", check: (v) => allOf(failures(v).length ? null : "no failure event", callIds(failures(v))) },
  { name: "completion_and_failed_event_call_ids_distinct", section: "observability 071", summary: "the success and failure call_ids differ", check: (v) => distinct([...completions(v), ...failures(v)].map((c) => c["call_id"]), "call ids") },
  { name: "exactly_one_llm_failed_event_per_failed_call", section: "observability 072", summary: "one LlmFailedEvent for the failed call", check: count("LlmFailedEvent", 1) },
  { name: "zero_llm_completion_events_per_failed_call", section: "observability 072", summary: "no LlmCompletionEvent for the failed call", check: count("LlmCompletionEvent", 0) },
  { name: "exactly_one_llm_failed_event_observed", section: "observability 120", summary: "one LlmFailedEvent", check: count("LlmFailedEvent", 1) },
  { name: "zero_llm_completion_events_on_failed_call", section: "observability 120", summary: "no LlmCompletionEvent", check: count("LlmCompletionEvent", 0) },
  { name: "exception_propagates_alongside_typed_event", section: "observability 075 / 120", summary: "the call raised and a failure event was dispatched", check: (v) => allOf(raised(v), v.events.some((e) => ["LlmFailedEvent", "ToolCallFailedEvent", "EmbeddingFailedEvent", "RerankFailedEvent"].includes(e.type)) ? null : "no failure event") },
  { name: "finish_reason_is_stop_not_truncation", section: "observability 121", summary: "the failed response's finish_reason is stop", check: (v) => (failures(v).some((f) => f["finish_reason"] === "stop") ? null : `finish_reason ${show(failures(v).map((f) => f["finish_reason"]))}`) },
  {
    name: "response_side_surface_null_for_non_structured_output_failure",
    section: "observability 122",
    summary: "a non-body failure carries no response-side fields",
    check: (v) => (failures(v).length > 0 && failures(v).every((f) => ["output_content", "finish_reason", "usage", "response_id", "response_model"].every((k) => f[k] === null)) ? null : "a response-side field is set"),
  },
  // 092-095 tool events
  { name: "exactly_one_tool_call_event_observed", section: "observability 092", summary: "one ToolCallEvent", check: count("ToolCallEvent", 1) },
  {
    name: "tool_call_event_carries_full_field_set",
    section: "observability 092",
    summary: "the ToolCallEvent carries identity, call_id, tool fields, result",
    check: (v) => {
      const e = of(v, "ToolCallEvent")[0];
      if (!e) return "no ToolCallEvent";
      const missing = ["invocation_id", "correlation_id", "node_name", "namespace", "attempt_index", "call_id", "tool_name", "tool_call_id", "arguments", "result", "latency_ms"].filter((k) => !(k in e));
      return missing.length ? `missing ${missing.join(", ")}` : null;
    },
  },
  { name: "latency_ms_present", section: "observability 092", summary: "latency_ms is a non-negative number", check: (v) => (v.events.filter((e) => e.type.startsWith("ToolCall")).every((e) => typeof e.record["latency_ms"] === "number" && (e.record["latency_ms"] as number) >= 0) && v.events.some((e) => e.type.startsWith("ToolCall")) ? null : "latency_ms missing") },
  { name: "zero_tool_call_failed_events_on_success", section: "observability 092", summary: "no ToolCallFailedEvent", check: count("ToolCallFailedEvent", 0) },
  { name: "exactly_one_tool_call_failed_event_observed", section: "observability 093", summary: "one ToolCallFailedEvent", check: count("ToolCallFailedEvent", 1) },
  { name: "no_error_category_field_on_tool_failure_event", section: "observability 093", summary: "the tool failure event carries no error_category", check: (v) => (of(v, "ToolCallFailedEvent").every((e) => !("error_category" in e)) ? null : "error_category present") },
  { name: "zero_tool_call_events_on_failure", section: "observability 093", summary: "no ToolCallEvent", check: count("ToolCallEvent", 0) },
  {
    name: "tool_call_id_matches_requesting_llm_output_tool_calls_id",
    section: "observability 095",
    summary: "the tool event's tool_call_id is an id the LLM requested",
    check: (v) => {
      const ids = completions(v).flatMap((c) => ((c["output_tool_calls"] as Rec[] | null) ?? []).map((t) => t["id"]));
      const t = of(v, "ToolCallEvent")[0];
      return t && ids.includes(t["tool_call_id"]) ? null : `tool_call_id ${show(t?.["tool_call_id"])} not among ${show(ids)}`;
    },
  },
  { name: "standalone_tool_call_id_is_null", section: "observability 095", summary: "a standalone execution's tool_call_id is null", check: (v) => (of(v, "ToolCallEvent").some((t) => t["tool_call_id"] === null) ? null : "tool_call_id is set") },
  // 111-118 token events
  { name: "n_content_chunks_emit_n_token_events", section: "observability 111", summary: "one token event per content chunk", check: (v) => (tokens(v).length === 3 ? null : `${tokens(v).length} token events`) },
  { name: "chunk_index_monotonic_from_zero", section: "observability 111", summary: "chunk_index 0, 1, 2, ...", check: (v) => chunkIndicesFromZero(tokens(v)) },
  { name: "ordered_deltas_concatenate_to_assembled_content", section: "observability 111", summary: "the deltas concatenate to the terminal content", check: (v) => contentIs(v, () => concat(tokens(v), "content")) },
  { name: "all_token_event_call_ids_match_terminal_completion_event", section: "observability 111", summary: "token events share the completion's call_id", check: (v) => tokensLinked(v, completions(v)) },
  { name: "exactly_one_terminal_llm_completion_event", section: "observability 111", summary: "one terminal LlmCompletionEvent", check: ONE_TERMINAL },
  { name: "zero_token_events_on_non_streamed_call", section: "observability 112", summary: "no token events without stream", check: count("LlmTokenEvent", 0) },
  { name: "exactly_one_llm_completion_event", section: "observability 112", summary: "one LlmCompletionEvent", check: count("LlmCompletionEvent", 1) },
  { name: "atomic_path_unchanged_by_streaming_capability", section: "observability 112", summary: "a non-streamed call is one completion event, no tokens", check: (v) => allOf(count("LlmTokenEvent", 0)(v), count("LlmCompletionEvent", 1)(v)) },
  { name: "tool_call_argument_deltas_emit_no_token_events", section: "observability 113", summary: "tool-call deltas emit no token events", check: (v) => (tokens(v).every((t) => t["delta_kind"] === "content" || t["delta_kind"] === "reasoning") ? null : "a tool-call token event") },
  { name: "no_tool_call_kind_token_events", section: "observability 113", summary: "no delta_kind tool_call", check: (v) => (tokens(v).some((t) => t["delta_kind"] === "tool_call") ? "a tool_call token event" : null) },
  { name: "only_content_kind_token_events_emitted", section: "observability 113", summary: "every token event is content", check: (v) => (tokens(v).length > 0 && tokens(v).every((t) => t["delta_kind"] === "content") ? null : `delta kinds ${show(tokens(v).map((t) => t["delta_kind"]))}`) },
  {
    name: "terminal_output_tool_calls_reassembled_complete_and_parsed",
    section: "observability 113",
    summary: "the terminal event carries the reassembled, parsed tool calls",
    check: (v) => (completions(v).some((c) => Array.isArray(c["output_tool_calls"]) && (c["output_tool_calls"] as Rec[]).every((t) => typeof t["arguments"] === "object" && t["arguments"] !== null)) ? null : "no parsed output_tool_calls"),
  },
  {
    name: "reassembled_tool_calls_identical_to_non_streamed",
    section: "observability 113",
    summary: "the reassembled tool calls have the {id, name, arguments} shape",
    check: (v) => (completions(v).some((c) => ((c["output_tool_calls"] as Rec[] | null) ?? []).every((t) => typeof t["id"] === "string" && typeof t["name"] === "string")) ? null : "malformed tool calls"),
  },
  { name: "partial_token_events_fire_before_failure", section: "observability 114", summary: "the partial token events precede the failure event", check: (v) => {
    const types = v.events.map((e) => e.type);
    const f = types.indexOf("LlmFailedEvent");
    return f > 0 && types.lastIndexOf("LlmTokenEvent") < f && types.includes("LlmTokenEvent") ? null : `event order ${show(types)}`;
  } },
  { name: "exactly_one_terminal_llm_failed_event", section: "observability 114", summary: "one LlmFailedEvent", check: count("LlmFailedEvent", 1) },
  { name: "zero_llm_completion_events_on_failed_stream", section: "observability 114", summary: "no LlmCompletionEvent", check: count("LlmCompletionEvent", 0) },
  { name: "no_llm_token_failed_event_variant_exists", section: "observability 114", summary: "no event besides token / failure events was dispatched for the call", check: (v) => (v.events.some((e) => /TokenFailed/.test(e.type)) ? "a token failure variant" : null) },
  { name: "exception_propagates_out_of_complete", section: "observability 114", summary: "the call raised", check: (v) => raised(v) },
  {
    name: "token_events_group_by_call_id_into_two_streams",
    section: "observability 115",
    summary: "the token events carry two call ids",
    check: (v) => (new Set(tokens(v).map((t) => t["call_id"])).size === 2 ? null : `${new Set(tokens(v).map((t) => t["call_id"])).size} call ids`),
  },
  ...[1, 2].map((n): ClaimRow<EventView> => ({
    name: `call${n}_token_events_share_call${n}_completion_call_id`,
    section: "observability 115",
    summary: `call ${n}'s token events carry its completion's call_id`,
    check: (v) => {
      const c = completions(v)[n - 1];
      if (!c) return `no completion event ${n}`;
      const mine = tokens(v).filter((t) => t["call_id"] === c["call_id"]);
      return mine.length > 0 ? null : `no token event carries call ${n}'s call_id`;
    },
  })),
  { name: "two_call_ids_distinct_and_non_null", section: "observability 115", summary: "two distinct non-empty call ids", check: (v) => allOf(callIds(completions(v)), completions(v).length === 2 ? null : `${completions(v).length} completions`, distinct(completions(v).map((c) => c["call_id"]), "call ids")) },
  {
    name: "chunk_index_restarts_at_zero_per_call",
    section: "observability 115",
    summary: "each call's chunk_index starts at 0",
    check: (v) => allOf(...[...new Set(tokens(v).map((t) => t["call_id"]))].map((id) => chunkIndicesFromZero(tokens(v).filter((t) => t["call_id"] === id)))),
  },
  { name: "all_token_events_share_one_call_id", section: "observability 116", summary: "one call_id across the token events", check: (v) => (new Set(tokens(v).map((t) => t["call_id"])).size === 1 ? null : "several call ids") },
  { name: "token_event_call_id_matches_terminal_completion_event", section: "observability 116", summary: "the token events' call_id is the completion's", check: (v) => tokensLinked(v, completions(v)) },
  { name: "all_token_events_node_level_attempt_index_zero", section: "observability 116", summary: "token events carry node-level attempt_index 0", check: (v) => (tokens(v).every((t) => t["attempt_index"] === 0) ? null : "attempt_index not 0") },
  { name: "wire_retry_does_not_advance_node_level_attempt_index", section: "observability 116", summary: "every event carries attempt_index 0", check: (v) => (v.events.filter((e) => e.type.startsWith("Llm")).every((e) => e.record["attempt_index"] === 0) ? null : "attempt_index advanced") },
  { name: "no_per_attempt_typed_event_for_caught_transient", section: "observability 116", summary: "no failure event for the caught transient", check: count("LlmFailedEvent", 0) },
  { name: "assembled_response_reflects_successful_attempt_only", section: "observability 116", summary: "the content is the successful attempt's", check: (v) => contentIs(v, () => concat(tokens(v), "content")) },
  { name: "reasoning_content_field_recognized_as_reasoning_kind", section: "observability 118", summary: "reasoning_content deltas are reasoning token events", check: (v) => (tokens(v).some((t) => t["delta_kind"] === "reasoning") ? null : "no reasoning token event") },
  { name: "reasoning_field_recognized_as_reasoning_kind", section: "observability 118", summary: "reasoning deltas are reasoning token events", check: (v) => (tokens(v).some((t) => t["delta_kind"] === "reasoning") ? null : "no reasoning token event") },
  { name: "reasoning_deltas_precede_content_deltas", section: "observability 118", summary: "reasoning before content", check: kindsInOrder },
  { name: "reasoning_assembles_into_terminal_thinking_block", section: "observability 118", summary: "the reasoning deltas assemble into the response", check: thinkingAssembled },
  { name: "content_assembles_into_message_content", section: "observability 118", summary: "the content deltas concatenate to the terminal content", check: (v) => contentIs(v, () => concat(tokens(v), "content")) },
  { name: "ordered_reasoning_then_content_chunk_indices", section: "observability 118", summary: "chunk indices run 0.. across both kinds", check: (v) => allOf(chunkIndicesFromZero(tokens(v)), kindsInOrder(v)) },
  { name: "both_reasoning_field_names_produce_identical_token_events", section: "observability 118", summary: "the reasoning field yields the same token event shape", check: (v) => (tokens(v).some((t) => t["delta_kind"] === "reasoning") ? null : "no reasoning token event") },
  // 149 malformed counters (event side)
  {
    name: "event_usage_prompt_tokens_null_not_verbatim_wire_value",
    section: "observability 149",
    summary: "the malformed prompt_tokens is null on the event",
    check: (v) => (completions(v).some((c) => (c["usage"] as Rec | null)?.["prompt_tokens"] === null) ? null : "prompt_tokens is not null"),
  },
  {
    name: "event_usage_is_present_record_of_nulls_not_null_record",
    section: "observability 149",
    summary: "usage is a present record of null counters",
    check: (v) => (completions(v).some((c) => c["usage"] !== null && typeof c["usage"] === "object" && ["prompt_tokens", "completion_tokens", "total_tokens"].every((k) => (c["usage"] as Rec)[k] === null)) ? null : "usage is not a record of nulls"),
  },
];

registerClaims("observability", read, rows);
