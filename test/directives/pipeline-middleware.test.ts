/**
 * Directive tests for the pipeline-utilities middleware bundle: each assertion directive (and the
 * named claims) over snippets that must pass and snippets that must fail with a named mismatch,
 * run through the real interpreter, middleware and engine.
 */
import { directiveTester, indent } from "./tester.ts";
import { chain, runOnce } from "./templates.ts";

const P = "pipeline-utilities";
const FIELDS = "v: {type: int, default: 0}\n    trace: {type: list<string>, reducer: append, default: []}";

/** A one-node graph `a`, its body, the case-level per-node middleware of `a`, extra case keys, and `expected:`. */
function oneNode(body: string, middleware: string, expected: string, besides = "", fields = FIELDS): string {
  return `
state:
  fields:
    ${fields}
entry: a
nodes:
  a:
${indent(body, 4)}
edges:
  - {from: a, to: END}
initial_state: {}
middleware:
  per_node:
    a:
${indent(middleware, 6)}
${besides}
expected:
${indent(expected, 2)}
`;
}

const RECORDER = "- {type: trace_recorder, name: rec1, pre_marker: pre, post_marker: post}";
const RETRY = "- {type: retry, max_attempts: 3, backoff: {type: deterministic, seconds: 0}}";
const FLAKY_ONCE = `flaky:
  failure_sequence:
    - {transient: true, category: provider_rate_limit, message: throttle}
  success_update: {v: 42, trace: [a]}`;
const FAILS_DOWN = `flaky:
  failure_sequence:
    - {transient: true, category: provider_unavailable, message: down}`;
const ISOLATE = "- {type: failure_isolation, degraded_update: {v: -1}, event_name: iso}";

directiveTester("trace_records", {
  capability: P,
  template: (b) => oneNode("update: {v: 1, trace: [a]}", RECORDER, b),
  valid: [
    `trace_records:
  rec1:
    - {state_in: {v: 0, trace: []}, pre_seen: true, post_seen: true, state_seen_in_post_phase: {v: 0, trace: []}, partial_update_returned: {v: 1, trace: [pre, a, post]}}
final_state: {v: 1, trace: [pre, a, post]}`,
  ],
  invalid: [
    { code: "trace_records: {rec1: [{state_in: {v: 1, trace: []}}]}", message: "expected.trace_records.rec1[0].state_in.v" },
    { code: "trace_records: {rec1: [{state_in: {v: 0}}]}", message: ["expected.trace_records.rec1[0].state_in", "trace"] },
    { code: "trace_records: {rec1: [{partial_update_returned: {v: 1, trace: [a]}}]}", message: "expected.trace_records.rec1[0].partial_update_returned.trace" },
    { code: "trace_records: {rec1: []}", message: "expected.trace_records.rec1" },
    { code: "trace_records: {nobody: []}", message: "no trace_recorder named 'nobody'" },
  ],
});

directiveTester("trace_records when next raises (out-of-band phase flags)", {
  capability: P,
  template: (b) => oneNode("raises: boom", RECORDER, b, "expected_error: {category: node_exception, message: boom}"),
  valid: ["trace_records: {rec1: [{pre_seen: true, post_seen: false, state_in: {v: 0, trace: []}}]}"],
  invalid: [{ code: "trace_records: {rec1: [{pre_seen: true, post_seen: true}]}", message: "expected.trace_records.rec1[0].post_seen: expected true, got false" }],
});

directiveTester("test middlewares: short_circuit / error_recovery / error_raiser / state_inspector", {
  capability: P,
  template: (b) => b,
  valid: [
    oneNode("update: {v: 1, trace: [a]}", `${RECORDER}\n- {type: short_circuit, partial_update: {trace: [sc]}}`, "final_state: {v: 0, trace: [pre, sc, post]}\nexecution_order: []"),
    oneNode("raises: boom", "- {type: error_recovery, partial_update: {v: 9}}", "final_state: {v: 9, trace: []}\nexecution_order: [a]"),
    oneNode("update: {v: 1}", "- {type: error_raiser, message: refused}", "outcome: errored", "expected_error: {category: node_exception, message: refused, raised_from: a}"),
    oneNode("update: {v: 1}", "- {type: state_inspector, name: insp}", "trace_records: {insp: [{state_unchanged: true, state_in: {v: 0, trace: []}}]}"),
  ],
  invalid: [
    { code: oneNode("update: {v: 1}", "- {type: no_such_middleware}", "final_state: {v: 1, trace: []}"), category: "fixture_directive_unknown", message: "middleware type: no_such_middleware" },
    { code: oneNode("update: {v: 1}", "- {type: retry, max_attempts: 0}", "final_state: {v: 1, trace: []}"), category: "fixture_schema_invalid", message: "middleware" },
    { code: oneNode("update: {v: 1}", "- {type: retry, colour: red}", "final_state: {v: 1, trace: []}"), category: "fixture_schema_invalid", message: "colour" },
    { code: oneNode("update: {v: 1}", "- {type: short_circuit}", "final_state: {v: 1, trace: []}"), category: "fixture_schema_invalid", message: "partial_update" },
  ],
});

directiveTester("middleware block: per_graph outside per_node, subgraph locality", {
  capability: P,
  template: (b) => b,
  valid: [
    `
subgraph:
  name: inner
  state:
    fields:
      trace: {type: list<string>, reducer: append, default: []}
  entry: x
  nodes:
    x: {update: {trace: [x]}}
  edges: [{from: x, to: END}]
  middleware:
    per_graph:
      - {type: trace_recorder, name: sg, pre_marker: s.pre, post_marker: s.post}
state:
  fields:
    trace: {type: list<string>, reducer: append, default: []}
entry: a
nodes:
  a: {update: {trace: [a]}}
  sub: {subgraph: inner}
edges: [{from: a, to: sub}, {from: sub, to: END}]
initial_state: {}
middleware:
  per_graph:
    - {type: trace_recorder, name: pg, pre_marker: g.pre, post_marker: g.post}
  per_node:
    a:
      - {type: trace_recorder, name: pn, pre_marker: n.pre, post_marker: n.post}
expected:
  final_state: {trace: [g.pre, n.pre, a, n.post, g.post, g.pre, s.pre, x, s.post, g.post]}
`,
  ],
  invalid: [
    {
      code: oneNode("update: {v: 1}", "- {type: trace_recorder, name: r}", "final_state: {v: 1, trace: []}").replace("    a:\n      - {type: trace_recorder", "    zz:\n      - {type: trace_recorder"),
      category: "fixture_schema_invalid",
      message: "middleware.per_node names 'zz'",
    },
  ],
});

const CLOCK = "clock_stub: {type: deterministic_monotonic, advance_ms_per_call: 5}";
const TIMING = "- {type: timing, node_name: a, on_complete: {capture_to: timing_records}}";

directiveTester("timing_records", {
  capability: P,
  template: (b) => oneNode("update: {v: 1}", TIMING, b, CLOCK),
  valid: ["timing_records: [{node_name: a, duration_ms: 5, outcome: success, exception_category: null}]"],
  invalid: [
    { code: "timing_records: [{duration_ms: 10}]", message: "expected.timing_records[0].duration_ms: expected 10, got 5" },
    { code: "timing_records: [{outcome: exception}]", message: "expected.timing_records[0].outcome" },
    { code: "timing_records: []", message: "expected.timing_records" },
    { code: "timing_records: [{outcome: done}]", category: "fixture_schema_invalid", message: "timing_records" },
  ],
});

directiveTester("timing_records: failure path, retry wrapping timing, error_category", {
  capability: P,
  template: (b) => b,
  valid: [
    oneNode(
      "raises: boom\nerror_category: provider_rate_limit",
      TIMING,
      "timing_records: [{node_name: a, duration_ms: 5, outcome: exception, exception_category: provider_rate_limit}]",
      `${CLOCK}\nexpected_error: {category: provider_rate_limit, message: boom}`,
    ),
    oneNode(
      FLAKY_ONCE,
      `${RETRY}\n${TIMING}`,
      "timing_records:\n  - {outcome: exception, exception_category: provider_rate_limit, duration_ms: 5}\n  - {outcome: success, exception_category: null, duration_ms: 5}",
      CLOCK,
    ),
  ],
  invalid: [
    { code: oneNode("update: {v: 1}", RECORDER, "timing_records: []"), message: "no timing middleware in this case captures to 'timing_records'" },
    { code: oneNode("error_category: provider_rate_limit\nraises: boom", TIMING, "timing_records: []"), category: "fixture_schema_invalid", message: "error_category applies" },
  ],
});

directiveTester("expected_observer_event", {
  capability: P,
  template: (b) => oneNode("update: {v: 1, trace: [a]}", "- {type: trace_recorder, name: r}", b),
  valid: ["expected_observer_event: {node_name: a, post_state: {v: 1, trace: [a]}, error_absent: true}", "expected_observer_event: {node_name: a, phase: started, pre_state: {v: 0, trace: []}, post_state_absent: true}"],
  invalid: [
    { code: "expected_observer_event: {node_name: a, post_state: {v: 2, trace: [a]}}", message: "expected.expected_observer_event.post_state.v: expected 2, got 1" },
    { code: "expected_observer_event: {node_name: a, error_absent: false}", message: "carries no 'error'" },
    { code: "expected_observer_event: {node_name: zz}", message: "node 'zz' produced no completed event" },
    { code: "expected_observer_event: {post_state: {}}", category: "fixture_schema_invalid", message: "node_name" },
  ],
});

directiveTester("expected_observer_event on a failed node", {
  capability: P,
  template: (b) => oneNode("raises: boom", "- {type: trace_recorder, name: r}", b, "expected_error: {category: node_exception}"),
  valid: ["expected_observer_event: {node_name: a, error: node_exception, post_state_absent: true}"],
  invalid: [{ code: "expected_observer_event: {node_name: a, error_absent: true}", message: "expected.expected_observer_event.error" }],
});

directiveTester("expected_attempt_events", {
  capability: P,
  template: (b) => oneNode(FLAKY_ONCE, RETRY, b),
  valid: [
    `expected_attempt_events:
  - {attempt_index: 0, phase: started, node_name: a}
  - {attempt_index: 0, phase: completed, node_name: a, error_category: provider_rate_limit}
  - {attempt_index: 1, phase: started, node_name: a, pre_state: {v: 0, trace: []}}
  - {attempt_index: 1, phase: completed, node_name: a, post_state: {v: 42, trace: [a]}, absent_keys: [error]}`,
  ],
  invalid: [
    {
      code: `expected_attempt_events:
  - {attempt_index: 0, phase: started}
  - {attempt_index: 0, phase: completed, error_category: provider_unavailable}
  - {attempt_index: 1, phase: started}
  - {attempt_index: 1, phase: completed}`,
      message: 'expected.expected_attempt_events[1].error_category: expected "provider_unavailable", got "provider_rate_limit"',
    },
    { code: "expected_attempt_events:\n  - {attempt_index: 0, phase: started}\n  - {attempt_index: 0, phase: completed}", message: "expected.expected_attempt_events" },
  ],
});

directiveTester("observer_events (pipeline-utilities forms)", {
  capability: P,
  template: (b) => oneNode(FLAKY_ONCE, RETRY, b, "observers:\n  - {name: obs, attach: graph, target: outer, behavior: record}"),
  valid: [
    `observer_events:
  - {step: 0, phase: started, node_name: a, attempt_index: 0, namespace: [a], pre_state: {v: 0, trace: []}}
  - {step: 0, phase: completed, node_name: a, attempt_index: 0, error: node_exception}
  - {step: 0, phase: started, node_name: a, attempt_index: 1}
  - {step: 0, phase: completed, node_name: a, attempt_index: 1, post_state: {v: 42, trace: [a]}}`,
    `observer_events:
  obs:
    - {phase: started, attempt_index: 0}
    - {phase: completed, attempt_index: 0, error: node_exception}
    - {phase: started, attempt_index: 1}
    - {phase: completed, attempt_index: 1, absent_keys: [error]}`,
  ],
  invalid: [
    {
      code: `observer_events:
  - {phase: started}
  - {phase: completed, error: routing_error}
  - {phase: started}
  - {phase: completed}`,
      message: "expected.observer_events[1].error.category",
    },
    { code: "observer_events:\n  - {phase: started, attempt_index: 0}", message: "expected.observer_events" },
  ],
});

directiveTester("expected_error.flaky_call_count", {
  capability: P,
  template: (b) =>
    oneNode(
      "flaky:\n  failure_sequence:\n    - {transient: false, category: provider_authentication, message: bad key}",
      "- {type: retry, max_attempts: 5, backoff: {type: deterministic, seconds: 0}}",
      "outcome: errored",
      b,
    ),
  valid: ["expected_error: {category: provider_authentication, message: bad key, raised_from: a, flaky_call_count: 1}"],
  invalid: [
    { code: "expected_error: {flaky_call_count: 2}", message: "expected_error.flaky_call_count: expected 2, got 1" },
    { code: "expected_error: {flaky_call_count: -1}", category: "fixture_schema_invalid", message: "expected_error" },
  ],
});

directiveTester("flaky: sequence exhausted after retries, state-aware classifier", {
  capability: P,
  template: (b) => b,
  valid: [
    oneNode(
      "flaky:\n  failure_sequence:\n    - {transient: false, category: provider_invalid_request, message: boom}\n  success_update: {v: 1}",
      "- {type: retry, max_attempts: 5, classifier: {type: state_aware_max_retries_remaining}, backoff: {type: deterministic, seconds: 0}}",
      "final_state: {max_retries_remaining: 2, v: 1}",
      "",
      "max_retries_remaining: {type: int, default: 2}\n    v: {type: int, default: 0}",
    ),
    oneNode(
      "flaky:\n  failure_sequence:\n    - {transient: true, category: provider_unavailable, message: d1}\n    - {transient: true, category: provider_unavailable, message: d2}",
      "- {type: retry, max_attempts: 2, backoff: {type: deterministic, seconds: 0}}",
      "outcome: errored",
      "expected_error: {message: d2, flaky_call_count: 2, recoverable_state: {v: 0, trace: []}}",
    ),
  ],
  invalid: [
    { code: oneNode("flaky: {failure_sequence: [{transient: maybe}]}", RETRY, "outcome: errored"), category: "fixture_schema_invalid", message: "flaky" },
  ],
});

const ISOLATED_EVENT = `expected_failure_isolation_event:
  event_name: iso
  wrapped_node_lineage: {namespace: [a], attempt_index: 0, fan_out_index: null, branch_name: null}
  pre_state: {v: 0, trace: []}
  post_state: {v: -1}
  caught_exception:
    category: provider_unavailable
    message: down
    chain:
      - {carrier: false, category: provider_unavailable, message: down}`;

directiveTester("expected_failure_isolation_event", {
  capability: P,
  template: (b) => oneNode(FAILS_DOWN, ISOLATE, b),
  valid: [`${ISOLATED_EVENT}\nfinal_state: {v: -1, trace: []}\nexecution_order: [a]`],
  invalid: [
    { code: "expected_failure_isolation_event: {event_name: other}", message: 'expected.expected_failure_isolation_event.event_name: expected "other", got "iso"' },
    { code: "expected_failure_isolation_event: {pre_state: {v: 0}}", message: "expected.expected_failure_isolation_event.pre_state" },
    { code: "expected_failure_isolation_event: {post_state: {v: -1, trace: []}}", message: "expected.expected_failure_isolation_event.post_state" },
    { code: "expected_failure_isolation_event: {wrapped_node_lineage: {attempt_index: 1}}", message: "expected.expected_failure_isolation_event.wrapped_node_lineage.attempt_index" },
    {
      code: "expected_failure_isolation_event: {caught_exception: {chain: [{carrier: true, category: node_exception}, {carrier: false, category: provider_unavailable}]}}",
      message: "expected.expected_failure_isolation_event.caught_exception.chain",
    },
    { code: "expected_failure_isolation_event: {caught_exception: {message: up}}", message: "expected.expected_failure_isolation_event.caught_exception.message" },
    { code: "expected_failure_isolation_event: {colour: red}", category: "fixture_schema_invalid", message: "colour" },
  ],
});

directiveTester("expected_failure_isolation_event: cause chain and event count", {
  capability: P,
  template: (b) => b,
  valid: [
    oneNode(
      `flaky:
  failure_sequence:
    - transient: false
      category: provider_invalid_response
      message: surface
      cause: {category: provider_unavailable, message: origin}`,
      ISOLATE,
      `expected_failure_isolation_event:
  caught_exception:
    category: provider_invalid_response
    message: surface
    chain:
      - {carrier: false, category: provider_invalid_response, message: surface}
      - {carrier: false, category: provider_unavailable, message: origin}
invariants:
  chain_has_two_non_carrier_links: true
  derived_category_is_outermost_non_carrier_with_category: true`,
    ),
  ],
  invalid: [
    { code: oneNode("update: {v: 1}", ISOLATE, "expected_failure_isolation_event: {event_name: iso}"), message: "expected exactly one failure-isolation event in the call, got 0" },
  ],
});

directiveTester("no_failure_isolation_event", {
  capability: P,
  template: (b) => oneNode(FAILS_DOWN, ISOLATE, b),
  valid: ["no_failure_isolation_event: false"],
  invalid: [{ code: "no_failure_isolation_event: true", message: "expected no failure-isolation event, got 1 ('iso')" }],
});

directiveTester("claims: node-level failure isolation", {
  capability: P,
  template: (b) => oneNode(FAILS_DOWN, ISOLATE, `invariants:\n${indent(b, 2)}`),
  valid: [
    `engine_does_not_see_exception: true
event_is_distinct_from_node_event: true
event_name_is_caller_supplied: true
engine_sees_degraded_return: true
node_level_chain_is_single_non_carrier_link: true
derived_category_is_outermost_non_carrier_with_category: true
caught_exception_message_captures_str_exc: true`,
  ],
  invalid: [
    { code: "engine_does_not_see_exception: false", message: "engine_does_not_see_exception: expected the claim not to hold" },
    { code: "caught_exception_category_null_for_non_categorized: true", message: "the caught error is categorized (provider_unavailable)" },
    { code: "default_predicate_catches_bare_exception: true", message: "the caught error is categorized" },
    { code: "chain_includes_carrier_and_originating: true", message: "the chain's outermost link is not a carrier" },
    { code: "chain_has_two_non_carrier_links: true", message: "the caught error has 1 non-carrier link(s)" },
    { code: "retry_exhausts_before_isolation_catches: true", message: "no retry is configured around 'a'" },
    { code: "matching_exception_caught: true", message: "configures no predicate or catch" },
    { code: "callable_receives_pre_merge_state: true", message: "no callable degraded_update ran" },
  ],
});

directiveTester("claims: nothing was isolated", {
  capability: P,
  template: (b) => oneNode("update: {v: 1}", ISOLATE, `invariants:\n${indent(b, 2)}`),
  valid: ["engine_does_not_see_exception: false"],
  invalid: [
    { code: "engine_does_not_see_exception: true", message: "the call emitted no failure-isolation event" },
    { code: "event_is_distinct_from_node_event: true", message: "the call emitted no failure-isolation event" },
  ],
});

directiveTester("claims: callable degraded update", {
  capability: P,
  template: (b) =>
    oneNode(
      FAILS_DOWN,
      "- type: failure_isolation\n  event_name: iso\n  degraded_update: {callable: state_derived, template: 'n={{ state.n }}', target_field: r}",
      `final_state: {n: 2, r: "n=2"}\ninvariants:\n${indent(b, 2)}`,
      "",
      'n: {type: int, default: 2}\n    r: {type: string, default: ""}',
    ),
  valid: ["callable_receives_pre_merge_state: true\ncallable_return_merges_via_reducer: true"],
  invalid: [
    { code: "callable_receives_pre_merge_state: false", message: "expected the claim not to hold" },
    { code: "callable_return_merges_via_reducer: false", message: "expected the claim not to hold" },
  ],
});

const predicate = (category: string) => `- {type: failure_isolation, degraded_update: {v: -1}, event_name: iso, predicate: {matches_category: ${category}}}`;

directiveTester("claims: predicate filtering", {
  capability: P,
  template: (b) => b,
  valid: [
    oneNode(FAILS_DOWN, predicate("provider_unavailable"), "invariants: {matching_exception_caught: true}"),
    oneNode(
      FAILS_DOWN,
      predicate("provider_invalid_response"),
      "no_failure_isolation_event: true\ninvariants: {non_matching_exception_propagates: true, no_event_when_predicate_does_not_match: true}",
      "expected_error: {message: down, raised_from: a}",
    ),
  ],
  invalid: [
    { code: oneNode(FAILS_DOWN, predicate("provider_unavailable"), "invariants: {non_matching_exception_propagates: true}"), message: "the call did not raise" },
    { code: oneNode(FAILS_DOWN, predicate("provider_invalid_response"), "invariants: {matching_exception_caught: true}", "expected_error: {raised_from: a}"), message: "the call emitted no failure-isolation event" },
  ],
});

const FAILS_TWICE = `flaky:
  failure_sequence:
    - {transient: true, category: provider_unavailable, message: d1}
    - {transient: true, category: provider_unavailable, message: d2}`;
const RETRY2 = "- {type: retry, max_attempts: 2, backoff: {type: deterministic, seconds: 0}}";

directiveTester("claims: failure isolation around retry", {
  capability: P,
  template: (b) => b,
  valid: [
    oneNode(
      FAILS_TWICE,
      `${ISOLATE}\n${RETRY2}`,
      "expected_failure_isolation_event: {wrapped_node_lineage: {attempt_index: 1}, caught_exception: {message: d2}}\ninvariants: {retry_exhausts_before_isolation_catches: true, outer_to_inner_ordering_load_bearing: true, engine_does_not_see_exception: true}",
    ),
  ],
  invalid: [
    { code: oneNode(FAILS_TWICE, `${RETRY2}\n${ISOLATE}`, "invariants: {outer_to_inner_ordering_load_bearing: true}"), message: "is declared inside the retry around 'a'" },
    { code: oneNode(FAILS_TWICE, `${RETRY2}\n${ISOLATE}`, "invariants: {retry_exhausts_before_isolation_catches: true}"), message: "'a' ran 1 attempt(s), 0 failed" },
  ],
});

directiveTester("claims: bare exception", {
  capability: P,
  template: (b) => oneNode("raises: {message: bad input, exception_kind: ValueError}", ISOLATE, `invariants:\n${indent(b, 2)}`),
  valid: [
    `default_predicate_catches_bare_exception: true
caught_exception_category_null_for_non_categorized: true
caught_exception_message_captures_str_exc: true
uncategorized_cause_yields_null_derived_category: true
engine_sees_degraded_return: true`,
  ],
  invalid: [
    { code: "caught_exception_category_null_for_non_categorized: false", message: "expected the claim not to hold" },
    { code: "uncategorized_cause_yields_null_derived_category: false", message: "expected the claim not to hold" },
  ],
});

directiveTester("nodes.<node>.middleware", {
  capability: P,
  template: (b) =>
    runOnce(
      chain("v: {type: int, default: 0}", { a: `${b}\nmiddleware:\n  - {type: failure_isolation, degraded_update: {v: -1}, event_name: node_iso}` }),
      "final_state: {v: -1}\nexpected_failure_isolation_event: {event_name: node_iso, caught_exception: {chain: [{carrier: false, category: provider_unavailable}]}}",
    ),
  valid: ["flaky: {failure_sequence: [{transient: false, category: provider_unavailable, message: down}]}"],
  invalid: [{ code: "update: {v: 1}", message: "expected exactly one failure-isolation event in the call, got 0" }],
});

// pipeline-utilities §6.1 / §6.3 configuration-record fields through declarative stand-ins.
const CALLBACKS = `- {type: failure_isolation, degraded_update: {v: -1}, event_name: iso, catch: null, predicate: null, on_caught: {capture_to: caught}}
- {type: retry, max_attempts: 2, backoff: {type: deterministic, seconds: 0}, classifier: null, on_retry: {capture_to: retries}}`;
const TWICE_DOWN = `flaky:
  failure_sequence:
    - {transient: true, category: provider_unavailable, message: down 1}
    - {transient: true, category: provider_unavailable, message: down 2}`;

directiveTester("callback_records (on_retry / on_caught stand-ins)", {
  capability: P,
  template: (b) => oneNode(TWICE_DOWN, CALLBACKS, b),
  valid: [
    `final_state: {v: -1, trace: []}
callback_records:
  retries:
    - {callback: on_retry, attempt_index: 0, category: provider_unavailable, message: down 1}
  caught:
    - {callback: on_caught, category: provider_unavailable, message: down 2}`,
  ],
  invalid: [
    { code: "callback_records: {retries: []}", message: "callback_records.retries" },
    { code: "callback_records:\n  retries:\n    - {attempt_index: 1}", message: "callback_records.retries[0].attempt_index" },
    { code: "callback_records:\n  caught:\n    - {category: provider_rate_limit}", message: "callback_records.caught[0].category" },
    { code: "callback_records: {nobody: []}", message: "no on_retry / on_caught in this case captures to 'nobody'" },
  ],
});

// A category-set classifier mirrors the default one's depth (§6.1), with the caller's categories.
directiveTester("retry classifier: category_set", {
  capability: P,
  template: (b) => oneNode(FLAKY_ONCE, b, "final_state: {v: 42, trace: [a]}\nexecution_order: [a]"),
  valid: [
    "- {type: retry, max_attempts: 2, backoff: {type: deterministic, seconds: 0}, classifier: {type: category_set, categories: [provider_rate_limit]}}",
    "- {type: retry, max_attempts: 2, backoff: null, classifier: {type: category_set, categories: [provider_rate_limit], depth: full_chain}}",
  ],
  invalid: [
    {
      code: "- {type: retry, max_attempts: 2, backoff: {type: deterministic, seconds: 0}, classifier: {type: category_set, categories: [provider_unavailable]}}",
      message: "expected.final_state",
    },
    { code: "- {type: retry, classifier: {type: category_set}}", category: "fixture_schema_invalid", message: "needs 'categories'" },
    { code: "- {type: retry, classifier: {type: default, categories: [x]}}", category: "fixture_schema_invalid", message: "takes no 'categories'" },
  ],
});

// §5.8 `cause: {raised_by_mock}` through retry middleware: the exhausted retry surfaces the last
// attempt's exception (each attempt's flaky failure is a distinct object the mock raised).
const FAILS_THRICE = `flaky:
  failure_sequence:
    - {transient: true, category: provider_unavailable, message: down 1}
    - {transient: true, category: provider_unavailable, message: down 2}
    - {transient: true, category: provider_unavailable, message: down 3}`;

directiveTester("expected_error.cause.raised_by_mock (retry middleware)", {
  capability: P,
  template: (b) => oneNode(FAILS_THRICE, RETRY, "outcome: errored", b),
  valid: ["expected_error: {category: provider_unavailable, message: down 3, cause: {raised_by_mock: a}}"],
  invalid: [{ code: "expected_error: {cause: {raised_by_mock: z}}", category: "fixture_schema_invalid", message: "'z' names no fixture failure mock" }],
});

// The same claims where the fixture that names them (061) never puts them: around a node inside a
// subgraph, and inside each fan-out instance (issue 10: a named claim by its plain meaning across
// every composite kind).
/** Node `a` (body FAILS_TWICE) inside subgraph `inner`, wrapped by its per-node `middleware`; run by outer node `s` — directly, or as a fan-out over [1, 2]. */
function nested(kind: "subgraph" | "fan_out", middleware: string, invariants: string): string {
  const node = kind === "subgraph" ? "s: {subgraph: inner}" : "s:\n    fan_out: {subgraph: inner, items_field: items, item_field: input, collect_field: v, target_field: vs, concurrent_mode: serial}";
  return `
subgraphs:
  inner:
    state:
      fields:
        input: {type: int, default: 0}
        v: {type: int, default: 0}
        trace: {type: list<string>, reducer: append, default: []}
    entry: a
    nodes:
      a:
${indent(FAILS_TWICE, 8)}
    edges: [{from: a, to: END}]
    middleware:
      per_node:
        a:
${indent(middleware, 10)}
state:
  fields:
    items: {type: list<int>, default: [1, 2]}
    vs: {type: list<int>, reducer: append, default: []}
entry: s
nodes:
  ${node}
edges: [{from: s, to: END}]
initial_state: {}
expected:
  invariants: {${invariants}}
`;
}
const ISOLATE_V = "- {type: failure_isolation, degraded_update: {v: -1}, event_name: iso}";

for (const kind of ["subgraph", "fan_out"] as const) {
  directiveTester(`claims: failure isolation around retry, inside a ${kind}`, {
    capability: P,
    template: (b) => b,
    valid: [nested(kind, `${ISOLATE_V}\n${RETRY2}`, "retry_exhausts_before_isolation_catches: true, outer_to_inner_ordering_load_bearing: true, engine_does_not_see_exception: true")],
    invalid: [
      { code: nested(kind, `${RETRY2}\n${ISOLATE_V}`, "outer_to_inner_ordering_load_bearing: true"), message: "is declared inside the retry around 'a'" },
      { code: nested(kind, `${RETRY2}\n${ISOLATE_V}`, "retry_exhausts_before_isolation_catches: true"), message: "'a' ran 1 attempt(s), 0 failed" },
      { code: nested(kind, `${ISOLATE_V}\n${RETRY2}`, "engine_does_not_see_exception: false"), message: "expected the claim not to hold" },
    ],
  });
}
