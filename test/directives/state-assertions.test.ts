import { directiveTester, linear } from "./tester.ts";

directiveTester("final_state", {
  template: (b) => linear(b),
  valid: ["final_state: {v: 3, log: [a, b, c]}"],
  invalid: [
    { code: "final_state: {v: 4, log: [a, b, c]}", message: "expected.final_state.v: expected 4, got 3" },
    { code: "final_state: {v: 3}", message: ["expected.final_state", "log"] },
    { code: "final_state: {v: 3, log: [a, b, c], extra: 1}", message: "extra" },
    { code: "final_state: {v: 3, log: [a, c, b]}", message: "expected.final_state.log" },
    { code: "final_state: {v: true, log: [a, b, c]}", message: "expected.final_state.v" },
  ],
});

directiveTester("final_state_bounds", {
  template: (b) => linear(b),
  valid: ["final_state_bounds: {v: {min: 3, max: 3}}", "final_state_bounds: {v: {min: 0}}"],
  invalid: [
    { code: "final_state_bounds: {v: {max: 2}}", message: "expected <= 2, got 3" },
    { code: "final_state_bounds: {v: {min: 4}}", message: "expected >= 4, got 3" },
    { code: "final_state_bounds: {log: {min: 0}}", message: "expected a number" },
    { code: "final_state_bounds: {v: {}}", category: "fixture_schema_invalid", message: "final_state_bounds" },
  ],
});

directiveTester("execution_order", {
  template: (b) => linear(b),
  valid: ["execution_order: [a, b, c]"],
  invalid: [
    { code: "execution_order: [a, c, b]", message: "expected.execution_order" },
    { code: "execution_order: [a, b]", message: "expected.execution_order" },
    { code: "execution_order: [a, b, c, c]", message: "expected.execution_order" },
  ],
});

directiveTester("outcome", {
  template: (b) => linear(b),
  valid: ["outcome: completed"],
  invalid: [
    { code: "outcome: errored", message: "expected errored, but it completed" },
    { code: "outcome: finished", category: "fixture_schema_invalid", message: "must be one of" },
  ],
});

// §5.2 user-defined record types: as list<T> elements and dict<K,V> values; defined under
// state.records, or — undefined — a record the engine writes (an open record, §8.4).
const recordGraph = (type: string, value: string, records = ""): string => `
state:
  fields:
    pts: {type: "${type}", default: ${type.startsWith("dict") ? "{}" : "[]"}}
${records}
entry: a
nodes:
  a: {update: {pts: ${value}}}
edges:
  - {from: a, to: END}
initial_state: {}
`;
const POINT = "  records:\n    point:\n      fields:\n        x: {type: int}";

directiveTester("state: list<record> (a record the fixture defines)", {
  template: (b) => `${recordGraph("list<point>", "[{x: 1}, {x: 2}]", POINT)}\n${b}`,
  valid: ["expected:\n  final_state: {pts: [{x: 1}, {x: 2}]}"],
  invalid: [{ code: "expected:\n  final_state: {pts: [{x: 1}]}", message: "expected.final_state.pts" }],
});

directiveTester("state: list<record> rejects an element of the wrong shape", {
  template: (b) => `${recordGraph("list<point>", '[{x: "one"}]', POINT)}\n${b}`,
  valid: ["expected_error: {category: state_validation_error, raised_from: a}"],
  invalid: [{ code: "expected:\n  final_state: {pts: [{x: one}]}", message: "errored with state_validation_error" }],
});

directiveTester("state: dict<string,record> value types", {
  template: (b) => `${recordGraph("dict<string,point>", '{p: {x: 3}}', POINT)}\n${b}`,
  valid: ["expected:\n  final_state: {pts: {p: {x: 3}}}"],
  invalid: [{ code: "expected:\n  final_state: {pts: {p: {x: 4}}}", message: "expected.final_state.pts.p.x" }],
});

directiveTester("state: list<record> naming a record the fixture does not define (engine-written, open)", {
  template: (b) => `${recordGraph("list<error_entry>", "[{anything: 1}]")}\n${b}`,
  valid: ["expected:\n  final_state: {pts: [{anything: 1}]}"],
  invalid: [
    { code: "expected:\n  final_state: {pts: []}", message: "expected.final_state.pts" },
    { code: "expected_error: {category: node_exception}", message: "but it completed" },
  ],
});

directiveTester("state: an undefined record type still takes only records", {
  template: (b) => `${recordGraph("list<error_entry>", "[1]")}\n${b}`,
  valid: ["expected_error: {category: state_validation_error}"],
  invalid: [{ code: "expected:\n  final_state: {pts: [1]}", message: "errored with state_validation_error" }],
});

directiveTester("state: a bareword one typo from a type name is not a record", {
  template: (b) => b,
  valid: [],
  invalid: [
    { code: `${recordGraph("list<strng>", "[a]")}\nexpected: {final_state: {pts: [a]}}`, category: "fixture_schema_invalid", message: ["'strng' is not a type name", "did you mean 'string'"] },
    // `str` is not a record either: the legacy bundle reads it as `string` in every directory and
    // --strict-vocabulary refuses it (test/directives/legacy.test.ts, "type str").
    { code: `${recordGraph("dict<string,lsit>", "{}")}\nexpected: {final_state: {pts: {}}}`, category: "fixture_schema_invalid", message: "did you mean 'list'" },
  ],
});
