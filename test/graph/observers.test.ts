import { expect } from "chai";
import { append, defineState, drain, END, field, GraphBuilder, isNodeEvent, type NodeEvent, type ObserverErrorReport, type ObserverEvent } from "../../src/graph/index.ts";
import { toSpecEvent } from "../../src/internal.ts";
import { brief, recorder, runtimeErrorOf, sleep } from "./helpers.ts";

const S = defineState({ v: field.int().default(0), trace: field.list(field.string()).default([]).reducer(append) });

function linear(name = "outer") {
  return new GraphBuilder(S)
    .addNode("a", async () => ({ v: 1, trace: ["a"] }))
    .addNode("b", async () => ({ v: 2, trace: ["b"] }))
    .addNode("c", async () => ({ v: 3, trace: ["c"] }))
    .addEdge("a", "b")
    .addEdge("b", "c")
    .addEdge("c", END)
    .setEntry("a")
    .compile({ name });
}

describe("graph/observers: event shape and delivery order", () => {
  it("delivers started/completed pairs with step, namespace, pre/post state; graph-attached before invocation-scoped", async () => {
    const g = linear();
    const log: string[] = [];
    const og = recorder(log, "graph");
    const detach = g.attachObserver(og);
    const oi = recorder(log, "invoke");
    const r = await g.invoke({}, { observers: [oi] });
    await g.drain();
    detach();
    expect(og.events.map(brief)).to.deep.equal([
      { step: 0, phase: "started", node: "a", ns: "a" },
      { step: 0, phase: "completed", node: "a", ns: "a", post: { v: 1, trace: ["a"] } },
      { step: 1, phase: "started", node: "b", ns: "b" },
      { step: 1, phase: "completed", node: "b", ns: "b", post: { v: 2, trace: ["a", "b"] } },
      { step: 2, phase: "started", node: "c", ns: "c" },
      { step: 2, phase: "completed", node: "c", ns: "c", post: { v: 3, trace: ["a", "b", "c"] } },
    ]);
    expect(oi.events).to.deep.equal(og.events);
    expect(log.slice(0, 4)).to.deep.equal(["graph:0:started:a", "invoke:0:started:a", "graph:0:completed:a", "invoke:0:completed:a"]);
    const e = og.events[1]!;
    expect(e.kind).to.equal("node");
    expect(e.preState).to.deep.equal({ v: 0, trace: [] });
    expect(e.parentStates).to.deep.equal([]);
    expect(e.attemptIndex).to.equal(0);
    expect(e.fanOutIndexChain).to.deep.equal([]);
    expect(e.branchNameChain).to.deep.equal([]);
    expect("fanOutIndex" in e).to.equal(false);
    expect("branchName" in e).to.equal(false);
    expect("error" in e).to.equal(false);
    expect("postState" in og.events[0]!).to.equal(false);
    expect(e.invocationId).to.equal(r.invocationId);
    expect(e.correlationId).to.equal(r.correlationId);
    expect(e.graphName).to.equal("outer");
  });

  it("events and their states are frozen", async () => {
    const g = linear();
    const o = recorder();
    await g.invoke({}, { observers: [o] });
    await drain();
    const e = o.events[1]!;
    expect(Object.isFrozen(e)).to.equal(true);
    expect(() => ((e.postState as { v: number }).v = 9)).to.throw(TypeError);
    expect(() => (e.namespace as string[]).push("x")).to.throw(TypeError);
  });

  it("subgraph-attached observers fire only when that graph runs, after the outer ones, with parent_states", async () => {
    const inner = new GraphBuilder(S)
      .addNode("inner_x", async () => ({ v: 10, trace: ["inner_x"] }))
      .addNode("inner_y", async () => ({ v: 20, trace: ["inner_y"] }))
      .addEdge("inner_x", "inner_y")
      .addEdge("inner_y", END)
      .setEntry("inner_x")
      .compile({ name: "inner" });
    const outer = new GraphBuilder(S)
      .addNode("outer_in", async () => ({ v: 1, trace: ["outer_in"] }))
      .addSubgraph("outer_sub", inner)
      .addNode("outer_out", async () => ({ v: 99, trace: ["outer_out"] }))
      .addEdge("outer_in", "outer_sub")
      .addEdge("outer_sub", "outer_out")
      .addEdge("outer_out", END)
      .setEntry("outer_in")
      .compile({ name: "outer" });
    const log: string[] = [];
    const oo = recorder(log, "outer");
    const oin = recorder(log, "inner");
    const d1 = outer.attachObserver(oo);
    const d2 = inner.attachObserver(oin);
    const r = await outer.invoke();
    await drain();
    expect(r.state).to.deep.equal({ v: 99, trace: ["outer_in", "inner_x", "inner_y", "outer_out"] });
    expect(log).to.deep.equal([
      "outer:0:started:outer_in",
      "outer:0:completed:outer_in",
      "outer:1:started:outer_sub/inner_x",
      "inner:1:started:outer_sub/inner_x",
      "outer:1:completed:outer_sub/inner_x",
      "inner:1:completed:outer_sub/inner_x",
      "outer:2:started:outer_sub/inner_y",
      "inner:2:started:outer_sub/inner_y",
      "outer:2:completed:outer_sub/inner_y",
      "inner:2:completed:outer_sub/inner_y",
      "outer:3:started:outer_out",
      "outer:3:completed:outer_out",
    ]);
    for (const e of oin.events) expect(e.parentStates).to.deep.equal([{ v: 1, trace: ["outer_in"] }]);
    expect(oin.events[0]!.preState).to.deep.equal({ v: 0, trace: [] });
    expect(oin.events[0]!.graphName).to.equal("inner");
    // the inner graph's observer also fires when the inner graph is invoked directly
    await inner.invoke();
    await drain();
    expect(oin.events.filter((e) => e.namespace.length === 1)).to.have.length(4);
    d1();
    d2();
  });

  it("routing / edge failures land on the preceding node's completed event; node failures too", async () => {
    const mk = (edge: () => string) =>
      new GraphBuilder(S).addNode("a", async () => ({ v: 1 })).addNode("b", async () => ({})).addConditionalEdge("a", edge).addEdge("b", END).setEntry("a").compile();
    for (const [edge, category] of [
      [() => "nonexistent_node", "routing_error"],
      [() => { throw new Error("edge function failed"); }, "edge_exception"],
    ] as const) {
      const o = recorder();
      await runtimeErrorOf(mk(edge).invoke({}, { observers: [o] }));
      await drain();
      expect(o.events.map(brief)).to.deep.equal([
        { step: 0, phase: "started", node: "a", ns: "a" },
        { step: 0, phase: "completed", node: "a", ns: "a", error: category },
      ]);
      expect("postState" in o.events[1]!).to.equal(false);
    }
    const o = recorder();
    const g = new GraphBuilder(S).addNode("a", async () => { throw new Error("boom"); }).addEdge("a", END).setEntry("a").compile();
    const err = await runtimeErrorOf(g.invoke({}, { observers: [o] }));
    await drain();
    expect(o.events[1]!.error).to.equal(err);
    expect((o.events[1]!.error!.cause as Error).message).to.equal("boom");
  });

  it("renders the spec (snake_case) record form", async () => {
    const o = recorder();
    await linear().invoke({}, { observers: [o] });
    await drain();
    expect(toSpecEvent(o.events[1]!)).to.deep.include({
      phase: "completed",
      node_name: "a",
      namespace: ["a"],
      step: 0,
      pre_state: { v: 0, trace: [] },
      post_state: { v: 1, trace: ["a"] },
      parent_states: [],
      attempt_index: 0,
      fan_out_index_chain: [],
      branch_name_chain: [],
    });
    expect(toSpecEvent(o.events[0]!)).to.not.have.any.keys("post_state", "error", "fan_out_index", "branch_name");
  });
});

describe("graph/observers: phases", () => {
  it("filters delivery by subscribed phases (default both)", async () => {
    const g = linear();
    const both = recorder();
    const completed = recorder();
    const started = recorder();
    await g.invoke({}, { observers: [both, { observer: completed, phases: ["completed"] }, { observer: started, phases: new Set(["started"] as const) }] });
    await drain();
    expect(both.events).to.have.length(6);
    expect(completed.events.map((e) => `${e.step}${e.phase}`)).to.deep.equal(["0completed", "1completed", "2completed"]);
    expect(started.events.map((e) => `${e.step}${e.phase}`)).to.deep.equal(["0started", "1started", "2started"]);
  });

  it("rejects empty or unknown phase sets at registration", async () => {
    const g = linear();
    expect(() => g.attachObserver(() => {}, { phases: [] })).to.throw(RangeError);
    expect(() => g.attachObserver(() => {}, { phases: ["finished" as never] })).to.throw(RangeError);
    try {
      await g.invoke({}, { observers: [{ observer: () => {}, phases: [] }] });
      expect.fail("accepted an empty phase set");
    } catch (e) {
      expect(e).to.be.instanceOf(RangeError);
    }
    expect(g.observers).to.have.length(0);
  });

  it("non-node event kinds bypass the phase filter", async () => {
    const got: ObserverEvent[] = [];
    const g = new GraphBuilder(S)
      .addNode("a", async (_s, ctx) => {
        ctx.emit({ kind: "custom_probe", invocationId: ctx.invocationId } as unknown as ObserverEvent);
        return {};
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    await g.invoke({}, { observers: [{ observer: (e) => void got.push(e), phases: ["completed"] }] });
    await drain();
    expect(got.map((e) => (isNodeEvent(e) ? `${e.phase}` : (e as { kind: string }).kind))).to.deep.equal(["custom_probe", "completed"]);
  });
});

describe("graph/observers: asynchronous, serial, isolated", () => {
  it("invoke() returns before slow observers finish; delivery is strictly serial", async () => {
    const g = linear();
    let active = 0;
    let maxActive = 0;
    const order: string[] = [];
    const slow = async (e: ObserverEvent) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(3);
      if (isNodeEvent(e)) order.push(`1:${e.step}${e.phase}`);
      active--;
    };
    const second = async (e: ObserverEvent) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(1);
      if (isNodeEvent(e)) order.push(`2:${e.step}${e.phase}`);
      active--;
    };
    const t0 = performance.now();
    await g.invoke({}, { observers: [slow, second] });
    const invokeMs = performance.now() - t0;
    expect(order).to.have.length.lessThan(12);
    await drain();
    expect(invokeMs).to.be.lessThan(20);
    expect(maxActive).to.equal(1);
    expect(order.slice(0, 4)).to.deep.equal(["1:0started", "2:0started", "1:0completed", "2:0completed"]);
    expect(order).to.have.length(12);
  });

  it("a raising observer interrupts nothing and is reported, not swallowed", async () => {
    const g = linear();
    const reports: ObserverErrorReport[] = [];
    const raiser = () => {
      throw new Error("observer bug");
    };
    const rec = recorder();
    g.attachObserver(raiser, { name: "raiser" });
    g.attachObserver(rec);
    try {
      const r = await g.invoke({}, { onObserverError: (rep) => reports.push(rep) });
      await g.drain();
      expect(r.state).to.deep.equal({ v: 3, trace: ["a", "b", "c"] });
      expect(rec.events).to.have.length(6);
      expect(reports).to.have.length(6);
      expect(reports[0]!.observerName).to.equal("raiser");
      expect((reports[0]!.error as Error).message).to.equal("observer bug");
      expect((reports[0]!.event as NodeEvent).phase).to.equal("started");
      expect(reports[0]!.invocationId).to.equal(r.invocationId);
    } finally {
      g.detachObserver(raiser);
      g.detachObserver(rec);
    }
  });

  it("mixed sync / async / rejecting recipients: each event reaches all of them in order before the next", async () => {
    const g = linear();
    const log: string[] = [];
    const reports: ObserverErrorReport[] = [];
    const tag = (e: ObserverEvent): string => (isNodeEvent(e) ? `${e.step}${e.phase[0]}` : e.kind);
    const first = (e: ObserverEvent): void => void log.push(`sync1:${tag(e)}`);
    const rejecting = async (e: ObserverEvent): Promise<void> => {
      await sleep(1);
      log.push(`async:${tag(e)}`);
      if (isNodeEvent(e) && e.phase === "completed") throw new Error(`rejected ${tag(e)}`);
    };
    const last = (e: ObserverEvent): void => void log.push(`sync2:${tag(e)}`);
    g.attachObserver(first, { name: "first" });
    g.attachObserver(rejecting, { name: "rejecting" });
    g.attachObserver(last, { name: "last" });
    try {
      await g.invoke({}, { onObserverError: (rep) => reports.push(rep) });
      const summary = await g.drain();
      expect(summary.undeliveredCount).to.equal(0);
      const expected: string[] = [];
      for (let step = 0; step < 3; step++) for (const p of ["s", "c"]) expected.push(`sync1:${step}${p}`, `async:${step}${p}`, `sync2:${step}${p}`);
      expect(log).to.deep.equal(expected);
      expect(reports.map((r) => `${r.observerName}:${(r.error as Error).message}`)).to.deep.equal(["rejecting:rejected 0c", "rejecting:rejected 1c", "rejecting:rejected 2c"]);
    } finally {
      g.detachObserver(first);
      g.detachObserver(rejecting);
      g.detachObserver(last);
    }
  });

  it("defaults to console.warn, and to the graph's compile-level handler when given", async () => {
    const warned: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args);
    try {
      await linear().invoke({}, { observers: [async () => Promise.reject(new Error("async bug"))] });
      await drain();
    } finally {
      console.warn = original;
    }
    expect(warned).to.have.length(6);
    expect(String(warned[0]![0])).to.match(/observer/);

    const reports: ObserverErrorReport[] = [];
    const g = new GraphBuilder(S).addNode("a", async () => ({})).addEdge("a", END).setEntry("a").compile({ onObserverError: (r) => reports.push(r) });
    await g.invoke({}, { observers: [() => { throw new Error("x"); }] });
    await drain();
    expect(reports).to.have.length(2);
  });

  it("the observer set is fixed when an invocation begins", async () => {
    const late = recorder();
    let g!: ReturnType<typeof linear>;
    g = new GraphBuilder(S)
      .addNode("a", async () => {
        g.attachObserver(late);
        return {};
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    await g.invoke();
    await drain();
    expect(late.events).to.have.length(0);
    await g.invoke();
    await drain();
    expect(late.events).to.have.length(2);
    expect(g.detachObserver(late)).to.equal(true);
    expect(g.detachObserver(late)).to.equal(false);
  });
});
