/**
 * Named claims about LLM provider and tool-execution spans (observability §5.5, §5.5.10, §5.5.11;
 * llm-provider §7.1 call-level retry spans), as a claim table over the spans the call exported —
 * the §6.3 capture of a graph case, or a traced bare llm-provider call.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { parentId, spanId, statusName } from "../../harness/observability/spans.ts";
import { show } from "../../harness/suspension/claims.ts";
import { byStart, callSpans, LLM_SPAN } from "./llm-spans.ts";

const TOOL_SPAN = "openarmature.tool.call";

interface SpanView {
  readonly all: readonly ReadableSpan[];
  readonly llm: readonly ReadableSpan[];
  readonly tools: readonly ReadableSpan[];
}

function read(obs: Observation, ctx: CheckContext): SpanView | null {
  const all = callSpans(obs, ctx);
  if (all === null) return null;
  return { all, llm: all.filter((s) => s.name === LLM_SPAN).sort(byStart), tools: all.filter((s) => s.name === TOOL_SPAN) };
}

const a = (s: ReadableSpan, k: string): unknown => s.attributes[k];
const has = (s: ReadableSpan, k: string): boolean => Object.hasOwn(s.attributes, k);

function one(spans: readonly ReadableSpan[], what: string): ReadableSpan | string {
  return spans.length === 1 ? spans[0]! : `${spans.length} ${what} spans`;
}

function allHave(spans: readonly ReadableSpan[], keys: readonly string[], what: string): string | null {
  if (spans.length === 0) return `no ${what} span`;
  const missing = spans.flatMap((s) => keys.filter((k) => !has(s, k)));
  return missing.length ? `missing ${[...new Set(missing)].join(", ")}` : null;
}

function noneHave(spans: readonly ReadableSpan[], keys: readonly string[], what: string): string | null {
  if (spans.length === 0) return `no ${what} span`;
  const present = spans.flatMap((s) => keys.filter((k) => has(s, k)));
  return present.length ? `${what} span carries ${[...new Set(present)].join(", ")}` : null;
}

const USAGE_IN = ["openarmature.llm.usage.prompt_tokens", "gen_ai.usage.input_tokens"];
const USAGE_ALL = [...USAGE_IN, "openarmature.llm.usage.completion_tokens", "gen_ai.usage.output_tokens", "openarmature.llm.usage.total_tokens"];
const CACHE_READ = "openarmature.llm.cache_read.input_tokens";
const CACHE_CREATE = "openarmature.llm.cache_creation.input_tokens";
const TC = "openarmature.llm.output.tool_calls";

const rows: ClaimRow<SpanView>[] = [
  // cache attributes (040-042)
  { name: "cache_read_attribute_equals_usage_field", section: "observability 040", summary: "cache_read.input_tokens carries usage.cached_tokens", check: (v) => (v.llm.some((s) => typeof a(s, CACHE_READ) === "number") ? null : "no cache_read attribute") },
  { name: "cache_creation_attribute_absent_for_openai_compatible", section: "observability 040", summary: "no cache_creation attribute", check: (v) => noneHave(v.llm, [CACHE_CREATE], "LLM") },
  { name: "cache_attribute_absent_when_field_unpopulated", section: "observability 041", summary: "no cache attributes when the provider reports none", check: (v) => noneHave(v.llm, [CACHE_READ, CACHE_CREATE], "LLM") },
  { name: "absent_distinct_from_zero", section: "observability 041", summary: "an unreported cache count is absent, not 0", check: (v) => noneHave(v.llm, [CACHE_READ], "LLM") },
  { name: "cache_read_attribute_emits_zero_when_reported", section: "observability 042", summary: "a reported 0 emits 0", check: (v) => (v.llm.some((s) => a(s, CACHE_READ) === 0) ? null : `cache_read ${show(v.llm.map((s) => a(s, CACHE_READ)))}`) },
  { name: "reported_zero_distinct_from_absent", section: "observability 042", summary: "a reported 0 is present", check: (v) => allHave(v.llm, [CACHE_READ], "LLM") },
  // call-level retry spans (llm-provider 056-066, observability 057)
  {
    name: "n_attempts_emit_n_llm_spans",
    section: "llm-provider 056",
    summary: "one LLM span per wire attempt, attempt_index 0..N-1",
    check: (v) => {
      const idx = v.llm.map((s) => a(s, "openarmature.llm.attempt_index"));
      return v.llm.length > 0 && idx.every((x, i) => x === i) ? null : `attempt indices ${show(idx)}`;
    },
  },
  { name: "attempt_index_attribute_distinct_per_span", section: "llm-provider 056", summary: "every attempt span has its own attempt_index", check: (v) => (new Set(v.llm.map((s) => a(s, "openarmature.llm.attempt_index"))).size === v.llm.length && v.llm.length > 0 ? null : "attempt indices repeat") },
  { name: "every_attempt_span_carries_error_category", section: "llm-provider 057", summary: "every attempt span is ERROR with a category", check: (v) => (v.llm.length > 0 && v.llm.every((s) => statusName(s) === "ERROR" && typeof a(s, "openarmature.error.category") === "string") ? null : "an attempt span is not an error") },
  { name: "exactly_one_llm_span_when_retry_absent", section: "observability 057", summary: "one LLM span without call-level retry", check: (v) => (v.llm.length === 1 ? null : `${v.llm.length} LLM spans`) },
  { name: "exactly_one_attempt_span_for_non_transient", section: "llm-provider 058", summary: "a non-transient failure is one attempt span", check: (v) => (v.llm.length === 1 ? null : `${v.llm.length} LLM spans`) },
  { name: "attempt_index_defaults_to_zero", section: "observability 057", summary: "attempt_index 0", check: (v) => (v.llm.length > 0 && v.llm.every((s) => a(s, "openarmature.llm.attempt_index") === 0) ? null : "attempt_index not 0") },
  { name: "baseline_attributes_still_emit_alongside_attempt_index", section: "observability 057", summary: "model / finish_reason / usage beside attempt_index", check: (v) => allHave(v.llm, ["openarmature.llm.model", "openarmature.llm.finish_reason", "openarmature.llm.attempt_index"], "LLM") },
  {
    name: "retry_reason_discriminates_reask_vs_transient_in_one_loop",
    section: "llm-provider 066",
    summary: "attempt 0 has no retry_reason; later attempts carry reask / transient",
    check: (v) => {
      const reasons = v.llm.map((s) => a(s, "openarmature.llm.retry_reason") ?? null);
      return reasons[0] === null && reasons.includes("reask") && reasons.includes("transient") ? null : `retry reasons ${show(reasons)}`;
    },
  },
  // tool-call request projections (085-087)
  {
    name: "tool_call_names_and_ids_index_aligned",
    section: "observability 085",
    summary: ".names and .ids are equal-length",
    check: (v) => (v.llm.some((s) => Array.isArray(a(s, `${TC}.names`)) && (a(s, `${TC}.names`) as unknown[]).length === (a(s, `${TC}.ids`) as unknown[] | undefined)?.length) ? null : "names / ids misaligned"),
  },
  { name: "tool_call_arrays_in_request_order", section: "observability 085", summary: "the arrays follow the requested order", check: (v) => (v.llm.some((s) => Array.isArray(a(s, `${TC}.ids`))) ? null : "no tool_calls.ids") },
  { name: "count_equals_names_length", section: "observability 085", summary: ".count is the length of .names", check: (v) => (v.llm.some((s) => a(s, `${TC}.count`) === (a(s, `${TC}.names`) as unknown[] | undefined)?.length) ? null : "count differs from names length") },
  { name: "tool_call_attributes_omitted_when_none_requested", section: "observability 086", summary: "no tool-call projections without requested tools", check: (v) => noneHave(v.llm, [`${TC}.count`, `${TC}.names`, `${TC}.ids`, TC], "LLM") },
  { name: "identity_projections_survive_payload_off", section: "observability 087", summary: "the identity projections emit with payload off", check: (v) => allHave(v.llm, [`${TC}.count`, `${TC}.names`, `${TC}.ids`], "LLM") },
  { name: "gated_output_tool_calls_suppressed_when_payload_off", section: "observability 087", summary: "the full serialization is gated", check: (v) => noneHave(v.llm, [TC], "LLM") },
  { name: "identity_projections_present_regardless_of_flag", section: "observability 087", summary: "the projections emit with payload on", check: (v) => allHave(v.llm, [`${TC}.count`, `${TC}.names`, `${TC}.ids`, TC], "LLM") },
  // tool spans (096-097)
  { name: "payload_off_suppresses_tool_arguments_and_result", section: "observability 096", summary: "no tool payload attributes by default", check: (v) => noneHave(v.tools, ["openarmature.tool.call.arguments", "openarmature.tool.call.result"], "tool") },
  { name: "identity_attributes_present_with_payload_off", section: "observability 096", summary: "tool name / call id with payload off", check: (v) => allHave(v.tools, ["openarmature.tool.name", "openarmature.tool.call.id"], "tool") },
  { name: "payload_on_populates_tool_arguments_and_result", section: "observability 096", summary: "arguments / result with payload on", check: (v) => allHave(v.tools, ["openarmature.tool.call.arguments", "openarmature.tool.call.result"], "tool") },
  { name: "tool_span_name_is_openarmature_tool_call", section: "observability 097", summary: "the tool span is openarmature.tool.call", check: (v) => (v.tools.length === 1 ? null : `${v.tools.length} openarmature.tool.call spans`) },
  { name: "oa_namespace_tool_attributes_emitted", section: "observability 097", summary: "openarmature.tool.* attributes", check: (v) => allHave(v.tools, ["openarmature.tool.name"], "tool") },
  { name: "gen_ai_tool_attributes_not_emitted_in_v1", section: "observability 097", summary: "no gen_ai.tool.* attributes", check: (v) => (v.tools.some((s) => Object.keys(s.attributes).some((k) => k.startsWith("gen_ai.tool."))) ? "a gen_ai.tool.* attribute" : v.tools.length ? null : "no tool span") },
  { name: "execute_tool_span_name_not_used", section: "observability 097", summary: "no execute_tool span", check: (v) => (v.all.some((s) => s.name.startsWith("execute_tool")) ? "an execute_tool span" : null) },
  // streaming stays atomic (117)
  { name: "exactly_one_llm_complete_span_under_stream", section: "observability 117", summary: "one LLM span for a streamed call", check: (v) => (v.llm.length === 1 ? null : `${v.llm.length} LLM spans`) },
  { name: "no_per_token_child_spans", section: "observability 117", summary: "the LLM span has no children", check: (v) => (v.all.some((s) => v.llm.some((l) => parentId(s) === spanId(l))) ? "the LLM span has children" : v.llm.length ? null : "no LLM span") },
  {
    name: "span_output_is_full_assembled_content",
    section: "observability 117",
    summary: "output.content is the assembled stream",
    check: (v) => {
      const s = one(v.llm, "LLM");
      return typeof s === "string" ? s : typeof a(s, "openarmature.llm.output.content") === "string" ? null : "no output.content";
    },
  },
  // lineage-resolved parents (132, 133, 152; the ones comparing the tree with the call's lineage are in lineage-claims.ts)
  { name: "llm_provider_span_count", section: "observability 132", summary: "the number of LLM spans", schema: { type: "integer", minimum: 0 }, check: (v, n) => (v.llm.length === n ? null : `${v.llm.length} LLM spans`) },
  // null usage counters (144, 149)
  { name: "input_usage_attributes_omitted_when_prompt_tokens_null", section: "observability 144", summary: "no input usage attributes for a null prompt_tokens", check: (v) => noneHave(v.llm, USAGE_IN, "LLM") },
  { name: "output_and_total_usage_attributes_emitted_when_sound", section: "observability 144", summary: "output / total usage still emit", check: (v) => allHave(v.llm, ["openarmature.llm.usage.completion_tokens", "gen_ai.usage.output_tokens", "openarmature.llm.usage.total_tokens"], "LLM") },
  { name: "gen_ai_input_tokens_never_sourced_from_null_counter", section: "observability 144", summary: "no gen_ai.usage.input_tokens", check: (v) => noneHave(v.llm, ["gen_ai.usage.input_tokens"], "LLM") },
  { name: "malformed_wire_prompt_tokens_nulled_before_event_and_span", section: "observability 149", summary: "the malformed counter reaches no span attribute", check: (v) => noneHave(v.llm, USAGE_IN, "LLM") },
  { name: "span_omits_both_input_usage_attributes_on_malformed_wire_counter", section: "observability 149", summary: "both input usage attributes absent", check: (v) => noneHave(v.llm, USAGE_IN, "LLM") },
  { name: "all_three_malformed_wire_counters_nulled_before_event_and_span", section: "observability 149", summary: "no usage attribute at all", check: (v) => noneHave(v.llm, USAGE_ALL, "LLM") },
  { name: "span_omits_all_usage_attributes_when_all_counters_malformed", section: "observability 149", summary: "no usage attribute at all", check: (v) => noneHave(v.llm, USAGE_ALL, "LLM") },
];

registerClaims("observability", read, rows);
registerClaims("llm-provider", read, rows.filter((r) => ["n_attempts_emit_n_llm_spans", "attempt_index_attribute_distinct_per_span", "every_attempt_span_carries_error_category", "exactly_one_attempt_span_for_non_transient", "retry_reason_discriminates_reask_vs_transient_in_one_loop"].includes(String(r.name))));
