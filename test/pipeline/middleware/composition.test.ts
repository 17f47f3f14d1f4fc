import { expect } from "chai";
import { defineState, drain, END, field, GraphBuilder, type Middleware } from "../../../src/graph/index.ts";
import {
  constantBackoff,
  failureIsolation,
  retry,
  timing,
  timingForGraph,
  type TimingRecord,
} from "../../../src/pipeline/middleware/index.ts";
import { allEvents, fakeSleep, flaky, runtimeErrorOf, steppingClock, VT, type VTState } from "./helpers.ts";

const fast = () => ({ backoff: constantBackoff(0), sleep: fakeSleep() });
const S1 = defineState({ result: field.string().default("") });

describe("pipeline/middleware: registration and composition (§3, §4)", () => {
  it("per-graph composes outside per-node: graph isolation catches what per-node retry gives up on", async () => {
    const node = flaky([{ category: "provider_unavailable", message: "down" }]);
    const g = new GraphBuilder(S1)
      .use(failureIsolation({ degradedUpdate: { result: "degraded" }, eventName: "graph_level" }))
      .addNode("n", node, { middleware: [retry({ maxAttempts: 3, ...fast() })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const obs = allEvents();
    expect((await g.invoke({}, { observers: [obs] })).state.result).to.equal("degraded");
    await drain();
    expect(node.calls).to.equal(3);
    expect(obs.isolations.map((e) => [e.eventName, e.attemptIndex])).to.deep.equal([["graph_level", 2]]);
  });

  it("…and per-node isolation inside per-graph retry degrades before the retry sees anything", async () => {
    const node = flaky([{ category: "provider_unavailable", message: "down" }], { result: "ok" });
    const g = new GraphBuilder(S1)
      .use(retry({ maxAttempts: 3, ...fast() }))
      .addNode("n", node, { middleware: [failureIsolation({ degradedUpdate: { result: "degraded" }, eventName: "node_level" })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    expect((await g.invoke({})).state.result).to.equal("degraded");
    expect(node.calls).to.equal(1);
  });

  it("chains run outer to inner: pre-phases in order, post-phases reversed, across both scopes (fixture 003)", async () => {
    const marker = (name: string): Middleware<VTState, Partial<VTState>> => async (s, next) => {
      const u = await next(s);
      return { ...u, trace: [`${name}.pre`, ...(u.trace ?? []), `${name}.post`] };
    };
    const g = new GraphBuilder(VT)
      .use(marker("pg1"), marker("pg2"))
      .addNode("a", async () => ({ trace: ["a"] }), { middleware: [marker("pn1"), marker("pn2")] })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    expect((await g.invoke({})).state.trace).to.deep.equal([
      "pg1.pre", "pg2.pre", "pn1.pre", "pn2.pre", "a", "pn2.post", "pn1.post", "pg2.post", "pg1.post",
    ]);
  });

  it("subgraph locality: the parent's middleware sees the subgraph as one dispatch, the subgraph's its own nodes (§4)", async () => {
    const parentRecords: TimingRecord[] = [];
    const innerRecords: TimingRecord[] = [];
    const inner = new GraphBuilder(defineState({ out: field.string().default("") }))
      .use(timingForGraph({ onComplete: (r) => void innerRecords.push(r), clock: steppingClock(1) }))
      .use(failureIsolation({ degradedUpdate: { out: "inner-degraded" }, eventName: "inner_isolated" }))
      .addNode("x", async () => ({ out: "x" }))
      .addNode("work", flaky([{ category: "provider_unavailable", message: "down" }]))
      .addEdge("x", "work")
      .addEdge("work", END)
      .setEntry("x")
      .compile({ name: "inner" });
    const outer = new GraphBuilder(defineState({ out: field.string().default(""), pre: field.int().default(0) }))
      .use(timingForGraph({ onComplete: (r) => void parentRecords.push(r), clock: steppingClock(1) }))
      .use(failureIsolation({ degradedUpdate: { out: "outer-degraded" }, eventName: "outer_isolated" }))
      .addNode("pre", async () => ({ pre: 1 }))
      .addSubgraph("sub", inner)
      .addEdge("pre", "sub")
      .addEdge("sub", END)
      .setEntry("pre")
      .compile({ name: "outer" });
    const obs = allEvents();
    const r = await outer.invoke({}, { observers: [obs] });
    await drain();
    expect(r.state.out).to.equal("inner-degraded");
    expect(parentRecords.map((x) => x.nodeName)).to.deep.equal(["pre", "sub"]);
    expect(innerRecords.map((x) => x.nodeName)).to.deep.equal(["x", "work"]);
    expect(obs.isolations.map((e) => [e.eventName, e.namespace.join("/"), e.graphName])).to.deep.equal([["inner_isolated", "sub/work", "inner"]]);
  });

  it("the recommended stack [timing, failureIsolation, retry]: one timing record, two attempts, one isolation event", async () => {
    const records: TimingRecord[] = [];
    const node = flaky([{ category: "provider_rate_limit", message: "429" }]);
    const g = new GraphBuilder(S1)
      .addNode("llm", node, {
        middleware: [
          timing({ nodeName: "llm", onComplete: (r) => void records.push(r), clock: steppingClock(3) }),
          failureIsolation({ degradedUpdate: { result: "fallback" }, eventName: "llm_degraded", catch: ["provider_rate_limit"] }),
          retry({ maxAttempts: 2, ...fast() }),
        ],
      })
      .addEdge("llm", END)
      .setEntry("llm")
      .compile();
    const obs = allEvents();
    const r = await g.invoke({}, { observers: [obs] });
    await drain();
    expect(r.state.result).to.equal("fallback");
    expect(node.calls).to.equal(2);
    expect(records).to.deep.equal([{ nodeName: "llm", durationMs: 3, outcome: "success", exceptionCategory: null }]);
    const seq = obs.events.map((e) => (e.kind === "node" ? `${e.phase}@${e.attemptIndex}` : e.kind));
    expect(seq.slice(0, seq.indexOf("failure_isolation") + 1)).to.deep.equal([
      "started@0",
      "completed@0",
      "started@1",
      "completed@1",
      "failure_isolation",
    ]);
  });

  it("a failure outside every catch set still propagates through the whole stack, timed as an exception", async () => {
    const records: TimingRecord[] = [];
    const g = new GraphBuilder(S1)
      .addNode("llm", flaky([{ category: "provider_authentication", message: "bad key" }]), {
        middleware: [
          timing({ nodeName: "llm", onComplete: (r) => void records.push(r), clock: steppingClock(3) }),
          failureIsolation({ degradedUpdate: { result: "fallback" }, eventName: "llm_degraded", catch: ["provider_rate_limit"] }),
          retry({ maxAttempts: 5, ...fast() }),
        ],
      })
      .addEdge("llm", END)
      .setEntry("llm")
      .compile();
    const err = await runtimeErrorOf(g.invoke({}));
    expect(err.message).to.equal("bad key");
    expect(records.map((r) => [r.outcome, r.exceptionCategory])).to.deep.equal([["exception", "provider_authentication"]]);
  });

  it("types the degraded update against the graph's update type", () => {
    const build = () =>
      new GraphBuilder(S1).addNode("n", async () => ({}), {
        middleware: [
          // @ts-expect-error `nope` is not a state field
          failureIsolation({ degradedUpdate: { nope: 1 }, eventName: "e" }),
          failureIsolation({ degradedUpdate: (s) => ({ result: s.result.toUpperCase() }), eventName: "e" }),
        ],
      });
    expect(build).to.not.throw();
  });
});
