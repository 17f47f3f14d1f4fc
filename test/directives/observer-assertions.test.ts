import { directiveTester, linear } from "./tester.ts";
import { chain, section } from "./templates.ts";

const rec = "observers:\n  - {name: obs, attach: graph, target: outer, behavior: record}\n  - {name: boom, attach: graph, target: outer, behavior: raise}";

directiveTester("observer_events", {
  template: (b) => linear(b, rec),
  valid: [
    `observer_events:
  obs:
    - {step: 0, phase: started, node_name: a, namespace: [a], pre_state: {v: 0, log: []}, parent_states: [], absent_keys: [post_state, error]}
    - {step: 0, phase: completed, node_name: a, post_state: {v: 1, log: [a]}}
    - {step: 1, phase: started, node_name: b}
    - {step: 1, phase: completed, node_name: b}
    - {step: 2, phase: started, node_name: c}
    - {step: 2, phase: completed, node_name: c, post_state: {v: 3, log: [a, b, c]}}`,
  ],
  invalid: [
    { code: "observer_events:\n  obs: []", message: "expected.observer_events.obs" },
    {
      code: `observer_events:
  obs:
    - {step: 0, phase: started, node_name: a}
    - {step: 0, phase: completed, node_name: a, post_state: {v: 2, log: [a]}}
    - {step: 1, phase: started}
    - {step: 1, phase: completed}
    - {step: 2, phase: started}
    - {step: 2, phase: completed}`,
      message: "expected.observer_events.obs[1].post_state.v: expected 2, got 1",
    },
    {
      code: `observer_events:
  obs:
    - {step: 0, phase: started, absent_keys: [pre_state]}
    - {step: 0, phase: completed}
    - {step: 1, phase: started}
    - {step: 1, phase: completed}
    - {step: 2, phase: started}
    - {step: 2, phase: completed}`,
      message: "pre_state",
    },
    { code: "observer_events:\n  nobody: []", message: "no observer named 'nobody'" },
  ],
});

directiveTester("delivery_order", {
  template: (b) => linear(b, rec),
  valid: [
    `delivery_order:
  - {observer: obs, step: 0, phase: started}
  - {observer: boom, step: 0, phase: started}
  - {observer: obs, step: 0, phase: completed}
  - {observer: boom, step: 0, phase: completed}
  - {observer: obs, step: 1, phase: started}
  - {observer: boom, step: 1, phase: started}
  - {observer: obs, step: 1, phase: completed}
  - {observer: boom, step: 1, phase: completed}
  - {observer: obs, step: 2, phase: started}
  - {observer: boom, step: 2, phase: started}
  - {observer: obs, step: 2, phase: completed}
  - {observer: boom, step: 2, phase: completed}`,
  ],
  invalid: [
    {
      code: `delivery_order:
  - {observer: boom, step: 0, phase: started}
  - {observer: obs, step: 0, phase: started}`,
      message: "expected.delivery_order",
    },
  ],
});

const slow = (pace: number) =>
  `observers:\n  - {name: acc, attach: graph, target: outer, behavior: accumulate, sleep_ms_per_event: ${pace}}`;

directiveTester("drain_summary", {
  template: (b) => linear(b, `${slow(60)}\ninvoke:\n  drain: {timeout_seconds: 0.02}`),
  valid: ["drain_summary: {timeout_reached: true, undelivered_count_min: 3}", "invariants:\n  drain_returned_within_timeout: true"],
  invalid: [
    { code: "drain_summary: {timeout_reached: false}", message: "expected.drain_summary.timeout_reached: expected false, got true" },
    { code: "drain_summary: {undelivered_count_min: 100}", message: "expected at least 100 undelivered events" },
    { code: "drain_summary: {undelivered_count: 1, undelivered_count_min: 1}", category: "fixture_schema_invalid", message: "drain_summary" },
  ],
});

directiveTester("drain_summary without a drain", {
  template: (b) => linear(b),
  valid: [],
  invalid: [{ code: "drain_summary: {timeout_reached: false}", category: "harness_primitive_missing", message: "drain summary" }],
});

/** a → b → END, b draining the accumulating observer acc (which sleeps `pace` ms per event) within `timeout` s; `expected:` holds `block`. */
const drainingNode = (block: string, timeout = "5.0", pace = 10): string => `
${chain("v: {type: int, default: 0}", {
  a: "{update: {v: 1}}",
  b: `update: {v: 2}\ninvoke_drain_events_for: {timeout_seconds: ${timeout}, snapshot_observer: acc}`,
})}
${slow(pace)}
${section("expected", block)}
`;

directiveTester("node_drain_summaries / node_accumulator_snapshots / final_accumulator_state", {
  template: (b) => drainingNode(b),
  valid: [
    "node_drain_summaries: {b: {timeout_reached: false, undelivered_count: 0}}",
    "node_accumulator_snapshots:\n  b:\n    acc:\n      - {step: 0, phase: started, node_name: a}\n      - {step: 0, phase: completed, node_name: a}\n      - {step: 1, phase: started, node_name: b}",
    "final_accumulator_state:\n  acc:\n    - {step: 0, phase: started}\n    - {step: 0, phase: completed}\n    - {step: 1, phase: started}\n    - {step: 1, phase: completed}",
    "node_accumulator_snapshot_invariants:\n  b:\n    acc:\n      b_started_present: true\n      b_completed_present: false\n      a_node_events_count: 2",
    "invariants:\n  drain_returned_without_blocking_on_post_call_events: true",
  ],
  invalid: [
    { code: "node_drain_summaries: {b: {timeout_reached: true}}", message: "expected.node_drain_summaries.b.timeout_reached" },
    { code: "node_drain_summaries: {a: {timeout_reached: false}}", message: "node 'a' did not run invoke_drain_events_for" },
    { code: "node_accumulator_snapshots:\n  b:\n    acc:\n      - {step: 0, phase: started}", message: "expected.node_accumulator_snapshots.b.acc" },
    { code: "final_accumulator_state:\n  acc:\n    - {step: 0, phase: started}", message: "expected.final_accumulator_state.acc" },
    { code: "node_accumulator_snapshot_invariants:\n  b:\n    acc:\n      b_completed_present: true", message: "b_completed_present" },
    { code: "node_accumulator_snapshot_invariants:\n  b:\n    acc:\n      a_node_events_count: 3", message: "a_node_events_count" },
    { code: "invariants:\n  no_such_claim_anywhere: true", category: "fixture_directive_unknown", message: "no_such_claim_anywhere" },
  ],
});

directiveTester("per-invocation drain timeout claims", {
  template: (b) => drainingNode(b, "0.01", 80),
  valid: ["node_drain_summaries: {b: {timeout_reached: true, undelivered_count_min: 1}}", "invariants:\n  drain_returned_within_timeout: true\n  workers_not_cancelled_on_per_invocation_drain_timeout: true"],
  invalid: [{ code: "invariants:\n  drain_returned_without_blocking_on_post_call_events: true", message: "drain_returned_without_blocking_on_post_call_events" }],
});

directiveTester("drain_waited_for_all_events", {
  template: (b) => linear(b, `${slow(30)}\ninvoke:\n  drain: {}`),
  valid: ["drain_summary: {timeout_reached: false, undelivered_count: 0}\ninvariants:\n  drain_waited_for_all_events: true"],
  invalid: [],
});

directiveTester("drain_waited_for_all_events on a drain that returned early", {
  template: (b) => linear(b, `${slow(60)}\ninvoke:\n  drain: {timeout_seconds: 0.02}`),
  valid: ["invariants:\n  drain_waited_for_all_events: false"],
  invalid: [{ code: "invariants:\n  drain_waited_for_all_events: true", message: "'acc' was still receiving 1 event(s)" }],
});

directiveTester("drain_waited_for_all_events without a drain", {
  template: (b) => linear(b, slow(5)),
  valid: [],
  invalid: [{ code: "invariants:\n  drain_waited_for_all_events: true", message: "no call in this scope ran a process-wide drain" }],
});
