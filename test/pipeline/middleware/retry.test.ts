import { expect } from "chai";
import { defineState, drain, END, field, GraphBuilder, GraphInterrupt, NodeException, withAttemptIndex, type Middleware } from "../../../src/graph/index.ts";
import { toSpecEvent } from "../../../src/internal.ts";
import {
  CategorizedError,
  constantBackoff,
  exponentialBackoff,
  retry,
  classifyCause,
  type RetryClassifier,
} from "../../../src/pipeline/middleware/index.ts";
import { allEvents, fakeSleep, flaky, pairs, runtimeErrorOf, VT, type VTState } from "./helpers.ts";

const zero = constantBackoff(0);

function oneNode(node: ReturnType<typeof flaky>, middleware: Middleware<VTState, Partial<VTState>>[]) {
  return new GraphBuilder(VT).addNode("target", node, { middleware }).addEdge("target", END).setEntry("target").compile({ name: "g" });
}

describe("pipeline/middleware: retry (§6.1)", () => {
  it("retries a transient failure and surfaces a single success (fixture 007)", async () => {
    const node = flaky([{ category: "provider_rate_limit", message: "throttle" }], { v: 42, trace: ["target"] });
    const r = await oneNode(node, [retry({ maxAttempts: 3, backoff: zero, sleep: fakeSleep() })]).invoke({});
    expect(r.state).to.deep.equal({ v: 42, trace: ["target"] });
    expect(r.executionOrder).to.deep.equal(["target"]);
    expect(node.calls).to.equal(2);
  });

  it("one started/completed pair per attempt, attempt_index 0..N-1, same step and pre_state (fixtures 011, 015)", async () => {
    const node = flaky(
      [
        { category: "provider_rate_limit", message: "throttle 1" },
        { category: "provider_rate_limit", message: "throttle 2" },
      ],
      { v: 7, trace: ["target"] },
    );
    const g = oneNode(node, [retry({ maxAttempts: 3, backoff: zero, sleep: fakeSleep() })]);
    const obs = allEvents();
    g.attachObserver(obs);
    await g.invoke({});
    await drain();
    expect(node.seen).to.deep.equal([0, 1, 2]);
    expect(pairs(obs.nodes)).to.deep.equal([
      ["started", 0, "-"],
      ["completed", 0, "node_exception"],
      ["started", 1, "-"],
      ["completed", 1, "node_exception"],
      ["started", 2, "-"],
      ["completed", 2, "ok"],
    ]);
    for (const e of obs.nodes) {
      expect(e.step).to.equal(0);
      expect(e.namespace).to.deep.equal(["target"]);
      expect(e.preState).to.deep.equal({ v: 0, trace: [] });
      expect(e.parentStates).to.deep.equal([]);
    }
    expect(obs.nodes[5]!.postState).to.deep.equal({ v: 7, trace: ["target"] });
    expect(classifyCause(obs.nodes[1]!.error).category).to.equal("provider_rate_limit");
  });

  it("is deterministic with a deterministic backoff: two runs, identical state and event sequences (fixture 011)", async () => {
    const run = async () => {
      const node = flaky(
        [
          { category: "provider_rate_limit", message: "throttle 1" },
          { category: "provider_rate_limit", message: "throttle 2" },
        ],
        { v: 100, trace: ["target"] },
      );
      const obs = allEvents();
      const r = await oneNode(node, [retry({ maxAttempts: 3, backoff: zero, sleep: fakeSleep() })]).invoke({}, { observers: [obs] });
      await drain();
      const strip = obs.nodes.map((e) => {
        const { invocation_id: _i, correlation_id: _c, error, ...rest } = toSpecEvent(e);
        return { ...rest, error: error?.category };
      });
      return { state: r.state, events: strip };
    };
    const a = await run();
    const b = await run();
    expect(a.state).to.deep.equal({ v: 100, trace: ["target"] });
    expect(b).to.deep.equal(a);
    expect(a.events).to.have.length(6);
  });

  it("on exhaustion re-raises the final attempt's error as node_exception with recoverable state (fixture 008)", async () => {
    const node = flaky([
      { category: "provider_rate_limit", message: "throttle 1" },
      { category: "provider_rate_limit", message: "throttle 2" },
      { category: "provider_rate_limit", message: "throttle 3" },
    ]);
    const obs = allEvents();
    const err = await runtimeErrorOf(oneNode(node, [retry({ maxAttempts: 3, backoff: zero, sleep: fakeSleep() })]).invoke({ v: 5 }, { observers: [obs] }));
    await drain();
    expect(node.calls).to.equal(3);
    expect(err).to.be.instanceOf(NodeException);
    expect(err.category).to.equal("node_exception");
    expect(err.nodeName).to.equal("target");
    expect(err.message).to.equal("throttle 3");
    expect(err.state).to.deep.equal({ v: 5, trace: [] });
    expect((err.cause as CategorizedError).category).to.equal("provider_rate_limit");
    // the error invoke() rejects with is the one the last completed event carried
    expect(obs.nodes[5]!.error).to.equal(err);
  });

  it("does not retry a non-transient category (fixture 009)", async () => {
    const node = flaky([{ category: "provider_authentication", message: "bad key" }], { v: 2 });
    const err = await runtimeErrorOf(oneNode(node, [retry({ maxAttempts: 5, backoff: zero, sleep: fakeSleep() })]).invoke({ v: 1 }));
    expect(node.calls).to.equal(1);
    expect(err.category).to.equal("node_exception");
    expect(err.message).to.equal("bad key");
    expect(err.state).to.deep.equal({ v: 1, trace: [] });
  });

  it("does not retry an uncategorized error under the default classifier", async () => {
    const node = flaky([{ message: "TypeError-ish" }], { v: 2 });
    await runtimeErrorOf(oneNode(node, [retry({ backoff: zero, sleep: fakeSleep() })]).invoke({}));
    expect(node.calls).to.equal(1);
  });

  it("maxAttempts: 1 disables retry; the default is 3", async () => {
    const once = flaky([{ category: "provider_unavailable", message: "down" }], { v: 1 });
    await runtimeErrorOf(oneNode(once, [retry({ maxAttempts: 1, sleep: fakeSleep() })]).invoke({}));
    expect(once.calls).to.equal(1);
    const always = flaky([{ category: "provider_unavailable", message: "down" }]);
    const sleep = fakeSleep();
    await runtimeErrorOf(oneNode(always, [retry({ backoff: zero, sleep })]).invoke({}));
    expect(always.calls).to.equal(3);
    expect(retry().maxAttempts).to.equal(3);
  });

  it("a state-aware classifier sees the error as raised and the pre-merge state (fixture 016)", async () => {
    const S = defineState({ max_retries_remaining: field.int().default(0), v: field.int().default(0) });
    const seen: [unknown, unknown][] = [];
    const classifier: RetryClassifier<{ max_retries_remaining: number; v: number }> = (error, state) => {
      seen.push([error, state]);
      return state.max_retries_remaining > 0;
    };
    const build = () => {
      const node = flaky([{ category: "provider_invalid_request", message: "boom" }], { v: 1 });
      const g = new GraphBuilder(S)
        .addNode("target", node, { middleware: [retry({ maxAttempts: 5, classifier, backoff: zero, sleep: fakeSleep() })] })
        .addEdge("target", END)
        .setEntry("target")
        .compile();
      return { node, g };
    };
    const permits = build();
    const r = await permits.g.invoke({ max_retries_remaining: 3 });
    expect(r.state).to.deep.equal({ max_retries_remaining: 3, v: 1 });
    expect(permits.node.calls).to.equal(2);
    expect(seen).to.have.length(1);
    expect(seen[0]![0]).to.be.instanceOf(CategorizedError); // the raw error, not the engine's carrier
    expect((seen[0]![0] as CategorizedError).message).to.equal("boom");
    expect(seen[0]![1]).to.deep.equal({ max_retries_remaining: 3, v: 0 });

    const blocks = build();
    const err = await runtimeErrorOf(blocks.g.invoke({ max_retries_remaining: 0 }));
    expect(blocks.node.calls).to.equal(1);
    expect(err.message).to.equal("boom");
    expect(err.state).to.deep.equal({ max_retries_remaining: 0, v: 0 });
  });

  it("sleeps backoff(attempt) seconds between attempts and calls onRetry before each sleep", async () => {
    const log: string[] = [];
    const sleep = Object.assign(async (s: number) => void log.push(`sleep ${s}`), {});
    const node = flaky(
      [
        { category: "provider_unavailable", message: "a" },
        { category: "provider_unavailable", message: "b" },
        { category: "provider_unavailable", message: "c" },
      ],
      { v: 1 },
    );
    const r = await oneNode(node, [
      retry({
        maxAttempts: 4,
        backoff: exponentialBackoff({ baseSeconds: 0.5, capSeconds: 1.5 }),
        sleep,
        onRetry: async (e, i) => void log.push(`retry ${i} ${(e as Error).message}`),
      }),
    ]).invoke({});
    expect(r.state.v).to.equal(1);
    expect(log).to.deep.equal(["retry 0 a", "sleep 0.5", "retry 1 b", "sleep 1", "retry 2 c", "sleep 1.5"]);
  });

  it("does not sleep or call onRetry after the final attempt", async () => {
    const sleep = fakeSleep();
    let retries = 0;
    const node = flaky([{ category: "provider_unavailable", message: "down" }]);
    await runtimeErrorOf(oneNode(node, [retry({ maxAttempts: 2, backoff: constantBackoff(3), sleep, onRetry: () => void retries++ })]).invoke({}));
    expect(sleep.calls).to.deep.equal([3]);
    expect(retries).to.equal(1);
  });

  it("the default backoff is full-jitter exponential: the injected sleep receives values in [0, min(30, 2^i))", async () => {
    const sleep = fakeSleep();
    const node = flaky(
      [
        { category: "provider_unavailable", message: "a" },
        { category: "provider_unavailable", message: "b" },
      ],
      { v: 1 },
    );
    await oneNode(node, [retry({ sleep })]).invoke({});
    expect(sleep.calls).to.have.length(2);
    expect(sleep.calls[0]).to.be.within(0, 1);
    expect(sleep.calls[1]).to.be.within(0, 2);
  });

  it("an invalid backoff result fails the node instead of sleeping", async () => {
    const node = flaky([{ category: "provider_unavailable", message: "a" }], { v: 1 });
    const err = await runtimeErrorOf(oneNode(node, [retry({ backoff: () => -1, sleep: fakeSleep() })]).invoke({}));
    expect(err.cause).to.be.instanceOf(RangeError);
  });

  it("never retries cancellation, even with an always-true classifier", async () => {
    for (const make of [
      () => Object.assign(new Error("aborted"), { name: "AbortError" }),
      () => Object.assign(new Error("sibling failed"), { name: "CancelledError" }),
    ]) {
      let calls = 0;
      const g = new GraphBuilder(VT)
        .addNode("target", async () => {
          calls++;
          throw make();
        }, { middleware: [retry({ maxAttempts: 5, classifier: () => true, backoff: zero, sleep: fakeSleep() })] })
        .addEdge("target", END)
        .setEntry("target")
        .compile();
      await runtimeErrorOf(g.invoke({}));
      expect(calls).to.equal(1);
    }
  });

  it("lets a suspension (GraphInterrupt) through without retrying", async () => {
    let calls = 0;
    const g = new GraphBuilder(VT)
      .addNode("ask", async () => {
        calls++;
        throw new GraphInterrupt({ signalId: "approval" });
      }, { middleware: [retry({ maxAttempts: 3, classifier: () => true, backoff: zero, sleep: fakeSleep() })] })
      .addEdge("ask", END)
      .setEntry("ask")
      .compile();
    const r = await g.invoke({});
    expect(r.outcome).to.equal("suspended");
    expect(calls).to.equal(1);
  });

  it("does not retry an error-shaped partial update (it is data, not a failure)", async () => {
    const S = defineState({ error: field.string().default("") });
    let calls = 0;
    const g = new GraphBuilder(S)
      .addNode("a", async () => (calls++, { error: "provider_rate_limit" }), { middleware: [retry({ classifier: () => true, sleep: fakeSleep() })] })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    expect((await g.invoke({})).state.error).to.equal("provider_rate_limit");
    expect(calls).to.equal(1);
  });

  it("stops when its cancellation signal aborts: no further attempt", async () => {
    const controller = new AbortController();
    const node = flaky([{ category: "provider_unavailable", message: "down" }], { v: 1 });
    const sleep = async () => {
      controller.abort(Object.assign(new Error("cancelled"), { name: "AbortError" }));
    };
    const err = await runtimeErrorOf(oneNode(node, [retry({ maxAttempts: 5, backoff: zero, sleep, signal: () => controller.signal })]).invoke({}));
    expect(node.calls).to.equal(1);
    expect((err.cause as Error).name).to.equal("AbortError");
  });

  it("retrying a subgraph node re-runs the subgraph; inner node events carry the attempt index transitively", async () => {
    const inner = new GraphBuilder(VT)
      .addNode("x", async () => ({ trace: ["x"] }))
      .addNode("y", flaky([{ category: "provider_unavailable", message: "inner down" }], { v: 9 }))
      .addEdge("x", "y")
      .addEdge("y", END)
      .setEntry("x")
      .compile({ name: "inner" });
    const g = new GraphBuilder(VT)
      .addSubgraph("sub", inner, {}, { middleware: [retry({ maxAttempts: 2, backoff: zero, sleep: fakeSleep() })] })
      .addEdge("sub", END)
      .setEntry("sub")
      .compile({ name: "outer" });
    const obs = allEvents();
    const r = await g.invoke({}, { observers: [obs] });
    await drain();
    expect(r.state.v).to.equal(9);
    expect(obs.nodes.map((e) => [e.namespace.join("/"), e.phase, e.attemptIndex, e.error ? "error" : e.postState ? "ok" : "-"])).to.deep.equal([
      ["sub/x", "started", 0, "-"],
      ["sub/x", "completed", 0, "ok"],
      ["sub/y", "started", 0, "-"],
      ["sub/y", "completed", 0, "error"],
      ["sub/x", "started", 1, "-"],
      ["sub/x", "completed", 1, "ok"],
      ["sub/y", "started", 1, "-"],
      ["sub/y", "completed", 1, "ok"],
    ]);
  });

  it("nested retries: the innermost retry's counter is the attempt_index on events", async () => {
    const node = flaky(
      [
        { category: "provider_unavailable", message: "1" },
        { category: "provider_unavailable", message: "2" },
        { category: "provider_unavailable", message: "3" },
      ],
      { v: 1 },
    );
    const obs = allEvents();
    await oneNode(node, [
      retry({ maxAttempts: 2, backoff: zero, sleep: fakeSleep() }),
      retry({ maxAttempts: 2, backoff: zero, sleep: fakeSleep() }),
    ]).invoke({}, { observers: [obs] });
    await drain();
    expect(node.calls).to.equal(4);
    expect(obs.nodes.filter((e) => e.phase === "started").map((e) => e.attemptIndex)).to.deep.equal([0, 1, 0, 1]);
  });

  it("per-graph retry wraps every node of its graph", async () => {
    const a = flaky([{ category: "provider_rate_limit", message: "a" }], { trace: ["a"] });
    const b = flaky([{ category: "provider_rate_limit", message: "b" }], { trace: ["b"] });
    const g = new GraphBuilder(VT)
      .use(retry({ maxAttempts: 2, backoff: zero, sleep: fakeSleep() }))
      .addNode("a", a)
      .addNode("b", b)
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    expect((await g.invoke({})).state.trace).to.deep.equal(["a", "b"]);
    expect([a.calls, b.calls]).to.deep.equal([2, 2]);
  });

  it("runs each attempt under withAttemptIndex (works with an outer custom attempt scope too)", async () => {
    const node = flaky([{ category: "provider_rate_limit", message: "t" }], { v: 1 });
    const outer: Middleware<VTState, Partial<VTState>> = (s, next) => withAttemptIndex(5, () => next(s));
    await oneNode(node, [outer, retry({ maxAttempts: 2, backoff: zero, sleep: fakeSleep() })]).invoke({});
    expect(node.seen).to.deep.equal([0, 1]);
  });

  it("rejects invalid configuration at construction", () => {
    expect(() => retry({ maxAttempts: 0 })).to.throw(RangeError);
    expect(() => retry({ maxAttempts: 2.5 })).to.throw(RangeError);
    expect(() => retry({ classifier: 3 as never })).to.throw(TypeError);
    expect(() => retry({ backoff: "fast" as never })).to.throw(TypeError);
  });
});
