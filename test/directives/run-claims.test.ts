import { directiveTester } from "./tester.ts";

/** 007's shape through this directory's retry primitives: `fails` failing attempts of three, then success (if any attempt is left). */
const retried = (fails: number, claims: string) => `
state: {fields: {done: {type: bool, default: false}}}
entry: flaky
nodes:
  flaky:
    retry_middleware: {max_attempts: 3, classifier: transient_marker}
    per_attempt_behavior:
${[0, 1, 2].map((i) => (i < fails ? `      - {attempt: ${i}, raises: throttled}` : `      - {attempt: ${i}, update: {done: true}, succeeds: true}`)).join("\n")}
edges: [{from: flaky, to: END}]
initial_state: {}
${fails >= 3 ? "expected_error: {category: node_exception}\n" : ""}expected:
  invariants:
${claims}
`;

directiveTester("retry attempt span claims (observability 007)", {
  template: (b) => b,
  capability: "observability",
  valid: [
    retried(2, "    sibling_attempt_count_under_invocation: 3\n    attempt_indices: [0, 1, 2]"),
    retried(3, "    sibling_attempt_count_under_invocation: 3\n    attempt_indices: [0, 1, 2]\n    all_attempt_spans_error: true"),
  ],
  invalid: [
    { code: retried(1, "    sibling_attempt_count_under_invocation: 3"), message: "2 sibling attempt span(s)" },
    { code: retried(1, "    attempt_indices: [0, 1, 2]"), message: "attempt indices [0,1]" },
    // The last attempt succeeded: not every attempt span is ERROR.
    { code: retried(2, "    all_attempt_spans_error: true"), message: "attempts [2] are" },
  ],
});

/** 009's third case in the §4.3 list form: two invocations with no caller correlation id. */
const twoRuns = (claims: string, correlation = "") => `
state: {fields: {x: {type: int, default: 0}}}
entry: a
nodes:
  a: {update_pure: {x: 1}}
edges: [{from: a, to: END}]
initial_state: {}
invocations:
  - {name: first${correlation}}
  - {name: second${correlation}}
expected:
${claims}
`;

directiveTester("claims over several invocations (observability 009)", {
  template: (b) => b,
  capability: "observability",
  valid: [
    twoRuns(`  invocation_count: 2
  invariants:
    each_invocation_correlation_id_uniform: true
    correlation_ids_differ_across_invocations: true
    all_correlation_ids_uuidv4: true`),
  ],
  invalid: [
    { code: twoRuns("  invocation_count: 3"), message: "2 call(s)" },
    // Both calls given the same correlation id: not distinct, not UUIDs.
    { code: twoRuns("  invariants:\n    correlation_ids_differ_across_invocations: true", ", correlation_id: same-corr"), message: 'correlation ids ["same-corr","same-corr"]' },
    { code: twoRuns("  invariants:\n    all_correlation_ids_uuidv4: true", ", correlation_id: same-corr"), message: "all_correlation_ids_uuidv4" },
    { code: twoRuns("  invariants:\n    each_invocation_correlation_id_uniform: false"), message: "each_invocation_correlation_id_uniform" },
  ],
});

/** 011's two runs of one graph, in the §4.3 list form; `second` can start the second run elsewhere, so it takes another path. */
const determinism = (claims: string, second = "") => `
state: {fields: {x: {type: int, default: 0}, flag: {type: bool, default: false}}}
entry: a
nodes:
  a: {update_pure: {flag: false}}
  b: {update_pure: {flag: true}}
edges:
  - {from: a, condition: {if_field: x, equals: 5, then: END, else: b}}
  - {from: b, to: END}
initial_state: {}
invocations:
  - {name: first}
  - {name: second${second}}
expected:
  invariants:
${claims}
`;

directiveTester("claims comparing runs (observability 011)", {
  template: (b) => b,
  capability: "observability",
  valid: [determinism("    same_execution_path: true\n    span_count_equal_across_runs: true")],
  invalid: [
    { code: determinism("    same_execution_path: true", ", initial_state: {x: 5}"), message: "executed" },
    { code: determinism("    span_count_equal_across_runs: true", ", initial_state: {x: 5}"), message: "span counts [" },
    { code: twoRuns("  invariants:\n    same_execution_path: false"), message: "same_execution_path" },
    { code: oneNodeRun("    same_execution_path: true"), message: "1 run(s): nothing to compare" },
    { code: oneNodeRun("    span_count_equal_across_runs: true"), message: "1 run(s): nothing to compare" },
  ],
});

function oneNodeRun(claims: string): string {
  return `
state: {fields: {x: {type: int, default: 0}}}
entry: a
nodes:
  a: {update_pure: {x: 1}}
edges: [{from: a, to: END}]
initial_state: {}
expected:
  invariants:
${claims}
`;
}
