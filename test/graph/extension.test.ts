import { expect } from "chai";
import {
  append,
  isNodeEvent,
  stateSchema,
  defineState,
  drain,
  emitEvent,
  END,
  field,
  GraphBuilder,
  GraphInterrupt,
  inNodeBody,
  NodeException,
  withAttemptIndex,
  type CompiledGraph,
  type Middleware,
  type NodeEvent,
  type NodeKind,
  type ObserverEvent,
  type StateRecord,
  type StateOf,
  type UpdateOf,
} from "../../src/graph/index.ts";
import { brief, recorder, runtimeErrorOf, sleep } from "./helpers.ts";

const Leaf = defineState({ x: field.int().default(0), result: field.int().default(0) });
const leaf = new GraphBuilder(Leaf)
  .addNode("compute", async (s) => (await sleep((4 - s.x) * 8), { result: s.x * 2 }))
  .addEdge("compute", END)
  .setEntry("compute")
  .compile({ name: "leaf" });

/** A minimal fan-out built only on the public NodeKind seam (what pipeline-utilities §9 will do). */
function miniFanOut(sub: CompiledGraph<StateRecord, unknown>, itemsField: string, itemField: string, collect: string, target: string): NodeKind {
  return {
    kind: "fan_out",
    subgraphs: [sub],
    eventFields: (s) => ({
      fanOutConfig: { itemCount: (s[itemsField] as unknown[]).length, concurrency: null, errorPolicy: "fail_fast", parentNodeName: "process" },
    }),
    async run(state, ctx) {
      const items = state[itemsField] as unknown[];
      const finals = await Promise.all(items.map((item, i) => ctx.runSubgraph(sub, { [itemField]: item }, { fanOutIndex: i })));
      return { [target]: finals.map((f) => f[collect]) };
    },
  };
}

describe("graph/extension: composite node kinds (fan-out seam)", () => {
  const P = defineState({ items: field.list(field.int()).default([1, 2, 3]), results: field.list(field.int()).default([]).reducer(append) });

  it("runs child graphs concurrently with fan_out_index lineage and its own event fields", async () => {
    const g = new GraphBuilder(P)
      .addNode("pre", async () => ({}))
      .addNode("process", miniFanOut(leaf as never, "items", "x", "result", "results"))
      .addEdge("pre", "process")
      .addEdge("process", END)
      .setEntry("pre")
      .compile();
    const o = recorder();
    const r = await g.invoke({}, { observers: [o] });
    await drain();
    expect(r.state.results).to.deep.equal([2, 4, 6]);
    expect(r.executionOrder).to.deep.equal(["pre", "process"]);
    const proc = o.events.filter((e) => e.nodeName === "process");
    expect(proc.map((e) => e.phase)).to.deep.equal(["started", "completed"]);
    for (const e of proc) {
      expect(e.fanOutConfig).to.deep.equal({ itemCount: 3, concurrency: null, errorPolicy: "fail_fast", parentNodeName: "process" });
      expect("fanOutIndex" in e).to.equal(false);
    }
    const inner = o.events.filter((e) => e.nodeName === "compute");
    expect(inner).to.have.length(6);
    expect(new Set(inner.map((e) => e.fanOutIndex))).to.deep.equal(new Set([0, 1, 2]));
    for (const e of inner) {
      expect(e.namespace).to.deep.equal(["process", "compute"]);
      expect(e.fanOutIndexChain).to.deep.equal([e.fanOutIndex]);
      expect(e.branchNameChain).to.deep.equal([null]);
      expect(e.parentStates).to.have.length(1);
      expect("fanOutConfig" in e).to.equal(false);
    }
    // concurrency: item 3 (shortest sleep) finishes first
    expect(inner.filter((e) => e.phase === "completed")[0]!.fanOutIndex).to.equal(2);
    const steps = o.events.map((e) => e.step);
    expect(new Set(steps).size).to.equal(5);
  });

  it("child errors propagate unchanged through the composite and land on its completed event", async () => {
    const bad = new GraphBuilder(Leaf).addNode("compute", async () => { throw new Error("instance failed"); }).addEdge("compute", END).setEntry("compute").compile();
    const g = new GraphBuilder(P).addNode("process", miniFanOut(bad as never, "items", "x", "result", "results")).addEdge("process", END).setEntry("process").compile();
    const o = recorder();
    const err = await runtimeErrorOf(g.invoke({ items: [1] }, { observers: [o] }));
    await drain();
    expect(err).to.be.instanceOf(NodeException);
    expect(err.nodeName).to.equal("compute");
    expect(err.namespace).to.deep.equal(["process", "compute"]);
    const completed = o.events.find((e) => e.nodeName === "process" && e.phase === "completed")!;
    expect(completed.error).to.equal(err);
  });

  it("suppressCompletedEvent drops a failing attempt's completed event", async () => {
    const kind: NodeKind = {
      kind: "empty_raises",
      run(_s, ctx) {
        ctx.suppressCompletedEvent();
        throw new Error("fan_out_empty");
      },
    };
    const g = new GraphBuilder(P).addNode("process", kind).addEdge("process", END).setEntry("process").compile();
    const o = recorder();
    const err = await runtimeErrorOf(g.invoke({}, { observers: [o] }));
    await drain();
    expect(err.category).to.equal("node_exception");
    expect(o.events.map((e) => e.phase)).to.deep.equal(["started"]);
  });
});

describe("graph/extension: middleware seam", () => {
  const S = defineState({ trace: field.list(field.string()).default([]).reducer(append), v: field.int().default(0) });
  const marker = (name: string): Middleware<StateOf<typeof S>, UpdateOf<typeof S>> =>
    async (s, next) => {
      const u = await next(s);
      return { ...u, trace: [`${name}.pre`, ...(u.trace ?? []), `${name}.post`] };
    };

  it("composes per-graph outside per-node, outer to inner", async () => {
    const g = new GraphBuilder(S)
      .use(marker("graph"))
      .addNode("a", async () => ({ trace: ["a"] }), { middleware: [marker("n1"), marker("n2")] })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    expect((await g.invoke()).state.trace).to.deep.equal(["graph.pre", "n1.pre", "n2.pre", "a", "n2.post", "n1.post", "graph.post"]);
  });

  it("a middleware raising before next() is a node_exception carrier; the node never ran", async () => {
    const pre = new Error("circuit open");
    const g = new GraphBuilder(S)
      .addNode("a", async () => ({ v: 1 }), { middleware: [async () => { throw pre; }] })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const o = recorder();
    const err = await runtimeErrorOf(g.invoke({}, { observers: [o] }));
    await drain();
    expect(err).to.be.instanceOf(NodeException);
    expect(err.cause).to.equal(pre);
    expect(err.nodeName).to.equal("a");
    expect(err.executionOrder).to.deep.equal([]);
    expect(o.events).to.deep.equal([]);
  });

  it("a short-circuiting middleware means the node never ran: no events, no execution order", async () => {
    let ran = false;
    const g = new GraphBuilder(S)
      .addNode("a", async () => ((ran = true), { trace: ["a"] }), { middleware: [async () => ({ trace: ["short"] })] })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const o = recorder();
    const r = await g.invoke({}, { observers: [o] });
    await drain();
    expect(ran).to.equal(false);
    expect(r.state.trace).to.deep.equal(["short"]);
    expect(r.executionOrder).to.deep.equal([]);
    expect(o.events).to.deep.equal([]);
  });

  it("retry via withAttemptIndex: one event pair per attempt, same step, attempt_index 0..n", async () => {
    let calls = 0;
    const retry: Middleware<StateOf<typeof S>, UpdateOf<typeof S>> = async (s, next) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await withAttemptIndex(attempt, () => next(s));
        } catch (e) {
          // Middleware sees the node's own exception, not the engine's carrier (pipeline-utilities §6.3).
          expect(e).to.not.be.instanceOf(NodeException);
          expect((e as Error).message).to.equal(`throttle ${attempt}`);
          if (attempt >= 2) throw e;
        }
      }
    };
    const g = new GraphBuilder(S)
      .addNode("target", async (_s, ctx) => {
        calls++;
        if (ctx.attemptIndex < 2) throw new Error(`throttle ${ctx.attemptIndex}`);
        return { v: 7 };
      }, { middleware: [retry] })
      .addEdge("target", END)
      .setEntry("target")
      .compile();
    const o = recorder();
    const r = await g.invoke({}, { observers: [o] });
    await drain();
    expect(calls).to.equal(3);
    expect(r.executionOrder).to.deep.equal(["target"]);
    expect(o.events.map((e) => [e.step, e.phase, e.attemptIndex, e.error?.category ?? (e.postState ? "ok" : "-")])).to.deep.equal([
      [0, "started", 0, "-"],
      [0, "completed", 0, "node_exception"],
      [0, "started", 1, "-"],
      [0, "completed", 1, "node_exception"],
      [0, "started", 2, "-"],
      [0, "completed", 2, "ok"],
    ]);
  });

  it("an inner middleware raising after the body succeeded closes that attempt before a re-attempt", async () => {
    let n = 0;
    const flakyPost: Middleware<StateOf<typeof S>, UpdateOf<typeof S>> = async (s, next) => {
      const u = await next(s);
      if (n++ === 0) throw new Error("post-phase failure");
      return u;
    };
    const retryOnce: Middleware<StateOf<typeof S>, UpdateOf<typeof S>> = async (s, next) => {
      try {
        return await withAttemptIndex(0, () => next(s));
      } catch (e) {
        expect(e).to.not.be.instanceOf(NodeException);
        expect((e as Error).message).to.equal("post-phase failure");
        return withAttemptIndex(1, () => next(s));
      }
    };
    const g = new GraphBuilder(S)
      .addNode("a", async () => ({ v: 1 }), { middleware: [retryOnce, flakyPost] })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const o = recorder();
    await g.invoke({}, { observers: [o] });
    await drain();
    expect(o.events.map((e) => [e.phase, e.attemptIndex, e.error ? "error" : e.postState ? "ok" : "-"])).to.deep.equal([
      ["started", 0, "-"],
      ["completed", 0, "error"],
      ["started", 1, "-"],
      ["completed", 1, "ok"],
    ]);
  });

  it("attempt index propagates transitively into a retried subgraph's nodes", async () => {
    const inner = new GraphBuilder(S).addNode("i", async () => ({ v: 1 })).addEdge("i", END).setEntry("i").compile({ name: "inner" });
    const twice: Middleware<StateRecord, object> = async (s, next) => {
      await withAttemptIndex(0, () => next(s));
      return withAttemptIndex(1, () => next(s));
    };
    const g = new GraphBuilder(S).addSubgraph("sub", inner, {}, { middleware: [twice as never] }).addEdge("sub", END).setEntry("sub").compile();
    const o = recorder();
    await g.invoke({}, { observers: [o] });
    await drain();
    expect(o.events.map((e) => [e.namespace.join("/"), e.phase, e.attemptIndex, e.step])).to.deep.equal([
      ["sub/i", "started", 0, 0],
      ["sub/i", "completed", 0, 0],
      ["sub/i", "started", 1, 1],
      ["sub/i", "completed", 1, 1],
    ]);
  });
});

describe("graph/extension: suspension, hooks, resume, typed events", () => {
  const S = defineState({ trace: field.list(field.string()).default([]).reducer(append) });

  it("a GraphInterrupt produces a suspended event and outcome (not an error)", async () => {
    const inner = new GraphBuilder(S)
      .addNode("ask", async () => {
        throw new GraphInterrupt({ signalId: "approval" });
      })
      .addEdge("ask", END)
      .setEntry("ask")
      .compile();
    const g = new GraphBuilder(S).addNode("a", async () => ({ trace: ["a"] })).addSubgraph("sub", inner).addEdge("a", "sub").addEdge("sub", END).setEntry("a").compile();
    const o = recorder();
    const r = await g.invoke({}, { observers: [o] });
    await drain();
    expect(r.outcome).to.equal("suspended");
    if (r.outcome !== "suspended") return;
    expect(r.nodeName).to.equal("ask");
    expect(r.namespace).to.deep.equal(["sub", "ask"]);
    expect(r.state).to.deep.equal({ trace: ["a"] });
    expect(r.interrupt.descriptor).to.deep.equal({ signalId: "approval" });
    const last = o.events.at(-1)!;
    expect(last.phase).to.equal("suspended");
    expect(last.descriptor).to.deep.equal({ signalId: "approval" });
    expect("postState" in last || "error" in last).to.equal(false);
  });

  it("onNodeCompleted hooks are awaited inline after every completed event (success and failure)", async () => {
    const order: string[] = [];
    const g = new GraphBuilder(S)
      .addNode("a", async () => (order.push("body a"), {}))
      .addNode("b", async () => {
        order.push("body b");
        throw new Error("b failed");
      })
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile({
        hooks: {
          async onNodeCompleted(e: NodeEvent) {
            await sleep(5);
            order.push(`saved ${e.nodeName} ${e.error ? "error" : "ok"}`);
          },
        },
      });
    await runtimeErrorOf(g.invoke());
    expect(order).to.deep.equal(["body a", "saved a ok", "body b", "saved b error"]);
  });

  it("startAt resumes at a node, and inside a subgraph at an inner node with its state", async () => {
    const ran: string[] = [];
    const inner = new GraphBuilder(S)
      .addNode("step_one", async () => (ran.push("step_one"), { trace: ["one"] }))
      .addNode("step_two", async () => (ran.push("step_two"), { trace: ["two"] }))
      .addEdge("step_one", "step_two")
      .addEdge("step_two", END)
      .setEntry("step_one")
      .compile();
    const g = new GraphBuilder(S)
      .addNode("first", async () => (ran.push("first"), { trace: ["first"] }))
      .addSubgraph("dispatch", inner)
      .addEdge("first", "dispatch")
      .addEdge("dispatch", END)
      .setEntry("first")
      .compile();
    const r = await g.invoke({}, { startAt: { node: "dispatch", state: { trace: ["first"] }, inner: { node: "step_two", state: { trace: ["one"] } } }, startStep: 2 });
    expect(ran).to.deep.equal(["step_two"]);
    expect(r.state.trace).to.deep.equal(["first", "one", "two"]);
    expect(r.stepCount).to.equal(3);
    try {
      await g.invoke({}, { startAt: { node: "ghost" } });
      expect.fail("accepted an unknown start node");
    } catch (e) {
      expect(e).to.be.instanceOf(RangeError);
    }
  });

  it("emitEvent puts typed events on the current invocation's queue, in order", async () => {
    const got: ObserverEvent[] = [];
    expect(emitEvent({ kind: "probe" } as unknown as ObserverEvent)).to.equal(false);
    const g = new GraphBuilder(S)
      .addNode("a", async () => {
        expect(emitEvent({ kind: "probe", invocationId: "?" } as unknown as ObserverEvent)).to.equal(true);
        return {};
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    await g.invoke({}, { observers: [(e) => void got.push(e)] });
    await drain();
    expect(got.map((e) => (e.kind === "node" ? brief(e as NodeEvent)["phase"] : e.kind))).to.deep.equal(["started", "probe", "completed"]);
  });
});

describe("graph/extension: errors seen by middleware", () => {
  it("middleware catches the raw node error; escaping the chain it surfaces as the carrier its event held", async () => {
    const S2 = stateSchema({ fields: { v: { type: "int", default: 0 } } });
    const seen: unknown[] = [];
    const spy: Middleware<StateRecord, StateRecord> = async (s, next) => {
      try {
        return await next(s);
      } catch (e) {
        seen.push(e);
        throw e;
      }
    };
    const boom = new Error("boom");
    const g = new GraphBuilder(S2).addNode("a", async () => { throw boom; }, { middleware: [spy as never] }).addEdge("a", END).setEntry("a").compile();
    const events: NodeEvent[] = [];
    const err = await g.invoke({}, { observers: [(e) => { if (isNodeEvent(e)) events.push(e); }] }).then(() => null, (e: unknown) => e);
    await drain();
    expect(seen).to.deep.equal([boom]);
    expect(err).to.be.instanceOf(NodeException);
    expect((err as Error).cause).to.equal(boom);
    const completed = events.find((e) => e.phase === "completed");
    expect(completed?.error).to.equal(err);
  });
});

describe("graph/extension: a failed attempt that middleware recovers", () => {
  const S3 = stateSchema({ fields: { v: { type: "int", default: 0 } } });
  const run = async (middleware: Middleware<StateRecord, StateRecord>[]) => {
    const events: NodeEvent[] = [];
    const g = new GraphBuilder(S3)
      .addNode("a", async () => {
        throw new Error("boom");
      }, { middleware: middleware as never })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const r = await g.invoke({}, { observers: [(e) => void (isNodeEvent(e) && events.push(e))] }).then((x) => x, (e: unknown) => e);
    await drain();
    return { r, events: events.map((e) => [e.phase, e.attemptIndex, e.error ? "error" : e.postState ? `post v=${String(e.postState.v)}` : "-"]) };
  };

  it("recovered in the same attempt: its completed event carries the merged post_state, no error (pipeline-utilities §2)", async () => {
    const recover: Middleware<StateRecord, StateRecord> = async (s, next) => next(s).catch(() => ({ v: 99 }));
    const { events } = await run([recover]);
    expect(events).to.deep.equal([["started", 0, "-"], ["completed", 0, "post v=99"]]);
  });

  it("an error that left a retry scope (withAttemptIndex) closed its attempt with the error first", async () => {
    const recoverOutside: Middleware<StateRecord, StateRecord> = async (s, next) => next(s).catch(() => ({ v: 7 }));
    const retryTwice: Middleware<StateRecord, StateRecord> = async (s, next) => {
      try {
        return await withAttemptIndex(0, () => next(s));
      } catch {
        return withAttemptIndex(1, () => next(s));
      }
    };
    const { events } = await run([recoverOutside, retryTwice]);
    expect(events).to.deep.equal([
      ["started", 0, "-"],
      ["completed", 0, "error"],
      ["started", 1, "-"],
      ["completed", 1, "error"],
    ]);
  });
});

describe("inNodeBody(): the node body vs its middleware", () => {
  it("false outside a node and in middleware before / after next(); true in the body (across its awaits)", async () => {
    const seen: Array<[string, boolean]> = [];
    const S = defineState({ x: field.int().default(0) });
    const mw: Middleware = async (s, next) => {
      seen.push(["pre", inNodeBody()]);
      const u = await next(s);
      seen.push(["post", inNodeBody()]);
      return u;
    };
    const g = new GraphBuilder(S)
      .addNode(
        "wrapped",
        async () => {
          seen.push(["body", inNodeBody()]);
          await sleep(1);
          seen.push(["body-after-await", inNodeBody()]);
          withAttemptIndex(0, () => seen.push(["body-in-attempt-scope", inNodeBody()]));
          return {};
        },
        { middleware: [mw as never] },
      )
      .addNode("plain", () => (seen.push(["plain", inNodeBody()]), {}))
      .addEdge("wrapped", "plain")
      .addEdge("plain", END)
      .setEntry("wrapped")
      .compile();
    await g.invoke({});
    seen.push(["outside", inNodeBody()]);
    expect(seen).to.deep.equal([["pre", false], ["body", true], ["body-after-await", true], ["body-in-attempt-scope", true], ["post", false], ["plain", true], ["outside", false]]);
  });
});
