import { directiveTester, indent } from "./tester.ts";
import { chain, runOnce, section, subgraphs } from "./templates.ts";

/** An `invocations:` entry for session s1 from an empty state, `expected:` holding `expected`. */
const s1Call = (expected: string): string => `- session_id: s1\n  initial_state: {}\n${indent(section("expected", expected), 2)}`;

/** Two calls under session s1: `history` (append) gets [x] per run; `scratch` is not projected. */
const twoCalls = (first: string, second: string, extra = ""): string => `
cases:
  - name: c
    state:
      fields:
        history: {type: list, reducer: append, default: []}
        scratch: {type: str, default: ""}
    session_state: {fields: [history]}
    entry: turn
    nodes:
      turn: {update_pure: {history: [x], scratch: tmp}}
    edges: [{from: turn, to: END}]
    session_store: in_memory
${indent(extra, 4)}
${indent(section("invocations", `${s1Call(first)}\n${s1Call(second)}`, 4), 4)}
`;

directiveTester("loaded_session_state", {
  capability: "sessions",
  template: (b) => twoCalls("loaded_session_state: null", b),
  valid: ["loaded_session_state: {history: [x]}"],
  invalid: [
    { code: "loaded_session_state: null", message: "loaded_session_state" },
    { code: "loaded_session_state: {history: [x], scratch: tmp}", message: "loaded_session_state.scratch" },
    { code: "loaded_session_state: {history: []}", message: "loaded_session_state.history" },
  ],
});

directiveTester("saved_session_assertions", {
  capability: "sessions",
  template: (b) => twoCalls("saved_session_assertions: {state: {history: [x]}}", b),
  valid: ['saved_session_assertions: {state: {history: [x, x]}, schema_version: ""}'],
  invalid: [
    { code: "saved_session_assertions: {state: {history: [x]}}", message: "saved_session_assertions.state.history" },
    { code: "saved_session_assertions: {state: {history: [x, x], scratch: tmp}}", message: "saved_session_assertions.state" },
    { code: "saved_session_assertions: {schema_version: v2}", message: 'saved_session_assertions.schema_version: expected "v2", got ""' },
  ],
});

// Retired by the seed (§5.6) and read by the legacy bundle in every directory (issue 31 item 3):
// dropped — redundant with the exact state, which is still checked — counted as a deprecation, and
// refused under --strict-vocabulary (test/directives/legacy-forms.test.ts).
for (const capability of ["sessions"]) {
  directiveTester(`saved_session_assertions excludes_fields under ${capability} (legacy)`, {
    capability,
    template: (b) => twoCalls("saved_session_assertions: {state: {history: [x]}}", b),
    valid: ["saved_session_assertions: {state: {history: [x, x]}, excludes_fields: [scratch]}"],
    invalid: [{ code: "saved_session_assertions: {state: {history: [x, x], scratch: tmp}, excludes_fields: [scratch]}", message: "saved_session_assertions.state" }],
  });
}

directiveTester("session_store_load_calls / session_store_save_calls", {
  capability: "sessions",
  template: (b) => twoCalls("session_store_load_calls: 1", b),
  valid: ["session_store_load_calls: 1\nsession_store_save_calls: 1"],
  invalid: [
    { code: "session_store_load_calls: 0", message: "session_store_load_calls: expected 0, got 1" },
    { code: "session_store_save_calls: 2", message: "session_store_save_calls: expected 2, got 1" },
  ],
});

directiveTester("expected_final_state / loaded_invoke_state_for_<field> (in an invocations entry)", {
  capability: "sessions",
  template: (b) => `
state:
  fields:
    summary: {type: str, default: ""}
    scratch: {type: str, default: ""}
session_state: {fields: [summary]}
entry: work
nodes: {work: {update_pure: {summary: done, scratch: tmp}}}
edges: [{from: work, to: END}]
session_store: in_memory
invocations:
  - {session_id: s1, initial_state: {}, expected_final_state: {summary: done, scratch: tmp}}
  - session_id: s1
    initial_state: {}
${indent(b, 4)}
`,
  valid: ['expected_final_state: {summary: done, scratch: tmp}\nloaded_invoke_state_for_scratch: ""\nloaded_invoke_state_for_summary: done'],
  invalid: [
    { code: "expected_final_state: {summary: done}", message: "expected_final_state" },
    { code: "loaded_invoke_state_for_scratch: tmp", message: 'loaded_invoke_state_for_scratch: expected "tmp", got ""' },
  ],
});

directiveTester("session claims (001 / 004)", {
  capability: "sessions",
  template: (b) => twoCalls("outcome: completed", "outcome: completed", section("invariants", b)),
  valid: [
    "second_invoke_loads_first_invoke_state: true\nsaved_record_overwrites_prior: true\nscratch_field_never_persisted: true\nprojected_field_persists_across_invokes: true",
  ],
  invalid: [
    { code: "second_invoke_loads_first_invoke_state: false", message: "expected false, got true" },
    { code: "scratch_field_never_persisted: false", message: "expected false, got true" },
  ],
});

/** a (x: 1) → END, with or without an in-memory store and a session id; `expected:` holds final_state and `b`. */
const noStore = (b: string, store: boolean, sessionId: boolean): string =>
  runOnce(
    chain("x: {type: int, default: 0}", { a: "{update_pure: {x: 1}}" }),
    `final_state: {x: 1}\n${b}`,
    [store ? "session_store: in_memory" : "", sessionId ? "session_id: s1" : ""].join("\n"),
  );

directiveTester("no_session_load / no_session_save / store_untouched (store, no id)", {
  capability: "sessions",
  template: (b) => noStore(b, true, false),
  valid: ["no_session_load: true\nno_session_save: true\nstore_untouched: true\nsession_store_load_calls: 0"],
  invalid: [],
});

directiveTester("no_session_load / no_session_save (store and id)", {
  capability: "sessions",
  template: (b) => noStore(b, true, true),
  valid: ["no_session_load: false\nno_session_save: false\nstore_untouched: false"],
  invalid: [
    { code: "no_session_load: true", message: "the store received 1 load() call(s)" },
    { code: "no_session_save: true", message: "the store received 1 save() call(s)" },
    { code: "store_untouched: true", message: "the store received 2 call(s)" },
  ],
});

directiveTester("no_session_load / no_session_save (id, no store)", {
  capability: "sessions",
  template: (b) => noStore(b, false, true),
  valid: ["no_session_load: true\nno_session_save: true"],
  invalid: [{ code: "store_untouched: true", message: "expected true, got false" }],
});

/** A → B (saves the session explicitly) → C (raises) → END under session s6; `expected:` holds `b`. */
const midInvoke = (b: string): string =>
  runOnce(
    chain('step: {type: str, default: ""}', {
      A: "{update_pure: {step: A}}",
      B: "{update_pure: {step: B}, explicit_save_session: true}",
      C: "{raises: {category: node_exception}}",
    }),
    b,
    "session_store: in_memory\nsession_id: s6\nexpected_error: {category: node_exception, raised_from: C}",
  );

directiveTester("store_after / no_auto_save_on_end (mid-invoke save, then a crash)", {
  capability: "sessions",
  template: midInvoke,
  valid: ["store_after: {load_returns_for_session_id: s6, loaded_state: {step: B}}\nno_auto_save_on_end: true\nsession_store_save_calls: 1"],
  invalid: [
    { code: "store_after: {load_returns_for_session_id: s6, loaded_state: {step: A}}", message: "store_after.loaded_state.step" },
    { code: "store_after: {load_returns_none_for_session_id: s6}", message: 'load("s6") returns a record after the call' },
    { code: "no_auto_save_on_end: false", message: "expected false, got true" },
  ],
});

/** A v1 session {value: 1} seeded into a v2 graph and migrated by `mock`; `b` at case level. */
const migration = (b: string, mock = "add_ten_to_value"): string => `
${chain("value: {type: int, default: 0}", { noop: "{update_pure: {}}" }, '"v2"')}
session_store: in_memory
session_id: s7
seeded_session: {schema_version: "v1", state: {value: 1}}
session_migrations:
  - {from_version: "v1", to_version: "v2", migrate: ${mock}}
${b}
`;

directiveTester("migrations_run / saved schema_version (session migration)", {
  capability: "sessions",
  template: (b) => migration(section("expected", b)),
  valid: ['migrations_run: ["v1->v2"]\nfinal_state: {value: 11}\nsaved_session_assertions: {schema_version: "v2", state: {value: 11}}\ninvariants: {single_migration_invocation: true, migration_runs_before_projection_merge: true}'],
  invalid: [
    { code: "migrations_run: []", message: "migrations_run" },
    { code: 'saved_session_assertions: {schema_version: "v1"}', message: "saved_session_assertions.schema_version" },
    { code: "final_state: {value: 1}", message: "final_state.value" },
  ],
});

directiveTester("expected_error carries / cause (a raising session migration)", {
  capability: "sessions",
  template: (b) => migration(b, "raises_keyerror"),
  valid: ['expected_error: {category: session_state_migration_failed, carries: {from_version: "v1", to_version: "v2"}, cause: {exception_type: KeyError}}\ninvariants: {node_never_invoked: true, error_category_not: [session_load_failed]}'],
  invalid: [
    { code: 'expected_error: {carries: {from_version: "v0"}}', message: 'expected_error.carries.from_version: expected "v0", got "v1"' },
    { code: "expected_error: {cause: {exception_type: ValueError}}", message: 'expected_error.cause.exception_type: expected "ValueError", got "KeyError"' },
    { code: "expected_error: {carries: {colour: red}}", message: "exposes no field 'colour'" },
    { code: "invariants: {error_category_not: [session_state_migration_failed]}", message: "include a forbidden one" },
  ],
});

directiveTester("inner_pre_state (subgraph composition)", {
  capability: "sessions",
  template: (b) => `
${subgraphs({ inner: chain('inner_input: {type: str, default: ""}\ninner_output: {type: str, default: ""}', { n: "{update_pure: {inner_output: done}}" }) })}
${chain('summary: {type: str, default: ""}\nouter_result: {type: str, default: ""}', { d: "subgraph: inner\nmapping: {inputs: {inner_input: summary}, outputs: {outer_result: inner_output}}" })}
session_store: in_memory
session_id: s10
seeded_session: {state: {summary: outer-data}}
${section("expected", b)}
`,
  valid: [
    'inner_pre_state: {inner_input: outer-data, inner_output: ""}\ninvariants: {subgraph_state_fields_match_subgraph_schema: true, subgraph_does_not_see_session_state_directly: true, no_inner_session_load_or_save: true}',
  ],
  invalid: [
    { code: 'inner_pre_state: {inner_input: "", inner_output: ""}', message: "inner_pre_state.inner_input" },
    { code: "inner_pre_state: {inner_input: outer-data}", message: "inner_pre_state" },
    { code: "invariants: {no_inner_session_load_or_save: false}", message: "expected false, got true" },
  ],
});

directiveTester("instance_pre_states (fan-out composition, mapping form)", {
  capability: "sessions",
  template: (b) => `
${subgraphs({ per_item: chain('item: {type: str, default: ""}\nprocessed: {type: str, default: ""}', { p: "{update_pure: {processed: ok}}" }) })}
${chain("items: {type: list, default: []}\noutputs: {type: list, reducer: append, default: []}", {
  f: 'fan_out:\n  subgraph: per_item\n  items_field: items\n  mapping: {inputs: {item: "<fan_out_item>"}, outputs: {outputs: processed}}',
})}
session_store: in_memory
session_id: s11
seeded_session: {state: {items: [a, b]}}
${section("expected", b)}
`,
  valid: ['instance_pre_states: [{item: a, processed: ""}, {item: b, processed: ""}]\nfinal_state: {items: [a, b], outputs: [ok, ok]}'],
  invalid: [
    { code: 'instance_pre_states: [{item: b, processed: ""}, {item: a, processed: ""}]', message: "instance_pre_states[0].item" },
    { code: 'instance_pre_states: [{item: a, processed: ""}]', message: "instance_pre_states" },
  ],
});

/** A v2 graph under session s7 whose registered session migrations are `migrations` (YAML list items); case keys `rest`. */
const migrating = (migrations: string, rest: string): string => `
state:
  schema_version: "v2"
  fields:
    value: {type: int, default: 0}
entry: noop
nodes:
  noop: {update_pure: {}}
edges:
  - {from: noop, to: END}
session_store: in_memory
session_id: s7
session_migrations:
${indent(migrations, 2)}
${rest}
`;
const DUP = "- {from_version: v1, to_version: v2, migrate: add_ten_to_value}\n- {from_version: v1, to_version: v2, migrate: add_ten_to_value}";

// The harness registers the store and its migrations before the first invoke(), so a duplicate
// pair (sessions §7) is raised at registration (§5.8 raised_at), not by the call.
directiveTester("expected_error raised_at: registration (session migrations)", {
  capability: "sessions",
  template: (b) => migrating(DUP, b),
  valid: [
    "expected_error: {category: session_state_migration_chain_ambiguous, raised_at: registration, carries: {from_version: v1, to_version: v2}}",
    "expected:\n  outcome: errored\n  error: {category: session_state_migration_chain_ambiguous}",
  ],
  invalid: [
    { code: "expected_error: {category: session_load_failed, raised_at: registration}", message: "expected_error.category" },
    { code: "expected:\n  outcome: completed", message: "expected.outcome" },
  ],
});

// The 010 / 011 session claims by their plain meaning in composites their fixtures do not use:
// parallel branches (each branch a subgraph run) and a subgraph nested in a fan-out instance.
directiveTester("session composition claims over parallel branches", {
  capability: "sessions",
  template: (b) => `
${subgraphs({
  left: chain('l_in: {type: str, default: ""}\nl_out: {type: str, default: ""}', { l: "{update_pure: {l_out: left}}" }),
  right: chain('r_out: {type: str, default: ""}', { r: "{update_pure: {r_out: right}}" }),
})}
${chain('summary: {type: str, default: ""}\nl_res: {type: str, default: ""}\nr_res: {type: str, default: ""}', {
  d: "parallel_branches:\n  branches:\n    left: {subgraph: left, outputs: {l_res: l_out}}\n    right: {subgraph: right, outputs: {r_res: r_out}}",
})}
session_store: in_memory
session_id: s12
seeded_session: {state: {summary: outer-data}}
${section("expected", b)}
`,
  valid: ["invariants: {subgraph_state_fields_match_subgraph_schema: true, subgraph_does_not_see_session_state_directly: true, no_inner_session_load_or_save: true}"],
  invalid: [
    { code: "invariants: {subgraph_does_not_see_session_state_directly: false}", message: "expected false, got true" },
    { code: "invariants: {fan_out_instance_state_fields_match_subgraph_schema: true}", message: "no inner node ran" },
  ],
});
