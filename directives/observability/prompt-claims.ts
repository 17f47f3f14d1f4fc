/**
 * Named claims about the prompt context and the token budget (observability §5.5.15, §8.4.3, §11.2;
 * prompt-management §12; fixtures 064, 106, 129, 131, 146, 147, 155, 156), by the plain meaning of
 * their names and their fixtures' prose. Each reads what the engine produced — the typed events the
 * collectors retained, the OTel provider spans, the §6.9 measurements, the Langfuse generations —
 * and compares it with what the case's nodes actually rendered (`renders_prompt`, through the
 * library) and what the provider actually returned, never with a value the fixture wrote. They hold
 * for a call in any composite (subgraph, fan-out instance, branch) as for a plain node.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { Response } from "../../src/llm/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { classify } from "../../harness/graph/reading.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { LangfuseCapture, useLangfuseCapture, type RecordedObservation } from "../../harness/observability/langfuse.ts";
import { LlmResponses } from "../../harness/observability/llm.ts";
import { MetricCapture, type Measurement } from "../../harness/observability/metrics.ts";
import { capturedSpans } from "../../harness/observability/spans.ts";
import { TypedEvents } from "../../harness/observability/typed-events.ts";
import { RenderedPrompts, type RenderedPrompt } from "../../harness/prompts/rendered.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";
type Rec = Readonly<Record<string, unknown>>;

interface View {
  /** Typed events carrying an `active_prompt` field (LLM, embedding, rerank families), from every collector. */
  readonly events: ReadonlyArray<{ readonly type: string; readonly record: Rec }>;
  readonly llmSpans: readonly ReadableSpan[];
  readonly measurements: readonly Measurement[];
  readonly generations: readonly RecordedObservation[];
  readonly rendered: readonly RenderedPrompt[];
  readonly responses: readonly Response[];
  readonly result: F.CallResult | undefined;
}

function read(obs: Observation, ctx: CheckContext): View | null {
  const cap = capturedSpans(obs, ctx);
  if (cap === null) return null;
  const seen = new Set<unknown>();
  const events: Array<{ type: string; record: Rec }> = [];
  for (const list of (obs.tryGet(TypedEvents) ?? new Map()).values()) {
    for (const e of list) {
      if (seen.has(e.event) || !Object.hasOwn(e.record, "active_prompt")) continue;
      seen.add(e.event);
      events.push({ type: e.type, record: e.record });
    }
  }
  const generations: RecordedObservation[] = [];
  const walk = (o: RecordedObservation): void => {
    if (o.type === "generation") generations.push(o);
    o.children.forEach(walk);
  };
  for (const t of obs.tryGet(LangfuseCapture)?.traces ?? []) t.observations.forEach(walk);
  return {
    events,
    llmSpans: cap.spans.filter((s) => s.name === "openarmature.llm.complete"),
    measurements: obs.tryGet(MetricCapture) ?? [],
    generations,
    rendered: obs.tryGet(RenderedPrompts) ?? [],
    responses: obs.tryGet(LlmResponses) ?? [],
    result: obs.tryGet(F.Result),
  };
}

const IDENTITY = ["name", "version", "label", "template_hash", "rendered_hash"] as const;
const identityOf = (r: RenderedPrompt): Rec => Object.fromEntries(IDENTITY.map((k) => [k, r.result[k]]));
const spanIdentity = (s: ReadableSpan): Rec | null => (s.attributes["openarmature.prompt.name"] === undefined ? null : Object.fromEntries(IDENTITY.map((k) => [k, s.attributes[`openarmature.prompt.${k}`]])));
const llmEvents = (v: View) => v.events.filter((e) => e.type === "LlmCompletionEvent" || e.type === "LlmFailedEvent");

const A = (s: ReadableSpan, k: string): unknown => s.attributes[k];
const EXCEEDED = "openarmature.llm.token_budget.exceeded";
const BOUND = { input: "openarmature.prompt.token_budget.input_max_tokens", total: "openarmature.prompt.token_budget.total_max_tokens" } as const;
const COUNTER = { input: "openarmature.llm.usage.prompt_tokens", total: "openarmature.llm.usage.total_tokens" } as const;
const BUDGET_INSTRUMENTS = ["openarmature.gen_ai.client.token_budget.exceeded", "openarmature.gen_ai.client.token_budget.utilization"];
const budgetMeasurements = (v: View, kind?: string) =>
  v.measurements.filter((m) => BUDGET_INSTRUMENTS.includes(m.instrument) && (kind === undefined || m.dimensions["openarmature.gen_ai.token_budget.kind"] === kind));
/** The spans of calls with a declared budget of which no bound could be evaluated (its counter was not reported). */
const unevaluable = (v: View, only?: "input") =>
  v.llmSpans.filter((s) => {
    const declared = (["input", "total"] as const).filter((k) => A(s, BOUND[k]) !== undefined);
    if (declared.length === 0 || (only !== undefined && (declared.length !== 1 || declared[0] !== only))) return false;
    return declared.every((k) => A(s, COUNTER[k]) === undefined);
  });
/** The calls whose provider reported no prompt_tokens (a usage record with a null counter, or none). */
const nullPromptTokens = (v: View) => v.responses.filter((r) => r.usage === null || r.usage === undefined || r.usage.prompt_tokens === null || r.usage.prompt_tokens === undefined);

function identityMatches(v: View): string | null {
  const bound = v.events.filter((e) => e.record["active_prompt"] !== null && e.record["active_prompt"] !== undefined);
  if (bound.length === 0) return `no typed event carries an active_prompt (${v.events.length} LLM / embedding / rerank events retained)`;
  if (v.rendered.length === 0) return "no node rendered a prompt";
  for (const e of v.events) {
    const mine = v.rendered.filter((r) => r.node === e.record["node_name"]);
    const got = e.record["active_prompt"] as Rec | null;
    if (mine.length === 0) {
      if (got !== null) return `${e.type} of ${show(e.record["node_name"])} carries active_prompt ${show(got)}, but that node rendered no prompt`;
      continue;
    }
    if (got === null) return `${e.type} of ${show(e.record["node_name"])} carries no active_prompt, though the node rendered ${mine[0]!.result.name}`;
    if (!mine.some((r) => IDENTITY.every((k) => got[k] === r.result[k]))) return `${e.type} carries active_prompt ${show(got)}; the node rendered ${show(mine.map(identityOf))}`;
  }
  for (const s of v.llmSpans) {
    const attrs = spanIdentity(s);
    if (attrs !== null && !v.rendered.some((r) => IDENTITY.every((k) => attrs[k] === r.result[k]))) return `the LLM span's openarmature.prompt.* ${show(attrs)} is no rendered prompt's identity`;
  }
  return null;
}

const rows: ClaimRow<View>[] = [
  {
    name: "active_prompt_snapshot_matches_prompt_management_section_12_identity_attrs",
    section: "observability 064 / 106",
    summary: "each typed event's active_prompt is the five-field identity of the prompt its node rendered (and so are the LLM span's openarmature.prompt.* attributes)",
    check: identityMatches,
  },
  {
    name: "token_budget_null_on_completion_event",
    section: "observability 129",
    summary: "every LlmCompletionEvent carries token_budget null",
    check: (v) => {
      const c = v.events.filter((e) => e.type === "LlmCompletionEvent");
      if (c.length === 0) return "no LlmCompletionEvent retained";
      const set = c.filter((e) => e.record["token_budget"] !== null);
      return set.length === 0 ? null : `token_budget ${show(set.map((e) => e.record["token_budget"]))}`;
    },
  },
  {
    name: "token_budget_populated_but_not_evaluated_without_usage",
    section: "observability 131",
    summary: "a failed call without usage carries the declared token_budget, and no exceeded signal or token-budget measurement is made",
    check: (v) => {
      const f = llmEvents(v).filter((e) => e.type === "LlmFailedEvent" && (e.record["usage"] === null || e.record["usage"] === undefined));
      if (f.length === 0) return "no LlmFailedEvent without usage retained";
      const unpopulated = f.filter((e) => e.record["token_budget"] === null || e.record["token_budget"] === undefined);
      if (unpopulated.length) return `${unpopulated.length} failure event(s) carry no token_budget`;
      const signalled = v.llmSpans.filter((s) => A(s, EXCEEDED) !== undefined);
      if (signalled.length) return `${EXCEEDED} is set (${show(signalled.map((s) => A(s, EXCEEDED)))})`;
      const m = budgetMeasurements(v);
      return m.length === 0 ? null : `${m.length} token-budget measurement(s): ${show(m)}`;
    },
  },
  {
    name: "input_bound_not_evaluated_when_prompt_tokens_null",
    section: "observability 146",
    summary: "a declared input bound is not evaluated when the provider reported no prompt_tokens: no input-kind token-budget measurement",
    check: (v) => {
      if (nullPromptTokens(v).length === 0) return "every call reported prompt_tokens";
      if (!v.llmSpans.some((s) => A(s, BOUND.input) !== undefined)) return "no call declared an input bound";
      const m = budgetMeasurements(v, "input");
      return m.length === 0 ? null : `input-kind token-budget measurement(s) ${show(m)}`;
    },
  },
  {
    name: "exceeded_span_signal_absent_not_false_when_only_bound_unevaluable",
    section: "observability 146",
    summary: "with an input bound as the only declared bound and no prompt_tokens, the span carries no exceeded attribute (absent, not false)",
    check: (v) => {
      const spans = unevaluable(v, "input");
      if (spans.length === 0) return "no LLM span of a call whose only declared bound (input) was unevaluable";
      const set = spans.filter((s) => A(s, EXCEEDED) !== undefined);
      return set.length === 0 ? null : `${EXCEEDED} = ${show(set.map((s) => A(s, EXCEEDED)))}`;
    },
  },
  {
    name: "exceeded_span_signal_absent_not_false",
    section: "observability 147",
    summary: "a call none of whose declared bounds could be evaluated carries no exceeded attribute (absent, not false)",
    check: (v) => {
      const spans = unevaluable(v);
      if (spans.length === 0) return "no LLM span of a call whose declared bounds were all unevaluable";
      const set = spans.filter((s) => A(s, EXCEEDED) !== undefined);
      return set.length === 0 ? null : `${EXCEEDED} = ${show(set.map((s) => A(s, EXCEEDED)))}`;
    },
  },
  {
    name: "span_omits_both_input_usage_attributes",
    section: "observability 147",
    summary: "the LLM span carries neither gen_ai.usage.input_tokens nor openarmature.llm.usage.prompt_tokens",
    check: (v) => {
      if (v.llmSpans.length === 0) return "no LLM span";
      const bad = v.llmSpans.filter((s) => A(s, "gen_ai.usage.input_tokens") !== undefined || A(s, COUNTER.input) !== undefined);
      return bad.length === 0 ? null : `input usage on the span: ${show(bad.map((s) => [A(s, "gen_ai.usage.input_tokens"), A(s, COUNTER.input)]))}`;
    },
  },
  {
    name: "null_prompt_tokens_reaches_no_span_histogram_or_budget_surface",
    section: "observability 147",
    summary: "a null prompt_tokens reaches none of: the span's input usage attributes, the input token.usage measurement, an input-kind token-budget measurement or the exceeded signal",
    check: (v) => {
      if (nullPromptTokens(v).length === 0) return "every call reported prompt_tokens";
      if (v.llmSpans.length === 0) return "no LLM span";
      for (const s of v.llmSpans) {
        for (const k of ["gen_ai.usage.input_tokens", COUNTER.input]) if (A(s, k) !== undefined) return `the span carries ${k} = ${show(A(s, k))}`;
      }
      const input = v.measurements.filter((m) => m.instrument === "openarmature.gen_ai.client.token.usage" && m.dimensions["openarmature.gen_ai.token.type"] === "input");
      if (input.length) return `input token.usage measurement(s) ${show(input)}`;
      const budget = budgetMeasurements(v, "input");
      if (budget.length) return `input-kind token-budget measurement(s) ${show(budget)}`;
      const signalled = unevaluable(v).filter((s) => A(s, EXCEEDED) !== undefined);
      return signalled.length === 0 ? null : `${EXCEEDED} = ${show(signalled.map((s) => A(s, EXCEEDED)))} on a call with no evaluable bound`;
    },
  },
];
registerClaims(HOME, read, rows);

// ---- the Langfuse generation (§8.4.3, proposal 0109) --------------------------------------------

const budgetOf = (g: RecordedObservation): Rec | undefined => {
  const b = g.metadata["token_budget"];
  return typeof b === "object" && b !== null ? (b as Rec) : undefined;
};
const failed = (v: View) => v.generations.filter((g) => g.level === "ERROR");

const langfuseRows: ClaimRow<View>[] = [
  {
    name: "exceeded_flag_survives_error_precedence_on_failed_generation",
    section: "observability 155",
    summary: "a failed (ERROR) generation over budget still carries metadata.token_budget_exceeded = true, a flat sibling of token_budget",
    check: (v) => {
      const f = failed(v);
      if (f.length === 0) return `no ERROR generation (${v.generations.length} generation(s))`;
      return f.some((g) => g.metadata["token_budget_exceeded"] === true) ? null : `token_budget_exceeded ${show(f.map((g) => g.metadata["token_budget_exceeded"]))}`;
    },
  },
  {
    name: "declared_bounds_present_on_failed_generation",
    section: "observability 155",
    summary: "the failed generation's metadata.token_budget carries the bounds the active prompt declared (as on its LLM span)",
    check: (v) => {
      const f = failed(v);
      if (f.length === 0) return "no ERROR generation";
      const declared = v.llmSpans.filter((s) => A(s, BOUND.input) !== undefined || A(s, BOUND.total) !== undefined);
      if (declared.length === 0) return "no LLM span carries a declared bound";
      for (const g of f) {
        const b = budgetOf(g);
        if (!b) return `the failed generation carries no metadata.token_budget (${show(g.metadata)})`;
        const ok = declared.some((s) => (["input", "total"] as const).every((k) => (A(s, BOUND[k]) === undefined ? b[`${k}_max_tokens`] === undefined || b[`${k}_max_tokens`] === null : b[`${k}_max_tokens`] === A(s, BOUND[k]))));
        if (!ok) return `metadata.token_budget ${show(b)} is not the declared ${show(declared.map((s) => [A(s, BOUND.input), A(s, BOUND.total)]))}`;
      }
      return null;
    },
  },
  {
    name: "error_level_and_category_unchanged",
    section: "observability 155",
    summary: "the failed generation stays level ERROR with the raised error's category as its statusMessage",
    check: (v) => {
      const r = v.result;
      if (r === undefined || r.kind !== "errored") return "the call did not raise";
      const category = classify(r.error).category;
      const f = failed(v);
      if (f.length === 0) return `no ERROR generation (levels ${show(v.generations.map((g) => g.level))})`;
      return f.some((g) => g.statusMessage === category) ? null : `statusMessage ${show(f.map((g) => g.statusMessage))}, the call raised ${category}`;
    },
  },
  {
    name: "exceeded_flag_present_and_false_under_budget",
    section: "observability 156",
    summary: "a generation within its declared budget carries metadata.token_budget_exceeded = false (present, not omitted)",
    check: (v) => {
      const budgeted = v.generations.filter((g) => budgetOf(g) !== undefined);
      if (budgeted.length === 0) return `no generation carries metadata.token_budget (${v.generations.length} generation(s))`;
      const bad = budgeted.filter((g) => g.metadata["token_budget_exceeded"] !== false);
      return bad.length === 0 ? null : `token_budget_exceeded ${show(bad.map((g) => g.metadata["token_budget_exceeded"] ?? "absent"))}`;
    },
  },
  {
    name: "no_warning_level_under_budget",
    section: "observability 156",
    summary: "no generation within its budget is raised to level WARNING",
    check: (v) => {
      const under = v.generations.filter((g) => budgetOf(g) !== undefined && g.metadata["token_budget_exceeded"] !== true);
      if (under.length === 0) return "no generation within a declared budget";
      const warned = under.filter((g) => g.level === "WARNING");
      return warned.length === 0 ? null : `${warned.length} generation(s) at level WARNING`;
    },
  },
];
registerClaims(HOME, read, langfuseRows, (ctx) => void useLangfuseCapture(ctx));
