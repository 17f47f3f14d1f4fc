/**
 * The attempt-index claims of observability 119, judged against the node events the engine
 * delivered to the case's recording observer and the spans the OTel observer exported: a
 * parallel-branches node with inline-callable branches and a subgraph branch (whose events are not a
 * callable branch's), the same node retried at node level (a flaky callable branch), and a plain
 * retried node.
 */
import { directiveTester } from "./tester.ts";

const RETRY = `        middleware:
          - {type: retry, max_attempts: 2, backoff: {type: deterministic, seconds: 0}}`;

/** A parallel-branches node `retrieve` with inline-callable branches `vector` and `fts` and a subgraph branch `sub`. */
const branches = (invariants: string, block = "observer_event_invariants") => `
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
  ${block}:
${invariants}
`;

/**
 * Observability 119's construction: parallel-branches node `retrieve` under node-level retry, its
 * callable branch `vector` failing transiently on attempt 0 (fail_fast), so attempt 1 re-dispatches
 * `vector` and `fts`. `events` go to observer_event_invariants, `spans` to invariants.
 */
const retried = (events: string, spans = "    sibling_parallel_branches_node_spans_per_attempt: 2") => `
state:
  fields:
    vector_result: {type: int, default: 0}
    fts_result: {type: int, default: 0}
entry: retrieve
nodes:
  retrieve:
    parallel_branches:
      branches:
        vector:
          call:
            flaky:
              failure_sequence:
                - {transient: true, category: provider_rate_limit, message: "vector store throttled"}
              success_update: {vector_result: 1}
        fts:
          call: {update: {fts_result: 2}}
      error_policy: fail_fast
    middleware:
      - type: retry
        max_attempts: 2
        backoff: {type: deterministic, seconds: 0}
        classifier: {transient_categories: [provider_rate_limit]}
edges:
  - {from: retrieve, to: END}
initial_state: {}
observers:
  - {name: obs, attach: graph, target: outer, behavior: record}
expected:
  final_state: {vector_result: 1, fts_result: 2}
  observer_event_invariants:
${events}
  invariants:
${spans}
`;

/** A plain node `a` retried once (fails transiently, then succeeds). */
const plain = (invariants: string, block = "observer_event_invariants") => `
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
  ${block}:
${invariants}
`;

directiveTester("attempt-index claims (observability 119)", {
  capability: "observability",
  template: (b) => b,
  valid: [
    branches("    retrieve_node_attempt_indices_seen: [0]\n    vector_callable_branch_attempt_indices_seen: [0]\n    fts_callable_branch_attempt_indices_seen: [0]\n    work_node_attempt_indices_seen: [0]"),
    plain("    a_node_attempt_indices_seen: [1, 0]"),
    retried(
      [
        "    retrieve_node_attempt_indices_seen: [0, 1]",
        "    vector_callable_branch_attempt_indices_seen: [0, 1]",
        "    callable_branch_events_report_current_attempt_index: true",
        "    callable_branch_started_and_completed_carry_attempt_index_one_on_retry: true",
      ].join("\n"),
      [
        "    sibling_parallel_branches_node_spans_per_attempt: 2",
        "    retry_callable_branch_dispatch_span_attempt_index_is_one: true",
        "    callable_branch_attempt_index_sourced_from_node_event_not_zero: true",
      ].join("\n"),
    ),
    // Without a retry each callable branch's events report attempt 0, the node's only attempt.
    branches("    callable_branch_events_report_current_attempt_index: true\n    sibling_parallel_branches_node_spans_per_attempt: 1", "invariants"),
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
    // The current-attempt claims, asserted against what did happen.
    { code: retried("    callable_branch_events_report_current_attempt_index: false"), message: "expected false, got true" },
    { code: plain("    callable_branch_events_report_current_attempt_index: true"), message: "no callable-branch event was delivered" },
    {
      code: branches("    callable_branch_started_and_completed_carry_attempt_index_one_on_retry: true"),
      message: "no callable-branch event was delivered during attempt 1 of its dispatching node",
    },
    { code: retried("    callable_branch_started_and_completed_carry_attempt_index_one_on_retry: false"), message: "expected false, got true" },
    // The span claims: one NODE span per attempt, the retry attempt's callable dispatch spans.
    {
      code: retried("    vector_callable_branch_attempt_indices_seen: [0, 1]", "    sibling_parallel_branches_node_spans_per_attempt: 1"),
      message: "node 'retrieve' has 2 sibling span(s) with attempt indices [0, 1]",
    },
    { code: branches("    sibling_parallel_branches_node_spans_per_attempt: 2", "invariants"), message: "node 'retrieve' has 1 sibling span(s) with attempt indices [0]" },
    { code: plain("    sibling_parallel_branches_node_spans_per_attempt: 1", "invariants"), message: "no parallel-branches node span was exported" },
    {
      code: branches("    retry_callable_branch_dispatch_span_attempt_index_is_one: true", "invariants"),
      message: "no parallel-branches node span of attempt 1 was exported",
    },
    {
      code: retried("    vector_callable_branch_attempt_indices_seen: [0, 1]", "    retry_callable_branch_dispatch_span_attempt_index_is_one: false"),
      message: "expected false, got true",
    },
    // Without a retry every dispatch span carries 0, which cannot show where the index comes from.
    {
      code: branches("    callable_branch_attempt_index_sourced_from_node_event_not_zero: true", "invariants"),
      message: "every callable-branch dispatch span carries attempt_index 0",
    },
    {
      code: retried("    vector_callable_branch_attempt_indices_seen: [0, 1]", "    callable_branch_attempt_index_sourced_from_node_event_not_zero: false"),
      message: "expected false, got true",
    },
  ],
});
