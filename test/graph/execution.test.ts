import { expect } from "chai";
import {
  currentNodeContext,
  defineState,
  EdgeException,
  END,
  field,
  GraphBuilder,
  InvocationCancelledError,
  NodeException,
  RoutingError,
  stateSchema,
  append,
  type NodeContext,
} from "../../src/graph/index.ts";
import { runtimeErrorOf, sleep } from "./helpers.ts";

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const S = defineState({
  count: field.int().default(0),
  log: field.list(field.string()).default([]).reducer(append),
  greeting: field.string().default(""),
});

describe("graph/execution: §3 execution model", () => {
  it("runs a linear static flow and reports the execution order", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", async () => ({ greeting: "hello", log: ["a"] }))
      .addNode("b", async () => ({ greeting: "hello world", log: ["b"] }))
      .addNode("c", async () => ({ log: ["c"] }))
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addEdge("c", END)
      .setEntry("a")
      .compile();
    const r = await g.invoke({});
    expect(r.outcome).to.equal("completed");
    expect(r.state).to.deep.equal({ count: 0, greeting: "hello world", log: ["a", "b", "c"] });
    expect(r.executionOrder).to.deep.equal(["a", "b", "c"]);
    expect(r.stepCount).to.equal(3);
  });

  it("evaluates conditional edges against the post-update state", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", async () => ({ count: 1, log: ["a"] }))
      .addNode("b", async () => ({ log: ["b"] }))
      .addConditionalEdge("a", (s) => (s.count === 1 ? END : "b"))
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    const r = await g.invoke({ count: 0 });
    expect(r.state.log).to.deep.equal(["a"]);
    expect(r.executionOrder).to.deep.equal(["a"]);
  });

  it("accepts async edge functions and sync node functions", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", (s) => ({ count: s.count + 1 }))
      .addConditionalEdge("a", async (s) => (await sleep(1), s.count < 3 ? "a" : END))
      .setEntry("a")
      .compile();
    expect((await g.invoke()).state.count).to.equal(3);
  });

  it("END is a sentinel distinct from a node named \"END\"", async () => {
    const g = new GraphBuilder(S)
      .addNode("start", async () => ({ log: ["start"] }))
      .addNode("END", async () => ({ log: ["node END"] }))
      .addEdge("start", "END")
      .addEdge("END", END)
      .setEntry("start")
      .compile();
    expect((await g.invoke()).state.log).to.deep.equal(["start", "node END"]);
  });

  it("runs a 10,000-iteration conditional loop in one invocation (no step limit)", async () => {
    const g = new GraphBuilder(S)
      .addNode("tick", async (s) => ({ count: s.count + 1 }))
      .addConditionalEdge("tick", (s) => (s.count < 10_000 ? "tick" : END))
      .setEntry("tick")
      .compile();
    const r = await g.invoke();
    expect(r.state.count).to.equal(10_000);
    expect(r.stepCount).to.equal(10_000);
    expect(r.executionOrder).to.have.length(10_000);
  });

  it("is deterministic: same inputs, same final state and order", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", async () => ({ count: 1, log: ["a"] }))
      .addNode("b", async () => ({ count: 2, log: ["b"] }))
      .addNode("c", async () => ({ count: 3, log: ["c"] }))
      .addConditionalEdge("a", (s) => (s.count === 1 ? "b" : "c"))
      .addEdge("b", "c")
      .addEdge("c", END)
      .setEntry("a")
      .compile();
    const [r1, r2] = [await g.invoke(), await g.invoke()];
    expect(r1.state).to.deep.equal(r2.state);
    expect(r1.executionOrder).to.deep.equal(["a", "b", "c"]);
    expect(r2.executionOrder).to.deep.equal(r1.executionOrder);
  });

  it("skips undefined values in updates and treats a void return as no update", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", async () => ({ count: undefined, greeting: "x" }))
      .addNode("b", async () => undefined)
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    expect((await g.invoke({ count: 7 })).state).to.include({ count: 7, greeting: "x" });
  });
});

describe("graph/execution: §4 errors", () => {
  const failing = (err: unknown) =>
    new GraphBuilder(S)
      .addNode("a", async () => ({ log: ["a"] }))
      .addNode("b", async () => {
        throw err;
      })
      .addNode("c", async () => ({ log: ["c"] }))
      .addEdge("a", "b")
      .addEdge("b", "c")
      .addEdge("c", END)
      .setEntry("a")
      .compile();

  it("wraps a node's exception in a node_exception carrier with cause, node, recoverable state, order", async () => {
    const boom = new Error("boom");
    const err = await runtimeErrorOf(failing(boom).invoke({}, { invocationId: "inv-1" }));
    expect(err).to.be.instanceOf(NodeException);
    expect(err.category).to.equal("node_exception");
    expect(err.isCarrier).to.equal(true);
    expect(err.cause).to.equal(boom);
    expect(err.message).to.equal("boom");
    expect(err.nodeName).to.equal("b");
    expect(err.raisedFrom).to.equal("b");
    expect(err.namespace).to.deep.equal(["b"]);
    expect(err.state).to.deep.equal({ count: 0, greeting: "", log: ["a"] });
    expect(err.executionOrder).to.deep.equal(["a", "b"]);
    expect(err.invocationId).to.equal("inv-1");
  });

  it("wraps non-Error throws too", async () => {
    const err = await runtimeErrorOf(failing("plain string").invoke());
    expect(err.category).to.equal("node_exception");
    expect(err.cause).to.equal("plain string");
  });

  it("a node returning a non-mapping is a node_exception", async () => {
    const g = new GraphBuilder(S).addNode("a", async () => [1, 2] as never).addEdge("a", END).setEntry("a").compile();
    const err = await runtimeErrorOf(g.invoke());
    expect(err.category).to.equal("node_exception");
    expect(err.cause).to.be.instanceOf(TypeError);
  });

  it("routing_error: a conditional edge returning an undeclared node, with post-merge recoverable state", async () => {
    let bRan = false;
    const g = new GraphBuilder(stateSchema({ fields: { v: { type: "string", default: "" } } }))
      .addNode("a", async () => ({ v: "a" }))
      .addNode("b", async () => ((bRan = true), { v: "b" }))
      .addConditionalEdge("a", (s) => (s["v"] === "nope" ? "b" : "ghost"))
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    const err = await runtimeErrorOf(g.invoke());
    expect(err).to.be.instanceOf(RoutingError);
    expect(err.category).to.equal("routing_error");
    expect((err as RoutingError).destination).to.equal("ghost");
    expect(err.nodeName).to.equal("a");
    expect(err.state).to.deep.equal({ v: "a" });
    expect(bRan).to.equal(false);
  });

  it("routing_error for non-string returns, the string \"END\", and undeclared targets", async () => {
    const make = (ret: unknown, targets?: string[]) =>
      new GraphBuilder(S)
        .addNode("a", async () => ({}))
        .addNode("b", async () => ({}))
        .addConditionalEdge("a", () => ret as string, targets ? { targets } : {})
        .addEdge("b", END)
        .setEntry("a")
        .compile();
    for (const ret of [undefined, 42, "END"]) {
      expect((await runtimeErrorOf(make(ret).invoke())).category, String(ret)).to.equal("routing_error");
    }
    expect((await runtimeErrorOf(make("a", ["b"]).invoke())).category).to.equal("routing_error");
  });

  it("edge_exception: an edge function that raises (sync or async) is a carrier", async () => {
    for (const fn of [
      () => {
        throw new Error("edge function failed");
      },
      async () => {
        throw new Error("edge function failed");
      },
    ]) {
      const g = new GraphBuilder(S).addNode("a", async () => ({ count: 1 })).addNode("b", async () => ({})).addConditionalEdge("a", fn).addEdge("b", END).setEntry("a").compile();
      const err = await runtimeErrorOf(g.invoke());
      expect(err).to.be.instanceOf(EdgeException);
      expect(err.category).to.equal("edge_exception");
      expect(err.isCarrier).to.equal(true);
      expect((err.cause as Error).message).to.equal("edge function failed");
      expect(err.state).to.include({ count: 1 });
    }
  });

  it("a node invoking another graph that fails gets that error wrapped (separate invocation)", async () => {
    const innerErr = failing(new Error("deep"));
    const g = new GraphBuilder(S)
      .addNode("outer", async () => {
        await innerErr.invoke();
        return {};
      })
      .addEdge("outer", END)
      .setEntry("outer")
      .compile();
    const err = await runtimeErrorOf(g.invoke());
    expect(err.nodeName).to.equal("outer");
    expect(err.cause).to.be.instanceOf(NodeException);
    expect((err.cause as NodeException).nodeName).to.equal("b");
  });
});

describe("graph/execution: invocation context", () => {
  it("mints UUIDv4 invocation and correlation ids, or uses the caller's verbatim", async () => {
    const seen: NodeContext[] = [];
    const g = new GraphBuilder(S).addNode("a", async (_s, ctx) => (seen.push(ctx), {})).addEdge("a", END).setEntry("a").compile();
    const r1 = await g.invoke();
    const r2 = await g.invoke();
    expect(r1.invocationId).to.match(UUID4);
    expect(r1.correlationId).to.match(UUID4);
    expect(r1.invocationId).to.not.equal(r2.invocationId);
    expect(seen[0]!.invocationId).to.equal(r1.invocationId);
    const r3 = await g.invoke({}, { invocationId: "my-id", correlationId: "req-7", metadata: { tenant: "t1" } });
    expect(r3.invocationId).to.equal("my-id");
    expect(seen[2]!.correlationId).to.equal("req-7");
    expect(seen[2]!.metadata).to.deep.equal({ tenant: "t1" });
    expect(seen[2]!.namespace).to.deep.equal(["a"]);
    expect(seen[2]!.step).to.equal(0);
    expect(seen[2]!.attemptIndex).to.equal(0);
    try {
      await g.invoke({}, { invocationId: "" });
      expect.fail("accepted an empty id");
    } catch (e) {
      expect(e).to.be.instanceOf(RangeError);
    }
  });

  it("exposes the node context through AsyncLocalStorage anywhere in the node's call tree", async () => {
    const helper = async () => {
      await sleep(1);
      return currentNodeContext();
    };
    let viaAls: NodeContext | undefined;
    const g = new GraphBuilder(S).addNode("deep", async () => ((viaAls = await helper()), {})).addEdge("deep", END).setEntry("deep").compile();
    const r = await g.invoke();
    expect(viaAls?.nodeName).to.equal("deep");
    expect(viaAls?.invocationId).to.equal(r.invocationId);
    expect(currentNodeContext()).to.equal(undefined);
  });

  it("keeps concurrent invocations' contexts apart", async () => {
    const g = new GraphBuilder(S)
      .addNode("a", async (s) => {
        await sleep(5 - s.count);
        return { greeting: currentNodeContext()!.invocationId };
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const rs = await Promise.all([0, 1, 2, 3].map((i) => g.invoke({ count: i }, { invocationId: `inv-${i}` })));
    expect(rs.map((r) => r.state.greeting)).to.deep.equal(["inv-0", "inv-1", "inv-2", "inv-3"]);
  });
});

describe("execution yields to the event loop", () => {
  it("a long loop of instant nodes lets timers fire while it runs (no starvation)", async () => {
    let n = 0;
    const g = new GraphBuilder(stateSchema({ fields: { n: { type: "int", default: 0 } } }))
      .addNode("a", async () => ({ n: ++n }))
      .addConditionalEdge("a", () => (n >= 20_000 ? END : "a"))
      .setEntry("a")
      .compile();
    let firedAt = -1;
    const t = setTimeout(() => (firedAt = n), 0);
    await g.invoke({});
    clearTimeout(t);
    if (firedAt < 0 || firedAt >= 20_000) throw new Error(`the timer fired only after the loop ended (at n=${firedAt})`);
  });
});

describe("invoke({ signal }): cancellation", () => {
  it("an aborted signal stops an endless loop at the next node boundary with one invocation_cancelled error", async () => {
    let n = 0;
    const g = new GraphBuilder(stateSchema({ fields: { n: { type: "int", default: 0 } } }))
      .addNode("a", async () => ({ n: ++n }))
      .addConditionalEdge("a", () => "a")
      .setEntry("a")
      .compile();
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error("stop now")), 20);
    const err = await g.invoke({}, { signal: ac.signal }).then(() => null, (e: unknown) => e as Error);
    expect(err).to.be.instanceOf(InvocationCancelledError);
    expect((err as InvocationCancelledError).category).to.equal("invocation_cancelled");
    expect(err?.message).to.equal('invocation cancelled before node "a" started: stop now');
    expect((err?.cause as Error).message).to.equal("stop now");
    expect((err as InvocationCancelledError).state, "the recoverable state: every completed node's update").to.deep.equal({ n });
    const at = n;
    await new Promise((r) => setTimeout(r, 20));
    expect(n, "no node ran after the abort").to.equal(at);
  });

  it("an already-aborted signal runs no node", async () => {
    let ran = false;
    const g = new GraphBuilder(stateSchema({ fields: {} })).addNode("a", async () => ((ran = true), {})).addEdge("a", END).setEntry("a").compile();
    const err = await g.invoke({}, { signal: AbortSignal.abort(new Error("never")) }).then(() => null, (e: unknown) => e as Error);
    expect(err).to.be.instanceOf(InvocationCancelledError);
    expect((err?.cause as Error).message).to.equal("never");
    expect((err as InvocationCancelledError).nodeName).to.equal("a");
    expect(ran).to.equal(false);
  });
});
