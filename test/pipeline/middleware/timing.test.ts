import { expect } from "chai";
import { defineState, END, GraphBuilder, GraphInterrupt, type Middleware } from "../../../src/graph/index.ts";
import { constantBackoff, retry, timing, timingForGraph, type TimingRecord } from "../../../src/pipeline/middleware/index.ts";
import { fakeSleep, flaky, runtimeErrorOf, steppingClock, VT, type VTState } from "./helpers.ts";

const zero = constantBackoff(0);

function sink(): ((r: TimingRecord) => Promise<void>) & { records: TimingRecord[] } {
  const records: TimingRecord[] = [];
  return Object.assign(async (r: TimingRecord) => void records.push(r), { records });
}

function twoFailuresThenOk() {
  return flaky(
    [
      { category: "provider_rate_limit", message: "throttle 1" },
      { category: "provider_rate_limit", message: "throttle 2" },
    ],
    { v: 1, trace: ["target"] },
  );
}

describe("pipeline/middleware: timing (§6.2)", () => {
  it("per-node: one record with the registered name, clock-stub duration and success outcome (fixture 012)", async () => {
    const onComplete = sink();
    const clock = steppingClock(5);
    const g = new GraphBuilder(VT)
      .addNode("worker", async () => ({ trace: ["worker"] }), { middleware: [timing({ nodeName: "worker", onComplete, clock })] })
      .addEdge("worker", END)
      .setEntry("worker")
      .compile();
    const r = await g.invoke({});
    expect(r.state.trace).to.deep.equal(["worker"]);
    expect(onComplete.records).to.deep.equal([{ nodeName: "worker", durationMs: 5, outcome: "success", exceptionCategory: null }]);
    expect(clock.reads).to.equal(2);
    expect(Object.isFrozen(onComplete.records[0])).to.equal(true);
  });

  it("failure path: outcome exception with the raised error's category; the error propagates unchanged (fixture 013)", async () => {
    const onComplete = sink();
    const g = new GraphBuilder(defineState({}))
      .addNode("failing", flaky([{ category: "provider_rate_limit", message: "boom" }]), {
        middleware: [timing({ nodeName: "failing", onComplete, clock: steppingClock(5) })],
      })
      .addEdge("failing", END)
      .setEntry("failing")
      .compile();
    const err = await runtimeErrorOf(g.invoke({}));
    expect(err.category).to.equal("node_exception");
    expect(err.nodeName).to.equal("failing");
    expect(err.message).to.equal("boom");
    expect(onComplete.records).to.deep.equal([{ nodeName: "failing", durationMs: 5, outcome: "exception", exceptionCategory: "provider_rate_limit" }]);
  });

  it("an uncategorized error records exceptionCategory null", async () => {
    const onComplete = sink();
    const g = new GraphBuilder(VT)
      .addNode("n", flaky([{ message: "plain" }]), { middleware: [timing({ nodeName: "n", onComplete, clock: steppingClock(1) })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    await runtimeErrorOf(g.invoke({}));
    expect(onComplete.records[0]!.exceptionCategory).to.equal(null);
    expect(onComplete.records[0]!.outcome).to.equal("exception");
  });

  it("[timing, retry]: one record spanning every attempt and backoff sleep (fixture 014 case A)", async () => {
    const onComplete = sink();
    const clock = steppingClock(5);
    // The sleep advances the stubbed clock: the record must include the sleep time.
    const sleep = async (s: number) => {
      for (let i = 0; i < s; i++) clock();
    };
    const node = twoFailuresThenOk();
    const g = new GraphBuilder(VT)
      .addNode("target", node, {
        middleware: [timing({ nodeName: "target", onComplete, clock }), retry({ maxAttempts: 3, backoff: constantBackoff(2), sleep })],
      })
      .addEdge("target", END)
      .setEntry("target")
      .compile();
    expect((await g.invoke({})).state).to.deep.equal({ v: 1, trace: ["target"] });
    expect(node.calls).to.equal(3);
    // 2 sleeps × 2 reads × 5 ms, plus the one tick between timing's own reads
    expect(onComplete.records).to.deep.equal([{ nodeName: "target", durationMs: 25, outcome: "success", exceptionCategory: null }]);
  });

  it("[retry, timing]: one record per attempt (fixture 014 case B)", async () => {
    const onComplete = sink();
    const g = new GraphBuilder(VT)
      .addNode("target", twoFailuresThenOk(), {
        middleware: [retry({ maxAttempts: 3, backoff: zero, sleep: fakeSleep() }), timing({ nodeName: "target", onComplete, clock: steppingClock(5) })],
      })
      .addEdge("target", END)
      .setEntry("target")
      .compile();
    await g.invoke({});
    expect(onComplete.records).to.deep.equal([
      { nodeName: "target", durationMs: 5, outcome: "exception", exceptionCategory: "provider_rate_limit" },
      { nodeName: "target", durationMs: 5, outcome: "exception", exceptionCategory: "provider_rate_limit" },
      { nodeName: "target", durationMs: 5, outcome: "success", exceptionCategory: null },
    ]);
  });

  it("per-graph form: each record carries the name of the node it wrapped", async () => {
    const onComplete = sink();
    const g = new GraphBuilder(VT)
      .use(timingForGraph({ onComplete, clock: steppingClock(2) }))
      .addNode("first", async () => ({ v: 1 }))
      .addNode("second", async () => ({ v: 2 }))
      .addEdge("first", "second")
      .addEdge("second", END)
      .setEntry("first")
      .compile();
    await g.invoke({});
    expect(onComplete.records.map((r) => [r.nodeName, r.durationMs, r.outcome])).to.deep.equal([
      ["first", 2, "success"],
      ["second", 2, "success"],
    ]);
    expect(timingForGraph({ onComplete }).nodeName).to.equal(undefined);
  });

  it("per-graph timing composes outside per-node retry: it measures the whole retried dispatch", async () => {
    const onComplete = sink();
    const node = twoFailuresThenOk();
    const g = new GraphBuilder(VT)
      .use(timingForGraph({ onComplete, clock: steppingClock(5) }))
      .addNode("target", node, { middleware: [retry({ maxAttempts: 3, backoff: zero, sleep: fakeSleep() })] })
      .addEdge("target", END)
      .setEntry("target")
      .compile();
    await g.invoke({});
    expect(node.calls).to.equal(3);
    expect(onComplete.records).to.have.length(1);
    expect(onComplete.records[0]!.outcome).to.equal("success");
  });

  it("onComplete fires before the result returns to the caller, and its error becomes a node_exception", async () => {
    const order: string[] = [];
    const outer: Middleware<VTState, Partial<VTState>> = async (s, next) => {
      const u = await next(s);
      order.push("outer post");
      return u;
    };
    const boom = new Error("metrics down");
    const g = new GraphBuilder(VT)
      .addNode("n", async () => (order.push("node"), { v: 1 }), {
        middleware: [
          outer,
          timing({ nodeName: "n", onComplete: () => void order.push("onComplete"), clock: steppingClock(1) }),
        ],
      })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    await g.invoke({});
    expect(order).to.deep.equal(["node", "onComplete", "outer post"]);

    const failing = new GraphBuilder(VT)
      .addNode("n", async () => ({ v: 1 }), { middleware: [timing({ nodeName: "n", onComplete: () => { throw boom; } })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const err = await runtimeErrorOf(failing.invoke({}));
    expect(err.category).to.equal("node_exception");
    expect(err.cause).to.equal(boom);
  });

  it("defaults to a monotonic real clock (non-negative durations)", async () => {
    const onComplete = sink();
    const g = new GraphBuilder(VT)
      .addNode("n", async () => ({ v: 1 }), { middleware: [timing({ nodeName: "n", onComplete })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    await g.invoke({});
    expect(onComplete.records[0]!.durationMs).to.be.a("number").and.to.be.at.least(0);
  });

  it("a suspension propagates without a record", async () => {
    const onComplete = sink();
    const g = new GraphBuilder(VT)
      .addNode("ask", async () => {
        throw new GraphInterrupt({ signalId: "s" });
      }, { middleware: [timing({ nodeName: "ask", onComplete })] })
      .addEdge("ask", END)
      .setEntry("ask")
      .compile();
    expect((await g.invoke({})).outcome).to.equal("suspended");
    expect(onComplete.records).to.deep.equal([]);
  });

  it("validates its configuration", () => {
    expect(() => timing({ nodeName: "", onComplete: () => {} })).to.throw(TypeError);
    expect(() => timing({ nodeName: "n", onComplete: undefined as never })).to.throw(TypeError);
    expect(timing({ nodeName: "n", onComplete: () => {} }).middlewareKind).to.equal("timing");
  });
});
