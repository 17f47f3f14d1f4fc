/**
 * Named claims over the attempt indices the graph-engine §6 node events carry (observability 119's
 * header: the `record` observer's raw NodeEvents are "the same channel fixtures 007 / 020 / 036 use
 * for attempt_index"), by the plain meaning of their names and values. Each reads the events the
 * engine delivered to the case's recording observer during the call.
 *
 * - `<node>_node_attempt_indices_seen: [...]`: the set of `attempt_index` values on node `<node>`'s
 *   own events (any node kind: a plain node, a subgraph, fan-out or parallel-branches node; at any
 *   depth, as `<node>_node_events_count` counts them).
 * - `<branch>_callable_branch_attempt_indices_seen: [...]`: the set of `attempt_index` values on the
 *   synthetic started / completed pair of inline-callable parallel branch `<branch>` (graph-engine
 *   §6: "the engine emits one synthetic started / completed pair for it, with node_name and
 *   namespace set to the branch's name ... and branch_name carrying the same value"), which report
 *   the dispatching node's current attempt.
 * - `callable_branch_events_report_current_attempt_index`: every such synthetic event carries the
 *   `attempt_index` of the dispatching parallel-branches node's attempt in progress when it was
 *   delivered (the node's `started` .. `completed` bracket in the serial §6 stream), never a fixed 0.
 * - `callable_branch_started_and_completed_carry_attempt_index_one_on_retry`: during the dispatching
 *   node's retry attempt (attempt 1), every callable branch that ran emitted both a `started` and a
 *   `completed` event, each carrying `attempt_index` 1.
 *
 * And three over the spans the OTel observer rendered from those events (observability §4.3
 * *Parallel-branches dispatch span synthesis*, §5.7): a parallel-branches NODE span carries
 * `openarmature.parallel_branches.branch_count`; its per-branch dispatch spans are its children; an
 * inline-callable branch's dispatch span has no inner-node span beneath it (§5.7).
 *
 * - `sibling_parallel_branches_node_spans_per_attempt: N`: each parallel-branches node renders N
 *   sibling NODE spans (same parent, same name), one per attempt: attempt indices 0..N-1.
 * - `retry_callable_branch_dispatch_span_attempt_index_is_one`: the callable-branch dispatch spans
 *   under the retry attempt's NODE span (attempt_index 1) exist and carry attempt_index 1.
 * - `callable_branch_attempt_index_sourced_from_node_event_not_zero`: every callable-branch dispatch
 *   span's attempt_index is the one its branch's synthetic events carried in that NODE attempt, and
 *   not every one is 0 (a retry attempt shows the index is the event's, not a constant).
 */
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { NodeEvent } from "../../src/graph/index.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { capturedSpans, parentId, spanId } from "../../harness/observability/spans.ts";
import { sameSet, scopedEvents, showSet } from "../../harness/graph/invariant-scope.ts";
import { show } from "../../harness/suspension/claims.ts";

const HOME = "observability";
const INDICES = { type: "array", items: { type: "integer", minimum: 0 }, minItems: 1 };

/**
 * The synthetic events of inline-callable branch `branch`: its name as node name, innermost
 * namespace segment and branch name (graph-engine §6). A subgraph branch's inner node carries its
 * own node name, so it is not one of them unless it is named after its branch, which the events
 * cannot tell apart.
 */
export function callableBranchEvents(events: readonly NodeEvent[], branch: string): NodeEvent[] {
  return events.filter((e) => e.nodeName === branch && e.branchName === branch && e.namespace[e.namespace.length - 1] === branch);
}

function seen(events: readonly NodeEvent[], what: string, want: readonly number[]): string | null {
  if (events.length === 0) return `no event of ${what} was delivered`;
  const got = events.map((e) => e.attemptIndex);
  return sameSet(want, got) ? null : `${what}'s events carry attempt indices ${showSet(got)}`;
}

const rows: ClaimRow<readonly NodeEvent[]>[] = [
  {
    name: /(?<node>.+)_node_attempt_indices_seen/,
    section: "observability 119",
    summary: "the set of attempt_index values on the named node's own events",
    schema: INDICES,
    check: (events, want: number[], g) => {
      const callable = new Set(callableBranchEvents(events, g["node"]!));
      return seen(events.filter((e) => e.nodeName === g["node"] && !callable.has(e)), `node '${g["node"]}'`, want);
    },
  },
  {
    name: /(?<branch>.+)_callable_branch_attempt_indices_seen/,
    section: "observability 119",
    summary: "the set of attempt_index values on the named inline-callable branch's synthetic events",
    schema: INDICES,
    check: (events, want: number[], g) => seen(callableBranchEvents(events, g["branch"]!), `callable branch '${g["branch"]}'`, want),
  },
];
/** One synthetic callable-branch event and the dispatching node's attempt open when it was delivered. */
interface Dispatch {
  readonly event: NodeEvent;
  /** The dispatching parallel-branches node's `started` event of that attempt; absent: none was open. */
  readonly node?: NodeEvent;
}

const sameList = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
const prefixOf = (p: readonly unknown[], of: readonly unknown[]): boolean => p.length <= of.length && p.every((x, i) => x === of[i]);
const sameAttempt = (a: NodeEvent, b: NodeEvent): boolean =>
  a.attemptIndex === b.attemptIndex && sameList(a.namespace, b.namespace) && sameList(a.fanOutIndexChain, b.fanOutIndexChain) && sameList(a.branchNameChain, b.branchNameChain);

/** Does parallel-branches node attempt `node` (its `started` event) dispatch callable-branch event `e`? */
function dispatches(node: NodeEvent, e: NodeEvent): boolean {
  const branch = e.branchName!;
  return (
    node.parallelBranchesConfig!.branchNames.includes(branch) &&
    sameList(node.namespace, e.namespace.slice(0, -1)) &&
    prefixOf(node.fanOutIndexChain, e.fanOutIndexChain) &&
    prefixOf(node.branchNameChain, e.branchNameChain)
  );
}

/**
 * Every synthetic callable-branch event (its branch name as node name, innermost namespace segment
 * and branch name, one level below a parallel-branches node naming that branch), in delivery order,
 * with the dispatching node's attempt open at the time: the §6 queue is serial, so the events
 * between a node attempt's `started` and its terminal event are that attempt's.
 */
function callableDispatches(events: readonly NodeEvent[]): Dispatch[] {
  const open: NodeEvent[] = [];
  const out: Dispatch[] = [];
  for (const e of events) {
    if (e.parallelBranchesConfig !== undefined) {
      if (e.phase === "started") open.push(e);
      else {
        const i = open.findIndex((o) => sameAttempt(o, e));
        if (i >= 0) open.splice(i, 1);
      }
      continue;
    }
    const branch = e.branchName;
    if (branch === undefined || e.nodeName !== branch || e.namespace[e.namespace.length - 1] !== branch) continue;
    const node = open.findLast((o) => dispatches(o, e));
    // A same-named node nested elsewhere (no node naming the branch one level up) is not one.
    if (node === undefined && !events.some((o) => o.parallelBranchesConfig !== undefined && dispatches(o, e))) continue;
    out.push(node === undefined ? { event: e } : { event: e, node });
  }
  return out;
}

const where = (d: Dispatch): string =>
  `callable branch '${d.event.branchName}' ${d.event.phase} event (attempt_index ${d.event.attemptIndex})` +
  (d.node ? ` during attempt ${d.node.attemptIndex} of node '${d.node.nodeName}'` : " outside any attempt of its dispatching node");

const eventRows: ClaimRow<readonly NodeEvent[]>[] = [
  {
    name: "callable_branch_events_report_current_attempt_index",
    section: "observability 119",
    summary: "callable-branch events carry the dispatching node's current attempt_index",
    check: (events) => {
      const all = callableDispatches(events);
      if (all.length === 0) return "no callable-branch event was delivered";
      const off = all.filter((d) => d.node === undefined || d.node.attemptIndex !== d.event.attemptIndex);
      return off.length === 0 ? null : off.map(where).join("; ");
    },
  },
  {
    name: "callable_branch_started_and_completed_carry_attempt_index_one_on_retry",
    section: "observability 119",
    summary: "on the node's retry attempt, callable-branch started and completed events carry attempt_index 1",
    check: (events) => {
      const retry = callableDispatches(events).filter((d) => d.node?.attemptIndex === 1);
      if (retry.length === 0) return "no callable-branch event was delivered during attempt 1 of its dispatching node";
      const why: string[] = [];
      for (const branch of new Set(retry.map((d) => d.event.branchName!))) {
        const mine = retry.filter((d) => d.event.branchName === branch);
        for (const phase of ["started", "completed"] as const) {
          if (!mine.some((d) => d.event.phase === phase)) why.push(`callable branch '${branch}' has no ${phase} event in attempt 1`);
        }
        why.push(...mine.filter((d) => d.event.attemptIndex !== 1).map(where));
      }
      return why.length === 0 ? null : why.join("; ");
    },
  },
];
registerClaims(HOME, (obs, ctx) => scopedEvents(obs, ctx), [...rows, ...eventRows]);

const ATTEMPT = "openarmature.node.attempt_index";
const BRANCH = "openarmature.node.branch_name";
const BRANCH_COUNT = "openarmature.parallel_branches.branch_count";

/** What the span claims read: the spans the OTel observer exported and the recorded node events. */
interface Rendered {
  readonly spans: readonly ReadableSpan[];
  readonly events: readonly NodeEvent[];
}

const attemptOf = (s: ReadableSpan): unknown => s.attributes[ATTEMPT];
const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] => spans.filter((s) => parentId(s) === spanId(parent));
const nodeSpans = (spans: readonly ReadableSpan[]): ReadableSpan[] => spans.filter((s) => Object.hasOwn(s.attributes, BRANCH_COUNT));

/** The inline-callable branches' dispatch spans under a parallel-branches NODE span: no inner-node span beneath (§5.7). */
const callableSpans = (spans: readonly ReadableSpan[], node: ReadableSpan): ReadableSpan[] =>
  childrenOf(spans, node).filter((s) => typeof s.attributes[BRANCH] === "string" && childrenOf(spans, s).length === 0);

const spanRows: ClaimRow<Rendered>[] = [
  {
    name: "sibling_parallel_branches_node_spans_per_attempt",
    section: "observability 119",
    summary: "each parallel-branches node renders this many sibling NODE spans, one per attempt",
    schema: { type: "integer", minimum: 1 },
    check: ({ spans }, want: number) => {
      const groups = new Map<string, ReadableSpan[]>();
      for (const s of nodeSpans(spans)) {
        const key = JSON.stringify([parentId(s) ?? null, s.name]);
        groups.set(key, [...(groups.get(key) ?? []), s]);
      }
      if (groups.size === 0) return "no parallel-branches node span was exported";
      const why: string[] = [];
      for (const group of groups.values()) {
        const got = group.map(attemptOf);
        const perAttempt = Array.from({ length: group.length }, (_, i) => i).every((i) => got.includes(i));
        if (group.length !== want || !perAttempt) why.push(`node '${group[0]!.name}' has ${group.length} sibling span(s) with attempt indices ${showSet(got)}`);
      }
      return why.length === 0 ? null : why.join("; ");
    },
  },
  {
    name: "retry_callable_branch_dispatch_span_attempt_index_is_one",
    section: "observability 119",
    summary: "the callable-branch dispatch spans of the retry attempt carry attempt_index 1",
    check: ({ spans }) => {
      const retry = nodeSpans(spans).filter((s) => attemptOf(s) === 1);
      if (retry.length === 0) return "no parallel-branches node span of attempt 1 was exported";
      const dispatch = retry.flatMap((n) => callableSpans(spans, n));
      if (dispatch.length === 0) return "the attempt-1 parallel-branches node span has no callable-branch dispatch span";
      const off = dispatch.filter((s) => attemptOf(s) !== 1);
      return off.length === 0 ? null : off.map((s) => `dispatch span '${s.name}' carries attempt_index ${show(attemptOf(s))}`).join("; ");
    },
  },
  {
    name: "callable_branch_attempt_index_sourced_from_node_event_not_zero",
    section: "observability 119",
    summary: "callable-branch dispatch spans carry their synthetic events' attempt_index, not a constant 0",
    check: ({ spans, events }) => {
      const dispatched = callableDispatches(events);
      const why: string[] = [];
      let rendered = 0;
      let nonZero = false;
      for (const node of nodeSpans(spans)) {
        for (const s of callableSpans(spans, node)) {
          rendered++;
          if (attemptOf(s) !== 0) nonZero = true;
          const branch = s.attributes[BRANCH] as string;
          const from = dispatched.filter((d) => d.event.branchName === branch && d.node?.nodeName === node.name && d.node.attemptIndex === attemptOf(node));
          const at = `dispatch span '${s.name}' under attempt ${show(attemptOf(node))} of node '${node.name}'`;
          if (from.length === 0) why.push(`${at}: no synthetic event of branch '${branch}' was delivered in that attempt`);
          else if (from.some((d) => d.event.attemptIndex !== attemptOf(s)))
            why.push(`${at} carries attempt_index ${show(attemptOf(s))}; its events carry ${showSet(from.map((d) => d.event.attemptIndex))}`);
        }
      }
      if (rendered === 0) return "no callable-branch dispatch span was exported";
      if (why.length === 0 && !nonZero) why.push("every callable-branch dispatch span carries attempt_index 0");
      return why.length === 0 ? null : why.join("; ");
    },
  },
];
registerClaims(HOME, (obs, ctx) => {
  const events = scopedEvents(obs, ctx);
  if (events === null) return null;
  const cap = capturedSpans(obs, ctx);
  return cap === null ? null : { spans: cap.spans, events };
}, spanRows);
