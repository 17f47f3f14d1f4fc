import { directiveTester, indent } from "./tester.ts";
import { chain, section } from "./templates.ts";

/** a → b (raises "boom") → c → END over an append log; `besides` case keys, then `expected:` holding `expected` when given. */
const failing = (besides: string, expected = ""): string => `
${chain("log: {type: list<string>, reducer: append, default: []}", { a: "{update: {log: [a]}}", b: '{raises: "boom"}', c: "{update: {log: [c]}}" })}
initial_state: {}
${besides}
${expected ? `expected:\n  ${expected}` : ""}
`;

/** The one-node graph a (v: 1) → END. */
const FINE = chain("v: {type: int, default: 0}", { a: "{update: {v: 1}}" });
/** The same graph without its `entry:`. */
const NO_ENTRY = FINE.replace(/^entry: .*\n/m, "");

directiveTester("expected_error", {
  template: (b) => failing(b),
  valid: [
    "expected_error: {category: node_exception, raised_from: b, message: boom, cause_message: boom, recoverable_state: {log: [a]}, execution_order: [a, b]}",
  ],
  invalid: [
    { code: "expected_error: {category: routing_error}", message: 'expected_error.category: expected "routing_error", got "node_exception"' },
    { code: "expected_error: {raised_from: a}", message: "expected_error.raised_from" },
    { code: "expected_error: {message: bang}", message: "expected_error.message" },
    { code: "expected_error: {recoverable_state: {log: []}}", message: "expected_error.recoverable_state.log" },
    { code: "expected_error: {execution_order: [a, b, c]}", message: "expected_error.execution_order" },
    { code: "expected_error: {raised_at: registration}", message: "at registration / compile time" },
    { code: "expected_error: {category: node_exception, colour: red}", category: "fixture_schema_invalid", message: "unknown key 'colour'" },
  ],
});

directiveTester("error (under expected)", {
  template: (b) => failing("", b),
  valid: ["outcome: errored\n  error: {category: node_exception}"],
  invalid: [
    { code: "error: {category: reducer_error}", message: "expected.error.category" },
    { code: "outcome: completed", message: "expected completed, but it errored with node_exception: boom" },
  ],
});

directiveTester("expected_error on a completing graph", {
  template: (b) => `\n${FINE}\n${b}`,
  valid: [],
  invalid: [{ code: "expected_error: {category: node_exception}", message: "but it completed" }],
});

/** A case whose `graph:` is `graph`, with the case keys `besides`. */
const compileCase = (graph: string, besides: string): string => `
cases:
  - name: c
${indent(section("graph", graph), 4)}
    ${besides}
`;

directiveTester("expected_compile_error", {
  template: (b) => b,
  valid: [compileCase(NO_ENTRY, "expected_compile_error: no_declared_entry")],
  invalid: [
    { code: compileCase(NO_ENTRY, "expected_compile_error: unreachable_node"), message: 'expected "unreachable_node", got "no_declared_entry"' },
    { code: compileCase(FINE, "expected_compile_error: no_declared_entry"), message: "expected compilation to fail with no_declared_entry, but it completed" },
  ],
});

directiveTester("expected_compile_warning", {
  template: (b) => b,
  valid: [compileCase(FINE, "expected_compile_warning: []")],
  invalid: [
    { code: compileCase(FINE, "expected_compile_warning: projection_reducer_round_trip"), message: "expected warning projection_reducer_round_trip among []" },
    { code: compileCase(FINE, "expected_compile_warning: [projection_reducer_round_trip]"), message: "expected_compile_warning" },
    { code: compileCase(NO_ENTRY, "expected_compile_warning: []"), message: "expected compilation to succeed" },
  ],
});

/** a → END where a's update [1] cannot merge into the dict field `m` (reducer `merge`): a reducer_error. */
const REDUCER_FAILS = `
${chain("m: {type: dict, reducer: merge, default: {}}", { a: "{update: {m: [1]}}" })}
initial_state: {}
`;

// §5.13 `carries` is general (§5.8 lists it under expected_error), so a graph-engine fixture takes it too.
directiveTester("expected_error.carries (graph-engine)", {
  template: (b) => `${REDUCER_FAILS}\n${b}`,
  valid: [
    "expected_error: {category: reducer_error, carries: {field: m, reducer_name: merge, message_mentions: [merge, m], node_name_present: true}}",
  ],
  invalid: [
    { code: "expected_error: {carries: {field: other}}", message: "expected_error.carries.field" },
    { code: "expected_error: {carries: {reducer_name_present: false}}", message: "expected_error.carries.reducer_name_present" },
    { code: "expected_error: {carries: {message_mentions: [append]}}", message: "to mention \"append\"" },
    { code: "expected_error: {carries: {no_such_field: 1}}", message: "exposes no field 'no_such_field'" },
    // §5.13's stem set is closed: a coined stem does not read as an absent field.
    { code: "expected_error: {carries: {no_such_field_present: false}}", message: "exposes no field 'no_such_field'" },
    { code: "expected_error: {carries: {subgraph_name_present: false}}", message: "exposes no field 'subgraph_name'" },
    { code: "expected_error: {carries: {message_mentions: []}}", category: "fixture_schema_invalid", message: "carries" },
  ],
});

// §5.13 `_present: false` on a field the error exposes, left unset: an invalid initial state fails
// before any node runs, so the state_validation_error exposes node_name, with no value.
directiveTester("expected_error.carries _present: false (graph-engine)", {
  template: (b) => `${chain("v: {type: string, default: \"\"}", { a: "{update: {v: a}}" })}\ninitial_state: {v: 1}\n${b}`,
  valid: ["expected_error: {category: state_validation_error, carries: {node_name_present: false, fields: [v]}}"],
  invalid: [
    { code: "expected_error: {carries: {node_name_present: true}}", message: "to be present" },
    { code: "expected_error: {carries: {node_id_present: false}}", message: "exposes no field 'node_id'" },
  ],
});

// §5.8 `cause: {raised_by_mock: <mock>}`: the raised error's cause chain links to the very exception
// the mock under nodes.<mock> raised — at the top level and through every composite kind.
directiveTester("expected_error.cause.raised_by_mock (top level)", {
  template: (b) => failing(b),
  valid: ["expected_error: {category: node_exception, cause: {raised_by_mock: b}}"],
  invalid: [
    { code: "expected_error: {cause: {raised_by_mock: a}}", category: "fixture_schema_invalid", message: ["'a' names no fixture failure mock", "mocks: b"] },
    { code: "expected_error: {cause: {raised_by_mock: b, depth: 1}}", category: "fixture_schema_invalid", message: "unknown key 'depth'" },
    // The seed defines only raised_by_mock; exception_type is the pipeline / sessions notes' (not graph-engine's).
    { code: "expected_error: {cause: {exception_type: FixtureNodeError}}", category: "fixture_schema_invalid", message: "cause" },
  ],
});

/** Parallel branches ok / bad (bad's node `boom` raises), then node `after` (body `after`). */
const branches = (after: string, policy = "fail_fast"): string => `
subgraphs:
  ok:
    state: {fields: {o: {type: int, default: 0}}}
    entry: fine
    nodes: {fine: {update: {o: 1}}}
    edges: [{from: fine, to: END}]
  bad:
    state: {fields: {x: {type: int, default: 0}}}
    entry: boom
    nodes: {boom: {raises: "branch down"}}
    edges: [{from: boom, to: END}]
state:
  fields:
    o: {type: int, default: 0}
    errors: {type: list, reducer: append, default: []}
entry: dispatcher
nodes:
  dispatcher:
    parallel_branches:
      branches:
        ok: {subgraph: ok, outputs: {o: o}}
        bad: {subgraph: bad}
      error_policy: ${policy}
${policy === "collect" ? "      errors_field: errors\n" : ""}  after: ${after}
edges:
  - {from: dispatcher, to: after}
  - {from: after, to: END}
initial_state: {}
`;

directiveTester("expected_error.cause.raised_by_mock (parallel branches, subgraph)", {
  capability: "pipeline-utilities",
  template: (b) => `${branches("{update: {o: 2}}")}\n${b}`,
  valid: ["expected_error: {raised_from: dispatcher, cause: {raised_by_mock: boom}}"],
  invalid: [{ code: "expected_error: {cause: {raised_by_mock: fine}}", category: "fixture_schema_invalid", message: "'fine' names no fixture failure mock" }],
});

directiveTester("expected_error.cause.raised_by_mock (a mock that raised, but not this error's cause)", {
  capability: "pipeline-utilities",
  template: (b) => `${branches('{raises: "after failed"}', "collect")}\n${b}`,
  valid: ["expected_error: {raised_from: after, cause: {raised_by_mock: after}}"],
  invalid: [{ code: "expected_error: {cause: {raised_by_mock: boom}}", message: ["does not link to the exception mock 'boom' raised", "1 raised"] }],
});

/** A serial fan-out over [1, 2, 3] of subgraph `scorer`, whose node `score` carries `mock`. */
const fanOut = (mock: string, b: string): string => `
subgraphs:
  scorer:
    state: {fields: {input: {type: int, default: 0}, out: {type: int, default: 0}}}
    entry: score
    nodes:
      score:
${indent(mock, 8)}
    edges: [{from: score, to: END}]
state:
  fields:
    items: {type: list<int>, default: [1, 2, 3]}
    results: {type: list<int>, reducer: append, default: []}
entry: process
nodes:
  process:
    fan_out: {subgraph: scorer, items_field: items, item_field: input, collect_field: out, target_field: results, concurrent_mode: serial}
edges: [{from: process, to: END}]
initial_state: {}
${b}
`;

directiveTester("expected_error.cause.raised_by_mock (fan-out instance, flaky_by_index)", {
  capability: "pipeline-utilities",
  template: (b) => fanOut("flaky_by_index: {fail_when_idx: 2, success_compute: {out: input}}", b),
  valid: ["expected_error: {raised_from: process, cause: {raised_by_mock: score}}"],
  invalid: [],
});

directiveTester("expected_error.cause.raised_by_mock (a mock that raised nothing)", {
  capability: "pipeline-utilities",
  template: (b) => fanOut("flaky: {failure_sequence: [null], success_update: {out: 1}}\nupdate: {out: 1}", b).replace("initial_state: {}", "initial_state: {}\n").replace("edges: [{from: process, to: END}]", "edges: [{from: process, to: tail}, {from: tail, to: END}]").replace("nodes:\n  process:", 'nodes:\n  tail: {raises: "tail"}\n  process:'),
  valid: [],
  invalid: [{ code: "expected_error: {cause: {raised_by_mock: score}}", message: "the mock 'score' raised nothing in this call" }],
});

// §5.5 node_completed_event_carries_error: the node's one completed event, its error by the §5.8 category rule.
directiveTester("node_completed_event_carries_error", {
  template: (b) => failing("", b),
  valid: ["node_completed_event_carries_error: {node_name: b, error_category: node_exception}"],
  invalid: [
    { code: "node_completed_event_carries_error: {node_name: b, error_category: reducer_error}", message: 'expected.node_completed_event_carries_error.error_category: expected "reducer_error", got "node_exception"' },
    { code: "node_completed_event_carries_error: {node_name: a, error_category: node_exception}", message: "node 'a' completed without an error" },
    { code: "node_completed_event_carries_error: {node_name: c, error_category: node_exception}", message: "exactly one completed event from node 'c', the call dispatched 0" },
    { code: "node_completed_event_carries_error: {node_name: b}", category: "fixture_schema_invalid", message: "error_category" },
  ],
});

directiveTester("node_completed_event_carries_error (categorized cause inside a subgraph)", {
  capability: "pipeline-utilities",
  template: (b) => fanOut("flaky_by_index: {fail_count_per_idx: 1, category: provider_rate_limit, success_compute: {out: input}}", "").replace("items: {type: list<int>, default: [1, 2, 3]}", "items: {type: list<int>, default: [1]}") + `expected:\n  ${b}`,
  valid: [
    "node_completed_event_carries_error: {node_name: score, error_category: provider_rate_limit}",
    "node_completed_event_carries_error: {node_name: process, error_category: provider_rate_limit}",
  ],
  invalid: [{ code: "node_completed_event_carries_error: {node_name: score, error_category: node_exception}", message: 'got "provider_rate_limit"' }],
});
