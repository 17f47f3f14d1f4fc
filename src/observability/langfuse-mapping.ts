/**
 * The Langfuse mapping (observability §8.3–§8.5): openarmature's OTel spans of one invocation —
 * its own trace and each detached one — rendered as Langfuse Traces and Observations. The §8.4
 * tables are written as "OA attribute → Langfuse field", so the mapping reads exactly those
 * attributes off the spans the {@link OTelObserver} produced (privately, inside the Langfuse
 * observer); nothing here touches a provider.
 */
import { createHash } from "node:crypto";
import { SpanStatusCode, type HrTime } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Attr, INVOCATION_SPAN_NAME } from "./attributes.ts";
import { capPayloadValue, DEFAULT_PAYLOAD_BYTE_CAP, truncatePayload } from "./truncation.ts";

/** A Langfuse observation type (the ones this mapping renders). */
export type LangfuseObservationType = "span" | "generation" | "embedding" | "retriever" | "tool" | "event";

/** Langfuse's observation level. */
export type LangfuseLevel = "DEBUG" | "DEFAULT" | "WARNING" | "ERROR";

/** One Langfuse observation, as it lands in Langfuse. */
export interface LangfuseObservation {
  readonly type: LangfuseObservationType;
  readonly name: string;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly level: LangfuseLevel;
  readonly statusMessage?: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly model?: string;
  readonly modelParameters?: Readonly<Record<string, unknown>>;
  readonly usageDetails?: Readonly<Record<string, number>>;
  /** §8.4.4: the Langfuse Prompt entity a Generation is linked to (absent: no link, never fabricated). */
  readonly prompt?: LangfusePromptLink;
  readonly children: readonly LangfuseObservation[];
}

/** One Langfuse trace (§8.4.1): the invocation is the container, no root observation. */
export interface LangfuseTrace {
  /** 32 lowercase hex characters (§8.4.1 *`trace.id` derivation*). */
  readonly id: string;
  readonly name: string;
  readonly sessionId?: string;
  readonly userId?: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly observations: readonly LangfuseObservation[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * §8.4.1: a UUID invocation id's 32-hex form (dashes stripped, lowercased); any other id's first
 * 16 bytes of SHA-256 (UTF-8) as hex — Langfuse's own `createTraceId(seed)`.
 */
export function langfuseTraceId(invocationId: string): string {
  if (UUID.test(invocationId)) return invocationId.replaceAll("-", "").toLowerCase();
  return createHash("sha256").update(invocationId, "utf8").digest("hex").slice(0, 32);
}

/** Whether `langfuseTraceId(id)` is a hash (the raw id then also goes to `trace.metadata.invocation_id`). */
export const isUuid = (id: string): boolean => UUID.test(id);

/** §8.4.2: observation metadata keys sourced from OA span attributes. */
const OBSERVATION_KEYS: Readonly<Record<string, string>> = {
  [Attr.namespace]: "namespace",
  [Attr.step]: "step",
  [Attr.attemptIndex]: "attempt_index",
  [Attr.fanOutIndex]: "fan_out_index",
  [Attr.branchName]: "branch_name",
  [Attr.subgraphName]: "subgraph_name",
  [Attr.fanOutItemCount]: "fan_out_item_count",
  [Attr.fanOutConcurrency]: "fan_out_concurrency",
  [Attr.fanOutErrorPolicy]: "fan_out_error_policy",
  [Attr.fanOutParentNodeName]: "fan_out_parent_node_name",
  [Attr.branchCount]: "parallel_branches_branch_count",
  [Attr.branchesErrorPolicy]: "parallel_branches_error_policy",
  [Attr.branchesParentNodeName]: "parallel_branches_parent_node_name",
  [Attr.correlationId]: "correlation_id",
  "openarmature.prompt.group_name": "prompt_group_name",
};

/** §8.4.1: trace metadata keys sourced from invocation span attributes. */
const TRACE_KEYS: Readonly<Record<string, string>> = {
  [Attr.correlationId]: "correlation_id",
  [Attr.entryNode]: "entry_node",
  [Attr.specVersion]: "spec_version",
  [Attr.implementationName]: "implementation_name",
  [Attr.implementationVersion]: "implementation_version",
};

/** Caller metadata (`openarmature.user.<key>`) as top-level metadata keys (§3.4, §8.4). */
function userMetadata(attrs: ReadableSpan["attributes"]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) if (k.startsWith(Attr.userPrefix)) out[k.slice(Attr.userPrefix.length)] = v;
  return out;
}

function pick(attrs: ReadableSpan["attributes"], keys: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(keys)) if (attrs[from] !== undefined) out[to] = attrs[from];
  return out;
}

/** What the Langfuse observer decided about the trace-level fields (§8.4.1, §8.6). */
export interface TraceFields {
  readonly name?: string;
  readonly input?: unknown;
  readonly output?: unknown;
}

/** The Langfuse side's own flags (§8.7, §8.9), independent of the OTel observer's. */
export interface RenderOptions {
  /** §8.7: leave provider-call input / output / request extras off (default true). */
  readonly disableProviderPayload?: boolean;
  /** §8.9: render no Generation for LLM calls (default false). */
  readonly disableLlmSpans?: boolean;
  /**
   * §5.5.5 / §8.7: this observer's own byte cap, applied directly to the values the mapping writes
   * that no span attribute carried (an embedding's output vectors, a failure's error_message);
   * default 65,536. Values read from span attributes arrive already cut by the same cap.
   */
  readonly payloadByteCap?: number;
  /**
   * What the typed provider event behind a provider-call span carried beyond its attributes
   * (§8.4.3–§8.4.7 read the event: output vectors, the failure's error_type / error_message).
   * Without it, a failure's error_type / error_message come from the span's exception event.
   */
  readonly eventFacts?: (span: ReadableSpan) => ProviderEventFacts | undefined;
}

/** The fields of a typed provider event (graph-engine §6) the Langfuse rows read that are not span attributes. */
export interface ProviderEventFacts {
  /** A failure's `error_type` (the vendor error type or the exception class name). */
  readonly errorType?: string | null;
  /** A failure's `error_message`, untruncated. */
  readonly errorMessage?: string;
  /** An `EmbeddingEvent`'s `output_vectors` (never a span attribute, §5.5.8). */
  readonly outputVectors?: readonly (readonly number[])[];
  /** §8.4.4: the Langfuse Prompt entity the call's active prompt exposed (`observability_entities.langfuse_prompt`). */
  readonly langfusePrompt?: LangfusePromptLink;
}

/** The Langfuse Prompt entity a Generation links to (the SDK's native prompt link: name and version). */
export interface LangfusePromptLink {
  readonly name: string;
  readonly version: number;
  readonly isFallback: boolean;
}

/** The spans of one invocation, grouped by OTel trace. */
export interface InvocationSpans {
  readonly invocationId: string;
  /** The invocation's own trace's spans. */
  readonly main: readonly ReadableSpan[];
  /** Each detached trace's spans (observability §4.4), by OTel trace id. */
  readonly detached: ReadonlyMap<string, readonly ReadableSpan[]>;
}

const spanId = (s: ReadableSpan): string => s.spanContext().spanId;
const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;

/** The §8 rendering of one invocation: its Trace first, then one Trace per detached child. */
export function renderInvocation(spans: InvocationSpans, fields: TraceFields, options: RenderOptions = {}): LangfuseTrace[] {
  const detachedIds = new Map<string, string>();
  for (const otelId of spans.detached.keys()) detachedIds.set(otelId, otelId);
  const main = renderTrace(spans.main, langfuseTraceId(spans.invocationId), detachedIds, false, options);
  const traces: LangfuseTrace[] = [];
  if (main) {
    const metadata = { ...main.metadata };
    if (!isUuid(spans.invocationId)) metadata["invocation_id"] = spans.invocationId;
    traces.push({
      ...main,
      metadata,
      name: fields.name ?? main.name,
      ...(fields.input !== undefined ? { input: fields.input } : {}),
      ...(fields.output !== undefined ? { output: fields.output } : {}),
    });
  }
  for (const [otelId, list] of spans.detached) {
    const t = renderTrace(list, otelId, detachedIds, true, options);
    if (t) traces.push(t);
  }
  return traces;
}

function renderTrace(
  spans: readonly ReadableSpan[],
  id: string,
  detachedIds: ReadonlyMap<string, string>,
  detached: boolean,
  options: RenderOptions,
): LangfuseTrace | undefined {
  const root = spans.find((s) => s.name === INVOCATION_SPAN_NAME && parentOf(s) === undefined);
  if (!root) return undefined;
  const kids = new Map<string, ReadableSpan[]>();
  for (const s of spans) {
    const p = parentOf(s);
    if (p === undefined) continue;
    let l = kids.get(p);
    if (!l) kids.set(p, (l = []));
    l.push(s);
  }
  const children = (s: ReadableSpan, parent: LangfuseObservation | undefined): LangfuseObservation[] =>
    collapseRetries(kids.get(spanId(s)) ?? [])
      .filter((c) => !(options.disableLlmSpans && c.last.name === LLM_SPAN))
      .map(({ first, last }) => observe(last, first, parent));
  const observe = (s: ReadableSpan, first: ReadableSpan = s, parent?: LangfuseObservation): LangfuseObservation => {
    const provider = s.name === LLM_SPAN ? "generation" : PROVIDER_TYPES[s.name];
    if (provider === undefined) {
      const o = renderObservation(s, [], detachedIds);
      return { ...o, children: children(s, o) };
    }
    const o = provider === "generation" ? renderGeneration(s, first, [], options) : renderProviderCall(s, provider, [], options);
    // A provider call inherits its calling observation's lineage dimensions (§8.4.2, §8.4.8).
    const metadata = { ...o.metadata };
    for (const k of LINEAGE_KEYS) if (metadata[k] === undefined && parent?.metadata[k] !== undefined) metadata[k] = parent.metadata[k];
    const withLineage = { ...o, metadata };
    return { ...withLineage, children: children(s, withLineage) };
  };
  const a = root.attributes;
  const metadata: Record<string, unknown> = { ...userMetadata(a), ...pick(a, TRACE_KEYS) };
  if (detached) metadata["detached_from_invocation_id"] = a[Attr.invocationId];
  const sessionId = a[Attr.sessionId];
  const userId = a[Attr.userPrefix + "userId"];
  return {
    id,
    name: String(a[Attr.entryNode] ?? ""),
    metadata,
    ...(typeof sessionId === "string" ? { sessionId } : {}),
    ...(userId !== undefined ? { userId: String(userId) } : {}),
    observations: children(root, undefined),
  };
}

function renderObservation(s: ReadableSpan, children: LangfuseObservation[], detachedIds: ReadonlyMap<string, string>): LangfuseObservation {
  const a = s.attributes;
  const metadata: Record<string, unknown> = { ...userMetadata(a), ...pick(a, OBSERVATION_KEYS) };
  const targets = s.links.map((l) => detachedIds.get(l.context.traceId)).filter((x): x is string => x !== undefined);
  if (targets.length > 0) {
    metadata["detached_child_trace_ids"] = targets;
    metadata["detached"] = true;
  }
  const category = a[Attr.errorCategory];
  return {
    type: "span",
    name: s.name,
    startTime: s.startTime,
    endTime: s.endTime,
    level: category !== undefined ? "ERROR" : "DEFAULT",
    ...(category !== undefined ? { statusMessage: String(category) } : {}),
    metadata,
    children,
  };
}

/** The lineage dimensions a provider-call observation takes from the observation it runs under. */
const LINEAGE_KEYS = ["fan_out_index", "branch_name"] as const;

/** §5.5 span name of an LLM provider call attempt. */
export const LLM_SPAN = "openarmature.llm.complete";

const attemptOf = (s: ReadableSpan): number => Number(s.attributes["openarmature.llm.attempt_index"] ?? 0);
const startsBefore = (a: ReadableSpan, b: ReadableSpan): number => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1];

/**
 * §8.4.3 *Call-level retry*: the per-attempt LLM spans of one `complete()` call (siblings with
 * `openarmature.llm.attempt_index` 0..N-1, in start order) collapse to the terminal attempt,
 * timed from the first. Every other span stands alone.
 */
function collapseRetries(spans: readonly ReadableSpan[]): { first: ReadableSpan; last: ReadableSpan }[] {
  const out: { first: ReadableSpan; last: ReadableSpan }[] = [];
  const open = new Map<string, { first: ReadableSpan; last: ReadableSpan }>();
  for (const s of [...spans].sort(startsBefore)) {
    if (s.name !== LLM_SPAN) {
      out.push({ first: s, last: s });
      continue;
    }
    // One call's attempts continue one another: attempt k follows attempt k-1 of the same model.
    const key = String(s.attributes["openarmature.llm.model"] ?? "");
    const prev = open.get(key);
    if (prev && attemptOf(s) === attemptOf(prev.last) + 1) {
      prev.last = s;
      continue;
    }
    const g = { first: s, last: s };
    open.set(key, g);
    out.push(g);
  }
  return out;
}

/** A JSON-encoded OA payload attribute parsed back; a truncated one (unparseable) stays the raw string (§8.7). */
function parsedPayload(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

const PROMPT_KEYS = ["name", "version", "label", "template_hash", "rendered_hash"] as const;

/** §8.4.3 / §8.4.4: a Generation from the terminal attempt span of one `complete()` call. */
function renderGeneration(s: ReadableSpan, first: ReadableSpan, children: LangfuseObservation[], options: RenderOptions): LangfuseObservation {
  const a = s.attributes;
  const rendered = renderObservation(s, children, new Map());
  // A tool failure has no §7 category (§5.5.12): its ERROR span status alone makes it ERROR (§8.4.6).
  const failedUncategorized = rendered.level !== "ERROR" && s.status.code === SpanStatusCode.ERROR;
  const base: LangfuseObservation = failedUncategorized ? { ...rendered, level: "ERROR", ...(s.status.message ? { statusMessage: s.status.message } : {}) } : rendered;
  const metadata: Record<string, unknown> = { ...base.metadata };
  const set = (key: string, from: string): void => {
    if (a[from] !== undefined) metadata[key] = a[from];
  };
  set("finish_reason", "openarmature.llm.finish_reason");
  set("system", "gen_ai.system");
  set("response_model", "gen_ai.response.model");
  set("response_id", "gen_ai.response.id");
  const prompt: Record<string, unknown> = {};
  for (const k of PROMPT_KEYS) if (a[`openarmature.prompt.${k}`] !== undefined) prompt[k] = a[`openarmature.prompt.${k}`];
  if (Object.keys(prompt).length > 0) metadata["prompt"] = prompt;
  const budget: Record<string, unknown> = {};
  for (const k of ["input_max_tokens", "total_max_tokens"]) if (a[`openarmature.prompt.token_budget.${k}`] !== undefined) budget[k] = a[`openarmature.prompt.token_budget.${k}`];
  if (Object.keys(budget).length > 0) metadata["token_budget"] = budget;
  const exceeded = a["openarmature.llm.token_budget.exceeded"];
  if (exceeded !== undefined) metadata["token_budget_exceeded"] = exceeded;
  if (base.level === "ERROR") Object.assign(metadata, failureMetadata(s, options));
  const payload = options.disableProviderPayload === false;
  if (payload && a["openarmature.llm.request.extras"] !== undefined) metadata["request_extras"] = parsedPayload(a["openarmature.llm.request.extras"]);
  const modelParameters: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) if (k.startsWith("gen_ai.request.") && k !== "gen_ai.request.model") modelParameters[k.slice("gen_ai.request.".length)] = v;
  const usage: Record<string, number> = {};
  const count = (key: string, ...from: string[]): void => {
    const v = from.map((f) => a[f]).find((x) => typeof x === "number");
    if (typeof v === "number") usage[key] = v;
  };
  count("input", "openarmature.llm.usage.prompt_tokens", "gen_ai.usage.input_tokens");
  count("output", "openarmature.llm.usage.completion_tokens", "gen_ai.usage.output_tokens");
  count("total", "openarmature.llm.usage.total_tokens");
  const model = a["openarmature.llm.model"] ?? a["gen_ai.request.model"];
  // §8.4.4 case 1: linked when the prompt exposed a Langfuse Prompt reference, and only then.
  const linked = Object.keys(prompt).length > 0 ? options.eventFacts?.(s)?.langfusePrompt : undefined;
  // ERROR (a hard failure) wins over the token-budget WARNING (§8.4.3), which names the bound(s) crossed.
  const warning = base.level !== "ERROR" && exceeded === true;
  const crossed: string[] = [];
  const over = (bound: string, actual: number | undefined, max: unknown): void => {
    if (typeof actual === "number" && typeof max === "number" && actual > max) crossed.push(`${bound} ${actual} > ${max}`);
  };
  over("input", usage["input"], budget["input_max_tokens"]);
  over("total", usage["total"] ?? (usage["input"] !== undefined && usage["output"] !== undefined ? usage["input"] + usage["output"] : undefined), budget["total_max_tokens"]);
  return {
    ...base,
    type: "generation",
    startTime: first.startTime,
    ...(warning ? { level: "WARNING" as const, statusMessage: `token budget exceeded${crossed.length ? `: ${crossed.join(", ")}` : ""}` } : {}),
    metadata,
    ...(typeof model === "string" ? { model } : {}),
    ...(Object.keys(modelParameters).length > 0 ? { modelParameters } : {}),
    usageDetails: usage,
    ...(linked !== undefined ? { prompt: linked } : {}),
    ...(payload && a["openarmature.llm.input.messages"] !== undefined ? { input: parsedPayload(a["openarmature.llm.input.messages"]) } : {}),
    ...(payload && a["openarmature.llm.output.content"] !== undefined ? { output: a["openarmature.llm.output.content"] } : {}),
  };
}

/** §8.4.5–§8.4.7: the provider-call spans with a dedicated Langfuse observation type. */
const PROVIDER_TYPES: Readonly<Record<string, LangfuseObservationType>> = {
  "openarmature.embedding.complete": "embedding",
  "openarmature.rerank.complete": "retriever",
  "openarmature.tool.call": "tool",
};

/** §8.4.5–§8.4.7 identity metadata: OA attribute → `openarmature_<name>` metadata key. */
const PROVIDER_METADATA: Readonly<Record<string, string>> = {
  "openarmature.embedding.input_count": "openarmature_input_count",
  "openarmature.embedding.dimensions": "openarmature_dimensions",
  "openarmature.rerank.query_length": "openarmature_query_length",
  "openarmature.rerank.document_count": "openarmature_document_count",
  "openarmature.rerank.top_k": "openarmature_top_k",
  "openarmature.rerank.result_count": "openarmature_result_count",
  "openarmature.tool.name": "openarmature_tool_name",
  "openarmature.tool.call.id": "openarmature_tool_call_id",
};

/** The payload attributes of each type: the observation's input / output when the payload flag is off. */
const PROVIDER_PAYLOAD: Readonly<Record<string, { input?: string; output?: string }>> = {
  embedding: { input: "openarmature.embedding.input.strings" },
  retriever: { input: "openarmature.rerank.query", output: "openarmature.rerank.results" },
  tool: { input: "openarmature.tool.call.arguments", output: "openarmature.tool.call.result" },
};

/**
 * An Embedding / Retriever / Tool observation (§8.4.5–§8.4.7): model and usageDetails (only the
 * figures reported), identity metadata, payload only with this observer's flag off; a failure at
 * ERROR with the category and the recorded exception's error_type / error_message in metadata
 * whatever the payload flag (§8.4.5; fixture 137 asserts both under the default privacy posture).
 */
function renderProviderCall(s: ReadableSpan, type: LangfuseObservationType, children: LangfuseObservation[], options: RenderOptions): LangfuseObservation {
  const a = s.attributes;
  const rendered = renderObservation(s, children, new Map());
  // A tool failure has no §7 category (§5.5.12): its ERROR span status alone makes it ERROR (§8.4.6).
  const failedUncategorized = rendered.level !== "ERROR" && s.status.code === SpanStatusCode.ERROR;
  const base: LangfuseObservation = failedUncategorized ? { ...rendered, level: "ERROR", ...(s.status.message ? { statusMessage: s.status.message } : {}) } : rendered;
  const metadata: Record<string, unknown> = { ...base.metadata };
  for (const [from, to] of Object.entries(PROVIDER_METADATA)) if (a[from] !== undefined) metadata[to] = a[from];
  if (a["gen_ai.response.id"] !== undefined) metadata["openarmature_response_id"] = a["gen_ai.response.id"];
  const payload = options.disableProviderPayload === false;
  if (base.level === "ERROR") Object.assign(metadata, failureMetadata(s, options));
  const usageDetails: Record<string, number> = {};
  if (typeof a["gen_ai.usage.input_tokens"] === "number") usageDetails["input"] = a["gen_ai.usage.input_tokens"];
  if (typeof a["openarmature.rerank.search_units"] === "number") usageDetails["searchUnits"] = a["openarmature.rerank.search_units"];
  const model = a["gen_ai.response.model"] ?? a["gen_ai.request.model"];
  const io = PROVIDER_PAYLOAD[type] ?? {};
  let input = payload && io.input !== undefined && a[io.input] !== undefined ? parsedPayload(a[io.input]) : undefined;
  // §8.4.7: a Retriever's input is the query (a plain string attribute) and the documents together.
  if (type === "retriever" && input !== undefined) input = { query: a[io.input!], documents: parsedPayload(a["openarmature.rerank.documents"] ?? "[]") };
  let output = payload && io.output !== undefined && base.level !== "ERROR" && a[io.output] !== undefined ? parsedPayload(a[io.output]) : undefined;
  // §8.4.5: the output vectors are no span attribute (§5.5.8); they come from the event, under this observer's cap.
  const vectors = type === "embedding" ? options.eventFacts?.(s)?.outputVectors : undefined;
  if (payload && base.level !== "ERROR" && vectors !== undefined) output = capPayloadValue(vectors, options.payloadByteCap ?? DEFAULT_PAYLOAD_BYTE_CAP);
  return {
    ...base,
    type,
    metadata,
    ...(type !== "tool" ? { usageDetails } : {}),
    ...(type !== "tool" && typeof model === "string" ? { model } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(output !== undefined ? { output } : {}),
  };
}

/**
 * A failed observation's `error_type` / `error_message` (§8.4.5–§8.4.7, and the failed Generation):
 * from the typed event behind the span when known, else the span's exception event. The message
 * is written by this mapping directly — no span attribute carries it — so this observer's own cap
 * applies to it (§5.5.5, §8.7); error_type is a classification token and is never cut.
 * Both stay whatever the payload flag: observability §8.4.5–§8.4.7 as this project implements them
 * list them beside the status for every failure (fixtures 137 / 150 / 151 assert error_message
 * with disable_provider_payload: true).
 */
function failureMetadata(s: ReadableSpan, options: RenderOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const facts = options.eventFacts?.(s);
  const exception = s.events.find((e) => e.name === "exception")?.attributes;
  const type = facts?.errorType ?? exception?.["exception.type"];
  const message = facts?.errorMessage ?? exception?.["exception.message"];
  if (type !== undefined && type !== null) out["error_type"] = type;
  if (message !== undefined) out["error_message"] = truncatePayload(String(message), options.payloadByteCap ?? DEFAULT_PAYLOAD_BYTE_CAP);
  return out;
}
