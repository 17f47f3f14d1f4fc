/**
 * Forms the governing seed (conformance-adapter 0.120.1) does not define, which upstream
 * observability fixtures use, and whose meaning is not unambiguous enough for the legacy bundle to
 * read (test/directives/legacy-forms.test.ts holds those it reads): each is rejected as
 * fixture_schema_invalid in every directory, with a message quoting the rule the seed (or the
 * capability spec it points to) gives.
 */
import { expect } from "chai";
import { runSnippet } from "./tester.ts";

const graph = (nodes: string, extra = "", edges = "  - {from: a, to: END}") => `
subgraphs:
  inner: {state: {fields: {item: {type: int, default: 0}, y: {type: int, default: 0}}}, entry: s, nodes: {s: {update_pure: {y: 1}}}, edges: [{from: s, to: END}]}
state: {fields: {items: {type: list<int>, default: [1]}, ys: {type: list<int>, default: []}, x: {type: int, default: 0}}}
entry: a
nodes:
${nodes}
edges:
${edges}
initial_state: {}
${extra}
expected:
  final_state: {items: [1], ys: [], x: 0}
`;

const FORMS: ReadonlyArray<{ readonly form: string; readonly yaml: string; readonly message: readonly string[] }> = [
  {
    form: "flaky {fail_count, category, on_success} (007)",
    yaml: graph("  a:\n    flaky: {fail_count: 2, category: provider_rate_limit, on_success: {x: 1}}"),
    message: ["'flaky'", "two forms conformance-adapter §5.1 defines"],
  },
  {
    form: "fan_out with items_field and no item_field (029, 039, 044, 054)",
    yaml: graph("  a:\n    fan_out: {subgraph: inner, items_field: items, collect_field: y, target_field: ys}"),
    message: ["item_field", "pipeline-utilities §9"],
  },
  {
    form: "edges[].when (011)",
    yaml: graph("  a: {update_pure: {x: 1}}\n  b: {update_pure: {x: 2}}", "", "  - {from: a, when: {field: x, gt: 0}, to: b}\n  - {from: b, to: END}"),
    message: ["unknown key 'when'", "conformance-adapter §5.3"],
  },
];

describe("forms the seed does not define are rejected with the rule, in every directory", function () {
  this.timeout(30_000);
  for (const { form, yaml, message } of FORMS) {
    for (const capability of ["graph-engine", "observability"]) {
      it(`${form} — ${capability}`, async () => {
        const [r] = await runSnippet(yaml, capability);
        expect(r!.category, r!.message ?? "").to.equal("fixture_schema_invalid");
        for (const m of message) expect(r!.message).to.contain(m);
      });
    }
  }
});
