import { expect } from "chai";
import { defineState, drain, drainEventsFor, END, field, GraphBuilder, isNodeEvent, type DrainSummary, type ObserverEvent } from "../../src/graph/index.ts";
import { activeWorkerCount } from "../../src/internal.ts";
import { sleep } from "./helpers.ts";

const S = defineState({ v: field.int().default(0) });

function chain(names: string[], body?: (name: string) => Parameters<GraphBuilder<{ v: number }>["addNode"]>[1]) {
  const b = new GraphBuilder(S);
  names.forEach((n, i) => {
    b.addNode(n, body ? body(n) : async () => ({ v: i + 1 }));
    b.addEdge(n, i + 1 < names.length ? names[i + 1]! : END);
  });
  return b.setEntry(names[0]!).compile();
}

function slowRecorder(ms: number | (() => number)) {
  const seen: string[] = [];
  let aborted = 0;
  const fn = async (e: ObserverEvent, ctx: { signal: AbortSignal }) => {
    await sleep(typeof ms === "number" ? ms : ms());
    if (ctx.signal.aborted) aborted++;
    if (isNodeEvent(e)) seen.push(`${e.step}:${e.phase}:${e.nodeName}`);
  };
  return { fn, seen, aborted: () => aborted };
}

describe("graph/drain: process-wide drain()", () => {
  afterEach(async () => {
    await drain({ timeoutMs: 1000 });
  });

  it("returns the summary shape immediately when nothing is pending", async () => {
    const s = await drain();
    expect(s).to.deep.equal({ timeoutReached: false, undeliveredCount: 0, deliveredCount: 0, invocationCount: 0 });
  });

  it("waits for slow observers when the timeout is not reached", async () => {
    const g = chain(["a", "b", "c"]);
    const o = slowRecorder(2);
    const r = await g.invoke({}, { observers: [o.fn] });
    expect(r.state.v).to.equal(3);
    expect(o.seen.length).to.be.lessThan(6);
    const s = await g.drain({ timeoutMs: 5000 });
    expect(s.timeoutReached).to.equal(false);
    expect(s.undeliveredCount).to.equal(0);
    expect(s.invocationCount).to.equal(1);
    expect(o.seen).to.deep.equal(["0:started:a", "0:completed:a", "1:started:b", "1:completed:b", "2:started:c", "2:completed:c"]);
  });

  it("returns within the timeout, reports undelivered events and cancels the worker", async () => {
    const g = chain(["a", "b", "c"]);
    const o = slowRecorder(200);
    await g.invoke({}, { observers: [o.fn] });
    const t0 = performance.now();
    const s = await drain({ timeoutMs: 100 });
    const took = performance.now() - t0;
    expect(s.timeoutReached).to.equal(true);
    expect(s.undeliveredCount).to.be.at.least(4);
    expect(s.undeliveredCount).to.be.at.most(6);
    expect(took).to.be.lessThan(180);
    expect(activeWorkerCount()).to.equal(0);
    await sleep(250);
    expect(o.seen.length).to.be.at.most(1);
    expect(o.aborted()).to.be.at.most(1);
  });

  it("leaves clean state for the next invocation", async () => {
    let first = true;
    const o = slowRecorder(() => (first ? 100 : 0));
    const g = chain(["a", "b"]);
    g.attachObserver(o.fn);
    try {
      await g.invoke();
      const s1 = await g.drain({ timeoutMs: 50 });
      expect(s1.timeoutReached).to.equal(true);
      expect(s1.undeliveredCount).to.be.at.least(1);
      first = false;
      await sleep(120);
      o.seen.length = 0;
      await g.invoke();
      const s2 = await g.drain();
      expect(s2).to.deep.include({ timeoutReached: false, undeliveredCount: 0 });
      expect(o.seen).to.deep.equal(["0:started:a", "0:completed:a", "1:started:b", "1:completed:b"]);
    } finally {
      g.detachObserver(o.fn);
    }
  });

  it("rejects negative / NaN / non-numeric timeouts before any drain work", async () => {
    for (const bad of [-1, Number.NaN]) {
      try {
        await drain({ timeoutMs: bad });
        expect.fail("accepted " + bad);
      } catch (e) {
        expect(e).to.be.instanceOf(RangeError);
      }
    }
    try {
      await chain(["a"]).drainEventsFor("x", { timeoutMs: "1" as never });
      expect.fail("accepted a string");
    } catch (e) {
      expect(e).to.be.instanceOf(TypeError);
    }
  });

  it("CompiledGraph.drain covers only that graph's invocations; drain() snapshots at call time", async () => {
    const g1 = chain(["a"]);
    const g2 = chain(["b"]);
    const o1 = slowRecorder(30);
    const o2 = slowRecorder(30);
    await g1.invoke({}, { observers: [o1.fn] });
    await g2.invoke({}, { observers: [o2.fn] });
    const s = await g1.drain();
    expect(s.invocationCount).to.equal(1);
    expect(o1.seen).to.have.length(2);
    expect(o2.seen.length).to.be.lessThan(2);
    const p = drain();
    const o3 = slowRecorder(200);
    await g1.invoke({}, { observers: [o3.fn] }); // started after drain() was called: not covered
    const s2 = await p;
    expect(s2.invocationCount).to.equal(1);
    expect(o2.seen).to.have.length(2);
    expect(o3.seen).to.have.length(0);
  });
});

describe("graph/drain: drainEventsFor()", () => {
  afterEach(async () => {
    await drain({ timeoutMs: 2000 });
  });

  it("inside a node: covers only events emitted before the call (snapshot), never its own completed", async () => {
    const acc: string[] = [];
    let summary: DrainSummary | undefined;
    let snapshot: string[] = [];
    const g = chain(["a", "b"], (n) =>
      n === "a"
        ? async () => ({ v: 1 })
        : async (_s, ctx) => {
            summary = await ctx.drainEventsFor({ timeoutMs: 5000 });
            snapshot = [...acc];
            return { v: 2 };
          },
    );
    const r = await g.invoke({}, {
      observers: [
        async (e) => {
          await sleep(20);
          if (isNodeEvent(e)) acc.push(`${e.step}:${e.phase}:${e.nodeName}`);
        },
      ],
    });
    expect(summary).to.deep.include({ timeoutReached: false, undeliveredCount: 0 });
    expect(snapshot).to.deep.equal(["0:started:a", "0:completed:a", "1:started:b"]);
    await drainEventsFor(r.invocationId);
    expect(acc).to.deep.equal(["0:started:a", "0:completed:a", "1:started:b", "1:completed:b"]);
  });

  it("times out without cancelling the worker", async () => {
    let summary: DrainSummary | undefined;
    let took = 0;
    const seen: string[] = [];
    const g = chain(["a", "b", "c"], (n) =>
      n !== "c"
        ? async () => ({})
        : async (_s, ctx) => {
            const t0 = performance.now();
            summary = await ctx.drainEventsFor({ timeoutMs: 50 });
            took = performance.now() - t0;
            return { v: 3 };
          },
    );
    const obs = async (e: ObserverEvent) => {
      await sleep(60);
      if (isNodeEvent(e)) seen.push(`${e.step}${e.phase}`);
    };
    const r = await g.invoke({}, { observers: [obs] });
    expect(summary!.timeoutReached).to.equal(true);
    expect(summary!.undeliveredCount).to.be.at.least(4);
    // Honoring the 50 ms timeout returns in ~50 ms; waiting for the >= 4 undelivered events (60 ms
    // each) would take >= 240 ms. The bound leaves room for a loaded machine (162 ms seen).
    expect(took).to.be.lessThan(200);
    const s = await drainEventsFor(r.invocationId, { timeoutMs: 5000 });
    expect(s.timeoutReached).to.equal(false);
    expect(seen).to.have.length(6);
  });

  it("scopes strictly to one invocation id and returns immediately when all is delivered", async () => {
    const buckets = new Map<string, string[]>();
    const g = chain(["a", "b"]);
    g.attachObserver(async (e) => {
      await sleep(10);
      if (!isNodeEvent(e)) return;
      const list = buckets.get(e.invocationId) ?? [];
      list.push(`${e.step}${e.phase}`);
      buckets.set(e.invocationId, list);
    });
    try {
      const slowOther = chain(["x"]);
      await slowOther.invoke({}, { observers: [async () => sleep(300)] });
      const r1 = await g.invoke();
      const r2 = await g.invoke();
      expect(r1.invocationId).to.not.equal(r2.invocationId);
      const t0 = performance.now();
      const s1 = await g.drainEventsFor(r1.invocationId);
      expect(performance.now() - t0).to.be.lessThan(250);
      expect(s1).to.deep.include({ timeoutReached: false, undeliveredCount: 0 });
      expect(buckets.get(r1.invocationId)).to.deep.equal(["0started", "0completed", "1started", "1completed"]);
      await g.drainEventsFor(r2.invocationId);
      expect(buckets.get(r2.invocationId)).to.have.length(4);
      const again = await drainEventsFor(r1.invocationId, { timeoutMs: 0 });
      expect(again).to.deep.include({ timeoutReached: false, undeliveredCount: 0 });
      expect(await drainEventsFor("never-ran")).to.deep.include({ timeoutReached: false, undeliveredCount: 0 });
    } finally {
      for (const r of [...g.observers]) g.detachObserver(r.observer);
    }
  });
});
