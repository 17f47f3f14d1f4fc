import { directiveTester } from "./tester.ts";

const failing = (besides: string, expected = ""): string => `
state:
  fields:
    log: {type: list<string>, reducer: append, default: []}
entry: a
nodes:
  a: {update: {log: [a]}}
  b: {raises: "boom"}
  c: {update: {log: [c]}}
edges:
  - {from: a, to: b}
  - {from: b, to: c}
  - {from: c, to: END}
initial_state: {}
${besides}
${expected ? `expected:\n  ${expected}` : ""}
`;

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
  template: (b) => `
state: {fields: {v: {type: int, default: 0}}}
entry: a
nodes: {a: {update: {v: 1}}}
edges: [{from: a, to: END}]
${b}`,
  valid: [],
  invalid: [{ code: "expected_error: {category: node_exception}", message: "but it completed" }],
});

const compileCase = (graph: string, besides: string): string => `
cases:
  - name: c
    graph:
${graph}
    ${besides}
`;
const noEntry = `      state: {fields: {v: {type: int, default: 0}}}
      nodes: {a: {update: {v: 1}}}
      edges: [{from: a, to: END}]`;
const fine = `      state: {fields: {v: {type: int, default: 0}}}
      entry: a
      nodes: {a: {update: {v: 1}}}
      edges: [{from: a, to: END}]`;

directiveTester("expected_compile_error", {
  template: (b) => b,
  valid: [compileCase(noEntry, "expected_compile_error: no_declared_entry")],
  invalid: [
    { code: compileCase(noEntry, "expected_compile_error: unreachable_node"), message: 'expected "unreachable_node", got "no_declared_entry"' },
    { code: compileCase(fine, "expected_compile_error: no_declared_entry"), message: "expected compilation to fail with no_declared_entry, but it completed" },
  ],
});

directiveTester("expected_compile_warning", {
  template: (b) => b,
  valid: [compileCase(fine, "expected_compile_warning: []")],
  invalid: [
    { code: compileCase(fine, "expected_compile_warning: projection_reducer_round_trip"), message: "expected warning projection_reducer_round_trip among []" },
    { code: compileCase(fine, "expected_compile_warning: [projection_reducer_round_trip]"), message: "expected_compile_warning" },
    { code: compileCase(noEntry, "expected_compile_warning: []"), message: "expected compilation to succeed" },
  ],
});
