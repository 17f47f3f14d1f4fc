import { expect } from "chai";
import {
  append,
  END,
  EdgeException,
  GraphBuilder,
  ReducerError,
  RoutingError,
  StateValidationError,
  defineReducer,
  stateSchema,
  type NodeContext,
} from "../../src/graph/index.ts";

const S = stateSchema({
  fields: {
    n: { type: "int", default: 0 },
    log: { type: "list<string>", default: [] },
  },
});

const noop = async () => ({});
const ctx = { nodeName: "a", namespace: ["a"], parentStates: [] } as unknown as NodeContext;

function graph() {
  const inner = new GraphBuilder(stateSchema({ fields: { x: { type: "int", default: 0 } } }))
    .addNode("i", noop).addEdge("i", END).setEntry("i").compile({ name: "inner" });
  return new GraphBuilder(S)
    .addNode("a", noop)
    .addSubgraph("sub", inner)
    .addNode("b", noop)
    .addConditionalEdge("a", (s) => (s.n > 0 ? "b" : "sub"), { targets: ["b", "sub"] })
    .addEdge("sub", "b")
    .addEdge("b", END)
    .declareReducer("log", append)
    .setEntry("a")
    .compile({ name: "outer" });
}

describe("graph/introspection: CompiledGraph.node / routeAfter / mergeUpdate", () => {
  it("node() reports the kind object, its child graphs and the outgoing edge", () => {
    const g = graph();
    expect(g.node("missing")).to.equal(undefined);
    const a = g.node("a")!;
    expect(a.kind.kind).to.equal("function");
    expect(a.edge.kind).to.equal("conditional");
    expect(a.edge.kind === "conditional" && [...(a.edge.targets ?? [])]).to.deep.equal(["b", "sub"]);
    const sub = g.node("sub")!;
    expect(sub.kind.kind).to.equal("subgraph");
    expect(sub.kind.subgraphs?.map((c) => c.name)).to.deep.equal(["inner"]);
    expect(sub.edge).to.deep.equal({ kind: "static", to: "b" });
    expect(g.node("b")!.edge).to.deep.equal({ kind: "static", to: END });
    expect(Object.isFrozen(a)).to.equal(true);
  });

  it("routeAfter() follows static edges and evaluates conditional ones against the given state", async () => {
    const g = graph();
    expect(await g.routeAfter("sub", { n: 0, log: [] }, ctx)).to.equal("b");
    expect(await g.routeAfter("b", { n: 0, log: [] }, ctx)).to.equal(END);
    expect(await g.routeAfter("a", { n: 0, log: [] }, ctx)).to.equal("sub");
    expect(await g.routeAfter("a", { n: 1, log: [] }, ctx)).to.equal("b");
    let err: unknown;
    try {
      await g.routeAfter("nope", { n: 0, log: [] }, ctx);
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(RangeError);
  });

  it("routeAfter() raises edge_exception and routing_error as a live run does", async () => {
    const boom = new GraphBuilder(S)
      .addNode("a", noop).addNode("b", noop)
      .addConditionalEdge("a", (s) => {
        if (s.n === 1) throw new Error("edge boom");
        return (s.n === 2 ? "nowhere" : "b") as "b";
      })
      .addEdge("b", END).setEntry("a").compile();
    const raised = async (n: number) => {
      try {
        await boom.routeAfter("a", { n, log: [] }, ctx);
      } catch (e) {
        return e;
      }
      return undefined;
    };
    const e1 = await raised(1);
    expect(e1).to.be.instanceOf(EdgeException);
    expect((e1 as EdgeException).category).to.equal("edge_exception");
    expect((e1 as EdgeException).nodeName).to.equal("a");
    const e2 = await raised(2);
    expect(e2).to.be.instanceOf(RoutingError);
    expect((e2 as RoutingError).category).to.equal("routing_error");
    expect(await raised(0)).to.equal(undefined);
  });

  it("mergeUpdate() goes through the graph's reducers and validates changed fields", () => {
    const g = graph();
    const prior = g.schema.create({ n: 1, log: ["x"] });
    const next = g.mergeUpdate(prior, { n: 2, log: ["y"] });
    expect(next).to.deep.equal({ n: 2, log: ["x", "y"] });
    expect(Object.isFrozen(next)).to.equal(true);
    expect(g.mergeUpdate(prior, {})).to.equal(prior);
    let err: unknown;
    try {
      g.mergeUpdate(prior, { n: "two" } as unknown as { n: number }, { nodeName: "merger" });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StateValidationError);
    expect((err as StateValidationError).nodeName).to.equal("merger");
    expect((err as StateValidationError).state).to.equal(prior);
  });

  it("mergeUpdate() raises reducer_error when a reducer raises", () => {
    const failing = defineReducer("explodes", () => {
      throw new Error("reducer boom");
    });
    const g = new GraphBuilder(S).addNode("a", noop).addEdge("a", END).declareReducer("log", failing).setEntry("a").compile();
    let err: unknown;
    try {
      g.mergeUpdate(g.schema.create({}), { log: ["z"] });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ReducerError);
    expect((err as ReducerError).category).to.equal("reducer_error");
  });
});

describe("graph/merge: an appended list is validated by its new part", () => {
  const L = stateSchema({ fields: { xs: { type: "list<int>", default: [] } } });
  const g = new GraphBuilder(L).addNode("a", noop).addEdge("a", END).declareReducer("xs", append).setEntry("a").compile();

  it("accepts valid appends and reports a bad element at its index in the merged list", () => {
    const prior = g.mergeUpdate(g.schema.create({}), { xs: [1, 2, 3] });
    expect(g.mergeUpdate(prior, { xs: [4] })).to.deep.equal({ xs: [1, 2, 3, 4] });
    let err: unknown;
    try {
      g.mergeUpdate(prior, { xs: [4, "five"] } as unknown as { xs: number[] });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(StateValidationError);
    const issues = (err as StateValidationError).issues;
    expect(issues.map((i) => i.path)).to.deep.equal(["/xs/4"]);
  });

  it("a non-list append is a reducer_error, not a silent pass", () => {
    const prior = g.schema.create({});
    let err: unknown;
    try {
      g.mergeUpdate(prior, { xs: 7 } as unknown as { xs: number[] });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ReducerError);
  });
});

describe("graph/errors: messageOf renders any thrown value", () => {
  it("Error, cross-realm Error, string, JSON, and String() when JSON fails", async () => {
    const { messageOf } = await import("../../src/graph/index.ts");
    const { runInNewContext } = await import("node:vm");
    expect(messageOf(new Error("boom"))).to.equal("boom");
    expect(messageOf(runInNewContext("new Error('other realm')"))).to.equal("other realm");
    expect(messageOf("plain")).to.equal("plain");
    expect(messageOf({ code: 7 })).to.equal('{"code":7}');
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(messageOf(cyclic)).to.equal("[object Object]");
    expect(messageOf(undefined)).to.equal("undefined");
  });
});
