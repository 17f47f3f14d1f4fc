import { directiveTester, indent } from "./tester.ts";

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
    invocations:
      - session_id: s1
        initial_state: {}
        expected:
${indent(first, 10)}
      - session_id: s1
        initial_state: {}
        expected:
${indent(second, 10)}
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
  valid: ['saved_session_assertions: {state: {history: [x, x]}, schema_version: "", excludes_fields: [scratch]}'],
  invalid: [
    { code: "saved_session_assertions: {state: {history: [x]}}", message: "saved_session_assertions.state.history" },
    { code: "saved_session_assertions: {state: {history: [x, x], scratch: tmp}}", message: "saved_session_assertions.state" },
    { code: "saved_session_assertions: {schema_version: v2}", message: 'saved_session_assertions.schema_version: expected "v2", got ""' },
    { code: "saved_session_assertions: {excludes_fields: [history]}", message: "holds excluded field 'history'" },
  ],
});

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
  template: (b) => twoCalls("outcome: completed", "outcome: completed", `invariants:\n${indent(b, 2)}`),
  valid: [
    "second_invoke_loads_first_invoke_state: true\nsaved_record_overwrites_prior: true\nscratch_field_never_persisted: true\nprojected_field_persists_across_invokes: true",
  ],
  invalid: [
    { code: "second_invoke_loads_first_invoke_state: false", message: "expected false, got true" },
    { code: "scratch_field_never_persisted: false", message: "expected false, got true" },
  ],
});

const noStore = (b: string, store: boolean, sessionId: boolean): string => `
state: {fields: {x: {type: int, default: 0}}}
entry: a
nodes: {a: {update_pure: {x: 1}}}
edges: [{from: a, to: END}]
initial_state: {}
${store ? "session_store: in_memory" : ""}
${sessionId ? "session_id: s1" : ""}
expected:
  final_state: {x: 1}
${indent(b, 2)}
`;

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

const midInvoke = (b: string): string => `
state: {fields: {step: {type: str, default: ""}}}
entry: A
nodes:
  A: {update_pure: {step: A}}
  B: {update_pure: {step: B}, explicit_save_session: true}
  C: {raises: {category: node_exception}}
edges:
  - {from: A, to: B}
  - {from: B, to: C}
  - {from: C, to: END}
initial_state: {}
session_store: in_memory
session_id: s6
expected_error: {category: node_exception, raised_from: C}
expected:
${indent(b, 2)}
`;

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

const migration = (b: string, mock = "add_ten_to_value"): string => `
state:
  schema_version: "v2"
  fields: {value: {type: int, default: 0}}
entry: noop
nodes: {noop: {update_pure: {}}}
edges: [{from: noop, to: END}]
session_store: in_memory
session_id: s7
seeded_session: {schema_version: "v1", state: {value: 1}}
session_migrations:
  - {from_version: "v1", to_version: "v2", migrate: ${mock}}
${b}
`;

directiveTester("migrations_run / saved schema_version (session migration)", {
  capability: "sessions",
  template: (b) => migration(`expected:\n${indent(b, 2)}`),
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
subgraphs:
  inner:
    state: {fields: {inner_input: {type: str, default: ""}, inner_output: {type: str, default: ""}}}
    entry: n
    nodes: {n: {update_pure: {inner_output: done}}}
    edges: [{from: n, to: END}]
state: {fields: {summary: {type: str, default: ""}, outer_result: {type: str, default: ""}}}
entry: d
nodes:
  d:
    subgraph: inner
    mapping: {inputs: {inner_input: summary}, outputs: {outer_result: inner_output}}
edges: [{from: d, to: END}]
session_store: in_memory
session_id: s10
seeded_session: {state: {summary: outer-data}}
expected:
${indent(b, 2)}
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
subgraphs:
  per_item:
    state: {fields: {item: {type: str, default: ""}, processed: {type: str, default: ""}}}
    entry: p
    nodes: {p: {update_pure: {processed: ok}}}
    edges: [{from: p, to: END}]
state: {fields: {items: {type: list, default: []}, outputs: {type: list, reducer: append, default: []}}}
entry: f
nodes:
  f:
    fan_out:
      subgraph: per_item
      items_field: items
      mapping: {inputs: {item: "<fan_out_item>"}, outputs: {outputs: processed}}
edges: [{from: f, to: END}]
session_store: in_memory
session_id: s11
seeded_session: {state: {items: [a, b]}}
expected:
${indent(b, 2)}
`,
  valid: ['instance_pre_states: [{item: a, processed: ""}, {item: b, processed: ""}]\nfinal_state: {items: [a, b], outputs: [ok, ok]}'],
  invalid: [
    { code: 'instance_pre_states: [{item: b, processed: ""}, {item: a, processed: ""}]', message: "instance_pre_states[0].item" },
    { code: 'instance_pre_states: [{item: a, processed: ""}]', message: "instance_pre_states" },
  ],
});
