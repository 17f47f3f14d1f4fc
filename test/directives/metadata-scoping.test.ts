import { directiveTester } from "./tester.ts";

/** 045's shape: attempt 0 writes then raises the marker error; attempt 1 reads, writes, succeeds; a downstream node reads. */
const retried = (claims: string, opts: { caller?: boolean; downstream?: boolean; final?: string } = {}) => `
state: {fields: {attempt_1_read: {type: dict, default: {}}, downstream_read: {type: dict, default: {}}}}
entry: retried_node
nodes:
  retried_node:
    retry_middleware: {max_attempts: 2, classifier: transient_marker}
    per_attempt_behavior:
      - {attempt: 0, augment_metadata: {attempt_marker: first}, raises: transient_marker_error}
      - {attempt: 1, capture_invocation_metadata_into: attempt_1_read, augment_metadata: {attempt_marker: second}, succeeds: true}
${opts.downstream === false ? "" : "  downstream_node: {capture_invocation_metadata_into: downstream_read}\n"}edges:
${opts.downstream === false ? "  - {from: retried_node, to: END}" : "  - {from: retried_node, to: downstream_node}\n  - {from: downstream_node, to: END}"}
initial_state: {}
${opts.caller === false ? "" : "caller_metadata: {tenantId: T1}"}
expected:
${opts.final ?? ""}  invariants:
${claims}
`;

directiveTester("retry_middleware / per_attempt_behavior and the retry-scoping claims (observability 045)", {
  template: (b) => b,
  capability: "observability",
  valid: [
    retried(
      `    prior_failed_attempt_writes_discarded: true
    successful_attempt_writes_visible_downstream: true
    caller_baseline_stable_across_attempts: true`,
      { final: "  final_state:\n    attempt_1_read: {tenantId: T1}\n    downstream_read: {tenantId: T1, attempt_marker: second}\n" },
    ),
  ],
  invalid: [
    { code: retried("    prior_failed_attempt_writes_discarded: false"), message: "prior_failed_attempt_writes_discarded" },
    { code: retried("    successful_attempt_writes_visible_downstream: true", { downstream: false }), message: "no node after retried_node read metadata" },
    { code: retried("    caller_baseline_stable_across_attempts: true", { caller: false }), message: "the call passed no caller metadata" },
    {
      code: retried("    prior_failed_attempt_writes_discarded: true").replace("max_attempts: 2", "max_attempts: 1"),
      // One attempt: the marker error is not retried, attempt 1 never runs.
      message: "no retried attempt read metadata",
    },
    {
      code: retried("    prior_failed_attempt_writes_discarded: true").replace(", succeeds: true}", "}"),
      category: "fixture_schema_invalid",
      message: "exactly one of 'raises' or 'succeeds: true'",
    },
  ],
});

/** 044's claims over a fan-out (in the seed's §5.4 form) and over parallel branches. */
const fanOut = (claims: string) => `
subgraphs:
  per_item:
    state: {fields: {item: {type: string, default: ""}, seen: {type: dict, default: {}}}}
    entry: read_in_instance
    nodes:
      read_in_instance:
        augment_metadata_from_field: {item_id: item}
        capture_invocation_metadata_into: seen
    edges: [{from: read_in_instance, to: END}]
state: {fields: {products: {type: list<string>, default: []}, per_instance: {type: list<dict>, reducer: append, default: []}, outermost: {type: dict, default: {}}}}
entry: fan
nodes:
  fan:
    fan_out: {subgraph: per_item, items_field: products, item_field: item, collect_field: seen, target_field: per_instance}
  after: {capture_invocation_metadata_into: outermost}
edges:
  - {from: fan, to: after}
  - {from: after, to: END}
initial_state: {products: [A, B]}
caller_metadata: {tenantId: T1}
expected:
  final_state: {products: [A, B], per_instance: [{tenantId: T1, item_id: A}, {tenantId: T1, item_id: B}], outermost: {tenantId: T1}}
  invariants:
${claims}
`;

const branches = (claims: string) => `
subgraphs:
  tag_a: {state: {fields: {seen: {type: dict, default: {}}}}, entry: n, nodes: {n: {augment_metadata: {branch_tag: a}, capture_invocation_metadata_into: seen}}, edges: [{from: n, to: END}]}
  tag_b: {state: {fields: {seen: {type: dict, default: {}}}}, entry: n, nodes: {n: {augment_metadata: {branch_tag: b}, capture_invocation_metadata_into: seen}}, edges: [{from: n, to: END}]}
state: {fields: {a: {type: dict, default: {}}, b: {type: dict, default: {}}, outermost: {type: dict, default: {}}}}
entry: split
nodes:
  split:
    parallel_branches:
      branches: {left: {subgraph: tag_a, outputs: {a: seen}}, right: {subgraph: tag_b, outputs: {b: seen}}}
  after: {capture_invocation_metadata_into: outermost}
edges:
  - {from: split, to: after}
  - {from: after, to: END}
initial_state: {}
caller_metadata: {tenantId: T1}
expected:
  final_state: {a: {tenantId: T1, branch_tag: a}, b: {tenantId: T1, branch_tag: b}, outermost: {tenantId: T1}}
  invariants:
${claims}
`;

const all044 = `    per_instance_reads_isolated_from_siblings: true
    outermost_read_sees_pre_fan_out_baseline_only: true
    no_global_aggregator_layered_across_join: true`;

directiveTester("fan-out / branch metadata scoping claims (observability 044)", {
  template: (b) => b,
  capability: "observability",
  valid: [fanOut(all044), branches(all044)],
  invalid: [
    { code: fanOut("    per_instance_reads_isolated_from_siblings: false"), message: "per_instance_reads_isolated_from_siblings" },
    { code: branches("    outermost_read_sees_pre_fan_out_baseline_only: false"), message: "outermost_read_sees_pre_fan_out_baseline_only" },
    { code: branches("    no_global_aggregator_layered_across_join: false"), message: "no_global_aggregator_layered_across_join" },
    // No read after the join: nothing to check, so the claim cannot hold.
    { code: fanOut("    outermost_read_sees_pre_fan_out_baseline_only: true").replace("  after: {capture_invocation_metadata_into: outermost}", "  after: {noop: true}").replace(", outermost: {tenantId: T1}}", "}"), message: "no read was made after the join" },
  ],
});
