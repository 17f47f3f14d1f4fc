/**
 * A composite node (subgraph, fan_out, parallel_branches) that also carries body directives:
 * conformance-adapter §8.3 runs a node's sibling directives in document order, so the steps before
 * the composite run before it dispatches and the steps after it once it returned, their partial
 * updates merging in document order around the composite's contribution.
 */
import { directiveTester } from "./tester.ts";

const graph = (node: string, expected: string) => `
subgraphs:
  inner: {state: {fields: {x: {type: int, default: 0}}}, entry: s, nodes: {s: {update_pure: {x: 5}}}, edges: [{from: s, to: END}]}
  branch: {state: {fields: {x: {type: int, default: 0}}}, entry: s, nodes: {s: {update_pure: {x: 7}}}, edges: [{from: s, to: END}]}
state: {fields: {x: {type: int, default: 0}, y: {type: int, default: 0}, items: {type: list<int>, default: [1, 2]}, xs: {type: list<int>, default: []}}}
entry: a
nodes:
  a:
${node}
edges:
  - {from: a, to: END}
initial_state: {}
expected:
  execution_order: [a]
  final_state: ${expected}
`;

directiveTester("body directives beside a composite run in document order (§8.3)", {
  template: (b) => b,
  valid: [
    // before the subgraph: its update is merged first, the subgraph's x (5) after it.
    graph("    update: {x: 1, y: 1}\n    subgraph: inner", "{x: 5, y: 1, items: [1, 2], xs: []}"),
    // after the subgraph: the step's x (2) is merged over the subgraph's.
    graph("    subgraph: inner\n    update_pure: {x: 2, y: 3}", "{x: 2, y: 3, items: [1, 2], xs: []}"),
    // on both sides.
    graph("    update: {y: 1}\n    subgraph: inner\n    update_pure: {y: 2}", "{x: 5, y: 2, items: [1, 2], xs: []}"),
    // beside a fan-out and beside parallel branches.
    graph("    update: {y: 4}\n    fan_out: {subgraph: inner, items_field: items, item_field: x, collect_field: x, target_field: xs}", "{x: 0, y: 4, items: [1, 2], xs: [5, 5]}"),
    graph("    parallel_branches: {branches: {one: {subgraph: branch}}}\n    update_pure: {y: 6}", "{x: 7, y: 6, items: [1, 2], xs: []}"),
  ],
  invalid: [
    // the order is the document's: the step after the subgraph wins, so x is not 5.
    { code: graph("    subgraph: inner\n    update_pure: {x: 2}", "{x: 5, y: 0, items: [1, 2], xs: []}"), message: "expected.final_state.x" },
  ],
});
