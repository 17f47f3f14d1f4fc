/**
 * Cancellation (`invoke({ signal })` → `ctx.signal`, one `invocation_cancelled` error) and runaway
 * loops (`maxSteps` → `step_limit_exceeded`; the `cycle_cannot_reach_end` compile warning) on plain
 * graphs and subgraphs. Fan-out and parallel branches: test/pipeline/invoke-cancellation.test.ts.
 */
import { expect } from "chai";
import {
  END,
  GraphBuilder,
  InvocationCancelledError,
  StepLimitExceededError,
  stateSchema,
  subgraphNode,
  type CompileWarning,
  type NodeContext,
} from "../../src/graph/index.ts";
import { fakeFetch, runtimeErrorOf } from "./helpers.ts";

const S = stateSchema({
  fields: {
    n: { type: "int", default: 0 },
    body: { type: "string", default: "" },
  },
});

describe("invoke({ signal }): the signal reaches the running node (ctx.signal)", () => {
  it("a node passing ctx.signal to fetch is interrupted; the invocation rejects with invocation_cancelled at that node", async () => {
    let aborted: boolean | undefined;
    const g = new GraphBuilder(S)
      .addNode("a", () => ({ n: 1 }))
      .addNode("call", async (_s, ctx) => {
        try {
          return { body: await fakeFetch(10_000, { signal: ctx.signal }) };
        } finally {
          aborted = ctx.signal.aborted;
        }
      })
      .addNode("after", () => ({ n: 99 }))
      .addEdge("a", "call")
      .addEdge("call", "after")
      .addEdge("after", END)
      .setEntry("a")
      .compile();
    const ac = new AbortController();
    const started = Date.now();
    setTimeout(() => ac.abort(), 30);
    const err = await runtimeErrorOf(g.invoke({}, { signal: ac.signal }));
    expect(Date.now() - started, "the 10 s fetch was interrupted").to.be.below(5_000);
    expect(aborted).to.equal(true);
    expect(err).to.be.instanceOf(InvocationCancelledError);
    expect(err.category).to.equal("invocation_cancelled");
    expect(err.nodeName).to.equal("call");
    expect(err.message).to.match(/^invocation cancelled while node "call" was running: /);
    expect((err.cause as Error).name, "the signal's reason").to.equal("AbortError");
    expect((err as InvocationCancelledError).reason).to.equal(ac.signal.reason);
    expect(err.state, "recoverable: the state before the interrupted node").to.deep.equal({ n: 1, body: "" });
    expect(err.executionOrder).to.deep.equal(["a", "call"]);
    expect(err.invocationId).to.be.a("string");
  });

  it("a node that ignores the signal finishes; the next node does not start (state includes its update)", async () => {
    const ran: string[] = [];
    const ac = new AbortController();
    const g = new GraphBuilder(S)
      .addNode("slow", async () => {
        ran.push("slow");
        ac.abort(new Error("user pressed stop"));
        await new Promise((r) => setTimeout(r, 10));
        return { n: 1 };
      })
      .addNode("next", () => (ran.push("next"), { n: 2 }))
      .addEdge("slow", "next")
      .addEdge("next", END)
      .setEntry("slow")
      .compile();
    const err = await runtimeErrorOf(g.invoke({}, { signal: ac.signal }));
    expect(ran).to.deep.equal(["slow"]);
    expect(err.category).to.equal("invocation_cancelled");
    expect(err.nodeName, "the node that did not start").to.equal("next");
    expect(err.message).to.equal('invocation cancelled before node "next" started: user pressed stop');
    expect(err.state).to.deep.equal({ n: 1, body: "" });
  });

  it("an edge function passing ctx.signal to fetch is interrupted too: invocation_cancelled (not edge_exception), state after the node", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", () => ({ n: 1 }))
      .addNode("b", () => ({ n: 2 }))
      .addConditionalEdge("a", async (_s, ctx) => ((await fakeFetch(10_000, { signal: ctx.signal })) === "body" ? "b" : END), { targets: ["b", END] })
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    const err = await runtimeErrorOf(g.invoke({}, { signal: ac.signal }));
    expect(err).to.be.instanceOf(InvocationCancelledError);
    expect(err.nodeName).to.equal("a");
    expect(err.state).to.deep.equal({ n: 1, body: "" });
  });

  it("without a signal, ctx.signal is a signal that never aborts", async () => {
    let seen: AbortSignal | undefined;
    const g = new GraphBuilder(S).addNode("a", (_s, ctx: NodeContext) => ((seen = ctx.signal), {})).addEdge("a", END).setEntry("a").compile();
    await g.invoke({});
    expect(seen).to.be.instanceOf(AbortSignal);
    expect(seen!.aborted).to.equal(false);
  });

  it("reaches a subgraph's inner node; the error is invocation_cancelled with the inner location and the outer recoverable state", async () => {
    const inner = new GraphBuilder(S)
      .addNode("fetch", async (_s, ctx) => ({ body: await fakeFetch(10_000, { signal: ctx.signal }) }))
      .addNode("inner_after", () => ({ n: 50 }))
      .addEdge("fetch", "inner_after")
      .addEdge("inner_after", END)
      .setEntry("fetch")
      .compile({ name: "inner" });
    const g = new GraphBuilder(S)
      .addNode("prep", () => ({ n: 7 }))
      .addNode("sub", subgraphNode(inner))
      .addEdge("prep", "sub")
      .addEdge("sub", END)
      .setEntry("prep")
      .compile({ name: "outer", onWarning: () => {} });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    const err = await runtimeErrorOf(g.invoke({}, { signal: ac.signal }));
    expect(err).to.be.instanceOf(InvocationCancelledError);
    expect(err.nodeName).to.equal("fetch");
    expect(err.namespace).to.deep.equal(["sub", "fetch"]);
    expect(err.outermostState, "the outer graph's state at subgraph entry").to.deep.equal({ n: 7, body: "" });
    expect(err.executionOrder).to.deep.equal(["prep", "sub"]);
  });
});

describe("maxSteps: an opt-in step limit", () => {
  /** `tick` loops back to itself forever (its edge declares only itself). */
  const loop = (options: { maxSteps?: number; onWarning?: (w: CompileWarning) => void } = {}) =>
    new GraphBuilder(S)
      .addNode("tick", (s) => ({ n: (s["n"] as number) + 1 }))
      .addConditionalEdge("tick", () => "tick", { targets: ["tick"] })
      .setEntry("tick")
      .compile({ onWarning: () => {}, ...options });

  it("invoke({ maxSteps }) stops a runaway loop with step_limit_exceeded carrying the recoverable state", async () => {
    const err = await runtimeErrorOf(loop().invoke({}, { maxSteps: 50 }));
    expect(err).to.be.instanceOf(StepLimitExceededError);
    expect(err.category).to.equal("step_limit_exceeded");
    expect((err as StepLimitExceededError).maxSteps).to.equal(50);
    expect(err.nodeName).to.equal("tick");
    expect(err.state, "exactly 50 node executions ran").to.deep.equal({ n: 50, body: "" });
    expect(err.message).to.match(/step limit exceeded: 50 node executions ran and node "tick" would start another/);
  });

  it("compile({ maxSteps }) bounds every invocation; invoke({ maxSteps }) overrides it", async () => {
    const g = loop({ maxSteps: 10 });
    expect((await runtimeErrorOf(g.invoke({}))).state).to.deep.equal({ n: 10, body: "" });
    expect((await runtimeErrorOf(g.invoke({}, { maxSteps: 25 }))).state).to.deep.equal({ n: 25, body: "" });
  });

  it("a run of exactly maxSteps completes; subgraph-internal steps count", async () => {
    const inner = new GraphBuilder(S)
      .addNode("i1", () => ({}))
      .addNode("i2", () => ({}))
      .addEdge("i1", "i2")
      .addEdge("i2", END)
      .setEntry("i1")
      .compile({ name: "inner" });
    const g = new GraphBuilder(S)
      .addNode("a", () => ({}))
      .addNode("sub", subgraphNode(inner))
      .addEdge("a", "sub")
      .addEdge("sub", END)
      .setEntry("a")
      .compile({ onWarning: () => {} });
    const done = await g.invoke({}, { maxSteps: 3 });
    expect(done.stepCount).to.equal(3);
    const err = await runtimeErrorOf(g.invoke({}, { maxSteps: 2 }));
    expect(err.category).to.equal("step_limit_exceeded");
    expect(err.namespace).to.deep.equal(["sub", "i2"]);
  });

  it("refuses a maxSteps that is not a positive integer", async () => {
    const g = loop();
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      let thrown: unknown;
      await g.invoke({}, { maxSteps: bad }).catch((e: unknown) => (thrown = e));
      expect(thrown, String(bad)).to.be.instanceOf(RangeError);
    }
    expect(() => loop({ maxSteps: 0 })).to.throw(RangeError, /maxSteps must be a positive integer/);
  });
});

describe("compile warning cycle_cannot_reach_end", () => {
  it("warns about a cycle with no path to END, naming its nodes", () => {
    const seen: CompileWarning[] = [];
    const g = new GraphBuilder(S)
      .addNode("start", () => ({}))
      .addNode("a", () => ({}))
      .addNode("b", () => ({}))
      .addEdge("start", "a")
      .addEdge("a", "b")
      .addConditionalEdge("b", () => "a", { targets: ["a"] })
      .setEntry("start")
      .compile({ name: "trap", onWarning: (w) => seen.push(w) });
    expect(g.warnings).to.have.length(1);
    expect(g.warnings[0]!.category).to.equal("cycle_cannot_reach_end");
    expect(g.warnings[0]!.graph).to.equal("trap");
    expect(g.warnings[0]!.node).to.equal("start");
    expect(g.warnings[0]!.message).to.contain('"start", "a", "b" have no path to END');
    expect(seen).to.deep.equal([...g.warnings]);
  });

  it("does not warn when the cycle has an exit (END target, undeclared targets, or a terminal node)", () => {
    const base = () => new GraphBuilder(S).addNode("a", () => ({})).addNode("b", () => ({})).addNode("out", () => ({})).addEdge("a", "b").setEntry("a");
    const graphs = [
      base().addConditionalEdge("b", () => "a", { targets: ["a", "out"] }), // "out" has no edge: terminal
      base().addConditionalEdge("b", () => "a", { targets: ["a", "out", END] }).addEdge("out", END),
      base().addConditionalEdge("b", () => "a").addEdge("out", END), // no declared targets: may return END
    ];
    for (const b of graphs) expect(b.compile({ onWarning: () => {} }).warnings).to.deep.equal([]);
  });
});
