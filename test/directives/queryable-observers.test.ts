import { directiveTester } from "./tester.ts";

/** 047's shape: a → b → c, c reads the counter into `observed_count`. */
const counter = (block: string, bNode = "noop: true") => `
state: {fields: {observed_count: {type: int, default: 0}, x: {type: int, default: 0}}}
entry: a
nodes:
  a: {noop: true}
  b: {${bNode}}
  c:
    capture_queryable_observer_read_into: {observer_name: counter, method: get_count, state_field: observed_count}
edges:
  - {from: a, to: b}
  - {from: b, to: c}
  - {from: c, to: END}
initial_state: {}
queryable_observers:
  - {name: counter, kind: event_counter}
expected:
${block}
`;

const claims047 = `  final_state_bounds:
    observed_count: {min: 5, max: 5}
  invariants:
    observer_attach_emit_consume_cycle_works: true
    read_returns_non_negative_integer: true
    read_is_consistent_no_torn_view: true
    observer_does_not_mutate_state_or_influence_routing: true`;

directiveTester("queryable observers: event_counter (observability 047)", {
  template: (b) => b,
  capability: "observability",
  valid: [counter(claims047)],
  invalid: [
    { code: counter(claims047, "update: {x: 5}"), message: "fields changed without a read: x" },
    { code: counter("  invariants:\n    read_returns_non_negative_integer: false"), message: "read_returns_non_negative_integer" },
    { code: counter("  invariants:\n    read_is_consistent_no_torn_view: false"), message: "read_is_consistent_no_torn_view" },
    { code: counter("  final_state_bounds:\n    observed_count: {max: 4}"), message: "expected <= 4" },
    {
      code: counter("  invariants:\n    read_returns_non_negative_integer: true").replace("method: get_count", "method: get_snapshot"),
      category: "fixture_schema_invalid",
      message: "has no read method 'get_snapshot'",
    },
    { code: counter("  invariants:\n    read_returns_non_negative_integer: true").replace("observer_name: counter", "observer_name: other"), category: "fixture_schema_invalid", message: "no queryable observer 'other'" },
  ],
});

/** 048's contract over a proper branches mapping: a typed counter read after two branches. */
const typed = (claims: string) => `
subgraphs:
  one: {state: {fields: {v: {type: int, default: 0}}}, entry: s, nodes: {s: {noop: true}}, edges: [{from: s, to: END}]}
state: {fields: {snap: {type: dict, default: {}}}}
entry: fan
nodes:
  fan:
    parallel_branches:
      branches: {left: {subgraph: one}, right: {subgraph: one}}
      error_policy: fail_fast
  reader:
    capture_queryable_observer_read_into: {observer_name: typed, method: get_snapshot, state_field: snap}
edges:
  - {from: fan, to: reader}
  - {from: reader, to: END}
initial_state: {}
queryable_observers:
  - {name: typed, kind: typed_event_counter}
expected:
  final_state:
    snap: {total: 7, by_type: {node: 7}}
  invariants:
${claims}
`;

directiveTester("queryable observers: typed_event_counter (observability 048)", {
  template: (b) => b,
  capability: "observability",
  valid: [typed("    snapshot_total_equals_sum_of_breakdown: true\n    read_does_not_raise_on_concurrent_write: true")],
  invalid: [
    { code: typed("    snapshot_total_equals_sum_of_breakdown: false"), message: "snapshot_total_equals_sum_of_breakdown" },
    { code: typed("    read_does_not_raise_on_concurrent_write: false"), message: "read_does_not_raise_on_concurrent_write" },
  ],
});

/** 049's shape: two sequential invocations sharing one accumulator, read then dropped in the last node. */
const lifecycle = (opts: { drop?: boolean; persist?: boolean; perInvocation?: string; invariants?: string } = {}) => `
sequential_invocations:
  observer_persists_across: ${opts.persist ?? true}
  invocations:
    - {name: invocation_1, caller_invocation_id: inv-001}
    - {name: invocation_2, caller_invocation_id: inv-002}
queryable_observers:
  - {name: accumulator, kind: per_invocation_accumulator}
state: {fields: {captured_bucket: {type: dict, default: {}}, gone: {type: bool, default: false}}}
entry: emit_event
nodes:
  emit_event: {noop: true}
  read_then_drop:
    capture_queryable_observer_read_into: {observer_name: accumulator, method: get_bucket_for_current_invocation, state_field: captured_bucket}
${opts.drop === false ? "" : "    then_drop_for_current_invocation: {observer_name: accumulator}\n"}    then_assert_bucket_absent_into: gone
edges:
  - {from: emit_event, to: read_then_drop}
  - {from: read_then_drop, to: END}
initial_state: {}
expected:
  per_invocation:
${opts.perInvocation ?? `    invocation_1: {captured_bucket_is_non_empty: true, bucket_after_drop_is_absent: true}
    invocation_2: {captured_bucket_is_non_empty: true, captured_bucket_disjoint_from_invocation_1: true, bucket_after_drop_is_absent: true}`}
  invariants:
${opts.invariants ?? `    no_auto_drop_on_completion_signal: true
    explicit_drop_removes_bucket: true
    per_invocation_id_bucket_isolation: true
    accumulator_exposes_drop_method: true`}
`;

directiveTester("queryable observers: per_invocation_accumulator (observability 049)", {
  template: (b) => b,
  capability: "observability",
  valid: [lifecycle(), lifecycle({ persist: false })],
  invalid: [
    // Without the drop the re-read still finds the bucket.
    { code: lifecycle({ drop: false, invariants: "    accumulator_exposes_drop_method: true" }), message: ["bucket_after_drop_is_absent", "no node called drop"] },
    { code: lifecycle({ invariants: "    explicit_drop_removes_bucket: false" }), message: "explicit_drop_removes_bucket" },
    { code: lifecycle({ invariants: "    no_auto_drop_on_completion_signal: false" }), message: "no_auto_drop_on_completion_signal" },
    { code: lifecycle({ invariants: "    per_invocation_id_bucket_isolation: false" }), message: "per_invocation_id_bucket_isolation" },
    { code: lifecycle({ perInvocation: "    invocation_2: {captured_bucket_disjoint_from_invocation_1: false}" }), message: "captured_bucket_disjoint_from_invocation_1" },
    { code: lifecycle({ perInvocation: "    invocation_3: {captured_bucket_is_non_empty: true}" }), message: "no invocation named 'invocation_3'" },
    { code: lifecycle({ perInvocation: "    invocation_1: {captured_bucket_is_non_empty: false}" }), message: "captured_bucket_is_non_empty" },
  ],
});
