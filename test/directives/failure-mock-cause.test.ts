/**
 * Conformance-adapter 0.120.1 §5.1 Failure-mock directives: "Any failure these mocks raise MAY carry
 * a cause". Each flaky* mock takes a mock-level `cause:` chained to the failures it raises; a wrong
 * expectation about the chain fails the case.
 */
import { directiveTester } from "./tester.ts";

const single = (mock: string, expected: string) => `
state:
  fields:
    out: {type: int, default: 0}
entry: a
nodes:
  a:
${mock}
edges:
  - {from: a, to: END}
initial_state: {}
${expected}
`;

const instance = (mock: string, expected: string) => `
subgraph:
  name: unit
  state: {fields: {input: {type: int, default: 0}, out: {type: int, default: 0}}}
  entry: work
  nodes:
    work:
${mock}
  edges:
    - {from: work, to: END}
state:
  fields:
    items: {type: list<int>, default: [2]}
    results: {type: list<int>, reducer: append, default: []}
entry: process
nodes:
  process:
    fan_out: {subgraph: unit, items_field: items, item_field: input, collect_field: out, target_field: results}
edges:
  - {from: process, to: END}
initial_state: {}
${expected}
`;

const error = (category: string, causeMessage: string) => `expected_error: {category: ${category}, cause_message: "${causeMessage}"}`;

const COMPACT = "    flaky: {fail_first_invocation_only: true, on_success: {out: 1}, cause: {category: provider_unavailable, message: up}}";
directiveTester("flaky (compact form) cause", {
  template: (b) => single(COMPACT, b),
  valid: [error("provider_unavailable", "up")],
  invalid: [
    { code: error("node_exception", "up"), message: "expected_error.category" },
    { code: error("provider_unavailable", "down"), message: "expected_error.cause_message" },
  ],
});

// mock, template, the raised category, the innermost message, and a wrong expectation that must fail.
const MOCKS: ReadonlyArray<readonly [string, typeof single, string, string, string, string]> = [
  [
    "flaky_resume_aware: {fail_first_invocation_count: 1, fail_resumed_invocation_count: 0, category: provider_unavailable, on_success: {out: 1}, cause: {category: provider_rate_limit, message: rate}}",
    single, "provider_unavailable", "rate", error("provider_unavailable", "flaky_resume_aware"), "expected_error.cause_message",
  ],
  [
    "flaky_by_index: {fail_when_idx: 2, success_compute: {out: input}, cause: {category: provider_unavailable, message: mid, cause: {category: null, message: root}}}",
    instance, "provider_unavailable", "root", error("provider_unavailable", "mid"), "expected_error.cause_message",
  ],
  [
    "flaky_per_index: {always_fail_indices: [0], success_compute: {out: input}, cause: {category: provider_unavailable, message: idx}}",
    instance, "provider_unavailable", "idx", error("node_exception", "idx"), "expected_error.category",
  ],
  [
    "flaky_instance_only: {fail_count_per_instance: 1, category: provider_rate_limit, success_compute: {out: input}, cause: {category: null, message: inst}}",
    instance, "provider_rate_limit", "inst", error("provider_rate_limit", "flaky_instance_only"), "expected_error.cause_message",
  ],
];
for (const [mock, template, category, innermost, wrong, path] of MOCKS) {
  const indent = template === single ? "    " : "      ";
  directiveTester(`${mock.slice(0, mock.indexOf(":"))} cause`, {
    template: (b) => template(indent + mock, b),
    valid: [error(category, innermost)],
    invalid: [{ code: wrong, message: path }],
  });
}

directiveTester("a malformed mock-level cause", {
  template: (b) => single("    flaky: {fail_first_invocation_only: true, cause: {category: provider_unavailable, reason: x}}", b),
  valid: [],
  invalid: [{ code: error("provider_unavailable", "x"), category: "fixture_schema_invalid", message: "reason" }],
});
