import { directiveTester } from "./tester.ts";

const worker = `
subgraph:
  name: w
  state: {fields: {x: {type: int, default: 0}, result: {type: int, default: 0}}}
  entry: work
  nodes: {work: {update_from_field: {result: x, multiplier: 2}}}
  edges: [{from: work, to: END}]
`;
const fanOutCase = (conc: number, expected: string, besides = ""): string => `${worker}
state:
  fields:
    items: {type: list<int>, default: [1, 2, 3, 4, 5]}
    results: {type: list<int>, reducer: append, default: []}
entry: f
nodes:
  f:
    fan_out: {subgraph: w, items_field: items, item_field: x, collect_field: result, target_field: results, concurrency: ${conc}}
edges: [{from: f, to: END}]
${besides}
expected:
  ${expected}
`;

directiveTester("concurrency_invariant", {
  template: (b) => b,
  capability: "pipeline-utilities",
  valid: [fanOutCase(2, "concurrency_invariant: {max_in_flight: 2}\n  final_state: {items: [1, 2, 3, 4, 5], results: [2, 4, 6, 8, 10]}")],
  invalid: [
    { code: fanOutCase(4, "concurrency_invariant: {max_in_flight: 1}"), message: "instances were in flight, above the bound 1" },
    { code: fanOutCase(2, "concurrency_invariant: {max: 2}"), category: "fixture_schema_invalid", message: "concurrency_invariant" },
  ],
});

const empty = (block: string): string => `${worker}
state:
  fields:
    items: {type: list<int>, default: []}
    results: {type: list<int>, reducer: append, default: []}
entry: f
nodes:
  f:
    fan_out: {subgraph: w, items_field: items, item_field: x, collect_field: result, target_field: results}
edges: [{from: f, to: END}]
${block}
`;

directiveTester("expected_error fan_out_category / recoverable_state", {
  template: (b) => empty(b),
  valid: [
    "expected_error: {category: node_exception, raised_from: f, fan_out_category: fan_out_empty, recoverable_state: {items: [], results: []}}",
    "expected:\n  expected_error: {category: node_exception}\n  recoverable_state: {items: [], results: []}",
  ],
  invalid: [
    { code: "expected_error: {fan_out_category: fan_out_invalid_count}", message: "expected_error.fan_out_category" },
    { code: "expected_error: {branch_name: beta}", message: "expected_error.branch_name" },
    { code: "expected:\n  recoverable_state: {items: [1], results: []}", message: "expected.recoverable_state.items" },
  ],
});

const branches = (runVector: boolean, invariants: string): string => `
state:
  fields:
    run_vector: {type: bool, default: ${runVector}}
    vector_result: {type: int, default: 0}
    fts_result: {type: int, default: 0}
entry: retrieve
nodes:
  retrieve:
    parallel_branches:
      branches:
        vector: {call: {update: {vector_result: 1}}, when: {field: run_vector}}
        fts: {call: {update: {fts_result: 2}}}
edges: [{from: retrieve, to: END}]
expected:
  invariants:
${invariants.split("\n").map((l) => "    " + l).join("\n")}
`;

directiveTester("parallel-branches call / when claims", {
  template: (b) => b,
  capability: "pipeline-utilities",
  valid: [
    branches(false, "when_false_branch_skipped: true\nskipped_branch_no_contribution: true\nskipped_branch_emits_no_event: true\ncontributions_merge_via_parent_reducer: true"),
    branches(true, "when_true_branch_dispatches: true\ncallable_branches_run_without_subgraph: true"),
  ],
  invalid: [
    { code: branches(true, "when_false_branch_skipped: true"), message: "when_false_branch_skipped" },
    { code: branches(false, "when_true_branch_dispatches: true"), message: "when_true_branch_dispatches" },
    { code: branches(false, "skipped_branch_emits_no_event: false"), message: "skipped_branch_emits_no_event" },
  ],
});

const isolatedBranch = (invariants: string): string => `
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
                - {transient: true, category: provider_unavailable, message: "down"}
          middleware:
            - {type: failure_isolation, degraded_update: {vector_result: -1}, event_name: vector_isolated}
        fts:
          call: {update: {fts_result: 2}}
edges: [{from: retrieve, to: END}]
expected:
  invariants:
${invariants.split("\n").map((l) => "    " + l).join("\n")}
`;

directiveTester("branch failure-isolation claims", {
  template: (b) => b,
  capability: "pipeline-utilities",
  valid: [isolatedBranch("callable_branch_failure_isolated_and_degraded: true\nsibling_branch_completed: true\nparent_keeps_prior_value: false")],
  invalid: [
    { code: isolatedBranch("callable_branch_failure_isolated_and_degraded: false"), message: "callable_branch_failure_isolated_and_degraded" },
    { code: isolatedBranch("sibling_branch_completed: false"), message: "sibling_branch_completed" },
    { code: isolatedBranch("parent_keeps_prior_value: true"), message: "parent_keeps_prior_value" },
  ],
});

const flakyFanOut = (mock: string, block: string, extra = ""): string => `
subgraph:
  name: w
  state: {fields: {idx: {type: int, default: -1}, result: {type: int, default: 0}}}
  entry: maybe
  nodes:
    maybe:
      flaky_by_index: ${mock}
  edges: [{from: maybe, to: END}]
${extra}
state:
  fields:
    items: {type: list<int>, default: [0, 1, 2]}
    results: {type: list<int>, reducer: append, default: []}
    errors: {type: list, reducer: append, default: []}
entry: f
nodes:
  f:
    fan_out: {subgraph: w, items_field: items, item_field: idx, collect_field: result, target_field: results, error_policy: collect, errors_field: errors}
edges: [{from: f, to: END}]
observers:
  - {name: obs, attach: graph, target: outer, behavior: record}
expected:
${block.split("\n").map((l) => "  " + l).join("\n")}
`;

directiveTester("flaky_by_index and the instance-event invariants", {
  template: (b) => b,
  capability: "pipeline-utilities",
  valid: [
    flakyFanOut("{fail_when_idx: 1, success_compute: {result: idx}}", "final_state: {items: [0, 1, 2], results: [0, 2], errors: [{}]}"),
    flakyFanOut(
      "{fail_count_per_idx: 1, success_compute: {result: idx}}",
      "final_state: {items: [0, 1, 2], results: [], errors: [{}, {}, {}]}\nobserver_event_invariants:\n  inner_events_have_fan_out_index: true\n  fan_out_indices_seen: [0, 1, 2]\n  inner_events_attempt_indices_seen: [0]\n  inner_event_pair_count_per_instance: 2",
    ),
  ],
  invalid: [
    { code: flakyFanOut("{fail_when_idx: 1, success_compute: {result: idx}}", "final_state: {items: [0, 1, 2], results: [0, 1, 2], errors: []}"), message: "expected.final_state.results" },
    { code: flakyFanOut("{fail_when_idx: 1}", "observer_event_invariants:\n  inner_event_pair_count_per_instance: 4"), message: "expected 4" },
    { code: flakyFanOut("{fail_when_idx: 1}", "observer_event_invariants:\n  fan_out_indices_seen: [0, 1]"), message: "expected the set" },
    { code: flakyFanOut("{fail_when_idx: 1}", "observer_event_invariants:\n  inner_events_attempt_indices_seen: [0, 1]"), message: "expected the set" },
  ],
});

const degradedFanOut = (degraded: string, invariants: string, results = "list<string>"): string => `
subgraphs:
  unit:
    state: {fields: {input: {type: int, default: 0}, out: {type: string, default: ""}, note: {type: string, default: ""}}}
    entry: work
    nodes:
      work:
        flaky:
          failure_sequence:
            - {transient: false, category: provider_unavailable, message: "down"}
    edges: [{from: work, to: END}]
state:
  fields:
    items: {type: list<int>, default: [1]}
    results: {type: ${results}, reducer: append, default: []}
    notes: {type: list<any>, reducer: append, default: []}
entry: process
nodes:
  process:
    fan_out:
      subgraph: unit
      items_field: items
      item_field: input
      collect_field: out
      target_field: results
      extra_outputs: {notes: note}
      instance_middleware:
        - {type: failure_isolation, degraded_update: ${degraded}, event_name: unit_isolated}
edges: [{from: process, to: END}]
expected:
  invariants:
${invariants.split("\n").map((l) => "    " + l).join("\n")}
`;

directiveTester("instance degrade claims", {
  template: (b) => b,
  capability: "pipeline-utilities",
  valid: [
    degradedFanOut('{out: "(degraded)", note: "fellback"}', "contribution_is_the_degraded_update: true\nextra_outputs_read_by_subgraph_field_name: true\ncategory_not_masked_as_node_exception: true\ncategory_resolves_through_node_exception_wrapper: true\ndegrade_path_does_not_raise: true"),
    degradedFanOut('{out: "(degraded)"}', "extra_outputs_omission_is_null_slot: true"),
  ],
  invalid: [
    { code: degradedFanOut('{out: "(degraded)", note: "fellback"}', "extra_outputs_omission_is_null_slot: true"), message: "extra_outputs_omission_is_null_slot" },
    { code: degradedFanOut('{out: "(degraded)"}', "extra_outputs_read_by_subgraph_field_name: true"), message: "extra_outputs_read_by_subgraph_field_name" },
    { code: degradedFanOut('{out: "(degraded)"}', "strict_reducer_null_slot_raises: true"), message: "strict_reducer_null_slot_raises" },
    { code: degradedFanOut('{out: "(degraded)"}', "contribution_is_the_degraded_update: false"), message: "contribution_is_the_degraded_update" },
  ],
});
