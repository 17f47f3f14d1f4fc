import { directiveTester } from "./tester.ts";
import { chain, section, subgraph, subgraphs } from "./templates.ts";

const RESULTS = "results: {type: list<int>, reducer: append, default: []}";

/** The worker subgraph w: result = 2 × x. */
const WORKER = subgraph("w", chain("x: {type: int, default: 0}\nresult: {type: int, default: 0}", { work: "{update_from_field: {result: x, multiplier: 2}}" }));

/** Fan-out f of the worker over `items` (a flow list) into results; `options` continue the fan_out map; `rest` follows. */
const workerFanOut = (items: string, options: string, rest: string): string =>
  `${WORKER}\n${chain(`items: {type: list<int>, default: ${items}}\n${RESULTS}`, {
    f: `fan_out: {subgraph: w, items_field: items, item_field: x, collect_field: result, target_field: results${options}}`,
  })}\n${rest}\n`;

/** `expected.invariants` holding `invariants`. */
const expectInvariants = (invariants: string): string => section("expected", section("invariants", invariants));

/** The worker fan-out over [1..5] at `concurrency: conc`; `expected` (its later lines pre-indented) under `expected:`. */
const fanOutCase = (conc: number, expected: string, besides = ""): string => workerFanOut("[1, 2, 3, 4, 5]", `, concurrency: ${conc}`, `${besides}\nexpected:\n  ${expected}`);

directiveTester("concurrency_invariant", {
  template: (b) => b,
  capability: "pipeline-utilities",
  valid: [fanOutCase(2, "concurrency_invariant: {max_in_flight: 2}\n  final_state: {items: [1, 2, 3, 4, 5], results: [2, 4, 6, 8, 10]}")],
  invalid: [
    { code: fanOutCase(4, "concurrency_invariant: {max_in_flight: 1}"), message: "instances were in flight, above the bound 1" },
    { code: fanOutCase(2, "concurrency_invariant: {max: 2}"), category: "fixture_schema_invalid", message: "concurrency_invariant" },
  ],
});

/** The worker fan-out over no items; `block` at case level. */
const empty = (block: string): string => workerFanOut("[]", "", block);

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

const BRANCH_RESULTS = "vector_result: {type: int, default: 0}\nfts_result: {type: int, default: 0}";

/** Node retrieve runs `branches` (the body of `parallel_branches.branches`) over `fields`; `expected.invariants` holds `invariants`. */
const retrieve = (fields: string, branches: string, invariants: string): string =>
  `\n${chain(fields, { retrieve: section("parallel_branches", section("branches", branches)) })}\n${expectInvariants(invariants)}\n`;

/** A `vector` branch gated on `run_vector` beside an unconditional `fts` branch. */
const branches = (runVector: boolean, invariants: string): string =>
  retrieve(
    `run_vector: {type: bool, default: ${runVector}}\n${BRANCH_RESULTS}`,
    "vector: {call: {update: {vector_result: 1}}, when: {field: run_vector}}\nfts: {call: {update: {fts_result: 2}}}",
    invariants,
  );

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

/** A failing `vector` branch under failure isolation beside a completing `fts` branch. */
const isolatedBranch = (invariants: string): string =>
  retrieve(
    BRANCH_RESULTS,
    `vector:
  call:
    flaky:
      failure_sequence:
        - {transient: true, category: provider_unavailable, message: "down"}
  middleware:
    - {type: failure_isolation, degraded_update: {vector_result: -1}, event_name: vector_isolated}
fts:
  call: {update: {fts_result: 2}}`,
    invariants,
  );

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

/** A collecting fan-out f over [0, 1, 2] whose instances run `flaky_by_index: mock`, with a recording observer; `expected:` holds `block`. */
const flakyFanOut = (mock: string, block: string): string => `
${subgraph("w", chain("idx: {type: int, default: -1}\nresult: {type: int, default: 0}", { maybe: `flaky_by_index: ${mock}` }))}
${chain(`items: {type: list<int>, default: [0, 1, 2]}\n${RESULTS}\nerrors: {type: list, reducer: append, default: []}`, {
  f: "fan_out: {subgraph: w, items_field: items, item_field: idx, collect_field: result, target_field: results, error_policy: collect, errors_field: errors}",
})}
observers:
  - {name: obs, attach: graph, target: outer, behavior: record}
${section("expected", block)}
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

/** A fan-out process of the always-failing unit over [1] under failure isolation degrading to `degraded`; `expected.invariants` holds `invariants`. */
const degradedFanOut = (degraded: string, invariants: string, results = "list<string>"): string => `
${subgraphs({
  unit: chain('input: {type: int, default: 0}\nout: {type: string, default: ""}\nnote: {type: string, default: ""}', {
    work: 'flaky:\n  failure_sequence:\n    - {transient: false, category: provider_unavailable, message: "down"}',
  }),
})}
${chain(`items: {type: list<int>, default: [1]}\nresults: {type: ${results}, reducer: append, default: []}\nnotes: {type: list<any>, reducer: append, default: []}`, {
  process: `fan_out:
  subgraph: unit
  items_field: items
  item_field: input
  collect_field: out
  target_field: results
  extra_outputs: {notes: note}
  instance_middleware:
    - {type: failure_isolation, degraded_update: ${degraded}, event_name: unit_isolated}`,
})}
${expectInvariants(invariants)}
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
