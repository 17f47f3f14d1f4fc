/**
 * Conformance-adapter 0.120.1 §5.1 node behavior, as the audit of session 21 probed it:
 * `update_from_field` (default multiplier 1 copies any value; a multiplier on a non-number is the
 * fixture's defect), sibling directives in document order (§8.3), and a fixture defect a node body
 * raises at run time failing the case with its own category instead of passing as an errored call.
 */
import { expect } from "chai";
import { runSnippet } from "./tester.ts";

const node = (directives: string, expected: string, fields = "x: {type: int, default: 5}\n    y: {type: int, default: 0}\n    s: {type: string, default: ab}") => `
state:
  fields:
    ${fields}
entry: a
nodes:
  a:
${directives}
edges:
  - {from: a, to: END}
initial_state: {}
${expected}
`;

async function run(yaml: string, capability = "graph-engine") {
  const [r] = await runSnippet(yaml, capability);
  return r!;
}

/** The case passes. */
async function passes(yaml: string): Promise<void> {
  const r = await run(yaml);
  expect(r.status, r.message ?? "").to.equal("passed");
}

/** The case fails with `category`, its message naming `message`. */
async function fails(yaml: string, category: string, message: string, capability = "graph-engine"): Promise<void> {
  const r = await run(yaml, capability);
  expect(r.category, r.message ?? "").to.equal(category);
  expect(r.message).to.contain(message);
}

describe("§5.1 node behavior (audit)", function () {
  this.timeout(30_000);

  it("update_from_field: the default multiplier copies a value of any type; a wrong copy fails", async () => {
    await passes(node("    update_from_field: {y: x}\n    update: {s: cd}", "expected:\n  final_state: {x: 5, y: 5, s: cd}"));
    await passes(node("    update_from_field: {s: s}", "expected:\n  final_state: {x: 5, y: 0, s: ab}"));
    await fails(node("    update_from_field: {y: x, multiplier: 3}", "expected:\n  final_state: {x: 5, y: 5, s: ab}"), "assertion_failed", "expected.final_state.y: expected 5, got 15");
  });

  it("update_from_field: a multiplier on a non-number value is fixture_schema_invalid, not a silent copy", async () => {
    await fails(node("    update_from_field: {s: s, multiplier: 3}", "expected:\n  outcome: errored"), "fixture_schema_invalid", "multiplies 's' by 3, but its value is a string");
  });

  it("sibling directives run in document order (§8.3): the later partial update wins a shared field", async () => {
    await passes(node("    update: {y: 1}\n    update_from_field: {y: x, multiplier: 3}", "expected:\n  final_state: {x: 5, y: 15, s: ab}"));
    await fails(node("    update_from_field: {y: x, multiplier: 3}\n    update: {y: 1}", "expected:\n  final_state: {x: 5, y: 15, s: ab}"), "assertion_failed", "expected 15, got 1");
  });

  it("a fixture defect a node body raises at run time fails the case as itself, even under outcome: errored", async () => {
    for (const expected of ["expected:\n  outcome: errored", "expected_error: {category: node_exception}"]) {
      await fails(node("    conditional_suspend: {suspend_on_item_index: 0, descriptor: {signal_id: x}}", expected), "fixture_schema_invalid", "runs outside a fan-out instance");
    }
  });

  it("a fixture defect stays the case's failure when middleware catches it (failure isolation, collect mode)", async () => {
    const defect = "conditional_suspend: {suspend_on_item_index: 0, descriptor: {signal_id: x}}";
    await fails(
      `state: {fields: {r: {type: int, default: 0}}}
entry: a
nodes: {a: {${defect}}}
edges: [{from: a, to: END}]
initial_state: {}
middleware: {per_node: {a: [{type: failure_isolation, degraded_update: {r: 7}, event_name: iso}]}}
expected:
  final_state: {r: 7}
`,
      "fixture_schema_invalid",
      "runs outside a fan-out instance",
      "pipeline-utilities",
    );
    await fails(
      `subgraphs:
  w: {state: {fields: {item: {type: int, default: 0}, s: {type: string, default: ab}, out: {type: int, default: 0}}}, entry: n, nodes: {n: {update_from_field: {out: s, multiplier: 2}}}, edges: [{from: n, to: END}]}
state: {fields: {items: {type: list<int>, default: [1]}, outs: {type: list<int>, reducer: append, default: []}, errs: {type: list, reducer: append, default: []}}}
entry: f
nodes: {f: {fan_out: {subgraph: w, items_field: items, item_field: item, collect_field: out, target_field: outs, error_policy: collect, errors_field: errs}}}
edges: [{from: f, to: END}]
initial_state: {}
expected:
  final_state: {items: [1], outs: [], errs: [{}]}
`,
      "fixture_schema_invalid",
      "multiplies 's' by 2",
      "pipeline-utilities",
    );
  });

  it("invoke_drain_events_for without timeout_seconds drains with no timeout; a wrong snapshot count fails", async () => {
    const fanOut = (invariants: string) => `
subgraphs:
  worker: {state: {fields: {item: {type: int, default: 0}, out: {type: int, default: 0}}}, entry: w, nodes: {w: {update_from_field: {out: item}}}, edges: [{from: w, to: END}]}
state:
  fields:
    items: {type: list<int>, default: [1, 2]}
    results: {type: list<int>, reducer: append, default: []}
entry: fan
nodes:
  fan: {fan_out: {subgraph: worker, items_field: items, item_field: item, collect_field: out, target_field: results}}
  persist: {invoke_drain_events_for: {snapshot_observer: acc}}
edges:
  - {from: fan, to: persist}
  - {from: persist, to: END}
initial_state: {}
observers:
  - {name: acc, attach: graph, target: outer, behavior: accumulate, sleep_ms_per_event: 5}
expected:
  node_drain_summaries: {persist: {timeout_reached: false, undelivered_count: 0}}
  node_accumulator_snapshot_invariants: {persist: {acc: {${invariants}}}}
`;
    await passes(fanOut("inner_event_count: 4, inner_fan_out_indices_seen: [0, 1]"));
    await fails(fanOut("inner_event_count: 5"), "assertion_failed", "inner_event_count");
    await fails(fanOut("inner_fan_out_indices_seen: [0, 1, 2]"), "assertion_failed", "inner_fan_out_indices_seen");
  });
});
