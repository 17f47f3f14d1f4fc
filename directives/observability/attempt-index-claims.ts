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
 */
import type { NodeEvent } from "../../src/graph/index.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { sameSet, scopedEvents, showSet } from "../../harness/graph/invariant-scope.ts";

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
registerClaims(HOME, (obs, ctx) => scopedEvents(obs, ctx), rows);
