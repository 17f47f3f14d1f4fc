/**
 * Named claims about where a typed provider / tool event says it ran and when it arrived
 * (graph-engine §6 event-source identity and strict-serial delivery; observability 054, 055, 056),
 * by their plain meaning over every composite kind. The event's own lineage fields are compared with
 * the engine's node lifecycle: the `NodeEvent`s of the node execution that made the call (what the
 * engine handed the observers), so a fan-out instance, a parallel branch, a subgraph or any nesting
 * of them is judged by where the calling node actually ran, not by the event's own say-so.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { capturedSpans } from "../../harness/observability/spans.ts";
import { TypedEvents, type CollectedEvent } from "../../harness/observability/typed-events.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";
type Rec = Readonly<Record<string, unknown>>;

interface View {
  /** Each collector's retained events, in arrival order. */
  readonly collectors: ReadonlyMap<string, readonly CollectedEvent[]>;
  /** Every typed event naming a calling node (LLM, tool, embedding, rerank families), once. */
  readonly calls: readonly CollectedEvent[];
  /** The started node events of the call (the engine's node lifecycle). */
  readonly executions: readonly NodeEvent[];
}

function read(obs: Observation, ctx: CheckContext): View | null {
  const cap = capturedSpans(obs, ctx);
  if (cap === null) return null;
  const collectors = obs.tryGet(TypedEvents) ?? new Map<string, readonly CollectedEvent[]>();
  const seen = new Set<unknown>();
  const calls: CollectedEvent[] = [];
  for (const list of collectors.values()) {
    for (const e of list) {
      if (e.type === "NodeEvent" || typeof e.record["node_name"] !== "string" || seen.has(e.event)) continue;
      seen.add(e.event);
      calls.push(e);
    }
  }
  return { collectors, calls, executions: cap.nodeEvents.filter((e) => e.phase === "started") };
}

const sameNode = (r: Rec, e: NodeEvent): boolean => r["node_name"] === e.nodeName && show(r["namespace"]) === show(e.namespace);
/** The executions of the event's calling node (every instance / branch it ran in). */
const executionsOf = (v: View, r: Rec): NodeEvent[] => v.executions.filter((e) => sameNode(r, e));
const forked = (chain: readonly unknown[]): boolean => chain.some((x) => x !== null && x !== undefined);
const inFanOut = (v: View, r: Rec) => executionsOf(v, r).some((e) => forked(e.fanOutIndexChain));
const inBranch = (v: View, r: Rec) => executionsOf(v, r).some((e) => forked(e.branchNameChain));
const where = (r: Rec): string => `${show(r["node_name"])} (${show(r["namespace"])})`;

/** Events of calls made inside a fork carry the scalar the calling node's executions carry. */
function populated(v: View, inside: (r: Rec) => boolean, field: "fan_out_index" | "branch_name", scalar: (e: NodeEvent) => unknown, what: string): string | null {
  const evs = v.calls.filter((c) => inside(c.record));
  if (evs.length === 0) return `no typed call event came from a node running inside ${what} (${v.calls.length} call event(s) retained)`;
  for (const c of evs) {
    const got = c.record[field];
    const ran = executionsOf(v, c.record).map(scalar);
    if (got === null || got === undefined) return `${c.type} of ${where(c.record)} carries ${field} null, though its node ran in ${what} ${show(ran)}`;
    if (!ran.includes(got)) return `${c.type} of ${where(c.record)} carries ${field} ${show(got)}; its node ran at ${show(ran)}`;
  }
  return null;
}

/** Sibling calls (same node, same enclosing lineage) carry pairwise distinct scalars. */
function distinctSiblings(v: View, inside: (r: Rec) => boolean, field: "fan_out_index" | "branch_name", chain: "fan_out_index_chain" | "branch_name_chain"): string | null {
  const groups = new Map<string, CollectedEvent[]>();
  for (const c of v.calls.filter((x) => inside(x.record))) {
    const own = (c.record[chain] as unknown[] | undefined) ?? [];
    const other = chain === "fan_out_index_chain" ? "branch_name_chain" : "fan_out_index_chain";
    const k = show([c.type, c.record["node_name"], c.record["namespace"], own.slice(0, -1), c.record[other]]);
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const siblings = [...groups.values()].filter((g) => g.length > 1);
  if (siblings.length === 0) return "no two sibling call events from one node";
  for (const g of siblings) {
    const values = g.map((c) => c.record[field]);
    if (new Set(values.map((x) => show(x))).size !== values.length) return `sibling ${g[0]!.type}s of ${where(g[0]!.record)} carry ${field} ${show(values)}`;
  }
  return null;
}

/** Events of calls made outside any such fork carry the scalar null. */
function nullOutside(v: View, inside: (r: Rec) => boolean, field: "fan_out_index" | "branch_name", what: string): string | null {
  const evs = v.calls.filter((c) => executionsOf(v, c.record).length > 0 && !inside(c.record));
  if (evs.length === 0) return `no typed call event came from a node outside ${what}`;
  const bad = evs.filter((c) => c.record[field] !== null);
  return bad.length === 0 ? null : `${bad.map((c) => `${c.type} of ${where(c.record)}`).join(", ")} carry ${field} ${show(bad.map((c) => c.record[field]))}`;
}

// ---- arrival order (strict-serial delivery) -----------------------------------------------------

const LINEAGE = ["node_name", "namespace", "attempt_index", "fan_out_index_chain", "branch_name_chain"] as const;
const sameExecution = (a: Rec, b: Rec): boolean => LINEAGE.every((k) => show(a[k]) === show(b[k]));

interface Placement {
  readonly call: CollectedEvent;
  readonly collector: string;
  /** Index of the latest started event of the calling execution before the call event, else -1. */
  readonly started: number;
  /** Index of the first terminal event of that execution after the call event, else -1. */
  readonly terminal: number;
  readonly at: number;
}

/** Where each call event arrived, in each collector that retained it, relative to its node's lifecycle events. */
function placements(v: View): Placement[] | string {
  const out: Placement[] = [];
  for (const [name, list] of v.collectors) {
    if (!list.some((e) => e.type === "NodeEvent")) continue;
    for (const [at, e] of list.entries()) {
      if (e.type === "NodeEvent" || typeof e.record["node_name"] !== "string") continue;
      let started = -1;
      for (let i = at - 1; i >= 0; i--) {
        const n = list[i]!;
        if (n.type === "NodeEvent" && n.record["phase"] === "started" && sameExecution(n.record, e.record)) {
          started = i;
          break;
        }
      }
      const terminal = list.findIndex((n, i) => i > at && n.type === "NodeEvent" && n.record["phase"] !== "started" && sameExecution(n.record, e.record));
      out.push({ call: e, collector: name, started, terminal, at });
    }
  }
  if (out.length === 0) return "no collector retained both NodeEvents and a typed call event";
  return out;
}

const describe = (p: Placement): string => `${p.call.type} of ${where(p.call.record)} (collector ${p.collector}, position ${p.at})`;

function arrival(check: (p: Placement) => string | null): (v: View) => string | null {
  return (v) => {
    const ps = placements(v);
    if (typeof ps === "string") return ps;
    for (const p of ps) {
      const why = check(p);
      if (why !== null) return why;
    }
    return null;
  };
}

const afterStarted = (p: Placement): string | null => (p.started >= 0 ? null : `${describe(p)} arrived before its node's started event`);
const beforeCompleted = (p: Placement): string | null => (p.terminal >= 0 ? null : `${describe(p)} arrived after its node's completed event, or the node has none`);

const rows: ClaimRow<View>[] = [
  {
    name: "per_instance_fan_out_index_populated",
    section: "observability 054",
    summary: "a typed call event from a node running in a fan-out instance carries that instance's fan_out_index",
    check: (v) => populated(v, (r) => inFanOut(v, r), "fan_out_index", (e) => e.fanOutIndex ?? null, "a fan-out instance"),
  },
  {
    name: "sibling_instances_have_distinct_fan_out_index",
    section: "observability 054",
    summary: "the same node's call events from sibling fan-out instances carry distinct fan_out_index values",
    check: (v) => distinctSiblings(v, (r) => inFanOut(v, r), "fan_out_index", "fan_out_index_chain"),
  },
  {
    name: "branch_name_null_outside_parallel_branches",
    section: "observability 054",
    summary: "a typed call event from a node in no parallel branch carries branch_name null",
    check: (v) => nullOutside(v, (r) => inBranch(v, r), "branch_name", "a parallel branch"),
  },
  {
    name: "per_branch_branch_name_populated",
    section: "observability 055",
    summary: "a typed call event from a node running in a parallel branch carries that branch's branch_name",
    check: (v) => populated(v, (r) => inBranch(v, r), "branch_name", (e) => e.branchName ?? null, "a parallel branch"),
  },
  {
    name: "sibling_branches_have_distinct_branch_name",
    section: "observability 055",
    summary: "the same node's call events from sibling branches carry distinct branch_name values",
    check: (v) => distinctSiblings(v, (r) => inBranch(v, r), "branch_name", "branch_name_chain"),
  },
  {
    name: "fan_out_index_null_outside_fan_out",
    section: "observability 055",
    summary: "a typed call event from a node in no fan-out instance carries fan_out_index null",
    check: (v) => nullOutside(v, (r) => inFanOut(v, r), "fan_out_index", "a fan-out instance"),
  },
  {
    name: "typed_event_arrives_after_node_started",
    section: "observability 056",
    summary: "each typed call event arrives after the started event of the node execution that made the call",
    check: arrival(afterStarted),
  },
  {
    name: "typed_event_arrives_before_node_completed",
    section: "observability 056",
    summary: "each typed call event arrives before the completed event of the node execution that made the call",
    check: arrival(beforeCompleted),
  },
  {
    name: "typed_event_arrives_within_calling_node_span",
    section: "observability 056",
    summary: "each typed call event arrives between its calling node execution's started and completed events",
    check: arrival((p) => afterStarted(p) ?? beforeCompleted(p)),
  },
];
registerClaims(HOME, read, rows);
