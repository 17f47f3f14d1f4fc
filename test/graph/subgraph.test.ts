import { expect } from "chai";
import {
  drain,
  END,
  GraphBuilder,
  NodeException,
  stateSchema,
  StateValidationError,
  subgraphNode,
  type CompiledGraph,
  type StateRecord,
} from "../../src/graph/index.ts";
import { recorder, runtimeErrorOf } from "./helpers.ts";

function seq(
  fields: Parameters<typeof stateSchema>[0]["fields"],
  nodes: [string, (s: Readonly<StateRecord>) => Promise<StateRecord> | StateRecord | CompiledGraph<StateRecord, unknown>, object?][],
  name: string,
): CompiledGraph<StateRecord, unknown> {
  const b = new GraphBuilder(stateSchema({ fields }));
  nodes.forEach(([n, body, projection], i) => {
    if (typeof body === "function") b.addNode(n, async (s) => body(s) as StateRecord);
    else b.addSubgraph(n, body, projection ?? {});
    b.addEdge(n, i + 1 < nodes.length ? nodes[i + 1]![0] : END);
  });
  return b.setEntry(nodes[0]![0]).compile({ name });
}

describe("graph/subgraph: default projection (field-name matching out, nothing in)", () => {
  it("runs from its own defaults and merges matching fields through the parent's reducers", async () => {
    const inner = seq(
      { message: { type: "string", default: "" }, trace: { type: "list<string>", reducer: "append", default: [] }, only_inner: { type: "int", default: 1 } },
      [
        ["x", (s) => ({ message: "from-x", trace: ["x"], only_inner: (s["only_inner"] as number) + 1 })],
        ["y", () => ({ message: "from-y", trace: ["y"] })],
      ],
      "inner",
    );
    const outer = seq(
      { message: { type: "string", default: "" }, trace: { type: "list<string>", reducer: "append", default: ["outer-start"] } },
      [
        ["outer_a", () => ({ trace: ["outer_a"], message: "outer" })],
        ["outer_sub", inner as never],
        ["outer_b", () => ({ trace: ["outer_b"] })],
      ],
      "outer",
    );
    const r = await outer.invoke();
    expect(r.state).to.deep.equal({ message: "from-y", trace: ["outer-start", "outer_a", "x", "y", "outer_b"] });
    expect(r.executionOrder).to.deep.equal(["outer_a", "outer_sub", "outer_b"]);
    expect(outer.nodeKind("outer_sub")).to.equal("subgraph");
  });
});

describe("graph/subgraph: explicit inputs / outputs maps", () => {
  const doubler = seq(
    { input: { type: "int", default: 3 }, result: { type: "int", default: 0 }, note: { type: "string", default: "subgraph-default" } },
    [["compute", () => ({ result: 99, note: "computed" })]],
    "doubler",
  );
  const P = stateSchema({
    fields: {
      a: { type: "int", default: 5 },
      b: { type: "int", default: 7 },
      note: { type: "string", default: "outer-default" },
      a_seen_input: { type: "int", default: -1 },
      b_seen_input: { type: "int", default: -1 },
      a_result: { type: "int", default: -1 },
      b_result: { type: "int", default: -1 },
      result: { type: "int", default: -1 },
    },
  });

  it("inputs is additive over defaults; outputs replaces name matching; each is independent", async () => {
    const g = new GraphBuilder(P)
      .addSubgraph("sub_full", doubler, { inputs: { input: "a" }, outputs: { a_seen_input: "input", a_result: "result" } })
      .addSubgraph("sub_inputs_only", doubler, { inputs: { input: "b" } })
      .addSubgraph("sub_outputs_only", doubler, { outputs: { b_seen_input: "input", b_result: "result" } })
      .addEdge("sub_full", "sub_inputs_only")
      .addEdge("sub_inputs_only", "sub_outputs_only")
      .addEdge("sub_outputs_only", END)
      .setEntry("sub_full")
      .compile();
    const r = await g.invoke();
    expect(r.state).to.deep.equal({ a: 5, b: 7, a_seen_input: 5, b_seen_input: 3, a_result: 99, b_result: 99, result: 99, note: "computed" });
  });

  it("outputs-only does not leak name-matched fields", async () => {
    const g = new GraphBuilder(P).addSubgraph("s", doubler, { outputs: { a_result: "result" } }).addEdge("s", END).setEntry("s").compile();
    const r = await g.invoke();
    expect(r.state).to.include({ a_result: 99, result: -1, note: "outer-default" });
  });
});

describe("graph/subgraph: declared same-name boundary", () => {
  const inner = seq(
    { seed: { type: "int", default: 0 }, doubled: { type: "int", default: -1 }, scratch: { type: "string", default: "" } },
    [
      ["compute", (s) => ({ doubled: (s["seed"] as number) * 2 })],
      ["mark", () => ({ scratch: "sub-scratch", seed: 777 })],
    ],
    "inner",
  );
  const P = stateSchema({
    fields: { seed: { type: "int", default: 5 }, doubled: { type: "int", default: -1 }, scratch: { type: "string", default: "outer-scratch" } },
  });
  const run = (projection: object, pre: StateRecord = {}) =>
    new GraphBuilder(P)
      .addNode("pre", async () => pre)
      .addNode("outer_sub", subgraphNode(inner, projection))
      .addEdge("pre", "outer_sub")
      .addEdge("outer_sub", END)
      .setEntry("pre")
      .compile()
      .invoke();

  it("projects exactly the named fields, with no name-matching fallback", async () => {
    expect((await run({ projectsIn: ["seed"], projectsOut: ["doubled"] })).state).to.deep.equal({ seed: 5, doubled: 10, scratch: "outer-scratch" });
  });

  it("an empty or omitted out-set projects nothing out", async () => {
    expect((await run({ projectsIn: ["seed"], projectsOut: [] }, { doubled: 42 })).state).to.deep.equal({ seed: 5, doubled: 42, scratch: "outer-scratch" });
    expect((await run({ projectsIn: ["seed"] }, { doubled: 42 })).state).to.deep.equal({ seed: 5, doubled: 42, scratch: "outer-scratch" });
  });

  it("an omitted in-set projects nothing in", async () => {
    expect((await run({ projectsOut: ["doubled"] })).state).to.include({ doubled: 0 });
  });
});

describe("graph/subgraph: nesting, errors and entry validation", () => {
  const T = { v: { type: "int", default: 0 }, trace: { type: "list<string>", reducer: "append", default: [] } } as const;

  it("two-level nesting: chained namespaces, parent_states stack, one step counter", async () => {
    const innermost = seq(T, [["inner_p", () => ({ v: 100, trace: ["inner_p"] })], ["inner_q", () => ({ v: 200, trace: ["inner_q"] })]], "inner");
    const middle = seq(T, [["mid_x", () => ({ v: 10, trace: ["mid_x"] })], ["mid_inner", innermost as never], ["mid_y", () => ({ v: 20, trace: ["mid_y"] })]], "middle");
    const outer = seq(T, [["outer_a", () => ({ v: 1, trace: ["outer_a"] })], ["outer_mid", middle as never], ["outer_b", () => ({ v: 999, trace: ["outer_b"] })]], "outer");
    const obs = recorder();
    const r = await outer.invoke({}, { observers: [obs] });
    await drain();
    expect(r.state).to.deep.equal({ v: 999, trace: ["outer_a", "mid_x", "inner_p", "inner_q", "mid_y", "outer_b"] });
    const completed = obs.events.filter((e) => e.phase === "completed");
    expect(completed.map((e) => [e.step, e.namespace.join("/"), e.parentStates.length])).to.deep.equal([
      [0, "outer_a", 0],
      [1, "outer_mid/mid_x", 1],
      [2, "outer_mid/mid_inner/inner_p", 2],
      [3, "outer_mid/mid_inner/inner_q", 2],
      [4, "outer_mid/mid_y", 1],
      [5, "outer_b", 0],
    ]);
    const p = completed[2]!;
    expect(p.parentStates).to.deep.equal([{ v: 1, trace: ["outer_a"] }, { v: 10, trace: ["mid_x"] }]);
    expect(p.preState).to.deep.equal({ v: 0, trace: [] });
    expect(p.fanOutIndexChain).to.deep.equal([null, null]);
    expect(p.branchNameChain).to.deep.equal([null, null]);
    expect(completed[4]!.preState).to.deep.equal({ v: 200, trace: ["mid_x", "inner_p", "inner_q"] });
    for (const e of obs.events) expect(e.parentStates.length).to.equal(e.namespace.length - 1);
  });

  it("an inner failure propagates unchanged, raised from the inner node, with the outer context", async () => {
    const boom = new Error("inner boom");
    const inner = seq(T, [["ok", () => ({ v: 3 })], ["bad", () => Promise.reject(boom)]], "inner");
    const outer = seq(T, [["before", () => ({ v: 1 })], ["dispatch", inner as never], ["after", () => ({})]], "outer");
    const err = await runtimeErrorOf(outer.invoke());
    expect(err).to.be.instanceOf(NodeException);
    expect(err.cause).to.equal(boom);
    expect(err.nodeName).to.equal("bad");
    expect(err.namespace).to.deep.equal(["dispatch", "bad"]);
    expect(err.state).to.deep.equal({ v: 3, trace: [] });
    expect(err.parentStates).to.deep.equal([{ v: 1, trace: [] }]);
    expect(err.outermostState).to.deep.equal({ v: 1, trace: [] });
    expect(err.executionOrder).to.deep.equal(["before", "dispatch"]);
  });

  it("projected-in values are validated at subgraph entry", async () => {
    const inner = seq({ n: { type: "int", default: 0 } }, [["i", () => ({})]], "inner");
    const P = stateSchema({ fields: { s: { type: "string", default: "text" } } });
    const g = new GraphBuilder(P).addSubgraph("sub", inner, { inputs: { n: "s" } }).addEdge("sub", END).setEntry("sub").compile();
    const err = await runtimeErrorOf(g.invoke());
    expect(err).to.be.instanceOf(StateValidationError);
    expect(err.nodeName).to.equal("sub");
    expect((err as StateValidationError).fields).to.deep.equal(["n"]);
  });
});
