import { directiveTester, linear } from "./tester.ts";

const tree = (aStatus = "OK", extra = "") => `span_tree:
  - name: openarmature.invocation
    status: OK
    attributes: {openarmature.graph.entry_node: a, openarmature.correlation_id: "<uuid>"}
    children:
      - {name: a, status: ${aStatus}, attributes: {openarmature.node.step: 0, openarmature.node.namespace: [a]}${extra}}
      - {name: b, status: OK}
      - {name: c, status: OK, attributes_absent: [openarmature.error.category]}`;

directiveTester("span_tree", {
  template: (b) => linear(b),
  capability: "observability",
  valid: [tree(), `${tree()}\ninvariants:\n  correlation_id_consistency: true`],
  invalid: [
    { code: tree("ERROR"), message: "status" },
    // span-attribute typing: a double is not the int step.
    { code: tree().replace("openarmature.node.step: 0", "openarmature.node.step: 0.5"), message: "openarmature.node.step" },
    // children are complete: a missing node span fails.
    { code: tree().replace("      - {name: b, status: OK}\n", ""), message: "expected.span_tree" },
    { code: tree().replace("attributes_absent: [openarmature.error.category]", "attributes_absent: [openarmature.node.name]"), message: "attributes_absent" },
  ],
});

const detached = (n: number) => `
subgraphs:
  side:
    state: {fields: {x: {type: int, default: 0}}}
    entry: step
    nodes: {step: {update_pure: {x: 1}}}
    edges: [{from: step, to: END}]
state: {fields: {ran: {type: bool, default: false}}}
entry: dispatch
nodes:
  dispatch: {subgraph: side}
  after: {update: {ran: true}}
edges:
  - {from: dispatch, to: after}
  - {from: after, to: END}
initial_state: {}
detached_subgraphs: [side]
expected:
  detached_trace_count: ${n}
  traces:
    - trace_id: "<trace_id_p>"
      span_tree:
        - name: openarmature.invocation
          children:
            - {name: dispatch, links: [{target_trace_id: "<trace_id_d>"}], children: []}
            - {name: after}
    - trace_id: "<trace_id_d>"
      span_tree:
        - name: openarmature.invocation
          children:
            - {name: side, children: [{name: step}]}
  invariants:
    distinct_trace_ids: true
    dispatch_span_link_count: 1
    detached_invocation_id_equals_parent: true
`;

directiveTester("traces", {
  template: (b) => b,
  capability: "observability",
  valid: [detached(1)],
  invalid: [
    { code: detached(2), message: "expected.detached_trace_count" },
    { code: detached(1).replace("dispatch_span_link_count: 1", "dispatch_span_link_count: 2"), message: "carries 1 links" },
    { code: detached(1).replace("detached_subgraphs: [side]", ""), message: "expected.traces" },
  ],
});

const metadata = (order: "augment-first" | "capture-first", claim: string) => `
state: {fields: {captured: {type: dict, default: {}}}}
entry: n
nodes:
  n:
${order === "augment-first" ? "    augment_metadata: {marker: set}\n    capture_invocation_metadata_into: captured" : "    capture_invocation_metadata_into: captured\n    augment_metadata: {marker: set}"}
edges: [{from: n, to: END}]
initial_state: {}
caller_metadata: {tenantId: T1}
expected:
  invariants:
    ${claim}: true
`;

directiveTester("capture_after_augment_sees_write", {
  template: (b) => b,
  capability: "observability",
  valid: [metadata("augment-first", "capture_after_augment_sees_write"), metadata("capture-first", "capture_before_augment_misses_write"), metadata("augment-first", "read_returns_immutable_mapping")],
  invalid: [
    { code: metadata("capture-first", "capture_after_augment_sees_write"), message: "capture_after_augment_sees_write" },
    { code: metadata("augment-first", "capture_before_augment_misses_write"), message: "capture_before_augment_misses_write" },
  ],
});

const logged = (block: string) => `
state: {fields: {x: {type: int, default: 0}}}
entry: a
nodes:
  a:
    update_pure: {x: 1}
    emits_log: {message: "node a executing", level: INFO}
edges: [{from: a, to: END}]
initial_state: {}
caller_correlation_id: corr-1
expected:
${block}
`;

directiveTester("log_records", {
  template: (b) => logged(b),
  capability: "observability",
  valid: [
    `  span_tree:
    - name: openarmature.invocation
      children: [{name: a}]
  log_records:
    - {body: "node a executing", level: INFO, trace_id: "<trace_id_m>", attributes: {openarmature.correlation_id: corr-1}, attributes_absent: [openarmature.session_id]}
  invariants:
    log_span_ids_match_active_span_at_emission: true
    all_logs_carry_correlation_id: corr-1`,
  ],
  invalid: [
    { code: `  log_records:\n    - {body: "node b executing"}`, message: "expected.log_records" },
    { code: `  log_records:\n    - {body: "node a executing", level: ERROR}`, message: "expected.log_records" },
    { code: `  log_records:\n    - {body: "node a executing", attributes_absent: [openarmature.correlation_id]}`, message: "expected.log_records" },
    { code: `  span_tree: [{name: openarmature.invocation}]\n  invariants:\n    all_logs_carry_correlation_id: other`, message: "all_logs_carry_correlation_id" },
  ],
});

/** Two branches whose inner node shares a name; the first-declared branch finishes last. */
const branches = (invariants: string) => `
subgraphs:
  slow:
    state: {fields: {msg: {type: string, default: ""}}}
    entry: ask
    nodes: {ask: {sleep_ms: 30, update_pure: {msg: slow}}}
    edges: [{from: ask, to: END}]
  fast:
    state: {fields: {msg: {type: string, default: ""}}}
    entry: ask
    nodes: {ask: {update_pure: {msg: fast}}}
    edges: [{from: ask, to: END}]
state: {fields: {result: {type: string, default: ""}}}
entry: dispatcher
nodes:
  dispatcher:
    parallel_branches:
      branches:
        first: {subgraph: slow}
        second: {subgraph: fast}
      error_policy: fail_fast
edges: [{from: dispatcher, to: END}]
initial_state: {}
expected:
  span_tree:
    - name: openarmature.invocation
      children:
        - name: dispatcher
          attributes: {openarmature.parallel_branches.branch_count: 2}
          children:
            - {name: first, attributes: {openarmature.parallel_branches.parent_node_name: dispatcher}, children: [{name: ask, attributes: {openarmature.node.branch_name: first}}]}
            - {name: second, attributes: {openarmature.parallel_branches.parent_node_name: dispatcher}, children: [{name: ask, attributes: {openarmature.node.branch_name: second}}]}
  invariants:
${invariants}
`;

directiveTester("dispatch_spans_close_in_declaration_order", {
  template: (b) => branches(b),
  capability: "observability",
  valid: [
    // The slow first branch ends last, yet its dispatch span closes first: with the node, in
    // declaration order (§6 synthesis step 5) — not as each branch finishes.
    `    same_named_inner_spans_disambiguated_by_dispatch_parent: true
    dispatch_spans_close_before_node_span: true
    dispatch_spans_close_in_declaration_order: [first, second]`,
  ],
  invalid: [
    { code: "    dispatch_spans_close_in_declaration_order: [second, first]", message: "closed in the order" },
    { code: "    same_named_inner_spans_disambiguated_by_dispatch_parent: false", message: "same_named_inner_spans_disambiguated_by_dispatch_parent" },
    { code: "    dispatch_spans_close_before_node_span: false", message: "dispatch_spans_close_before_node_span" },
  ],
});
