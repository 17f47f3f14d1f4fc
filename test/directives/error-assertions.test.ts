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
    { code: "expected_error: {carries: {message_mentions: [append]}}", message: "does not mention" },
    { code: "expected_error: {carries: {no_such_field: 1}}", message: "does not expose 'no_such_field'" },
    { code: "expected_error: {carries: {message_mentions: []}}", category: "fixture_schema_invalid", message: "carries" },
  ],
});
