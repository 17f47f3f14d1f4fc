/**
 * Named claims about the one typed Langfuse observation a call renders — the Generation,
 * Embedding, Retriever or Tool observation under its node span (observability 035, 083, 098, 108,
 * 117, 123, 137, 142, 148, 150, 151; §8.4.2–§8.4.5) — as a claim table over the §6.4 fake's
 * recorded trace. A claim about "the observation" requires exactly one non-span observation in the
 * main trace; one naming a failure's category or literal error fields compares against what the
 * case itself fixes (its `expected_error.category`, its mock's `raises`).
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { CaseSpec } from "../../src/conformance/fixture-model.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { capturedLangfuseAll, useLangfuseCapture, type CapturedLangfuse, type RecordedObservation } from "../../harness/observability/langfuse.ts";
import { show } from "../../harness/suspension/claims.ts";
import { all, traceIdIsInvocationId, withMain } from "./langfuse-claims.ts";

/** What these claims read: the captured Langfuse traces and what the case fixes about its failure. */
export interface ObservationView {
  readonly lf: CapturedLangfuse;
  /** The case's `expected_error.category`, if any. */
  readonly category: string | undefined;
  /** The first `raises: {error_type, message}` the case's mocks declare, if any. */
  readonly raises: { readonly error_type: string; readonly message: string } | undefined;
  /** The streamed content the case's `mock_llm_stream` chunks carry, joined (null: no stream mock). */
  readonly streamed: string | null;
}

type Obs = RecordedObservation;

/** Check the one non-span observation of the main trace. */
function theObservation(v: ObservationView, check: (o: Obs) => string | null): string | null {
  return withMain(v.lf, (t) => {
    const typed = all(t.observations).filter((o) => o.type !== "span");
    if (typed.length !== 1) return `${typed.length} non-span observations (${show(typed.map((o) => `${o.type} ${o.name}`))}), expected exactly one`;
    return check(typed[0]!);
  });
}

const absent = (x: unknown): boolean => x === undefined || x === null;
const nonEmpty = (x: unknown): boolean => typeof x === "string" && x.length > 0;
const usageKeys = (o: Obs): string[] => Object.keys(o.usageDetails ?? {});

function ofType(type: string): (v: ObservationView) => string | null {
  return (v) => theObservation(v, (o) => (o.type === type ? null : `the observation ${o.name} is a ${show(o.type)}, expected ${show(type)}`));
}

const payloadOff = (v: ObservationView): string | null =>
  theObservation(v, (o) => (absent(o.input) && absent(o.output) ? null : `input ${show(o.input)}, output ${show(o.output)}: expected both suppressed`));

const payloadOn = (v: ObservationView): string | null =>
  theObservation(v, (o) => (!absent(o.input) && !absent(o.output) ? null : `input ${show(o.input)}, output ${show(o.output)}: expected both populated`));

function errorLevel(type: string | null): (v: ObservationView) => string | null {
  return (v) =>
    theObservation(v, (o) => {
      if (type !== null && o.type !== type) return `the observation is a ${show(o.type)}, expected ${show(type)}`;
      return o.level === "ERROR" ? null : `level ${show(o.level)}, expected "ERROR"`;
    });
}

/** statusMessage is the case's §7 error category (its `expected_error.category`). */
function categoryMessage(o: Obs, v: ObservationView): string | null {
  if (v.category === undefined) return "the case declares no expected_error.category to compare the statusMessage with";
  return o.statusMessage === v.category ? null : `statusMessage ${show(o.statusMessage)}, expected ${show(v.category)}`;
}

const errorAndCategory = (v: ObservationView): string | null =>
  theObservation(v, (o) => (o.level !== "ERROR" ? `level ${show(o.level)}, expected "ERROR"` : categoryMessage(o, v)));

const noOutput = (v: ObservationView): string | null =>
  theObservation(v, (o) => (o.level !== "ERROR" ? `level ${show(o.level)}: not a failure observation` : absent(o.output) ? null : `output ${show(o.output)}, expected none`));

function literal(field: "error_type" | "error_message", from: "error_type" | "message"): (v: ObservationView) => string | null {
  return (v) =>
    theObservation(v, (o) => {
      if (v.raises === undefined) return "the case's mocks declare no raises: {error_type, message}";
      const want = v.raises[from];
      return o.metadata[field] === want ? null : `metadata.${field} ${show(o.metadata[field])}, expected ${show(want)}`;
    });
}

const finishAndUsage = (o: Obs): string | null => {
  if (usageKeys(o).length === 0) return `no usage (${show(o.usageDetails)})`;
  return nonEmpty(o.metadata["finish_reason"]) ? null : `metadata.finish_reason ${show(o.metadata["finish_reason"])}`;
};

const rows: ClaimRow<ObservationView>[] = [
  { name: "langfuse_trace_id_is_uuid_hex_dashes_stripped", section: "observability 035 / §8.4.1", summary: "the Langfuse trace id is the UUID invocation id as 32 hex digits (dashes stripped)", check: (v) => traceIdIsInvocationId(v.lf) },
  { name: "observation_type_is_embedding_not_generation", section: "observability 083 / §8.4.3", summary: "the call renders one Embedding observation, not a Generation", check: ofType("embedding") },
  { name: "renders_as_embedding_observation_not_generation", section: "observability 137 / §8.4.3", summary: "the failed call renders one Embedding observation, not a Generation", check: ofType("embedding") },
  { name: "observation_type_is_retriever_not_generation", section: "observability 108, 142 / §8.4.4", summary: "the rerank call renders one Retriever observation, not a Generation", check: ofType("retriever") },
  { name: "renders_as_dedicated_tool_observation_not_generation", section: "observability 098 / §8.4.5", summary: "the tool execution renders one Tool observation, not a Generation", check: ofType("tool") },
  { name: "input_and_output_suppressed_under_default_privacy_posture", section: "observability 083, 108", summary: "the observation's input and output are absent under the default payload gating", check: payloadOff },
  { name: "input_and_output_populated_when_payload_flag_disabled", section: "observability 083, 108", summary: "the observation's input and output are populated with disable_provider_payload false", check: payloadOn },
  { name: "input_output_populated_with_payload_on", section: "observability 098", summary: "the observation's input and output are populated with the payload on", check: payloadOn },
  {
    name: "usage_details_empty_when_no_usage_record",
    section: "observability 142 / §8.4.4",
    summary: "with no usage reported the observation's usageDetails is absent or empty",
    check: (v) => theObservation(v, (o) => (usageKeys(o).length === 0 ? null : `usageDetails ${show(o.usageDetails)}`)),
  },
  {
    name: "tool_name_and_call_id_in_metadata",
    section: "observability 098 / §8.4.5",
    summary: "the Tool observation's metadata carries the tool name and call id",
    check: (v) =>
      theObservation(v, (o) =>
        nonEmpty(o.metadata["openarmature_tool_name"]) && nonEmpty(o.metadata["openarmature_tool_call_id"]) ? null : `metadata ${show(o.metadata)} lacks openarmature_tool_name / openarmature_tool_call_id`,
      ),
  },
  {
    name: "exactly_one_generation_observation_under_stream",
    section: "observability 117 / §8.4.2",
    summary: "a streamed call renders exactly one Generation observation",
    check: (v) =>
      withMain(v.lf, (t) => {
        const n = all(t.observations).filter((o) => o.type === "generation").length;
        return n === 1 ? null : `${n} generation observations`;
      }),
  },
  {
    name: "no_per_token_child_observations",
    section: "observability 117",
    summary: "the streamed Generation has no child observations and is the only non-span observation",
    check: (v) => theObservation(v, (o) => (o.children.length === 0 ? null : `the ${o.type} has ${o.children.length} child observations`)),
  },
  {
    name: "generation_output_is_full_assembled_content",
    section: "observability 117",
    summary: "the Generation's output is the whole streamed content, assembled",
    check: (v) =>
      theObservation(v, (o) => {
        if (v.streamed === null) return "the case has no mock_llm_stream to assemble";
        const out = o.output;
        const text = typeof out === "string" ? out : out !== null && typeof out === "object" ? (out as Record<string, unknown>)["content"] : undefined;
        return text === v.streamed ? null : `output ${show(out)}, expected the assembled ${show(v.streamed)}`;
      }),
  },
  {
    name: "generation_usage_input_omitted_when_prompt_tokens_null",
    section: "observability 148 / §8.4.2",
    summary: "the Generation's usage has no input figure (its prompt_tokens were not reported)",
    check: (v) =>
      theObservation(v, (o) => {
        if (o.type !== "generation") return `the observation is a ${show(o.type)}`;
        if (o.usageDetails === undefined) return "the Generation carries no usage";
        return "input" in o.usageDetails ? `usage ${show(o.usageDetails)} has input` : null;
      }),
  },
  {
    name: "generation_usage_output_and_total_present_when_sound",
    section: "observability 148 / §8.4.2",
    summary: "the Generation's usage carries the sound output and total figures",
    check: (v) =>
      theObservation(v, (o) => {
        const u = o.usageDetails ?? {};
        return typeof u["output"] === "number" && typeof u["total"] === "number" ? null : `usage ${show(o.usageDetails)} lacks a numeric output / total`;
      }),
  },
  { name: "embedding_failure_renders_error_level", section: "observability 137 / §8.4.3", summary: "the failed embedding's observation is an Embedding at ERROR level", check: errorLevel("embedding") },
  { name: "failed_tool_renders_error_level", section: "observability 098 / §8.4.5", summary: "the failed tool execution's observation is a Tool at ERROR level", check: errorLevel("tool") },
  { name: "error_category_is_status_message", section: "observability 137", summary: "the failure observation is ERROR with statusMessage the case's §7 error category", check: errorAndCategory },
  { name: "error_category_still_from_status", section: "observability 150, 151", summary: "with literal raises the statusMessage is still the status-derived §7 category", check: errorAndCategory },
  { name: "error_level_and_status_message_unchanged_by_payload_flag", section: "observability 137", summary: "with the payload on the failure observation is still ERROR with the category statusMessage", check: errorAndCategory },
  {
    name: "error_type_and_message_in_metadata",
    section: "observability 098, 137",
    summary: "the failure observation's metadata carries non-empty error_type and error_message",
    check: (v) =>
      theObservation(v, (o) =>
        o.level === "ERROR" && nonEmpty(o.metadata["error_type"]) && nonEmpty(o.metadata["error_message"]) ? null : `level ${show(o.level)}, metadata ${show(o.metadata)}`,
      ),
  },
  { name: "error_type_asserted_literally_from_raises", section: "observability 150, 151", summary: "metadata.error_type is the mock's raises.error_type", check: literal("error_type", "error_type") },
  { name: "error_message_asserted_literally_from_raises", section: "observability 150, 151", summary: "metadata.error_message is the mock's raises.message", check: literal("error_message", "message") },
  { name: "failure_observation_carries_no_output", section: "observability 137, 150, 151", summary: "the failure observation has no output (no response was received)", check: noOutput },
  { name: "no_output_even_with_payload_flag_off", section: "observability 137", summary: "with the payload on the failure observation still has no output", check: noOutput },
  {
    name: "request_side_input_populated_when_payload_flag_disabled",
    section: "observability 137",
    summary: "with the payload on the failure observation carries the request-side input",
    check: (v) => theObservation(v, (o) => (absent(o.input) ? "input is absent" : null)),
  },
  { name: "failed_generation_renders_error_level_and_category", section: "observability 123 / §8.4.2", summary: "the failed Generation is ERROR with statusMessage the case's §7 category", check: errorAndCategory },
  {
    name: "failed_generation_carries_output_usage_finish_reason",
    section: "observability 123",
    summary: "the failed Generation still carries the response's output, usage and finish_reason",
    check: (v) => theObservation(v, (o) => (absent(o.output) ? "output is absent" : finishAndUsage(o))),
  },
  {
    name: "output_redacted_under_payload_disabled",
    section: "observability 123",
    summary: "with the payload gated the failed Generation's output is absent",
    check: (v) => theObservation(v, (o) => (absent(o.output) ? null : `output ${show(o.output)}`)),
  },
  {
    name: "usage_finish_reason_and_error_level_unchanged_under_payload_disabled",
    section: "observability 123",
    summary: "with the payload gated the failed Generation keeps usage, finish_reason, ERROR and the category",
    check: (v) => theObservation(v, (o) => finishAndUsage(o) ?? (o.level !== "ERROR" ? `level ${show(o.level)}` : categoryMessage(o, v))),
  },
];

/** Every value under `key` anywhere in `x`, depth first. */
function collect(x: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(x)) for (const e of x) collect(e, key, out);
  else if (x !== null && typeof x === "object") {
    for (const [k, e] of Object.entries(x)) {
      if (k === key) out.push(e);
      collect(e, key, out);
    }
  }
  return out;
}

function fromCase(spec: CaseSpec): Omit<ObservationView, "lf"> {
  const entry = (k: string): unknown => spec.entries.find((e) => e.key === k)?.value;
  const err = entry("expected_error");
  const category = err !== null && typeof err === "object" ? (err as Record<string, unknown>)["category"] : undefined;
  const raised = collect(spec.entries.map((e) => e.value), "raises").find(
    (r): r is { error_type: string; message: string } => r !== null && typeof r === "object" && typeof (r as Record<string, unknown>)["error_type"] === "string" && typeof (r as Record<string, unknown>)["message"] === "string",
  );
  const stream = entry("mock_llm_stream");
  const streamed = stream === undefined ? null : collect(stream, "delta").map((d) => (d !== null && typeof d === "object" ? (d as Record<string, unknown>)["content"] : undefined)).filter((c): c is string => typeof c === "string").join("");
  return { category: typeof category === "string" ? category : undefined, raises: raised, streamed };
}

function read(obs: Observation, ctx: CheckContext): ObservationView | null {
  const lf = capturedLangfuseAll(obs, ctx);
  return lf === null ? null : { lf, ...fromCase(ctx.caseSpec) };
}

registerClaims("observability", read, rows, useLangfuseCapture);
