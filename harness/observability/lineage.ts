/**
 * Lineage in a rendered tree (observability §3.4 *Per-depth lineage tracking*, §4.3, §5.5
 * *Lineage-resolved parent*): the fan-out instances and parallel branches a span or Langfuse
 * observation sits inside, read from the tree itself — each fan-out instance wrapper on its ancestor
 * path contributes its `fan_out_index`, each per-branch dispatch wrapper its `branch_name` — so it
 * can be compared with the lineage chains of the engine event behind a span. The same reading
 * serves both backends (OTel spans, Langfuse observations) and every composite kind: subgraph
 * wrappers contribute nothing (their chain entry is `null`), nesting contributes one entry per depth.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { EventLineage, NodeEvent } from "../../src/graph/index.ts";
import type { RecordedObservation, RecordedTrace } from "./langfuse.ts";
import { parentId, spanId } from "./spans.ts";

/** One dispatch boundary on a lineage: a fan-out instance index or a branch name. */
export type LineageStep = `fan_out_index ${number}` | `branch ${string}`;

/** The non-null dispatch boundaries of an event's chains, outermost first. */
export function eventSteps(e: Pick<EventLineage, "fanOutIndexChain" | "branchNameChain">): LineageStep[] {
  const out: LineageStep[] = [];
  const depth = Math.max(e.fanOutIndexChain.length, e.branchNameChain.length);
  for (let d = 0; d < depth; d++) {
    const f = e.fanOutIndexChain[d];
    const b = e.branchNameChain[d];
    if (f !== null && f !== undefined) out.push(`fan_out_index ${f}`);
    else if (b !== null && b !== undefined) out.push(`branch ${b}`);
  }
  return out;
}

/** How to read one backend's tree. */
export interface TreeReader<T> {
  parent(x: T): T | undefined;
  /** The instance index when `x` is a fan-out instance wrapper. */
  instanceIndex(x: T): number | undefined;
  /** The branch name when `x` is a per-branch dispatch wrapper. */
  dispatchBranch(x: T): string | undefined;
  /** The node identity `x` renders, when it is a node (not a wrapper, not a provider call). */
  node(x: T): { readonly name: string; readonly namespace: readonly string[]; readonly attemptIndex: unknown; readonly step: unknown } | undefined;
  /** Whether `x` is a fan-out or parallel-branches node (a shared parent, §3.4 / §4.3). */
  isDispatcher(x: T): boolean;
  name(x: T): string;
}

/** The dispatch boundaries on the path from the root down to `x`, `x` included. */
export function treeSteps<T>(r: TreeReader<T>, x: T | undefined): LineageStep[] {
  const out: LineageStep[] = [];
  for (let n = x; n !== undefined; n = r.parent(n)) {
    const i = r.instanceIndex(n);
    const b = r.dispatchBranch(n);
    if (i !== undefined) out.push(`fan_out_index ${i}`);
    else if (b !== undefined) out.push(`branch ${b}`);
  }
  return out.reverse();
}

export const sameSteps = (a: readonly LineageStep[], b: readonly LineageStep[]): boolean => a.length === b.length && a.every((s, i) => s === b[i]);
const sameList = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((s, i) => s === b[i]);

/** Whether `x` is the span / observation of the node event `e` describes, in `e`'s own lineage. */
export function isNodeOf<T>(r: TreeReader<T>, x: T, e: Pick<EventLineage, "nodeName" | "namespace" | "attemptIndex" | "fanOutIndexChain" | "branchNameChain">, step?: number): boolean {
  const n = r.node(x);
  if (!n || n.name !== e.nodeName || !sameList(n.namespace, e.namespace) || n.attemptIndex !== e.attemptIndex) return false;
  if (step !== undefined && n.step !== step) return false;
  return sameSteps(treeSteps(r, x), eventSteps(e));
}

/** The node events whose spans / observations are missing from the tree (one per started attempt). */
export function missingNodes<T>(r: TreeReader<T>, items: readonly T[], events: readonly NodeEvent[]): string[] {
  const missing: string[] = [];
  for (const e of events) {
    if (e.phase !== "started") continue;
    const found = items.filter((x) => isNodeOf(r, x, e, e.step)).length;
    if (found !== 1) missing.push(`${e.namespace.join("/")} step ${e.step} [${eventSteps(e).join(", ")}] (${found} found)`);
  }
  return missing;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);

/** The OTel reading: wrappers by their §5.4 / §5.7 attributes, nodes by `openarmature.node.*`. */
export function otelReader(spans: readonly ReadableSpan[]): TreeReader<ReadableSpan> {
  const byId = new Map(spans.map((s) => [spanId(s), s]));
  const a = (s: ReadableSpan, k: string): unknown => s.attributes[k];
  const isInstance = (s: ReadableSpan): boolean => a(s, "openarmature.fan_out.parent_node_name") !== undefined;
  const isDispatch = (s: ReadableSpan): boolean => a(s, "openarmature.parallel_branches.parent_node_name") !== undefined;
  return {
    parent: (s) => {
      const p = parentId(s);
      return p === undefined ? undefined : byId.get(p);
    },
    instanceIndex: (s) => (isInstance(s) ? num(a(s, "openarmature.node.fan_out_index")) : undefined),
    dispatchBranch: (s) => (isDispatch(s) ? str(a(s, "openarmature.node.branch_name")) : undefined),
    node: (s) => {
      const name = str(a(s, "openarmature.node.name"));
      const ns = a(s, "openarmature.node.namespace");
      if (name === undefined || isInstance(s) || isDispatch(s) || !Array.isArray(ns)) return undefined;
      return { name, namespace: ns, attemptIndex: a(s, "openarmature.node.attempt_index"), step: a(s, "openarmature.node.step") };
    },
    isDispatcher: (s) => a(s, "openarmature.fan_out.item_count") !== undefined || a(s, "openarmature.parallel_branches.branch_count") !== undefined,
    name: (s) => s.name,
  };
}

/** A Langfuse observation with its parent (the Trace is the root: top-level observations have none). */
export interface Placed {
  readonly o: RecordedObservation;
  readonly parent: Placed | undefined;
}

/** Every observation of `t`, each with its parent. */
export function placed(t: RecordedTrace): Placed[] {
  const out: Placed[] = [];
  const walk = (o: RecordedObservation, parent: Placed | undefined): void => {
    const p = { o, parent };
    out.push(p);
    for (const c of o.children) walk(c, p);
  };
  for (const o of t.observations) walk(o, undefined);
  return out;
}

/** The Langfuse reading: the same wrappers and nodes through the §8.4.2 observation metadata. */
export const langfuseReader: TreeReader<Placed> = {
  parent: (p) => p.parent,
  instanceIndex: (p) => (p.o.metadata["fan_out_parent_node_name"] !== undefined ? num(p.o.metadata["fan_out_index"]) : undefined),
  dispatchBranch: (p) => (p.o.metadata["parallel_branches_parent_node_name"] !== undefined ? str(p.o.metadata["branch_name"]) : undefined),
  node: (p) => {
    const m = p.o.metadata;
    const ns = m["namespace"];
    if (p.o.type !== "span" || m["fan_out_parent_node_name"] !== undefined || m["parallel_branches_parent_node_name"] !== undefined || !Array.isArray(ns)) return undefined;
    return { name: p.o.name, namespace: ns, attemptIndex: m["attempt_index"], step: m["step"] };
  },
  isDispatcher: (p) => p.o.metadata["fan_out_item_count"] !== undefined || p.o.metadata["parallel_branches_branch_count"] !== undefined,
  name: (p) => p.o.name,
};

/**
 * What a parent is, for comparing two backends' trees (§8.9): its name and node identity and the
 * lineage path down to it; `"the root"` for the OTel invocation span and the Langfuse Trace (the
 * Trace has no root observation, §8.3).
 */
export function parentSignature<T>(r: TreeReader<T>, x: T | undefined, isRoot: (x: T) => boolean): string {
  if (x === undefined || isRoot(x)) return "the root";
  const n = r.node(x);
  const ident = n ? ` ${n.namespace.join("/")} step ${String(n.step)} attempt ${String(n.attemptIndex)}` : "";
  return `${r.name(x)}${ident} [${treeSteps(r, x).join(", ")}]`;
}
