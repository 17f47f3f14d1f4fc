/**
 * Named claims about lineage-keyed spans and Langfuse observations (observability §3.4 *Per-depth
 * lineage tracking*, §4.3, §5.5 *Lineage-resolved parent*, §8.4.3, §8.9; fixtures 132–134), as
 * claim tables. Each compares the rendered tree with the engine: the node events the observer was
 * handed, and the typed event behind each provider span (its lineage chains, recorded by the §6.3
 * capture). The lineage of a tree position is read from the tree itself (harness/observability/
 * lineage.ts), so the claims hold for every composite kind — fan-out instances, parallel branches,
 * subgraphs, and any nesting of them — not only the nested fan-out the fixtures use.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { EventLineage, NodeEvent } from "../../src/graph/index.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { capturedLangfuseAll, useLangfuseCapture } from "../../harness/observability/langfuse.ts";
import {
  eventSteps,
  isNodeOf,
  langfuseReader,
  missingNodes,
  otelReader,
  parentSignature,
  placed,
  sameSteps,
  treeSteps,
  type Placed,
  type TreeReader,
} from "../../harness/observability/lineage.ts";
import { capturedSpans, INVOCATION_SPAN, parentId, spanId } from "../../harness/observability/spans.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";
const LLM_SPAN = "openarmature.llm.complete";

/** The OTel side: every span of the call, its reader, the node events and each provider span's event lineage. */
interface OtelView {
  readonly spans: readonly ReadableSpan[];
  readonly r: TreeReader<ReadableSpan>;
  readonly nodeEvents: readonly NodeEvent[];
  readonly lineage: ReadonlyMap<string, EventLineage>;
  readonly llm: readonly ReadableSpan[];
}

function otelView(obs: Observation, ctx: CheckContext): OtelView | null {
  const cap = capturedSpans(obs, ctx);
  if (cap === null) return null;
  return { spans: cap.spans, r: otelReader(cap.spans), nodeEvents: cap.nodeEvents, lineage: cap.eventLineage, llm: cap.spans.filter((s) => s.name === LLM_SPAN) };
}

const isOtelRoot = (s: ReadableSpan): boolean => s.name === INVOCATION_SPAN && parentId(s) === undefined;
const where = (e: EventLineage): string => `${e.namespace.join("/")} [${eventSteps(e).join(", ")}]`;

/** Each provider span with the lineage of its call; a span with none is reported. */
function withLineage(v: OtelView, spans: readonly ReadableSpan[]): Array<{ s: ReadableSpan; e: EventLineage }> | string {
  if (spans.length === 0) return "no LLM span";
  const out: Array<{ s: ReadableSpan; e: EventLineage }> = [];
  for (const s of spans) {
    const e = v.lineage.get(spanId(s));
    if (!e) return `the LLM span ${spanId(s)} was not rendered from a typed event the capture saw`;
    out.push({ s, e });
  }
  return out;
}

/** The node spans / observations the tree misses, against the node events of composites (at least one must have run). */
function noneDropped<T>(r: TreeReader<T>, items: readonly T[], events: readonly NodeEvent[], what: string): string | null {
  if (!events.some((e) => e.phase === "started" && eventSteps(e).length > 0)) return "no node ran inside a fan-out instance or branch";
  const missing = missingNodes(r, items, events);
  return missing.length ? `${missing.length} node ${what}s missing or duplicated for their lineage: ${missing.join("; ")}` : null;
}

/** Node spans / observations of nodes that ran inside a composite and are not composites themselves. */
function innerNodes<T>(r: TreeReader<T>, items: readonly T[], isWrapperNode: (x: T) => boolean): T[] {
  return items.filter((x) => {
    const n = r.node(x);
    return n !== undefined && n.namespace.length > 1 && !r.isDispatcher(x) && !isWrapperNode(x);
  });
}

/** The instance children of each dispatcher named `node`: their indices are distinct within each. */
function uniquePerDispatcher<T>(r: TreeReader<T>, items: readonly T[], node: string): string | null {
  const dispatchers = items.filter((x) => r.isDispatcher(x) && r.name(x) === node);
  if (dispatchers.length === 0) return `no fan-out node ${node}`;
  for (const d of dispatchers) {
    const idx = items.filter((x) => r.parent(x) === d && r.instanceIndex(x) !== undefined).map((x) => r.instanceIndex(x)!);
    if (idx.length === 0) return `a ${node} node has no instance under it`;
    if (new Set(idx).size !== idx.length) return `instance indices under one ${node} node repeat: ${show(idx)}`;
  }
  return null;
}

/** Each call's span parents under the node span of its own lineage (§5.5, the calling node open). */
function underOwnCallingNode<T>(r: TreeReader<T>, calls: ReadonlyArray<{ parent: T | undefined; e: EventLineage }>, what: string): string | null {
  const bad = calls.filter(({ parent, e }) => parent === undefined || !isNodeOf(r, parent, e));
  return bad.length ? `${bad.length} of ${calls.length} ${what}s are not under the ${bad.map(({ e }) => where(e)).join(", ")} node: under ${bad.map(({ parent }) => (parent === undefined ? "the root" : r.name(parent))).join(", ")}` : null;
}

/** Orphan fallback (§5.5, §4.3): each call's parent is the wrapper of kind `is` at the end of its own lineage. */
function orphanUnderOwnWrapper<T>(r: TreeReader<T>, calls: ReadonlyArray<{ parent: T | undefined; e: EventLineage }>, is: (x: T) => boolean, kind: string): string | null {
  const bad = calls.filter(({ parent, e }) => parent === undefined || !is(parent) || !sameSteps(treeSteps(r, parent), eventSteps(e)));
  return bad.length ? `${bad.length} of ${calls.length} orphan calls are not under their own ${kind}: ${bad.map(({ parent, e }) => `${where(e)} under ${parent === undefined ? "the root" : `${r.name(parent)} [${treeSteps(r, parent).join(", ")}]`}`).join("; ")}` : null;
}

/** Each call's parent lies on its own lineage path (never a sibling instance / branch sharing an index). */
function onOwnLineage<T>(r: TreeReader<T>, calls: ReadonlyArray<{ parent: T | undefined; e: EventLineage }>): string | null {
  const bad = calls.filter(({ parent, e }) => !sameSteps(treeSteps(r, parent), eventSteps(e)));
  return bad.length ? `${bad.length} calls parent outside their own lineage: ${bad.map(({ parent, e }) => `${where(e)} under [${treeSteps(r, parent).join(", ")}]`).join("; ")}` : null;
}

/** Never a shared parent: the fan-out / parallel-branches node, or the root. */
function notUnderSharedParent<T>(r: TreeReader<T>, calls: ReadonlyArray<{ parent: T | undefined }>, isRoot: (x: T) => boolean): string | null {
  const bad = calls.filter(({ parent }) => parent === undefined || isRoot(parent) || r.isDispatcher(parent));
  return bad.length ? `${bad.length} calls parent under ${bad.map(({ parent }) => (parent === undefined || isRoot(parent) ? "the root" : r.name(parent))).join(", ")}` : null;
}

/** The calling node's span / observation is a sibling of the call's (same parent), not its parent. */
function siblingOfCallingNode<T>(r: TreeReader<T>, items: readonly T[], calls: ReadonlyArray<{ x: T; parent: T | undefined; e: EventLineage }>): string | null {
  const bad = calls.filter(({ parent, e }) => !items.some((n) => r.parent(n) === parent && isNodeOf(r, n, e)));
  return bad.length ? `${bad.length} calls have no calling-node sibling: ${bad.map(({ e }) => where(e)).join("; ")}` : null;
}

type OtelCall = { x: ReadableSpan; parent: ReadableSpan | undefined; e: EventLineage };

/** Run `check` over the call's LLM spans, each with its parent and its call's lineage. */
function withOtelCalls(v: OtelView, check: (calls: OtelCall[]) => string | null): string | null {
  const l = withLineage(v, v.llm);
  return typeof l === "string" ? l : check(l.map(({ s, e }) => ({ x: s, parent: v.r.parent(s), e })));
}

const otelRows: ClaimRow<OtelView>[] = [
  {
    name: "no_inner_spans_dropped_under_concurrent_nesting",
    section: "observability 132",
    summary: "every node attempt that ran has exactly one span, placed in its own fan-out / branch lineage",
    check: (v) => noneDropped(v.r, v.spans, v.nodeEvents, "span"),
  },
  {
    name: "inner_node_span_count",
    section: "observability 132",
    summary: "the number of spans of (non-composite) nodes that ran inside a subgraph, fan-out instance or branch",
    schema: { type: "integer", minimum: 0 },
    check: (v, n: number) => {
      const inner = innerNodes(v.r, v.spans, (s) => s.attributes["openarmature.subgraph.name"] !== undefined);
      return inner.length === n ? null : `${inner.length} inner node spans (${inner.map((s) => s.name).join(", ")})`;
    },
  },
  {
    name: "unique_fan_out_indices_per_node_span_under",
    section: "observability 132",
    summary: "within each fan-out node span of this name, the instance spans carry distinct fan_out_index values",
    schema: { type: "string", minLength: 1 },
    check: (v, node: string) => uniquePerDispatcher(v.r, v.spans, node),
  },
  {
    name: "llm_span_parents_under_own_lineage_calling_node",
    section: "observability 132",
    summary: "each LLM span is a child of its calling node's span in the call's own lineage",
    check: (v) => withOtelCalls(v, (c) => underOwnCallingNode(v.r, c, "LLM span")),
  },
  {
    name: "orphan_llm_span_not_under_coincidentally_indexed_sibling",
    section: "observability 133",
    summary: "each orphan LLM span's parent lies on the call's own lineage, not a sibling sharing an index",
    check: (v) => withOtelCalls(v, (c) => onOwnLineage(v.r, c)),
  },
  {
    name: "orphan_llm_span_parents_under_inner_fan_out_instance",
    section: "observability 133",
    summary: "each orphan LLM span parents under the innermost fan-out instance span of its own lineage",
    check: (v) => withOtelCalls(v, (c) => orphanUnderOwnWrapper(v.r, c, (s) => v.r.instanceIndex(s) !== undefined, "fan-out instance span")),
  },
  {
    name: "orphan_llm_span_not_under_fan_out_node_or_invocation",
    section: "observability 133",
    summary: "never a fan-out (or parallel-branches) node span, never the invocation span",
    check: (v) => withOtelCalls(v, (c) => notUnderSharedParent(v.r, c, isOtelRoot)),
  },
  {
    name: "orphan_llm_span_sibling_of_calling_node_span",
    section: "observability 133",
    summary: "the calling node's span is the orphan's sibling, not its parent",
    check: (v) => withOtelCalls(v, (c) => siblingOfCallingNode(v.r, v.spans, c)),
  },
  {
    name: "orphan_llm_span_parents_under_branch_dispatch_span",
    section: "observability 152",
    summary: "each orphan LLM span parents under the per-branch dispatch span of its own lineage",
    check: (v) => withOtelCalls(v, (c) => orphanUnderOwnWrapper(v.r, c, (s) => v.r.dispatchBranch(s) !== undefined, "branch dispatch span")),
  },
  {
    name: "orphan_llm_span_routed_to_correct_branch_by_name",
    section: "observability 152",
    summary: "each orphan is under its own branch's dispatch span (its lineage), never a sibling branch's",
    check: (v) => withOtelCalls(v, (c) => onOwnLineage(v.r, c)),
  },
  {
    name: "orphan_llm_span_not_under_dispatcher_node_or_invocation",
    section: "observability 152",
    summary: "never the parallel-branches (or fan-out) node span, never the invocation span",
    check: (v) => withOtelCalls(v, (c) => notUnderSharedParent(v.r, c, isOtelRoot)),
  },
  {
    name: "orphan_llm_span_sibling_of_guard_node_span",
    section: "observability 152",
    summary: "the calling (guard) node's span is the orphan's sibling, not its parent",
    check: (v) => withOtelCalls(v, (c) => siblingOfCallingNode(v.r, v.spans, c)),
  },
];

/** The Langfuse side: the call's observations (every trace), with the OTel view the Generations are tied to. */
interface LangfuseView {
  readonly items: readonly Placed[];
  readonly generations: readonly Placed[];
  readonly otel: OtelView;
}

function langfuseView(obs: Observation, ctx: CheckContext): LangfuseView | null {
  const lf = capturedLangfuseAll(obs, ctx);
  const otel = otelView(obs, ctx);
  if (lf === null || otel === null) return null;
  const items = lf.traces.flatMap(placed);
  return { items, generations: items.filter((p) => p.o.type === "generation"), otel };
}

const sameTime = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): boolean => a[0] === b[0] && a[1] === b[1];

/**
 * Each Generation with the OTel LLM span of the same call (both observers render the call's event
 * with its own start time) and that call's lineage.
 */
function generationCalls(v: LangfuseView): Array<{ x: Placed; parent: Placed | undefined; e: EventLineage; span: ReadableSpan }> | string {
  if (v.generations.length === 0) return "no Generation was recorded";
  const out = [];
  for (const g of v.generations) {
    const spans = v.otel.llm.filter((s) => sameTime(s.startTime, g.o.startTime));
    if (spans.length !== 1) return `the Generation started at ${show(g.o.startTime)} matches ${spans.length} OTel LLM spans`;
    const e = v.otel.lineage.get(spanId(spans[0]!));
    if (!e) return "the Generation's OTel LLM span was not rendered from a typed event the capture saw";
    out.push({ x: g, parent: g.parent, e, span: spans[0]! });
  }
  return out;
}

const lfRoot = (): boolean => false;
const isLfInstance = (p: Placed): boolean => langfuseReader.instanceIndex(p) !== undefined;

function withGenerations(v: LangfuseView, check: (calls: Array<{ x: Placed; parent: Placed | undefined; e: EventLineage; span: ReadableSpan }>) => string | null): string | null {
  const c = generationCalls(v);
  return typeof c === "string" ? c : check(c);
}

const langfuseRows: ClaimRow<LangfuseView>[] = [
  {
    name: "no_inner_observations_dropped_under_concurrent_nesting",
    section: "observability 134",
    summary: "every node attempt that ran has exactly one observation, placed in its own fan-out / branch lineage",
    check: (v) => noneDropped(langfuseReader, v.items, v.otel.nodeEvents, "observation"),
  },
  {
    name: "generation_count",
    section: "observability 134",
    summary: "the number of Generation observations",
    schema: { type: "integer", minimum: 0 },
    check: (v, n: number) => (v.generations.length === n ? null : `${v.generations.length} Generations`),
  },
  {
    name: "generation_parents_under_own_lineage_calling_node_observation",
    section: "observability 134 / §8.4.3",
    summary: "each Generation is a child of its calling node's observation in the call's own lineage",
    check: (v) => withGenerations(v, (c) => underOwnCallingNode(langfuseReader, c, "Generation")),
  },
  {
    name: "langfuse_parent_matches_otel_parent",
    section: "observability 134 / §8.9",
    summary: "each Generation's parent observation is the OTel parent span of the same call",
    check: (v) =>
      withGenerations(v, (c) => {
        const bad = c
          .map(({ parent, span }) => [parentSignature(langfuseReader, parent, lfRoot), parentSignature(v.otel.r, v.otel.r.parent(span), isOtelRoot)] as const)
          .filter(([lf, ot]) => lf !== ot);
        return bad.length ? `${bad.length} Generations differ: ${bad.map(([lf, ot]) => `Langfuse ${lf} vs OTel ${ot}`).join("; ")}` : null;
      }),
  },
  {
    name: "orphan_generation_parents_under_inner_fan_out_instance_observation",
    section: "observability 134",
    summary: "each orphan Generation parents under the innermost fan-out instance observation of its own lineage",
    check: (v) => withGenerations(v, (c) => orphanUnderOwnWrapper(langfuseReader, c, isLfInstance, "fan-out instance observation")),
  },
  {
    name: "orphan_generation_not_under_coincidentally_indexed_sibling",
    section: "observability 134",
    summary: "each orphan Generation's parent lies on the call's own lineage, not a sibling sharing an index",
    check: (v) => withGenerations(v, (c) => onOwnLineage(langfuseReader, c)),
  },
  {
    name: "orphan_generation_not_under_fan_out_node_or_trace",
    section: "observability 134",
    summary: "never a fan-out / parallel-branches node observation, never the Trace root",
    check: (v) => withGenerations(v, (c) => notUnderSharedParent(langfuseReader, c, lfRoot)),
  },
  {
    name: "orphan_generation_sibling_of_calling_node_observation",
    section: "observability 134",
    summary: "the calling node's observation is the orphan Generation's sibling, not its parent",
    check: (v) => withGenerations(v, (c) => siblingOfCallingNode(langfuseReader, v.items, c)),
  },
];

registerClaims(HOME, otelView, otelRows);
registerClaims(HOME, langfuseView, langfuseRows, useLangfuseCapture);
