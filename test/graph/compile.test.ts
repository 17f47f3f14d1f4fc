import { expect } from "chai";
import {
  append,
  CompileError,
  defineReducer,
  END,
  GraphBuilder,
  stateSchema,
  type CompileWarning,
  type FieldSpec,
  type SubgraphProjection,
  type CompiledGraph,
  type StateRecord,
} from "../../src/graph/index.ts";
import { compileErrorOf } from "./helpers.ts";

const S = stateSchema({ fields: { v: { type: "string", default: "" } } });
const noop = async () => ({});

function inner(fields: Record<string, FieldSpec>): CompiledGraph<StateRecord, unknown> {
  return new GraphBuilder(stateSchema({ fields })).addNode("i", noop).addEdge("i", END).setEntry("i").compile({ name: "inner" });
}

describe("graph/compile: compile-error categories", () => {
  it("no_declared_entry", () => {
    const err = compileErrorOf(() => new GraphBuilder(S).addNode("a", noop).addEdge("a", END).compile());
    expect(err.category).to.equal("no_declared_entry");
  });

  it("unreachable_node", () => {
    const err = compileErrorOf(() =>
      new GraphBuilder(S).addNode("a", noop).addNode("orphan", noop).addEdge("a", END).setEntry("a").compile(),
    );
    expect(err.category).to.equal("unreachable_node");
    expect(err.node).to.equal("orphan");
  });

  it("reachability follows declared conditional targets, and assumes any node without them", () => {
    const withTargets = () =>
      new GraphBuilder(S)
        .addNode("a", noop)
        .addNode("b", noop)
        .addNode("c", noop)
        .addConditionalEdge("a", () => "b", { targets: ["b", END] })
        .addEdge("b", END)
        .addEdge("c", END)
        .setEntry("a")
        .compile();
    expect(compileErrorOf(withTargets).node).to.equal("c");
    const g = new GraphBuilder(S).addNode("a", noop).addNode("c", noop).addConditionalEdge("a", () => END).addEdge("c", END).setEntry("a").compile();
    expect(g.nodeNames).to.deep.equal(["a", "c"]);
  });

  it("dangling_edge (edge target, edge source, entry)", () => {
    expect(compileErrorOf(() => new GraphBuilder(S).addNode("a", noop).addEdge("a", "ghost").setEntry("a").compile()).category).to.equal("dangling_edge");
    expect(
      compileErrorOf(() => new GraphBuilder(S).addNode("a", noop).addEdge("a", END).addEdge("ghost", "a").setEntry("a").compile()).category,
    ).to.equal("dangling_edge");
    expect(compileErrorOf(() => new GraphBuilder(S).addNode("a", noop).addEdge("a", END).setEntry("ghost").compile()).category).to.equal("dangling_edge");
  });

  it("a conditional edge's declared targets are not compile-time references (routing is checked at run time)", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", async () => ({ v: "a" }))
      .addNode("b", noop)
      .addConditionalEdge("a", (s) => (s["v"] === "nope" ? "b" : "ghost"), { targets: ["b", "ghost"] })
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    try {
      await g.invoke();
      expect.fail("routed to an undeclared node");
    } catch (e) {
      expect((e as { category?: string }).category).to.equal("routing_error");
    }
  });

  it("multiple_outgoing_edges (two static, or static + conditional)", () => {
    const two = () =>
      new GraphBuilder(S)
        .addNode("a", noop)
        .addNode("b", noop)
        .addNode("c", noop)
        .addEdge("a", "b")
        .addEdge("a", "c")
        .addEdge("b", END)
        .addEdge("c", END)
        .setEntry("a")
        .compile();
    expect(compileErrorOf(two).category).to.equal("multiple_outgoing_edges");
    const mixed = () => new GraphBuilder(S).addNode("a", noop).addEdge("a", END).addConditionalEdge("a", () => END).setEntry("a").compile();
    expect(compileErrorOf(mixed).node).to.equal("a");
  });

  it("conflicting_reducers (schema declares two, or schema + builder)", () => {
    const two = stateSchema({ fields: { v: { type: "list<string>", reducer: "append", reducers: ["last_write_wins"] } } });
    expect(compileErrorOf(() => new GraphBuilder(two).addNode("a", noop).addEdge("a", END).setEntry("a").compile()).category).to.equal(
      "conflicting_reducers",
    );
    const one = stateSchema({ fields: { v: { type: "list<string>", reducer: "append", default: [] } } });
    const err = compileErrorOf(() =>
      new GraphBuilder(one).declareReducer("v", "last_write_wins").addNode("a", noop).addEdge("a", END).setEntry("a").compile(),
    );
    expect(err.category).to.equal("conflicting_reducers");
    expect(err.field).to.equal("v");
  });

  it("a builder-declared reducer applies when the schema declares none", async () => {
    const plain = stateSchema({ fields: { v: { type: "list<string>", default: [] } } });
    const g = new GraphBuilder(plain)
      .declareReducer("v", append)
      .addNode("a", async () => ({ v: ["a"] }))
      .addNode("b", async () => ({ v: ["b"] }))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    expect((await g.invoke()).state["v"]).to.deep.equal(["a", "b"]);
  });

  it("mapping_references_undeclared_field (inputs / outputs, parent or subgraph side; declared sets)", () => {
    const sub = inner({ x: { type: "string", default: "" } });
    const cases: SubgraphProjection[] = [
      { inputs: { x: "unknown_parent_field" } },
      { inputs: { unknown_sub: "v" } },
      { outputs: { unknown_parent: "x" } },
      { outputs: { v: "unknown_sub" } },
      { projectsIn: ["x"] }, // x not on the parent
      { projectsOut: ["v"] }, // v not on the subgraph
    ];
    for (const projection of cases) {
      const err = compileErrorOf(() => new GraphBuilder(S).addSubgraph("a", sub, projection).addEdge("a", END).setEntry("a").compile());
      expect(err.category, JSON.stringify(projection)).to.equal("mapping_references_undeclared_field");
      expect(err.node).to.equal("a");
    }
  });

  it("conflicting_projection_forms", () => {
    const sub = inner({ v: { type: "string", default: "s" } });
    const err = compileErrorOf(() =>
      new GraphBuilder(S)
        .addSubgraph("a", sub, { projectsIn: ["v"], projectsOut: ["v"], inputs: { v: "v" } })
        .addEdge("a", END)
        .setEntry("a")
        .compile(),
    );
    expect(err.category).to.equal("conflicting_projection_forms");
  });

  it("reducer_configuration_invalid surfaces through the builder too", () => {
    expect(compileErrorOf(() => new GraphBuilder(S).declareReducer("v", { bounded_append: { max_len: 0 } })).category).to.equal(
      "reducer_configuration_invalid",
    );
  });

  it("implementation-defined: duplicate_node", () => {
    expect(compileErrorOf(() => new GraphBuilder(S).addNode("a", noop).addNode("a", noop)).category).to.equal("duplicate_node");
  });

  it("a node without an outgoing edge compiles and is terminal", async () => {
    const g = new GraphBuilder(stateSchema({ fields: { log: { type: "list<string>", reducer: "append", default: [] } } }))
      .addNode("a", async () => ({ log: ["a"] }))
      .addNode("b", async () => ({ log: ["b"] }))
      .addEdge("a", "b")
      .setEntry("a")
      .compile();
    const r = await g.invoke();
    expect(r.state["log"]).to.deep.equal(["a", "b"]);
    expect(r.executionOrder).to.deep.equal(["a", "b"]);
  });

  it("reports every diagnostic of the pass, primary first, before any node runs", () => {
    let ran = false;
    const err = compileErrorOf(() =>
      new GraphBuilder(S)
        .addNode("a", async () => ((ran = true), {}))
        .addNode("b", noop)
        .addEdge("a", "ghost")
        .compile(),
    );
    expect(err).to.be.instanceOf(CompileError);
    expect(err.diagnostics.map((d) => d.category)).to.include.members(["no_declared_entry", "dangling_edge"]);
    expect(err.diagnostics[0]!.category).to.equal(err.category);
    expect(ran).to.equal(false);
  });
});

describe("graph/compile: projection_reducer_round_trip warning", () => {
  const P = stateSchema({
    fields: {
      log: { type: "list<string>", reducer: "append", default: [] },
      val: { type: "string", default: "" },
      tagged: { type: "list<string>", reducer: { dedupe_append: {} }, default: [] },
    },
  });
  const sub = inner({ log: { type: "list<string>", default: [] }, val: { type: "string", default: "" }, other: { type: "list<string>", default: [] }, tagged: { type: "list<string>", default: [] } });

  function warningsFor(projection: Parameters<GraphBuilder["addSubgraph"]>[2], schema = P): CompileWarning[] {
    const seen: CompileWarning[] = [];
    const g = new GraphBuilder(schema).addSubgraph("s", sub, projection).addEdge("s", END).setEntry("s").compile({ onWarning: (w) => seen.push(w) });
    expect(g.warnings).to.deep.equal(seen);
    return seen;
  }

  it("(a) declared sets naming a non-idempotent field in both directions", () => {
    const w = warningsFor({ projectsIn: ["log", "val"], projectsOut: ["log", "val"] });
    expect(w.map((x) => [x.category, x.field, x.node])).to.deep.equal([["projection_reducer_round_trip", "log", "s"]]);
  });

  it("(b) maps copying a parent field in and merging the same subgraph field back out", () => {
    expect(warningsFor({ inputs: { log: "log" }, outputs: { log: "log" } }).map((x) => x.field)).to.deep.equal(["log"]);
    expect(warningsFor({ inputs: { other: "log" }, outputs: { log: "other" } }).map((x) => x.field)).to.deep.equal(["log"]);
    expect(warningsFor({ inputs: { other: "log" }, outputs: { log: "log" } })).to.deep.equal([]);
  });

  it("(c) inputs only, into a same-named field that name matching projects back out", () => {
    expect(warningsFor({ inputs: { log: "log" } }).map((x) => x.field)).to.deep.equal(["log"]);
    expect(warningsFor({ inputs: { other: "log" } })).to.deep.equal([]);
  });

  it("does not warn for idempotent reducers, the default form, or one-way projections", () => {
    expect(warningsFor({ projectsIn: ["val", "tagged"], projectsOut: ["val", "tagged"] })).to.deep.equal([]);
    expect(warningsFor({})).to.deep.equal([]);
    expect(warningsFor({ projectsIn: ["log"] })).to.deep.equal([]);
  });

  it("warns for custom reducers classified non-idempotent", () => {
    const custom = defineReducer("my_sum", (a: number, b: number) => a + b, { roundTripIdempotent: false });
    const C = stateSchema({ fields: { val: { type: "int", reducer: custom, default: 0 } } });
    const s2 = inner({ val: { type: "int", default: 0 } });
    const seen: CompileWarning[] = [];
    new GraphBuilder(C).addSubgraph("s", s2, { projectsIn: ["val"], projectsOut: ["val"] }).addEdge("s", END).setEntry("s").compile({ onWarning: (w) => seen.push(w) });
    expect(seen.map((w) => w.category)).to.deep.equal(["projection_reducer_round_trip"]);
    expect(seen[0]!.message).to.match(/my_sum/);
  });
});
