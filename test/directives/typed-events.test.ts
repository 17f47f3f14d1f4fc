/**
 * The typed-event collector directives (conformance-adapter §5.5): `typed_observers` registers real
 * collectors; every `expected.observers` slot directive passes on what the collector retained and
 * fails on a wrong observation. NodeEvents (registered by the engine) are the events here; the LLM
 * families are exercised in test/directives/llm-events.test.ts.
 */
import { directiveTester, linear } from "./tester.ts";

const COLLECTORS = `typed_observers:
  - {name: all, kind: typed_event_collector}
  - {name: nodes, kind: typed_event_collector, filter_event_type: NodeEvent}`;

const slot = (collector: string, body: string): string => `observers:\n  ${collector}:\n${body.split("\n").map((l) => `    ${l}`).join("\n")}`;
const fixture = (collector: string, body: string): string => linear(slot(collector, body), COLLECTORS);

directiveTester("contains_event", {
  template: (b) => fixture("nodes", b),
  valid: [
    "contains_event: {event_type: NodeEvent}",
    "contains_event: {event_type: NodeEvent, fields: {node_name: b, phase: completed, namespace: [b], fan_out_index: null, post_state: {v: 2}}}",
    "contains_event: {event_type: NodeEvent, fields: {node_name: a, phase: started}, fields_absent_keys: [post_state, branch_name]}",
    // <field>_absent_keys inside fields: one level down.
    "contains_event: {event_type: NodeEvent, fields: {node_name: a, phase: started, pre_state: {v: 0}, pre_state_absent_keys: [nope]}}",
  ],
  invalid: [
    { code: "contains_event: {event_type: NodeEvent, fields: {node_name: b, phase: completed, post_state: {v: 3}}}", message: "expected.observers.nodes.contains_event" },
    { code: "contains_event: {event_type: NodeEvent, fields: {node_name: a, phase: completed}, fields_absent_keys: [post_state]}", message: "contains_event.fields: no observed item matches" },
    // a nested mapping needs a present record: null / missing cannot satisfy it.
    { code: "contains_event: {event_type: NodeEvent, fields: {node_name: a, phase: started, post_state: {}}}", message: "contains_event" },
    { code: "contains_event: {event_type: NodeEvent, fields: {node_name: a, phase: started, pre_state: {v: 0}, pre_state_absent_keys: [v]}}", message: "pre_state" },
    { code: "contains_event: {event_type: LlmCompletionEvent}", message: "retained no LlmCompletionEvent" },
    { code: "contains_event: {event_type: NoSuchEvent}", category: "fixture_schema_invalid", message: "not a typed event family" },
  ],
});

directiveTester("contains_event_of_type / contains_exactly_one_event_of_type", {
  template: (b) => fixture("all", b),
  valid: ["contains_event_of_type: NodeEvent"],
  invalid: [
    { code: "contains_exactly_one_event_of_type: NodeEvent", message: "retained 6 NodeEvent (expected 1" },
    { code: "contains_event_of_type: ToolCallEvent", message: "retained no ToolCallEvent" },
  ],
});

directiveTester("event_count / event_counts", {
  template: (b) => fixture("all", b),
  valid: ["event_count: {event_type: NodeEvent, count: 6}", "event_counts:\n  - {event_type: NodeEvent, count: 6}\n  - {event_type: LlmCompletionEvent, count: 0}"],
  invalid: [
    { code: "event_count: {event_type: NodeEvent, count: 5}", message: "retained 6 NodeEvent (expected 5" },
    { code: "event_counts:\n  - {event_type: NodeEvent, count: 6}\n  - {event_type: LlmFailedEvent, count: 1}", message: "expected.observers.all.event_counts[1]" },
    // §5.5: an event type is matched against the families graph-engine §6 defines — a count of 0
    // for a family that does not exist would pass vacuously, so it is a fixture defect.
    { code: "event_count: {event_type: LlmCompletedEvent, count: 0}", category: "fixture_schema_invalid", message: "'LlmCompletedEvent' is not a typed event family" },
    { code: "event_counts:\n  - {event_type: NodeEvent, count: 6}\n  - {event_type: NoSuchEvent, count: 0}", category: "fixture_schema_invalid", message: "'NoSuchEvent' is not a typed event family" },
    { code: "contains_event_of_type: NoSuchEvent", category: "fixture_schema_invalid", message: "'NoSuchEvent' is not a typed event family" },
  ],
});

const inOrder = (phases: string[]) =>
  `contains_events_in_order:\n  event_type: NodeEvent\n  events:\n${phases.map((p, i) => `    - {node_name: ${"aabbcc"[i]}, phase: ${p}}`).join("\n")}`;

directiveTester("contains_events_in_order", {
  template: (b) => fixture("nodes", b),
  valid: [inOrder(["started", "completed", "started", "completed", "started", "completed"])],
  invalid: [
    { code: inOrder(["completed", "started", "started", "completed", "started", "completed"]), message: "contains_events_in_order.events" },
    // complete: a missing trailing event fails.
    { code: inOrder(["started", "completed", "started", "completed", "started"]), message: "contains_events_in_order.events" },
  ],
});

directiveTester("every_captured_event_has / captured_event_field_values_cover", {
  template: (b) => fixture("nodes", b),
  valid: ["every_captured_event_has: {fan_out_index: null, attempt_index: 0}\ncaptured_event_field_values_cover: {field: node_name, values: [a, c]}"],
  invalid: [
    { code: "every_captured_event_has: {node_name: a}", message: "every_captured_event_has" },
    { code: "captured_event_field_values_cover: {field: node_name, values: [a, z]}", message: "no retained event has node_name \"z\"" },
  ],
});

directiveTester("relative_order_of_events_matching", {
  template: (b) => fixture("all", b),
  valid: [
    "relative_order_of_events_matching:\n  filter: {node_name: b}\n  expected_order:\n    - {event_type: NodeEvent, phase: started}\n    - {event_type: NodeEvent, phase: completed}",
  ],
  invalid: [
    {
      code: "relative_order_of_events_matching:\n  filter: {node_name: b}\n  expected_order:\n    - {event_type: NodeEvent, phase: completed}\n    - {event_type: NodeEvent, phase: started}",
      message: "expected_order[1]",
    },
  ],
});

directiveTester("typed_observers (configuration errors)", {
  template: (b) => linear("observers:\n  nodes:\n    contains_event_of_type: NodeEvent", b),
  valid: ["typed_observers: [{name: nodes, kind: typed_event_collector}]"],
  invalid: [
    { code: "typed_observers: [{name: other, kind: typed_event_collector}]", category: "fixture_schema_invalid", message: "'nodes' is not a typed_observers collector" },
    { code: "typed_observers: [{name: nodes, kind: typed_event_collector, filter_event_type: Nope}]", category: "fixture_schema_invalid", message: "'Nope' is not a typed event family" },
  ],
});
