/**
 * RuleTester-style tests of the checkpoint assertion directives (conformance-adapter §5.6, §5.8
 * *Checkpoint records*; the pipeline-utilities note): each runs real checkpointed graphs through the
 * interpreter; valid snippets pass, invalid ones fail with the named mismatch.
 */
import { expect } from "chai";
import { directiveTester, indent, runSnippet } from "./tester.ts";
import { FLAKY_AB, V2_FIELDS, chain, checkpointed, pureAB, resumeFirstRun, section, seededResume, serialFanOut } from "./templates.ts";

const PU = "pipeline-utilities";

const FAILED_AT_B = "first_run_expected_error: {category: node_exception, raised_from: node_b}";

/** A→B; B fails on the first run only; in-memory checkpointer; `block` at case level. */
const abort = (block: string, extra = ""): string => checkpointed(FLAKY_AB, `${extra}\n${block}`);

/** The first run fails at node_b; its resume's `expected:` holds `expected`. */
const resumeBlock = (expected: string): string => `${FAILED_AT_B}\n${resumeFirstRun(section("expected", expected))}`;

/** Two nodes run to completion, `expected:` holding `block`. */
const linear = (block: string, extra = ""): string => checkpointed(pureAB("v1"), `${extra}\n${section("expected", block)}`);

/** A 4-instance serial fan-out; instance 2 fails on the first run. */
const fan = (block: string): string => serialFanOut(`first_run_expected_error: {category: node_exception, raised_from: process}\n${block}`);

/** A seeded v1 record, a v2 graph and a v1→v2 migration; `block` inside `resume:`. */
const seeded = (block: string, migrate = "add_new_field_default"): string =>
  seededResume(
    {
      graph: chain(`${V2_FIELDS}\ndone: {type: bool, default: false}`, { n: "{update_pure: {done: true}}" }, "v2"),
      checkpointer: "sqlite",
      state: "{x: 7, done: false}",
      migrate,
    },
    block,
  );

directiveTester("saved_record_assertions", {
  capability: PU,
  template: (b) => abort(b),
  valid: [
    "saved_record_assertions:\n  state: {a: true, b: false}\n  completed_positions:\n    - {namespace: [], node_name: node_a, step: 0, attempt_index: 0}\n  schema_version: ''\n  last_saved_at: <timestamp>\n  parent_states: []\n  parent_states_present: false",
    "saved_record_assertions: {invocation_id: <any-string>, correlation_id: <uuid>}\nsaved_record_assertions_absent_keys: [fan_out_progress]",
  ],
  invalid: [
    { code: "saved_record_assertions: {state: {a: true, b: true}}", message: "saved_record_assertions.state.b: expected true, got false" },
    { code: "saved_record_assertions: {state: {a: true}}", message: "saved_record_assertions.state" },
    { code: "saved_record_assertions:\n  completed_positions:\n    - {node_name: node_b}", message: "saved_record_assertions.completed_positions[0].node_name" },
    { code: "saved_record_assertions: {completed_positions: []}", message: "saved_record_assertions.completed_positions" },
    { code: "saved_record_assertions: {state: {a: true, b: false}}\nsaved_record_assertions_absent_keys: [state]", message: "'state' must be absent" },
    { code: "saved_record_assertions: {parent_states_present: true}", message: "parent_states_present" },
    { code: "saved_record_assertions: {no_such_claim: true}", category: "fixture_directive_unknown", message: "no_such_claim" },
  ],
});

directiveTester("first_run_expected_error", {
  capability: PU,
  template: (b) => abort(b),
  valid: ["first_run_expected_error: {category: node_exception, raised_from: node_b}"],
  invalid: [
    { code: "first_run_expected_error: {category: reducer_error}", message: "first_run_expected_error.category: expected \"reducer_error\", got \"node_exception\"" },
    { code: "first_run_expected_error: {raised_from: node_a}", message: "first_run_expected_error.raised_from" },
  ],
});

directiveTester("first_run_expected", {
  capability: PU,
  template: (b) => abort(b),
  valid: ["first_run_expected: {execution_order: [node_a, node_b], outcome: errored}"],
  invalid: [{ code: "first_run_expected: {outcome: completed}", message: "expected completed" }],
});

directiveTester("resume (with nodes_executed / nodes_skipped_during_resume)", {
  capability: PU,
  template: (b) => abort(b),
  valid: [resumeBlock("final_state: {a: true, b: true}\nnodes_executed_during_resume: [node_b]\nnodes_skipped_during_resume: [node_a]")],
  invalid: [
    { code: resumeBlock("final_state: {a: true, b: false}"), message: "resume.expected.final_state.b" },
    { code: resumeBlock("nodes_executed_during_resume: [node_a, node_b]"), message: "resume.expected.nodes_executed_during_resume" },
    { code: resumeBlock("nodes_skipped_during_resume: []"), message: "resume.expected.nodes_skipped_during_resume" },
    {
      code: "resume: {from_first_run: true, from_seeded_record: true, expected: {outcome: completed}}",
      category: "fixture_schema_invalid",
      message: "exactly one of from_first_run",
    },
  ],
});

directiveTester("checkpoint_saves", {
  capability: PU,
  template: (b) => linear(b),
  valid: [
    [
      "checkpoint_saves:",
      "  - after_node: node_a",
      "    state: {a: 1, b: 0}",
      "    completed_positions: [{namespace: [], node_name: node_a, step: 0, attempt_index: 0}]",
      "  - after_node: node_b",
      "    state: {a: 1, b: 2}",
      "    schema_version: v1",
    ].join("\n"),
  ],
  invalid: [
    { code: "checkpoint_saves:\n  - {after_node: node_a}", message: "expected 1 save(s), the Checkpointer received 2" },
    { code: "checkpoint_saves:\n  - {after_node: node_b}\n  - {after_node: node_a}", message: "expected.checkpoint_saves[0].after_node" },
    { code: "checkpoint_saves:\n  - {state: {a: 1, b: 2}}\n  - {}", message: "expected.checkpoint_saves[0].state.b" },
  ],
});

directiveTester("every_save_assertions", {
  capability: PU,
  template: (b) => linear("final_state: {a: 1, b: 2}", b),
  valid: ["every_save_assertions: {schema_version: v1}", "every_save_assertions: {correlation_id: <uuid>}"],
  invalid: [{ code: "every_save_assertions: {schema_version: v2}", message: "every_save_assertions[save 0: node_completed at node_a].schema_version" }],
});

directiveTester("migrations_run", {
  capability: PU,
  template: (b) => seeded(b),
  valid: ["expected: {migrations_run: [v1->v2], final_state: {x: 7, new_field: v2_default, done: true}}"],
  invalid: [
    { code: "expected: {migrations_run: []}", message: "resume.expected.migrations_run" },
    { code: "expected: {migrations_run: [v1->v2, v1->v2]}", message: "resume.expected.migrations_run" },
    { code: "expected: {migrations_run: [v0->v2]}", message: "resume.expected.migrations_run" },
  ],
});

/** A seeded v1 record resumed under a registry whose duplicate v1→v2 pair raises at registration. */
const ambiguous = (block: string): string => `
${chain(`${V2_FIELDS}\ndone: {type: bool, default: false}`, { n: "{update_pure: {done: true}}" }, "v2")}
initial_state: {}
checkpointer: sqlite
seeded_record: {schema_version: v1, state: {x: 7, done: false}, completed_positions: []}
migrations:
  - {from_version: v1, to_version: v2, migrate: add_new_field_default}
  - {from_version: v1, to_version: v2, migrate: identity_passthrough}
resume:
  from_seeded_record: true
  expected_chain_ambiguity_error: {from_version: v1, to_version: v2, raised_at: registration}
${indent(block, 2)}
`;

directiveTester("migrations_run (a call registration stopped ran no migration)", {
  capability: PU,
  template: (b) => ambiguous(b),
  valid: ["expected: {migrations_run: []}"],
  invalid: [{ code: "expected: {migrations_run: [v1->v2]}", message: "resume.expected.migrations_run" }],
});

directiveTester("instances_executed_during_resume / instances_skipped_during_resume", {
  capability: PU,
  template: (b) => fan(b),
  valid: [
    [
      "saved_record_assertions:",
      "  fan_out_progress:",
      "    process:",
      "      instance_count: 4",
      "      instances:",
      "        - {state: completed, result: 10, result_is_error: false, result_present: true}",
      "        - {state: completed, result: 20}",
      "        - {state: in_flight, completed_inner_positions: []}",
      "        - {state_one_of: [not_started, in_flight], result_present: false}",
      "  fan_out_node_in_completed_positions: false",
      "resume:",
      "  from_first_run: true",
      "  expected:",
      "    final_state: {items: [10, 20, 30, 40], results: [10, 20, 30, 40]}",
      "    instances_executed_during_resume: [3, 2]",
      "    instances_skipped_during_resume: [1, 0]",
    ].join("\n"),
  ],
  invalid: [
    { code: "resume: {from_first_run: true, expected: {instances_executed_during_resume: [1, 2, 3]}}", message: "resume.expected.instances_executed_during_resume" },
    { code: "resume: {from_first_run: true, expected: {instances_skipped_during_resume: [0]}}", message: "resume.expected.instances_skipped_during_resume" },
    {
      code: "saved_record_assertions:\n  fan_out_progress:\n    process:\n      instances: [{state: completed}, {state: completed}, {state: completed}, {state: not_started}]",
      message: "saved_record_assertions.fan_out_progress.process.instances[2].state",
    },
    {
      code: "saved_record_assertions:\n  fan_out_progress:\n    process:\n      instances: [{}, {}, {state_one_of: [completed]}, {}]",
      message: "instances[2].state_one_of: expected one of [\"completed\"], got \"in_flight\"",
    },
    { code: "saved_record_assertions: {fan_out_progress: {other: {instance_count: 1}}}", message: "saved_record_assertions.fan_out_progress.other" },
  ],
});

directiveTester("crash_injection", {
  capability: PU,
  template: (b) =>
    checkpointed(
      pureAB(),
      `${b}\nsaved_record_assertions: {state: {a: 1, b: 0}}\n${resumeFirstRun(section("expected", "final_state: {a: 1, b: 2}\nnodes_executed_during_resume: [node_b]"))}`,
    ),
  valid: ["crash_injection: {after_node: node_a}"],
  invalid: [
    { code: "crash_injection: {after_node: node_b}", message: "saved_record_assertions.state.b" },
    { code: "crash_injection: {after_node: nowhere}", message: "never fired" },
    { code: "crash_injection: {after_nowhere: x}", category: "fixture_schema_invalid", message: "crash_injection" },
  ],
});

directiveTester("expected_error (pipeline-utilities: transient, carries, cause)", {
  capability: PU,
  template: (b) => seeded(b, "raises_keyerror"),
  valid: [
    "expected_error:\n  category: checkpoint_state_migration_failed\n  transient: false\n  carries: {from_version: v1, to_version: v2, from_version_present: true}\n  cause: {exception_type: KeyError}",
  ],
  invalid: [
    { code: "expected_error: {category: checkpoint_state_migration_failed, transient: true}", message: "resume.expected_error.transient" },
    { code: "expected_error: {carries: {from_version: v0}}", message: "resume.expected_error.carries.from_version" },
    { code: "expected_error: {carries: {no_such_field: 1}}", message: "exposes no field 'no_such_field'" },
    { code: "expected_error: {cause: {exception_type: TypeError}}", message: "resume.expected_error.cause.exception_type" },
  ],
});

describe("checkpoint harness errors", function () {
  this.timeout(30_000);
  it("a backend the adapter does not provide is harness_primitive_missing", async () => {
    const [r] = await runSnippet(linear("final_state: {a: 1, b: 2}").replace("checkpointer: in_memory", "checkpointer: redis"), PU);
    expect(r!.status).to.equal("failed");
    expect(r!.category).to.equal("harness_primitive_missing");
    expect(r!.message).to.contain("redis");
  });

  it("a case whose graph does not compile says so under its record assertions, not that it configured no checkpointer", async () => {
    const yaml = abort(`${FAILED_AT_B}\nsaved_record_assertions: {state: {a: true}}`).replace("b: {type: bool, default: false}", "b: {type: \"list<int\", default: []}");
    const [r] = await runSnippet(yaml, PU);
    expect(r!.status).to.equal("failed");
    expect(r!.message).to.contain("saved_record_assertions: the case made no call: compilation failed with invalid_state_schema");
    expect(r!.message).not.to.contain("no 'checkpointer'");
  });

  it("an unknown migration mock is harness_primitive_missing", async () => {
    const [r] = await runSnippet(seeded("expected: {outcome: completed}", "no_such_mock"), PU);
    expect(r!.category, r!.message ?? "").to.equal("harness_primitive_missing");
  });

  it("invoke_with.resume_invocation of an id no record has is checkpoint_not_found, with other records present", async () => {
    const [r] = await runSnippet(
      linear("outcome: errored").replace("checkpointer: in_memory", "checkpointer: in_memory\npopulate_checkpointer_via_runs: 2\ninvoke_with: {resume_invocation: ghost}\nexpected_error: {category: checkpoint_not_found, transient: false}"),
      PU,
    );
    expect(r!.status, r!.message ?? "").to.equal("passed");
  });
});

directiveTester("latest_record_assertions", {
  capability: PU,
  template: (b) => linear(b),
  valid: [
    "latest_record_assertions:\n  invocation_id: <uuid>\n  last_saved_at: <timestamp>\n  schema_version: v1\n  parent_states: []\n  completed_positions:\n    - {node_name: node_a}\n    - {node_name: node_b}\nlatest_record_assertions_absent_keys: [fan_out_progress]",
    // The §8.4 null rule: a mapping-valued sub-key written null asserts it is not set.
    "latest_record_assertions: {fan_out_progress: null}",
    "latest_record_assertions: {fan_out_progress: {no_such_fan_out: null}}",
  ],
  invalid: [
    { code: "latest_record_assertions: {completed_positions: [{node_name: node_a}]}", message: "latest_record_assertions.completed_positions" },
    { code: "latest_record_assertions: {schema_version: null}", message: "latest_record_assertions.schema_version" },
    { code: "latest_record_assertions: {correlation_id: null}", message: "latest_record_assertions.correlation_id" },
    { code: "latest_record_assertions: {parent_states_present: true}", message: "parent_states_present" },
  ],
});

directiveTester("record sub-assertions: fan_out_progress null", {
  capability: PU,
  template: (b) => fan(b),
  valid: ["saved_record_assertions: {fan_out_progress: {process: {instance_count: 4}}}"],
  invalid: [
    { code: "saved_record_assertions: {fan_out_progress: null}", message: "expected no fan-out progress (null)" },
    { code: "saved_record_assertions: {fan_out_progress: {process: null}}", message: "saved_record_assertions.fan_out_progress.process" },
  ],
});

// §5.7: an invocations[] entry spells the caller's correlation id `correlation_id`.
directiveTester("correlation_id (invocations entry)", {
  capability: PU,
  template: (b) => `\n${pureAB()}\ncheckpointer: in_memory\ninvocations:\n  - name: first\n    initial_state: {}\n${indent(b, 4)}\n`,
  valid: [
    "correlation_id: corr-7\nexpected:\n  latest_record_assertions: {correlation_id: corr-7}",
    "caller_correlation_id: corr-7\nexpected:\n  latest_record_assertions: {correlation_id: corr-7}",
  ],
  invalid: [
    { code: "correlation_id: corr-7\nexpected:\n  latest_record_assertions: {correlation_id: corr-8}", message: "latest_record_assertions.correlation_id" },
    { code: "correlation_id: corr-7\ncaller_correlation_id: corr-7\nexpected:\n  final_state: {a: 1, b: 2}", category: "fixture_schema_invalid", message: "names its correlation id twice" },
  ],
});

// A duplicate (from_version, to_version) pair is raised at registration (§10.12.1), before any invoke().
directiveTester("expected_error raised_at: registration (checkpoint migrations)", {
  capability: PU,
  template: (b) =>
    checkpointed(
      pureAB("v2"),
      `migrations:\n  - {from_version: v1, to_version: v2, migrate: add_new_field_default}\n  - {from_version: v1, to_version: v2, migrate: add_new_field_default}\n${b}`,
    ),
  valid: ["expected_error: {category: checkpoint_state_migration_chain_ambiguous, raised_at: registration, carries: {from_version: v1, to_version: v2}}"],
  invalid: [
    { code: "expected_error: {category: checkpoint_state_migration_missing, raised_at: registration}", message: "expected_error.category" },
    { code: "expected:\n  final_state: {a: 1, b: 2}", message: "expected.final_state" },
  ],
});

// At case level, beside expected:, latest_record_assertions reads the case's last checkpointed call
// (the resume, in a resume case).
directiveTester("latest_record_assertions (case level)", {
  capability: PU,
  template: (b) => abort(b),
  valid: [
    `${FAILED_AT_B}\n${resumeFirstRun()}\nlatest_record_assertions:\n  state: {a: true, b: true}\n  completed_positions:\n    - {node_name: node_a}\n    - {node_name: node_b}`,
  ],
  invalid: [
    { code: `${FAILED_AT_B}\n${resumeFirstRun()}\nlatest_record_assertions: {state: {a: true, b: false}}`, message: "latest_record_assertions.state.b" },
  ],
});

// §5.8 position table: expected_chain_ambiguity_error (pipeline-utilities' note) beside expected:
// (registration-time duplicate pair, §10.12.1) or inside resume: (two shortest chains, §10.12.2).
directiveTester("expected_chain_ambiguity_error (beside expected:, at registration)", {
  capability: PU,
  template: (b) =>
    checkpointed(
      pureAB("v2"),
      `migrations:\n  - {from_version: v1, to_version: v2, migrate: add_new_field_default}\n  - {from_version: v1, to_version: v2, migrate: identity_passthrough}\n${b}`,
    ),
  valid: ["expected_chain_ambiguity_error: {from_version: v1, to_version: v2, raised_at: registration}", "expected_chain_ambiguity_error: {}"],
  invalid: [
    { code: "expected_chain_ambiguity_error: {from_version: v0, to_version: v2}", message: 'expected_chain_ambiguity_error.carries.from_version: expected "v0", got "v1"' },
    { code: "expected_chain_ambiguity_error: {to_version: null}", message: "expected_chain_ambiguity_error.carries.to_version" },
    { code: "expected_chain_ambiguity_error: {category: x}", category: "fixture_schema_invalid", message: "unknown key 'category'" },
  ],
});

directiveTester("expected_chain_ambiguity_error (no ambiguity)", {
  capability: PU,
  template: (b) => checkpointed(pureAB("v2"), `migrations:\n  - {from_version: v1, to_version: v2, migrate: add_new_field_default}\n${b}`),
  valid: [],
  invalid: [{ code: "expected_chain_ambiguity_error: {}", message: "expected the case to raise checkpoint_state_migration_chain_ambiguous, but it completed" }],
});

directiveTester("expected_chain_ambiguity_error (inside resume:, two shortest chains)", {
  capability: PU,
  template: (b) =>
    seededResume(
      {
        graph: chain(`${V2_FIELDS}\ndone: {type: bool, default: false}`, { n: "{update_pure: {done: true}}" }, "v4"),
        checkpointer: "in_memory",
        state: "{x: 7, done: false}",
        migrate: "identity_passthrough}\n  - {from_version: v2, to_version: v4, migrate: add_new_field_default}\n  - {from_version: v1, to_version: v3, migrate: identity_passthrough}\n  - {from_version: v3, to_version: v4, migrate: add_new_field_default",
      },
      b,
    ),
  valid: ["expected_chain_ambiguity_error: {from_version: v1, to_version: v4}"],
  invalid: [{ code: "expected_chain_ambiguity_error: {from_version: v1, to_version: v3}", message: "expected_chain_ambiguity_error.carries.to_version" }],
});

// abort_after_instance (pipeline-utilities note, 052 / 056): the process dies once — the resumed run
// dispatches the instances the abort cut off, instead of aborting again.
directiveTester("abort_after_instance: the resumed run is not aborted", {
  capability: PU,
  template: (b) =>
    serialFanOut(`first_run_expected_error: {category: node_exception, raised_from: process}\n${resumeFirstRun(b)}`, {
      extra: ", error_policy: fail_fast, abort_after_instance: 1",
      mock: "update: {out: 7}",
    }),
  valid: ["expected:\n  final_state: {items: [10, 20, 30, 40], results: [7, 7, 7, 7]}\n  instances_executed_during_resume: [2, 3]\n  instances_skipped_during_resume: [0, 1]"],
  invalid: [{ code: "expected: {outcome: errored}", message: "expected errored" }],
});
