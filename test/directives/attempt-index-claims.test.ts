/**
 * The attempt-index claims of observability 119 (`<node>_node_attempt_indices_seen`,
 * `<branch>_callable_branch_attempt_indices_seen`), judged against the node events the engine
 * delivered to the case's recording observer: a parallel-branches node with inline-callable branches
 * and a subgraph branch (whose events are not a callable branch's), and a plain retried node.
 */
import { directiveTester } from "./tester.ts";

const RETRY = `        middleware:
          - {type: retry, max_attempts: 2, backoff: {type: deterministic, seconds: 0}}`;

/** A parallel-branches node `retrieve` with inline-callable branches `vector` and `fts` and a subgraph branch `sub`. */
const branches = (invariants: string) => `
state:
  fields:
    vector_result: {type: int, default: 0}
    fts_result: {type: int, default: 0}
    sub_result: {type: int, default: 0}
subgraphs:
  inner:
    state:
      fields:
        sub_result: {type: int, default: 0}
    entry: work
    nodes:
      work: {update: {sub_result: 3}}
    edges:
      - {from: work, to: END}
entry: retrieve
nodes:
  retrieve:
    parallel_branches:
      branches:
        vector:
          call: {update: {vector_result: 1}}
        fts:
          call: {update: {fts_result: 2}}
        sub:
          subgraph: inner
          outputs: {sub_result: sub_result}
      error_policy: fail_fast
edges:
  - {from: retrieve, to: END}
initial_state: {}
observers:
  - {name: obs, attach: graph, target: outer, behavior: record}
expected:
  final_state: {vector_result: 1, fts_result: 2, sub_result: 3}
  observer_event_invariants:
${invariants}
`;

/** A plain node `a` retried once (fails transiently, then succeeds). */
const plain = (invariants: string) => `
state:
  fields:
    v: {type: int, default: 0}
entry: a
nodes:
  a:
    flaky:
      failure_sequence:
        - {transient: true, category: provider_rate_limit, message: throttled}
      success_update: {v: 1}
${RETRY.replace(/^ {4}/gm, "")}
edges:
  - {from: a, to: END}
initial_state: {}
observers:
  - {name: obs, attach: graph, target: outer, behavior: record}
expected:
  final_state: {v: 1}
  observer_event_invariants:
${invariants}
`;

directiveTester("attempt-index claims (observability 119)", {
  capability: "observability",
  template: (b) => b,
  valid: [
    branches("    retrieve_node_attempt_indices_seen: [0]\n    vector_callable_branch_attempt_indices_seen: [0]\n    fts_callable_branch_attempt_indices_seen: [0]\n    work_node_attempt_indices_seen: [0]"),
    plain("    a_node_attempt_indices_seen: [1, 0]"),
  ],
  invalid: [
    { code: branches("    retrieve_node_attempt_indices_seen: [0, 1]"), message: "node 'retrieve''s events carry attempt indices [0]" },
    { code: branches("    vector_callable_branch_attempt_indices_seen: [1]"), message: "callable branch 'vector''s events carry attempt indices [0]" },
    // A branch that runs a subgraph is not a callable branch.
    { code: branches("    sub_callable_branch_attempt_indices_seen: [0]"), message: "no event of callable branch 'sub' was delivered" },
    { code: plain("    a_node_attempt_indices_seen: [0]"), message: "node 'a''s events carry attempt indices [0, 1]" },
    // A node that never ran, and a registered node (not a callable branch), have no such events.
    { code: plain("    b_node_attempt_indices_seen: [0]"), message: "no event of node 'b' was delivered" },
    { code: plain("    a_callable_branch_attempt_indices_seen: [0, 1]"), message: "no event of callable branch 'a' was delivered" },
  ],
});
