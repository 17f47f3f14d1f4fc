import { expect } from "chai";
import { END, GraphBuilder, stateSchema, type CompileWarning, type NodeKind } from "../../src/graph/index.ts";
import { fanOut, parallelBranches, type FanOutOptions } from "../../src/pipeline/index.ts";
import { chain, compileErrorOf, single, type Fields } from "./helpers.ts";

const worker = single(
  { x: { type: "int", default: 0 }, result: { type: "int", default: 0 }, log: { type: "list<string>", default: [] } },
  "w",
  () => ({ result: 1 }),
);
const P: Fields = {
  items: { type: "list<int>", default: [1] },
  scalar: { type: "int", default: 0 },
  results: { type: "list<int>", reducer: "append", default: [] },
  errors: { type: "list<dict<string,string>>", reducer: "append", default: [] },
  lww_list: { type: "list<string>", default: [] },
  log: { type: "list<string>", reducer: "append", default: [] },
  name: { type: "string", default: "" },
  n: { type: "int", default: 0 },
};
const base = { subgraph: worker, itemsField: "items", itemField: "x", collectField: "result", targetField: "results" } as const;
/** The same worker over a closed schema (`extraFields: "forbid"`): only declared fields exist. */
const closedWorker = new GraphBuilder(stateSchema({ fields: { x: { type: "int", default: 0 }, result: { type: "int", default: 0 } }, extraFields: "forbid" }))
  .addNode("w", async () => ({ result: 1 }))
  .addEdge("w", END)
  .setEntry("w")
  .compile({ name: "closed" });

function compileWith(node: NodeKind, fields: Fields = P): () => unknown {
  return () => chain(fields, [["f", node]]);
}
/** Untyped options, as a YAML / JS caller would pass them. */
function loose(o: Record<string, unknown>): NodeKind {
  return fanOut(o as unknown as FanOutOptions<Record<string, unknown>, Record<string, unknown>>);
}

describe("pipeline/compile errors: fan-out (§9 Configuration)", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["both itemsField and count", { ...base, count: 2 }, "fan_out_count_mode_ambiguous"],
    ["neither itemsField nor count", { subgraph: worker, collectField: "result", targetField: "results" }, "fan_out_count_mode_ambiguous"],
    ["itemField in count mode", { subgraph: worker, count: 2, itemField: "x", collectField: "result", targetField: "results" }, "fan_out_count_mode_ambiguous"],
    ["itemsField not list-typed", { ...base, itemsField: "scalar" }, "fan_out_field_not_list"],
    ["undeclared itemsField", { ...base, itemsField: "nope" }, "mapping_references_undeclared_field"],
    ["undeclared itemField (closed subgraph schema)", { ...base, subgraph: closedWorker, itemField: "nope" }, "mapping_references_undeclared_field"],
    ["undeclared collectField (subgraph)", { ...base, collectField: "nope" }, "mapping_references_undeclared_field"],
    ["undeclared targetField", { ...base, targetField: "nope" }, "mapping_references_undeclared_field"],
    ["undeclared inputs parent field", { ...base, inputs: { x: "nope" } }, "mapping_references_undeclared_field"],
    ["undeclared inputs subgraph field", { ...base, inputs: { nope: "scalar" } }, "mapping_references_undeclared_field"],
    ["undeclared extraOutputs parent field", { ...base, extraOutputs: { nope: "log" } }, "mapping_references_undeclared_field"],
    ["undeclared extraOutputs subgraph field", { ...base, extraOutputs: { log: "nope" } }, "mapping_references_undeclared_field"],
    ["undeclared countField", { ...base, countField: "nope" }, "mapping_references_undeclared_field"],
    ["countField not int-typed", { ...base, countField: "name" }, "mapping_references_undeclared_field"],
    ["errorsField not list-typed", { ...base, errorPolicy: "collect", errorsField: "scalar" }, "fan_out_field_not_list"],
    ["errorsField with a replacing reducer", { ...base, errorPolicy: "collect", errorsField: "lww_list" }, "invalid_node"],
    ["itemField missing in items mode", { ...base, itemField: undefined }, "invalid_node"],
    ["negative literal count", { subgraph: worker, count: -1, collectField: "result", targetField: "results" }, "invalid_node"],
    ["zero literal concurrency", { ...base, concurrency: 0 }, "invalid_node"],
    ["fractional literal concurrency", { ...base, concurrency: 1.5 }, "invalid_node"],
    ["unknown onEmpty", { ...base, onEmpty: "skip" }, "invalid_node"],
    ["unknown errorPolicy", { ...base, errorPolicy: "ignore" }, "invalid_node"],
    ["a subgraph that is not compiled", { ...base, subgraph: {} }, "invalid_node"],
    ["two outputs into one parent field", { ...base, extraOutputs: { results: "result" } }, "invalid_node"],
  ];
  for (const [what, options, category] of cases) {
    it(`${what} → ${category}`, () => {
      const err = compileErrorOf(compileWith(loose(options)));
      expect(err.diagnostics.map((d) => d.category)).to.include(category);
      expect(err.diagnostics.find((d) => d.category === category)!.node).to.equal("f");
    });
  }

  it("reports every finding of one node in a single compile", () => {
    const err = compileErrorOf(compileWith(loose({ ...base, collectField: "nope", targetField: "nope2", concurrency: -3 })));
    expect(err.diagnostics.map((d) => d.category)).to.include.members(["mapping_references_undeclared_field", "invalid_node"]);
    expect(err.diagnostics.length).to.be.greaterThanOrEqual(3);
  });

  it("accepts a well-formed configuration (the error cases above are not vacuous)", () => {
    expect(compileWith(loose({ ...base, errorPolicy: "collect", errorsField: "errors", countField: "n", inputs: { log: "log" }, concurrency: null }))).not.to.throw();
    expect(compileWith(loose({ subgraph: worker, count: (s: Record<string, unknown>) => s["n"], collectField: "result", targetField: "results" }))).not.to.throw();
  });
});

describe("pipeline/compile warnings: projection_reducer_round_trip on fan-out (§9.3, fixtures 077/078)", () => {
  const unit = single(
    { input: { type: "int", default: 0 }, out: { type: "string", default: "" }, carry: { type: "list<string>", reducer: "append", default: [] }, acc: { type: "list<string>", default: [] } },
    "work",
    () => ({ out: "done" }),
  );
  function warningsOf(fields: Fields, options: Record<string, unknown>): string[] {
    const seen: CompileWarning[] = [];
    chain(fields, [["process", loose({ subgraph: unit, ...options })]]).warnings.forEach((w) => seen.push(w));
    return seen.map((w) => w.category);
  }
  const F: Fields = {
    items: { type: "list<int>", default: [1] },
    results: { type: "list<string>", reducer: "append", default: [] },
    flat: { type: "list<string>", reducer: "concat_flatten", default: [] },
    log: { type: "list<string>", reducer: "append", default: [] },
    plain: { type: "list<string>", default: [] },
  };
  const opts = { itemsField: "items", itemField: "input", collectField: "out", targetField: "results" };

  it("warns on an inputs/extraOutputs round-trip into append", () => {
    expect(warningsOf(F, { ...opts, inputs: { carry: "log" }, extraOutputs: { log: "carry" } })).to.deep.equal(["projection_reducer_round_trip"]);
  });
  it("does not warn when the round-trip lands in an idempotent reducer", () => {
    expect(warningsOf(F, { ...opts, inputs: { carry: "plain" }, extraOutputs: { plain: "carry" } })).to.deep.equal([]);
  });
  it("warns on the collect channel seeded via inputs", () => {
    expect(warningsOf(F, { ...opts, collectField: "acc", targetField: "flat", inputs: { acc: "flat" } })).to.deep.equal(["projection_reducer_round_trip"]);
  });
  it("warns on the collect channel seeded element-wise (itemField == collectField, itemsField == targetField)", () => {
    const itemUnit = single({ item: { type: "string", default: "" }, other: { type: "string", default: "" } }, "work", () => ({ other: "x" }));
    const fields: Fields = { results: { type: "list<string>", reducer: "append", default: ["a"] } };
    const w = (collectField: string) =>
      chain(fields, [["p", loose({ subgraph: itemUnit, itemsField: "results", itemField: "item", collectField, targetField: "results" })]]).warnings.map((x) => x.category);
    expect(w("item")).to.deep.equal(["projection_reducer_round_trip"]);
    expect(w("other")).to.deep.equal([]);
  });
  it("does not warn on a clean collect", () => {
    expect(warningsOf(F, opts)).to.deep.equal([]);
  });
});

describe("pipeline/compile errors: parallel branches (§11.9)", () => {
  const a = single({ a_out: { type: "int", default: 0 } }, "a", () => ({ a_out: 1 }));
  const F: Fields = { r: { type: "int", default: 0 }, errors: { type: "list<string>", reducer: "append", default: [] }, s: { type: "int", default: 0 } };
  const pb = (o: Record<string, unknown>): NodeKind => parallelBranches(o as never);
  const cases: [string, Record<string, unknown>, string][] = [
    ["an empty branches mapping", { branches: {} }, "parallel_branches_no_branches"],
    ["a branch with both subgraph and call", { branches: { x: { subgraph: a, call: () => ({}) } } }, "parallel_branches_invalid_branch_spec"],
    ["a branch with neither", { branches: { x: {} } }, "parallel_branches_invalid_branch_spec"],
    ["a call branch with outputs", { branches: { x: { call: () => ({}), outputs: { r: "a_out" } } } }, "parallel_branches_invalid_branch_spec"],
    ["a non-function when", { branches: { x: { call: () => ({}), when: true } } }, "parallel_branches_invalid_branch_spec"],
    ["a non-compiled subgraph", { branches: { x: { subgraph: {} } } }, "parallel_branches_invalid_branch_spec"],
    ["outputs naming an undeclared parent field", { branches: { x: { subgraph: a, outputs: { nope: "a_out" } } } }, "mapping_references_undeclared_field"],
    ["outputs naming an undeclared subgraph field", { branches: { x: { subgraph: a, outputs: { r: "nope" } } } }, "mapping_references_undeclared_field"],
    ["inputs naming an undeclared parent field", { branches: { x: { subgraph: a, inputs: { a_out: "nope" } } } }, "mapping_references_undeclared_field"],
    ["an errorsField that is not a list", { branches: { x: { subgraph: a } }, errorPolicy: "collect", errorsField: "s" }, "fan_out_field_not_list"],
    ["an unknown errorPolicy", { branches: { x: { subgraph: a } }, errorPolicy: "later" }, "invalid_node"],
  ];
  for (const [what, options, category] of cases) {
    it(`${what} → ${category}`, () => {
      const err = compileErrorOf(() => chain(F, [["d", pb(options)]]));
      expect(err.diagnostics.map((d) => d.category)).to.include(category);
    });
  }

  it("warns on a branch inputs/outputs round-trip into append", () => {
    const carry = single({ log: { type: "list<string>", default: [] } }, "c", () => ({}));
    const g = chain({ log: { type: "list<string>", reducer: "append", default: [] } }, [
      ["d", parallelBranches({ branches: { x: { subgraph: carry, inputs: { log: "log" } } } })],
    ]);
    expect(g.warnings.map((w) => w.category)).to.deep.equal(["projection_reducer_round_trip"]);
  });

  it("accepts a well-formed mixed configuration", () => {
    expect(() =>
      chain(F, [["d", pb({ branches: { x: { subgraph: a, outputs: { r: "a_out" } }, y: { call: () => ({ s: 1 }), when: () => true } }, errorPolicy: "collect", errorsField: "errors" })]]),
    ).not.to.throw();
  });
});

describe("pipeline/compile errors: item_field on an open subgraph schema", () => {
  it("an open schema (extraFields: allow) admits any item_field name as a field of the instance state", () => {
    const openWorker = new GraphBuilder(stateSchema({ fields: { result: { type: "int", default: 0 } }, extraFields: "allow" }))
      .addNode("w", async () => ({ result: 1 }))
      .addEdge("w", END)
      .setEntry("w")
      .compile({ name: "open" });
    expect(() => chain(P, [["f", loose({ ...base, subgraph: openWorker, itemField: "anything" })]])).to.not.throw();
  });

  it("the default (closed) schema refuses an undeclared item_field at compile time", () => {
    expect(compileErrorOf(() => chain(P, [["f", loose({ ...base, itemField: "anything" })]])).category).to.equal("mapping_references_undeclared_field");
  });
});
