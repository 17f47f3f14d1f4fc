/**
 * RuleTester-style tests of the checkpoint fixtures' named claims (pipeline-utilities fixtures
 * 024–076; conformance-adapter §5 *Named claims*): each claim holds on a real run that exhibits it,
 * and a written value the run contradicts fails with the claim named.
 */
import { directiveTester, indent } from "./tester.ts";
import { FLAKY_AB, V2_FIELDS, chain, checkpointed, flakyPair, pureAB, resumeFirstRun, scorer, section, seededResume, serialFanOut as fan, subgraphs } from "./templates.ts";

const PU = "pipeline-utilities";

/** A→B, B fails on the first run; ids supplied on both calls; `resume` and case `invariants` blocks. */
const ids = (caseInvariants: string, resumeExtra = "caller_invocation_id: run-2", first = "caller_invocation_id: run-1\ncaller_correlation_id: corr-1"): string =>
  checkpointed(
    FLAKY_AB,
    [
      first,
      "first_run_expected_error: {category: node_exception, raised_from: node_b}",
      resumeFirstRun(resumeExtra, "expected: {final_state: {a: true, b: true}}"),
      section("invariants", caseInvariants),
    ].join("\n"),
  );

directiveTester("invocation / correlation id claims (025, 031, 057)", {
  capability: PU,
  template: (b) => ids(b),
  valid: [
    [
      "first_run_correlation_id: corr-1",
      "resumed_run_correlation_id: corr-1",
      "correlation_id_uniform_across_both_runs: true",
      "first_and_resumed_invocation_ids_differ: true",
      "resumed_invocation_id_differs_from_original: true",
      "resumed_correlation_id_matches_original: true",
      "saved_record_correlation_id: corr-1",
      "resumed_run_correlation_id_matches_first: true",
      "no_new_correlation_id_generated_on_resume: true",
      "first_run_invocation_id: run-1",
      "resumed_run_invocation_id_is_fresh_uuidv4: true",
      "resumed_run_invocation_id_not_caller_supplied: true",
    ].join("\n"),
  ],
  invalid: [
    { code: "first_run_correlation_id: corr-2", message: "invariants.first_run_correlation_id" },
    { code: "resumed_run_correlation_id: corr-2", message: "invariants.resumed_run_correlation_id" },
    { code: "saved_record_correlation_id: other", message: "invariants.saved_record_correlation_id" },
    { code: "first_run_invocation_id: run-2", message: "invariants.first_run_invocation_id" },
    { code: "first_run_correlation_id_is_uuidv4: true", message: "the first run's correlation id is 'corr-1'" },
    { code: "first_and_resumed_invocation_ids_differ: false", message: "first_and_resumed_invocation_ids_differ: expected the claim not to hold" },
    { code: "resumed_invocation_id_differs_from_original: false", message: "resumed_invocation_id_differs_from_original" },
    { code: "resumed_correlation_id_matches_original: false", message: "resumed_correlation_id_matches_original" },
    { code: "correlation_id_uniform_across_both_runs: false", message: "correlation_id_uniform_across_both_runs" },
    { code: "no_new_correlation_id_generated_on_resume: false", message: "no_new_correlation_id_generated_on_resume" },
    { code: "resumed_run_correlation_id_matches_first: false", message: "resumed_run_correlation_id_matches_first" },
    { code: "resumed_run_invocation_id_is_fresh_uuidv4: false", message: "resumed_run_invocation_id_is_fresh_uuidv4" },
  ],
});

directiveTester("auto-generated id claims (031, 057)", {
  capability: PU,
  template: (b) => ids(b, "", ""),
  valid: ["first_run_correlation_id_is_uuidv4: true\nresumed_run_correlation_id_matches_first: true"],
  invalid: [{ code: "resumed_run_invocation_id_not_caller_supplied: true", message: "the resume call supplied no invocation id" }],
});

/** Two nodes run to completion; `expected.invariants` holds `invariants`. */
const linear = (invariants: string): string => checkpointed(pureAB(), section("expected", `final_state: {a: 1, b: 2}\n${section("invariants", invariants)}`));

directiveTester("save claims (024)", {
  capability: PU,
  template: linear,
  valid: ["save_count: 2\nsave_order_matches_completed_event_order: true"],
  invalid: [
    { code: "save_count: 3", message: "expected.invariants.save_count: expected 3, got 2" },
    { code: "save_order_matches_completed_event_order: false", message: "save_order_matches_completed_event_order" },
  ],
});

/** The fan-out's first run fails at `process`; its resume expects every result once and holds `inv`. */
const resumeInvariants = (inv: string): string =>
  `first_run_expected_error: {category: node_exception, raised_from: process}\n${resumeFirstRun("expected: {final_state: {items: [10, 20, 30, 40], results: [10, 20, 30, 40]}}", section("invariants", inv))}`;

directiveTester("fan-out resume claims (048–053)", {
  capability: PU,
  template: (b) => fan(resumeInvariants(b)),
  valid: [
    [
      "no_duplicate_results: true",
      "results_list_length: 4",
      "instance_2_executes_score_on_resume: true",
      "instance_0_executes_score_on_resume: false",
      "instance_2_attempt_index_on_resume: 0",
      "instance_2_resume_attempt_count: 1",
    ].join("\n"),
  ],
  invalid: [
    { code: "results_list_length: 5", message: "resume.invariants.results_list_length: expected 5, got 4" },
    { code: "no_duplicate_results: false", message: "no_duplicate_results" },
    { code: "instance_0_executes_score_on_resume: true", message: "instance 0 did not run 'score' in this call" },
    { code: "instance_2_resume_attempt_count: 2", message: "resume.invariants.instance_2_resume_attempt_count" },
    { code: "instance_0_attempt_index_on_resume: 0", message: "instance 0 was not dispatched in this call" },
  ],
});

directiveTester("batching_scoped_to_fan_out_internal_saves_only (054)", {
  capability: PU,
  template: (b) => fan(resumeInvariants(b), { checkpointer: "{kind: in_memory_batched, fan_out_internal_save_batching: {flush_every: 2}}" }),
  valid: ["batching_scoped_to_fan_out_internal_saves_only: true\nno_duplicate_results: true"],
  invalid: [{ code: "batching_scoped_to_fan_out_internal_saves_only: false", message: "batching_scoped_to_fan_out_internal_saves_only" }],
});

directiveTester("no_duplicate_error_entries (052)", {
  capability: PU,
  template: (b) =>
    fan(
      `${resumeFirstRun("expected: {instances_skipped_during_resume: [0, 1], instances_executed_during_resume: [2, 3]}", section("invariants", b))}\ncrash_injection: {after_fan_out_instance: {node: process, index: 1}}`,
      {
        mock: "flaky_per_index: {always_fail_indices: [1], success_compute: {out: input}}",
        extra: ", error_policy: collect, errors_field: errors",
        fields: "errors: {type: list, reducer: append, default: []}",
      },
    ),
  valid: ["no_duplicate_error_entries: true"],
  invalid: [{ code: "no_duplicate_error_entries: false", message: "no_duplicate_error_entries" }],
});

directiveTester("degrade_slot_rolled_forward_unchanged (069)", {
  capability: PU,
  template: (b) =>
    fan(`crash_injection: {after_fan_out_instance: {node: process, index: 1}}\n${resumeFirstRun("expected: {instances_skipped_during_resume: [0, 1]}", section("invariants", b))}`, {
      mock: "update_from_field: {out: input}",
    }),
  valid: ["degrade_slot_rolled_forward_unchanged: true"],
  invalid: [{ code: "degrade_slot_rolled_forward_unchanged: false", message: "degrade_slot_rolled_forward_unchanged" }],
});

/** Outer dispatch → subgraph (step_one, step_two); step_two fails on the first run. */
const sub = (block: string): string =>
  checkpointed(
    `${subgraphs({ inner: flakyPair("step_one", "step_two", "x", "y") })}\n${chain("done: {type: bool, default: false}", { dispatch: "subgraph: inner\noutputs: {done: y}" })}`,
    `first_run_expected_error: {category: node_exception, raised_from: step_two}\n${block}`,
  );

directiveTester("subgraph resume claims (029)", {
  capability: PU,
  template: (b) => sub(resumeFirstRun("expected: {final_state: {done: true}, nodes_executed_during_resume: [step_two]}", section("invariants", b))),
  valid: ["subgraph_re_entry_uses_parent_states: true\ninner_first_node_not_re_run: true"],
  invalid: [
    { code: "subgraph_re_entry_uses_parent_states: false", message: "subgraph_re_entry_uses_parent_states" },
    { code: "inner_first_node_not_re_run: false", message: "inner_first_node_not_re_run" },
  ],
});

directiveTester("saved-record claims (029, 048)", {
  capability: PU,
  template: (b) => sub(section("saved_record_assertions", b)),
  valid: ["completed_positions: [{namespace: [dispatch], node_name: step_one, step: 0}]\nparent_states_present: true\nparent_states_outermost_first: true"],
  invalid: [
    { code: "parent_states_present: false", message: "saved_record_assertions.parent_states_present" },
    { code: "parent_states_outermost_first: false", message: "parent_states_outermost_first" },
    { code: "fan_out_node_in_completed_positions: false", message: "the outermost graph has no fan-out node" },
  ],
});

/** A seeded v1 record resumed by a v2 graph with one v1→v2 migration named `migrate`. */
const seeded = (block: string, migrate = "add_new_field_default"): string =>
  seededResume(
    {
      graph: chain(`${V2_FIELDS}\nreq: {type: string, required: true}`, { n: "{update_pure: {}}" }, "v2"),
      checkpointer: "in_memory",
      state: "{x: 7, req: r}",
      migrate,
    },
    block,
  );

directiveTester("migration claims (039–046)", {
  capability: PU,
  template: (b) => seeded(`expected: {outcome: completed}\n${section("invariants", b)}`),
  valid: ["single_migration_invocation: true\nmigration_count: 1\nmigration_invocation_count: 1\nmigration_order_matches_chain: true"],
  invalid: [
    { code: "migration_count: 2", message: "resume.invariants.migration_count: expected 2, got 1" },
    { code: "migration_invocation_count: 0", message: "resume.invariants.migration_invocation_count" },
    { code: "single_migration_invocation: false", message: "single_migration_invocation" },
    { code: "migration_order_matches_chain: false", message: "migration_order_matches_chain" },
  ],
});

directiveTester("error_category_not (044, 046)", {
  capability: PU,
  template: (b) => seeded(`expected_error: {category: checkpoint_state_migration_failed}\n${section("invariants", b)}`, "raises_keyerror"),
  valid: ["error_category_not: [checkpoint_record_invalid, checkpoint_state_migration_missing]"],
  invalid: [{ code: "error_category_not: [checkpoint_state_migration_failed]", message: "the call raised checkpoint_state_migration_failed" }],
});

/** The runner subgraph: an inner serial fan-out of the leaf scorer over `inner_items`. */
const RUNNER = chain("inner_items: {type: list<int>, default: []}\ninner_results: {type: list<int>, reducer: append, default: []}", {
  inner_process: "fan_out: {subgraph: leaf, items_field: inner_items, item_field: input, collect_field: out, target_field: inner_results, concurrent_mode: serial}",
});

/** Outer fan-out over two lists, each instance an inner fan-out; a seeded mid-flight record. */
const nested = (progress: string, invariants: string): string =>
  checkpointed(
    [
      subgraphs({ leaf: scorer("{update_from_field: {out: input}}"), runner: RUNNER }),
      chain("outer_items: {type: list<list<int>>, default: [[1, 2], [3, 4]]}\nall_results: {type: list<list<int>>, reducer: append, default: []}", {
        outer_process: "fan_out: {subgraph: runner, items_field: outer_items, item_field: inner_items, collect_field: inner_results, target_field: all_results, concurrent_mode: concurrent}",
      }),
    ].join("\n"),
    `seeded_record:
  state: {outer_items: [[1, 2], [3, 4]], all_results: []}
  completed_positions: []
  fan_out_progress:
    - {namespace: [], fan_out_node_name: outer_process, instance_count: 2, enclosing_fan_out_lineage: [], instances: [{state: in_flight, result_is_error: false}, {state: in_flight, result_is_error: false}]}
${indent(progress, 4)}
resume:
  from_seeded_record: true
  expected: {final_state: {outer_items: [[1, 2], [3, 4]], all_results: [[1, 2], [3, 4]]}}
${indent(section("invariants", invariants), 2)}`,
  );

const LINEAGED = `- namespace: [outer_process]
  fan_out_node_name: inner_process
  instance_count: 2
  enclosing_fan_out_lineage: [{namespace: [], fan_out_node_name: outer_process, fan_out_index: 0}]
  instances: [{state: completed, result: 1, result_is_error: false}, {state: not_started, result_is_error: false}]`;
const LEGACY = `- namespace: [outer_process]
  fan_out_node_name: inner_process
  instance_count: 2
  instances: [{state: completed, result: 1, result_is_error: false}, {state: completed, result: 2, result_is_error: false}]`;

directiveTester("nested fan-out lineage claims (076, lineage-qualified entry)", {
  capability: PU,
  template: (b) => nested(LINEAGED, b),
  valid: [
    "inner_fan_out_progress_matched_per_enclosing_lineage: true\neach_outer_instance_skips_only_its_own_completed_inner_instances: true\nno_inner_instance_skipped_across_enclosing_instances: true\nall_inner_instances_re_run_in_every_outer_instance: false",
  ],
  invalid: [
    { code: "all_inner_instances_re_run_in_every_outer_instance: true", message: "outer instance 0 ran inner {1} of 2" },
    { code: "legacy_unlineaged_entry_not_applied_to_nested_fan_out: true", message: "has no un-lineaged 'inner_process' entry" },
    { code: "inner_fan_out_progress_matched_per_enclosing_lineage: false", message: "inner_fan_out_progress_matched_per_enclosing_lineage" },
  ],
});

directiveTester("nested fan-out lineage claims (076, legacy entry)", {
  capability: PU,
  template: (b) => nested(LEGACY, b),
  valid: ["legacy_unlineaged_entry_not_applied_to_nested_fan_out: true\nall_inner_instances_re_run_in_every_outer_instance: true\nno_inner_instance_skipped_across_enclosing_instances: true"],
  invalid: [
    { code: "each_outer_instance_skips_only_its_own_completed_inner_instances: true", message: "no outer instance skipped anything" },
    { code: "legacy_unlineaged_entry_not_applied_to_nested_fan_out: false", message: "legacy_unlineaged_entry_not_applied_to_nested_fan_out" },
  ],
});
