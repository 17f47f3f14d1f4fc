/**
 * Named claims of the nested-lineage augmentation fixture (observability 039; §3.4 *Augmenter's
 * call-stack ancestor chain*, *Sibling boundary*, *Shared-parent boundary*), by the plain meaning
 * its prose gives, over every composite kind and any nesting: each reads the real
 * `setInvocationMetadata` writes the call's nodes made (with the site each was made at) and the
 * `openarmature.user.*` attributes on the OTel spans, locating each writer's span in the tree by its
 * lineage (harness/observability/lineage.ts).
 *
 * The dispatch ancestors of a write are the fan-out instance spans, branch dispatch spans and serial
 * subgraph wrapper spans (a node span with node spans under it) on the path from the root to the
 * writer's span; the shared parents are the fan-out and parallel-branches node spans and the
 * invocation span. A value "written inside" a fork is one no serial context above it or the caller's
 * baseline holds, so a value inherited from before the fork is never counted as a leak.
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { useOtelCapture } from "../../harness/observability/capture.ts";
import { isNodeOf, otelReader, type TreeReader } from "../../harness/observability/lineage.ts";
import { CallerBaseline, MetadataWrites, type MetadataWrite } from "../../harness/observability/metadata.ts";
import { capturedSpans, mainInvocationSpan } from "../../harness/observability/spans.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";
const USER = "openarmature.user.";

type Kind = "instance" | "branch" | "wrapper";

interface Placed {
  readonly w: MetadataWrite;
  /** The writer's node span. */
  readonly span: ReadableSpan;
  /** Its dispatch ancestors, innermost first, with their kind. */
  readonly ancestors: ReadonlyArray<{ readonly s: ReadableSpan; readonly kind: Kind }>;
}

interface View {
  readonly spans: readonly ReadableSpan[];
  readonly r: TreeReader<ReadableSpan>;
  readonly writes: readonly Placed[];
  /** Writes whose span could not be located (reported by every claim). */
  readonly unplaced: readonly MetadataWrite[];
  readonly baseline: Readonly<Record<string, unknown>>;
  readonly root: ReadableSpan | undefined;
}

const forked = (w: MetadataWrite): boolean => w.fanOutIndexChain.some((x) => x !== null) || w.branchNameChain.some((x) => x !== null);

function kindOf(r: TreeReader<ReadableSpan>, s: ReadableSpan, spans: readonly ReadableSpan[]): Kind | undefined {
  if (r.instanceIndex(s) !== undefined) return "instance";
  if (r.dispatchBranch(s) !== undefined) return "branch";
  if (r.node(s) !== undefined && !r.isDispatcher(s) && spans.some((c) => r.parent(c) === s && r.node(c) !== undefined)) return "wrapper";
  return undefined;
}

function read(obs: Observation, ctx: CheckContext): View | null {
  const cap = capturedSpans(obs, ctx);
  if (cap === null) return null;
  const r = otelReader(cap.spans);
  const writes: Placed[] = [];
  const unplaced: MetadataWrite[] = [];
  for (const w of obs.tryGet(MetadataWrites) ?? []) {
    const lineage = { nodeName: w.node, namespace: w.namespace, attemptIndex: w.attemptIndex, fanOutIndexChain: w.fanOutIndexChain, branchNameChain: w.branchNameChain };
    const span = cap.spans.find((s) => isNodeOf(r, s, lineage, w.step));
    if (!span) {
      unplaced.push(w);
      continue;
    }
    const ancestors: Array<{ s: ReadableSpan; kind: Kind }> = [];
    for (let p = r.parent(span); p !== undefined; p = r.parent(p)) {
      const kind = kindOf(r, p, cap.spans);
      if (kind) ancestors.push({ s: p, kind });
    }
    writes.push({ w, span, ancestors });
  }
  return { spans: cap.spans, r, writes, unplaced, baseline: obs.tryGet(CallerBaseline) ?? {}, root: mainInvocationSpan(cap.spans) };
}

const carries = (s: ReadableSpan, k: string, v: unknown): boolean => show(s.attributes[USER + k]) === show(v);
const under = (v: View, s: ReadableSpan, a: ReadableSpan): boolean => {
  for (let p: ReadableSpan | undefined = s; p !== undefined; p = v.r.parent(p)) if (p === a) return true;
  return false;
};
/** The span and name of a dispatch ancestor, for messages. */
const label = (v: View, s: ReadableSpan): string => {
  const i = v.r.instanceIndex(s);
  const b = v.r.dispatchBranch(s);
  return i !== undefined ? `${s.name} instance ${i}` : b !== undefined ? `${s.name} branch ${b}` : `${s.name} span`;
};

/** Whether `value` of `key` was written by a serial context (no fork) or the caller — inherited, not a fork's own. */
const inherited = (v: View, key: string, value: unknown): boolean =>
  show(v.baseline[key]) === show(value) || v.writes.some((p) => !forked(p.w) && show(p.w.entries[key]) === show(value));

/**
 * Every ancestor of kind `kinds` on a chosen write's path carries each key it wrote, with the value
 * of some write made beneath that ancestor (several writers under one ancestor: the last one wins).
 */
function ancestorsCarry(v: View, kinds: readonly Kind[], choose: (p: Placed) => boolean, what: string): string | null {
  if (v.unplaced.length) return `no span found for the write of ${v.unplaced.map((w) => w.node).join(", ")}`;
  const chosen = v.writes.filter(choose);
  if (chosen.length === 0) return `no write was made ${what}`;
  for (const p of chosen) {
    for (const a of p.ancestors.filter((x) => kinds.includes(x.kind))) {
      const beneath = v.writes.filter((q) => under(v, q.span, a.s));
      for (const k of Object.keys(p.w.entries)) {
        if (!beneath.some((q) => Object.hasOwn(q.w.entries, k) && carries(a.s, k, q.w.entries[k]))) {
          return `${label(v, a.s)} (an ancestor of ${p.w.node}, which wrote ${k} = ${show(p.w.entries[k])}) carries ${USER}${k} = ${show(a.s.attributes[USER + k])}`;
        }
      }
    }
  }
  return null;
}

/** Spans of dispatch contexts of `kinds`, grouped with their siblings (same parent span). */
function siblingGroups(v: View, kinds: readonly Kind[], outermostOnly: boolean): ReadableSpan[][] {
  const groups = new Map<ReadableSpan | undefined, ReadableSpan[]>();
  for (const s of v.spans) {
    const kind = kindOf(v.r, s, v.spans);
    if (kind === undefined || !kinds.includes(kind) || kind === "wrapper") continue;
    if (outermostOnly) {
      let nested = false;
      for (let p = v.r.parent(s); p !== undefined; p = v.r.parent(p)) if (v.r.instanceIndex(p) !== undefined || v.r.dispatchBranch(p) !== undefined) nested = true;
      if (nested) continue;
    }
    const parent = v.r.parent(s);
    groups.set(parent, [...(groups.get(parent) ?? []), s]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

/** No span under a sibling context carries a value written (only) under another sibling. */
function siblingsIsolated(v: View, kinds: readonly Kind[], outermostOnly: boolean, what: string): string | null {
  if (v.unplaced.length) return `no span found for the write of ${v.unplaced.map((w) => w.node).join(", ")}`;
  const groups = siblingGroups(v, kinds, outermostOnly);
  let compared = 0;
  for (const g of groups) {
    for (const d of g) {
      const mine = v.writes.filter((p) => under(v, p.span, d));
      for (const other of g) {
        if (other === d) continue;
        for (const p of v.writes.filter((q) => under(v, q.span, other))) {
          compared++;
          for (const [k, val] of Object.entries(p.w.entries)) {
            if (inherited(v, k, val) || mine.some((m) => show(m.w.entries[k]) === show(val))) continue;
            const leak = v.spans.find((s) => under(v, s, d) && carries(s, k, val));
            if (leak) return `${leak.name} under ${label(v, d)} carries ${USER}${k} = ${show(val)}, written under ${label(v, other)}`;
          }
        }
      }
    }
  }
  return compared > 0 ? null : `no write was made under one of two sibling ${what}`;
}

/** The shared parents chosen carry no value written inside a fork below them. */
function sharedParentsClean(v: View, pick: (s: ReadableSpan) => boolean, what: string): string | null {
  if (v.unplaced.length) return `no span found for the write of ${v.unplaced.map((w) => w.node).join(", ")}`;
  const parents = v.spans.filter(pick);
  if (parents.length === 0) return `no ${what}`;
  const inside = v.writes.filter((p) => forked(p.w));
  if (inside.length === 0) return "no write was made inside a fan-out instance or branch";
  let below = 0;
  for (const s of parents) {
    for (const p of inside.filter((q) => under(v, q.span, s))) {
      below++;
      for (const [k, val] of Object.entries(p.w.entries)) {
        if (inherited(v, k, val)) continue;
        if (carries(s, k, val)) return `${label(v, s)} (${what}) carries ${USER}${k} = ${show(val)}, written by ${p.w.node} inside a fork below it`;
      }
    }
  }
  return below > 0 ? null : `no write was made below a ${what}`;
}

const isFanOutNode = (v: View) => (s: ReadableSpan) => s.attributes["openarmature.fan_out.item_count"] !== undefined;
const isDispatcher = (v: View) => (s: ReadableSpan) => v.r.isDispatcher(s) || s === v.root;
const forkDepth = (p: Placed) => p.ancestors.filter((a) => a.kind !== "wrapper").length;

const rows: ClaimRow<View>[] = [
  {
    name: "outer_dispatch_span_carries_inner_augmentation",
    section: "observability 039",
    summary: "a write made two or more dispatch levels deep reaches every enclosing fan-out instance / branch dispatch span",
    check: (v) => ancestorsCarry(v, ["instance", "branch"], (p) => forkDepth(p) >= 2, "inside a nested fan-out instance or branch"),
  },
  {
    name: "outer_fan_out_instance_carries_branch_augmentation",
    section: "observability 039",
    summary: "a write made inside a branch inside a fan-out instance reaches that instance's dispatch span",
    check: (v) =>
      ancestorsCarry(v, ["instance"], (p) => p.ancestors.some((a) => a.kind === "branch") && p.ancestors.some((a) => a.kind === "instance" && p.ancestors.findIndex((b) => b.kind === "branch") < p.ancestors.indexOf(a)), "inside a branch inside a fan-out instance"),
  },
  {
    name: "serial_subgraph_wrapper_carries_inner_augmentation",
    section: "observability 039",
    summary: "a write made inside a serial subgraph reaches the subgraph node's (wrapper) span, last writer winning",
    check: (v) => ancestorsCarry(v, ["wrapper"], (p) => p.ancestors.some((a) => a.kind === "wrapper"), "inside a serial subgraph"),
  },
  {
    name: "outer_dispatch_spans_isolated",
    section: "observability 039",
    summary: "no span under an outermost fan-out instance / branch carries a value written under a sibling",
    check: (v) => siblingsIsolated(v, ["instance", "branch"], true, "outermost dispatch contexts"),
  },
  {
    name: "sibling_outer_instances_isolated",
    section: "observability 039",
    summary: "no span under an outermost fan-out instance carries a value written under a sibling instance",
    check: (v) => siblingsIsolated(v, ["instance"], true, "outermost fan-out instances"),
  },
  {
    name: "sibling_fan_out_instances_isolated",
    section: "observability 039",
    summary: "no span under a fan-out instance, at any depth, carries a value written under a sibling instance",
    check: (v) => siblingsIsolated(v, ["instance"], false, "fan-out instances"),
  },
  {
    name: "sibling_branch_isolated_from_probe_augmentation",
    section: "observability 039",
    summary: "no span under a branch carries a value written under a sibling branch",
    check: (v) => siblingsIsolated(v, ["branch"], false, "branches"),
  },
  {
    name: "shared_parent_spans_not_augmented",
    section: "observability 039",
    summary: "fan-out and parallel-branches node spans and the invocation span carry no value written inside a fork below them",
    check: (v) => sharedParentsClean(v, isDispatcher(v), "shared parent"),
  },
  {
    name: "fan_out_node_shared_parent_not_augmented",
    section: "observability 039",
    summary: "a fan-out node span carries no value written inside its instances",
    check: (v) => sharedParentsClean(v, isFanOutNode(v), "fan-out node span"),
  },
  {
    name: "invocation_span_not_augmented",
    section: "observability 039",
    summary: "the invocation span carries no value written inside a fan-out instance or branch",
    check: (v) => sharedParentsClean(v, (s) => s === v.root, "invocation span"),
  },
];
registerClaims(HOME, read, rows, useOtelCapture);
