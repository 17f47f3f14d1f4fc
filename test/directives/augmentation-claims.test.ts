/**
 * The nested-lineage augmentation claims (observability 039) over a branch inside a fan-out
 * instance and a fan-out inside a serial subgraph: each holds on the engine's spans, and fails where
 * the call made no write of the shape it judges.
 */
import { directiveTester } from "./tester.ts";

const LEAVES = `  aug:
    state: {fields: {seed: {type: int, default: 0}}}
    entry: n
    nodes: {n: {augment_metadata_from_field: {note: seed}}}
    edges: [{from: n, to: END}]
  plain:
    state: {fields: {seed: {type: int, default: 0}}}
    entry: n
    nodes: {n: {update: {seed: 0}}}
    edges: [{from: n, to: END}]`;

const claims = (names: string[], value = "true") => `expected:\n  invariants:\n${names.map((n) => `    ${n}: ${value}`).join("\n")}`;

/** 039 case 2's shape: an outer fan-out whose instances run a parallel-branches node; only the probe branch augments. */
const branchInInstance = (block: string) => `
subgraphs:
${LEAVES}
  mid:
    state: {fields: {seed: {type: int, default: 0}}}
    entry: split
    nodes:
      split:
        parallel_branches:
          branches:
            probe: {subgraph: aug}
            baseline: {subgraph: plain}
    edges: [{from: split, to: END}]
state:
  fields:
    seeds: {type: list<int>, default: [1, 2]}
    outs: {type: list<int>, reducer: append, default: []}
entry: outer
nodes:
  outer:
    fan_out: {subgraph: mid, items_field: seeds, item_field: seed, collect_field: seed, target_field: outs}
edges: [{from: outer, to: END}]
initial_state: {}
caller_metadata: {tenantId: acme}
${block}
`;

/** 039 case 3's shape: a serial subgraph node whose subgraph fans out; each instance augments. */
const fanOutInWrapper = (block: string) => `
subgraphs:
${LEAVES}
  wrapped:
    state:
      fields:
        seeds: {type: list<int>, default: [1, 2]}
        outs: {type: list<int>, reducer: append, default: []}
    entry: pick
    nodes:
      pick: {fan_out: {subgraph: aug, items_field: seeds, item_field: seed, collect_field: seed, target_field: outs}}
    edges: [{from: pick, to: END}]
state:
  fields:
    x: {type: int, default: 0}
entry: wrap
nodes:
  wrap: {subgraph: wrapped}
edges: [{from: wrap, to: END}]
initial_state: {}
caller_metadata: {tenantId: acme}
${block}
`;

const serial = (block: string) => `
state: {fields: {x: {type: int, default: 0}}}
entry: a
nodes: {a: {augment_metadata: {note: serial}}}
edges: [{from: a, to: END}]
initial_state: {}
${block}
`;

directiveTester("nested-lineage augmentation claims (observability 039)", {
  capability: "observability",
  template: (b) => b,
  valid: [
    branchInInstance(
      claims([
        "outer_dispatch_span_carries_inner_augmentation",
        "outer_fan_out_instance_carries_branch_augmentation",
        "outer_dispatch_spans_isolated",
        "sibling_outer_instances_isolated",
        "sibling_fan_out_instances_isolated",
        "sibling_branch_isolated_from_probe_augmentation",
        "shared_parent_spans_not_augmented",
        "fan_out_node_shared_parent_not_augmented",
        "invocation_span_not_augmented",
      ]),
    ),
    fanOutInWrapper(claims(["serial_subgraph_wrapper_carries_inner_augmentation", "sibling_fan_out_instances_isolated", "fan_out_node_shared_parent_not_augmented", "invocation_span_not_augmented"])),
  ],
  invalid: [
    { code: serial(claims(["outer_dispatch_span_carries_inner_augmentation"])), message: "no write was made inside a nested fan-out instance or branch" },
    { code: fanOutInWrapper(claims(["outer_fan_out_instance_carries_branch_augmentation"])), message: "no write was made inside a branch inside a fan-out instance" },
    { code: branchInInstance(claims(["serial_subgraph_wrapper_carries_inner_augmentation"])), message: "no write was made inside a serial subgraph" },
    { code: fanOutInWrapper(claims(["sibling_branch_isolated_from_probe_augmentation"])), message: "no write was made under one of two sibling branches" },
    { code: serial(claims(["invocation_span_not_augmented"])), message: "no write was made inside a fan-out instance or branch" },
    { code: branchInInstance(claims(["sibling_outer_instances_isolated"], "false")), message: "sibling_outer_instances_isolated" },
    { code: branchInInstance(claims(["outer_fan_out_instance_carries_branch_augmentation"], "false")), message: "outer_fan_out_instance_carries_branch_augmentation" },
    { code: branchInInstance(claims(["shared_parent_spans_not_augmented"], "false")), message: "shared_parent_spans_not_augmented" },
    { code: fanOutInWrapper(claims(["serial_subgraph_wrapper_carries_inner_augmentation"], "false")), message: "serial_subgraph_wrapper_carries_inner_augmentation" },
  ],
});
