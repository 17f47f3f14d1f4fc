/**
 * `observers:` with `attach: invocation` and every §5.5 target: a target other than `outer` is the
 * engine's invocation observer scoped to that graph's runs, so these pairs show it receives exactly
 * the target's events (and fails when a fixture expects the unscoped stream), for a fan-out's
 * subgraph too.
 */
import { directiveTester, indent } from "./tester.ts";

const fanOut = (observers: string, expected: string): string => `
subgraph:
  name: leaf
  state:
    fields:
      x: {type: int, default: 0}
      result: {type: int, default: 0}
  entry: compute
  nodes:
    compute: {update_from_field: {result: x, multiplier: 2}}
  edges:
    - {from: compute, to: END}
state:
  fields:
    items: {type: list<int>, default: [1, 2]}
    results: {type: list<int>, reducer: append, default: []}
entry: pre
nodes:
  pre: {update: {items: [1, 2]}}
  process:
    fan_out: {subgraph: leaf, items_field: items, item_field: x, collect_field: result, target_field: results, concurrent_mode: serial}
edges:
  - {from: pre, to: process}
  - {from: process, to: END}
initial_state: {}
observers:
${indent(observers, 2)}
expected:
${indent(expected, 2)}
`;

const scoped = (target: string): string => `- {name: inv, attach: invocation, target: ${target}, behavior: record, phases: [completed]}`;
const leafEvents = `observer_events:
  inv:
    - {phase: completed, node_name: compute, fan_out_index: 0}
    - {phase: completed, node_name: compute, fan_out_index: 1}`;

directiveTester("observers (attach: invocation, targets)", {
  template: (block) => {
    const [target, expected] = block.split("\n---\n") as [string, string];
    return fanOut(target.startsWith("- ") ? target : scoped(target), expected);
  },
  valid: [`process\n---\n${leafEvents}`, `leaf\n---\n${leafEvents}`, `inner\n---\n${leafEvents}`],
  invalid: [
    // the unscoped stream (outer) has pre and process's own events too: the leaf-only list fails
    { code: `outer\n---\n${leafEvents}`, message: "expected.observer_events.inv" },
    // a scoped observer does not see the parent graph's nodes
    {
      code: `leaf\n---\nobserver_events:\n  inv:\n    - {phase: completed, node_name: pre}\n    - {phase: completed, node_name: compute}\n    - {phase: completed, node_name: compute}`,
      message: "expected.observer_events.inv[0].node_name",
    },
    { code: `nowhere\n---\n${leafEvents}`, category: "fixture_schema_invalid", message: "observer target 'nowhere'" },
    { code: `pre\n---\n${leafEvents}`, category: "fixture_schema_invalid", message: "observer target 'pre'" },
  ],
});
