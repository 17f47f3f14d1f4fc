/**
 * Named claims of the llm-provider fixtures (conformance-adapter §5 *Named claims*, §5.9): their
 * meaning comes from the fixture prose that uses them. Each is checked against the real call —
 * what the provider returned or raised, the wire requests the mock captured, the stream events,
 * the retry sleeps and the caller's inputs before and after. Claims about LLM spans
 * (`n_attempts_emit_n_llm_spans`, ...) wait for the observability capability and are not defined.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { DECLARED_CONFIG_FIELDS, deepEqual, mergeConfig, type RuntimeConfig } from "../../src/llm/index.ts";
import type { LlmCall } from "../../harness/llm/facets.ts";
import { completionRequests, describeCall, llmCall } from "../../harness/llm/reading.ts";

type Json = Record<string, unknown>;
/** A claim's test: `null` when it holds, else why not. */
type Test = (call: LlmCall) => string | null;

const firstBody = (c: LlmCall): Json => bodies(c)[0] ?? {};

function categoryOf(call: LlmCall): string | undefined {
  return (call.error as { category?: string } | undefined)?.category;
}
function bodies(call: LlmCall): Json[] {
  return completionRequests(call).map((r) => r.body ?? {});
}
function extras(call: LlmCall): Json {
  return ((call.input["config"] as Json | undefined)?.["extras"] as Json | undefined) ?? {};
}
function config(call: LlmCall): RuntimeConfig {
  return (call.input["config"] as RuntimeConfig | undefined) ?? {};
}
function maxAttempts(call: LlmCall): number {
  return ((call.input["retry"] as Json | undefined)?.["max_attempts"] as number | undefined) ?? 3;
}
function servedContent(s: LlmCall["served"][number]): unknown {
  return ((((s.body as Json | undefined)?.["choices"] as Json[] | undefined)?.[0]?.["message"] as Json | undefined) ?? {})["content"];
}
/** The wire realization of a config's declared fields (OpenAI names). */
function declaredOnWire(c: RuntimeConfig): Json {
  const out: Json = {};
  for (const f of DECLARED_CONFIG_FIELDS) {
    const v = c[f];
    if (v !== undefined && v !== null) out[f === "stop_sequences" ? "stop" : f] = v;
  }
  return out;
}
function declaredOf(body: Json): Json {
  const out: Json = {};
  for (const f of [...DECLARED_CONFIG_FIELDS, "stop"]) if (Object.hasOwn(body, f)) out[f] = body[f];
  delete out["stop_sequences"];
  return out;
}
/** Messages each attempt appended after the caller's. */
function appended(call: LlmCall): Json[][] {
  const base = (JSON.parse(call.messagesBefore) as unknown[]).length;
  return bodies(call).map((b) => ((b["messages"] as Json[] | undefined) ?? []).slice(base));
}
/** The realized stop list of the first request, and the extras key colliding with it, per mapping. */
const STOP_KEY: Readonly<Record<string, string>> = { openai: "stop", anthropic: "stop_sequences", gemini: "stopSequences" };
function wireStop(call: LlmCall): unknown {
  const body = firstBody(call);
  const key = STOP_KEY[call.mapping] ?? "stop";
  return call.mapping === "gemini" ? ((body["generationConfig"] as Json | undefined) ?? {})[key] : body[key];
}
function stopUnion(call: LlmCall): unknown[] {
  const declared = (config(call).stop_sequences ?? []) as unknown[];
  const extra = extras(call)[STOP_KEY[call.mapping] ?? "stop"];
  const list = typeof extra === "string" ? [extra] : Array.isArray(extra) ? extra : [];
  const out: unknown[] = [];
  for (const s of [...declared, ...list]) if (!out.some((o) => deepEqual(o, s))) out.push(s);
  return out;
}

const raised = (category: string): Test => (c) => (categoryOf(c) === category ? null : `expected ${category}, but ${describeCall(c)}`);
const noRequest: Test = (c) => (c.requests.length === 0 ? null : `${c.requests.length} request(s) were issued`);
const returned: Test = (c) => (c.response !== undefined ? null : describeCall(c));
const all =
  (...tests: Test[]): Test =>
  (c) => {
    for (const t of tests) {
      const why = t(c);
      if (why !== null) return why;
    }
    return null;
  };
const holds = (ok: (c: LlmCall) => boolean, why: (c: LlmCall) => string): Test => (c) => (ok(c) ? null : why(c));
const rejectedPreSend = all(raised("provider_invalid_request"), noRequest);
const configUnmutated = holds((c) => c.configBefore === c.configAfter, (c) => `config changed: ${c.configBefore} → ${c.configAfter}`);
const messagesUnmutated = holds((c) => c.messagesBefore === c.messagesAfter, (c) => `messages changed: ${c.messagesBefore} → ${c.messagesAfter}`);
const usageVerbatim = holds(
  (c) => c.response !== undefined && deepEqual((c.response.raw as Json)["usage"], (c.served[c.served.length - 1]?.body as Json | undefined)?.["usage"]),
  (c) => `raw.usage is ${JSON.stringify((c.response?.raw as Json | undefined)?.["usage"])}, not the wire's usage verbatim`,
);
const terminalUsage = (c: LlmCall): Json | undefined =>
  ([...(c.served[c.served.length - 1]?.streamBody ?? [])].reverse().find((x) => typeof x === "object" && x !== null && "usage" in x) as Json | undefined)?.["usage"] as Json | undefined;
const templateOf = (c: LlmCall): string | undefined => ((c.input["retry"] as Json | undefined)?.["reask"] as Json | undefined)?.["template"] as string | undefined;
function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
/** Does the retry at attempt i follow a reask (a new assistant/user pair), as opposed to a transient? */
const reaskAt = (c: LlmCall, i: number): boolean => (appended(c)[i]?.length ?? 0) > (appended(c)[i - 1]?.length ?? 0);
const scheduleApplied = (c: LlmCall, from: number): string | null => {
  const schedule = ((c.input["retry"] as Json | undefined)?.["per_attempt_override"] as RuntimeConfig[] | undefined) ?? [];
  const bs = bodies(c);
  for (let i = from; i < bs.length; i++) {
    const want = i === 0 || schedule.length === 0 ? config(c) : mergeConfig(config(c), schedule[Math.min(i - 1, schedule.length - 1)]);
    if (!deepEqual(declaredOf(bs[i]!), declaredOnWire(want))) return `attempt ${i} sent ${JSON.stringify(declaredOf(bs[i]!))}, expected ${JSON.stringify(declaredOnWire(want))}`;
  }
  return null;
};

// 076 / 080: the declared stop list merged with the caller's extras (declared first, de-duplicated).
const mergedStop = holds((c) => deepEqual(wireStop(c), stopUnion(c)), (c) => `the wire stop list is ${JSON.stringify(wireStop(c))}, expected ${JSON.stringify(stopUnion(c))}`);
const declaredFirst = holds(
  (c) => deepEqual(((wireStop(c) as unknown[] | undefined) ?? []).slice(0, config(c).stop_sequences?.length ?? 0), config(c).stop_sequences ?? []),
  () => "the declared stop sequences do not come first",
);
const collapsed = holds((c) => deepEqual(wireStop(c), stopUnion(c)) && stopUnion(c).length === 1, (c) => `the wire stop list is ${JSON.stringify(wireStop(c))}`);

const CLAIMS: Readonly<Record<string, Test>> = {
  // 056–058: call-level retry.
  call_returns_successful_response_after_transient_retry: all(returned, holds((c) => completionRequests(c).length > 1, () => "no retry happened")),
  exhaustion_propagates_final_error: all(
    holds((c) => c.error !== undefined, describeCall),
    holds((c) => completionRequests(c).length === maxAttempts(c), (c) => `${completionRequests(c).length} attempts, max_attempts is ${maxAttempts(c)}`),
    holds((c) => (c.error as { status?: number }).status === c.served[c.served.length - 1]?.status, () => "the raised error is not the final attempt's"),
  ),
  non_transient_exits_retry_loop_on_first_occurrence: all(
    holds((c) => c.error !== undefined, describeCall),
    holds((c) => completionRequests(c).length === 1, (c) => `${completionRequests(c).length} attempts were made`),
  ),
  no_backoff_sleep_invoked: holds((c) => c.sleeps.length === 0, (c) => `backoff slept ${c.sleeps.length} time(s)`),
  // 060: a mapping without streaming rejects stream-set calls pre-send.
  stream_unsupported_mapping_rejects_pre_send: all(rejectedPreSend, holds((c) => /stream/i.test((c.error as Error).message), () => "the message does not identify streaming")),
  rejection_category_is_provider_invalid_request: raised("provider_invalid_request"),
  no_silent_atomic_fallback: all(noRequest, holds((c) => c.response === undefined, () => "a response was returned")),
  no_token_events_on_rejected_stream: holds((c) => c.events.every((e) => e.type !== "text_delta" && e.type !== "reasoning_delta"), () => "token events were emitted"),
  atomic_call_unaffected_by_streaming_rejection: all(returned, holds((c) => !Object.hasOwn(firstBody(c), "stream"), () => "the atomic request carries stream")),
  // 061, 065: the per-attempt override schedule.
  base_attempt_uses_caller_config: holds((c) => bodies(c).length > 0 && scheduleApplied({ ...c, requests: completionRequests(c).slice(0, 1) }, 0) === null, (c) => scheduleApplied(c, 0) ?? "no request"),
  per_attempt_override_applies_to_retries_only: (c) => scheduleApplied(c, 0),
  caller_config_unmutated: configUnmutated,
  caller_messages_unmutated: messagesUnmutated,
  // 062–066: reask.
  reask_makes_structured_output_invalid_retryable: all(returned, holds((c) => bodies(c).some((_, i) => i > 0 && reaskAt(c, i)), () => "no reask retry happened")),
  appended_assistant_message_is_exactly_model_output: holds(
    (c) => {
      const assistants = (appended(c).at(-1) ?? []).filter((m) => m["role"] === "assistant").map((m) => m["content"]);
      const outputs = c.served.filter((s) => s.status === 200).map(servedContent);
      return assistants.length > 0 && deepEqual(assistants, outputs.slice(0, assistants.length));
    },
    () => "the appended assistant messages are not the model's outputs verbatim",
  ),
  appended_user_correction_is_exactly_builder_output: holds(
    (c) => {
      const t = templateOf(c);
      const msgs = appended(c).at(-1) ?? [];
      if (t === undefined || msgs.length === 0) return false;
      for (let j = 0; j + 1 < msgs.length; j += 2) {
        const pattern = t.split(/(\{output_content\}|\{error_message\})/).map((p) => (p === "{output_content}" ? escape(String(msgs[j]!["content"])) : p === "{error_message}" ? "[\\s\\S]*" : escape(p))).join("");
        if (msgs[j + 1]!["role"] !== "user" || !new RegExp(`^${pattern}$`).test(String(msgs[j + 1]!["content"]))) return false;
      }
      return true;
    },
    () => "an appended user message is not exactly the rendered template",
  ),
  reask_exhausts_max_attempts_budget: all(raised("structured_output_invalid"), holds((c) => completionRequests(c).length === maxAttempts(c), (c) => `${completionRequests(c).length} attempts for max_attempts ${maxAttempts(c)}`)),
  final_structured_output_invalid_propagates: all(
    raised("structured_output_invalid"),
    holds((c) => (c.error as { output_content?: unknown }).output_content === servedContent(c.served[c.served.length - 1]!), () => "the raised error is not the final attempt's"),
  ),
  override_and_reask_compose_on_reask_retries: all(
    (c) => scheduleApplied(c, 1),
    holds((c) => bodies(c).every((_, i) => i === 0 || reaskAt(c, i)), () => "a retry did not append a reask pair"),
  ),
  reask_transcript_accumulates_across_retries: holds(
    (c) => {
      const a = appended(c);
      return a.length > 2 && a.every((m, i) => i === 0 || (m.length >= a[i - 1]!.length && deepEqual(m.slice(0, a[i - 1]!.length), a[i - 1])));
    },
    (c) => `appended per attempt: ${JSON.stringify(appended(c).map((m) => m.length))}`,
  ),
  transient_retry_carries_accumulated_reask_transcript: holds(
    (c) => {
      const a = appended(c);
      let seen = false;
      for (let i = 1; i < a.length; i++) {
        if (c.served[i - 1]?.status !== 200) {
          seen = true;
          if (!deepEqual(a[i], a[i - 1])) return false;
        }
      }
      return seen && a.some((m) => m.length > 0);
    },
    () => "a transient retry changed the transcript (or none carried a reask transcript)",
  ),
  // 068–071: malformed usage counters.
  raw_usage_prompt_tokens_verbatim_malformed: usageVerbatim,
  raw_usage_all_counters_verbatim_malformed: usageVerbatim,
  raw_usage_input_tokens_verbatim_malformed: usageVerbatim,
  terminal_chunk_usage_preserved_verbatim_on_raw: holds((c) => c.response !== undefined && deepEqual((c.response.raw as Json)["usage"], terminalUsage(c)), () => "raw.usage is not the terminal chunk's usage verbatim"),
  malformed_terminal_counter_nulled_on_normalized_usage: holds(
    (c) => {
      const wire = terminalUsage(c) ?? {};
      const usage = (c.response?.usage ?? {}) as Json;
      return Object.entries(wire).every(([k, v]) => !(k in usage) || (typeof v === "number" && Number.isInteger(v) && v >= 0 ? usage[k] === v : usage[k] === null));
    },
    (c) => `usage ${JSON.stringify(c.response?.usage)} vs terminal ${JSON.stringify(terminalUsage(c))}`,
  ),
  usage_and_finish_reason_sourced_from_terminal_chunks: holds(
    (c) => {
      const chunks = (c.served[c.served.length - 1]?.streamBody ?? []).filter((x) => typeof x === "object") as Json[];
      const finishes = chunks.flatMap((x) => ((x["choices"] as Json[] | undefined) ?? []).map((ch) => ch["finish_reason"]).filter((f) => f !== null && f !== undefined));
      const t = terminalUsage(c) ?? {};
      return c.response !== undefined && c.response.finish_reason === finishes.at(-1) && c.response.usage.total_tokens === (t["total_tokens"] ?? null);
    },
    () => "finish_reason / usage are not the terminal chunks'",
  ),
  // 073–077: managed-field collisions.
  no_request_issued: noRequest,
  conditionally_managed_stream_options_conflict_rejected_pre_send: rejectedPreSend,
  stream_options_neither_dropped_nor_forwarded: rejectedPreSend,
  non_streaming_stream_options_unmanaged_rides_untouched: all(
    returned,
    holds((c) => deepEqual(firstBody(c)["stream_options"], extras(c)["stream_options"]) && !Object.hasOwn(firstBody(c), "stream"), (c) => `the body carries ${JSON.stringify(firstBody(c))}`),
  ),
  managed_structural_model_conflict_rejected_pre_send: all(rejectedPreSend, holds((c) => /model/.test((c.error as Error).message), () => "the message does not name model")),
  bound_model_not_silently_overridden: holds((c) => bodies(c).every((b) => b["model"] !== extras(c)["model"]), () => "a request carried the extras model"),
  extras_model_neither_dropped_nor_forwarded: rejectedPreSend,
  declared_scalar_temperature_conflict_rejected_pre_send: rejectedPreSend,
  declared_temperature_not_silently_overridden: holds((c) => bodies(c).every((b) => b["temperature"] === config(c).temperature), () => "a request carried another temperature"),
  extras_temperature_neither_dropped_nor_forwarded: rejectedPreSend,
  matching_extras_temperature_no_op: all(returned, holds((c) => firstBody(c)["temperature"] === config(c).temperature, () => "the wire temperature is not the declared one")),
  wire_temperature_is_declared_value_once: holds(
    (c) => {
      const r = completionRequests(c)[0];
      return r !== undefined && r.repeatedMember === undefined && (r.bodyText?.split('"temperature"').length ?? 0) === 2 && r.body?.["temperature"] === config(c).temperature;
    },
    () => "the wire does not carry the declared temperature exactly once",
  ),
  wire_stop_is_merged_union: mergedStop,
  wire_stopSequences_merged_under_generationConfig: mergedStop,
  declared_stop_first_in_merge_order: declaredFirst,
  declared_first_in_merge_order: declaredFirst,
  matching_stop_collapses_to_single_element: collapsed,
  matching_stopSequences_collapses_to_single_element: collapsed,
  scalar_string_extras_stop_coerced_to_list: holds((c) => typeof extras(c)["stop"] === "string" && Array.isArray(wireStop(c)) && (wireStop(c) as unknown[]).includes(extras(c)["stop"]), () => "the scalar extras stop was not merged as a list element"),
  streaming_call_conflicting_stream_rejected_pre_send: all(rejectedPreSend, holds((c) => c.input["stream"] === true, () => "the call is not streaming")),
  unary_call_conflicting_stream_rejected_pre_send: all(rejectedPreSend, holds((c) => c.input["stream"] !== true, () => "the call is streaming")),
  stream_neither_dropped_nor_forwarded: rejectedPreSend,
  stream_always_managed_on_unary_side: all(rejectedPreSend, holds((c) => c.input["stream"] !== true && extras(c)["stream"] !== undefined, () => "not a unary call with an extras stream")),
  matching_extras_stream_no_op: all(returned, holds((c) => !Object.hasOwn(firstBody(c), "stream"), () => "the body carries stream")),
  wire_carries_no_stream_key: holds((c) => completionRequests(c).length > 0 && bodies(c).every((b) => !Object.hasOwn(b, "stream")), () => "a request carries stream"),
};

for (const [name, test] of Object.entries(CLAIMS)) {
  class NamedClaim {
    readonly scope = "call" as const;
    readonly schema = { type: "boolean" };
    check(value: boolean, obs: Observation, ctx: CheckContext): void {
      const why = test(llmCall(obs, ctx));
      ctx.match(value, why === null, null);
      if (value && why !== null) ctx.fail(`${name} does not hold: ${why}`);
    }
  }
  Object.defineProperty(NamedClaim, "name", { value: `Claim_${name}` });
  directive({ name, at: "invariant", home: "llm-provider", summary: "named claim (fixture prose)" })(NamedClaim);
}
