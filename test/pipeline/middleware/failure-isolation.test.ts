import { expect } from "chai";
import {
  append,
  defineState,
  drain,
  END,
  field,
  GraphBuilder,
  isNodeEvent,
  NodeException,
  type Middleware,
} from "../../../src/graph/index.ts";
import { CategorizedError, classifyCause, constantBackoff, failureIsolation, isFailureIsolationEvent, retry } from "../../../src/pipeline/middleware/index.ts";
import { isFailureIsolationMiddleware, toSpecFailureIsolationEvent } from "../../../src/internal.ts";
import { allEvents, fakeSleep, flaky, pairs, runtimeErrorOf, VT, type VTState } from "./helpers.ts";

const R = defineState({
  result: field.list(field.string()).default([]),
  trace: field.list(field.string()).default([]).reducer(append),
});
const S1 = defineState({ result: field.string().default("") });

describe("pipeline/middleware: failure isolation (§6.3)", () => {
  it("static degraded update: the engine sees a normal return; the event carries the spec field set (fixture 058)", async () => {
    const node = flaky([{ category: "provider_unavailable", message: "service down" }]);
    const g = new GraphBuilder(R)
      .addNode("failing", node, { middleware: [failureIsolation({ degradedUpdate: { result: [] }, eventName: "extraction_failed" })] })
      .addEdge("failing", END)
      .setEntry("failing")
      .compile({ name: "g" });
    const obs = allEvents();
    const r = await g.invoke({ result: ["stale"], trace: [] }, { observers: [obs], correlationId: "corr" });
    await drain();
    expect(r.state).to.deep.equal({ result: [], trace: [] });
    expect(r.executionOrder).to.deep.equal(["failing"]);
    expect(obs.isolations).to.have.length(1);
    const e = obs.isolations[0]!;
    expect(e.kind).to.equal("failure_isolation");
    expect(e).to.not.have.property("phase");
    expect(e.eventName).to.equal("extraction_failed");
    expect(e.nodeName).to.equal("failing");
    expect(e.namespace).to.deep.equal(["failing"]);
    expect(e.attemptIndex).to.equal(0);
    expect(e.fanOutIndex).to.equal(undefined);
    expect(e.branchName).to.equal(undefined);
    expect(e.invocationId).to.equal(r.invocationId);
    expect(e.correlationId).to.equal("corr");
    expect(e.graphName).to.equal("g");
    expect(e.preState).to.deep.equal({ result: ["stale"], trace: [] });
    expect(e.postState).to.deep.equal({ result: [] });
    expect(e.caughtException).to.deep.equal({
      category: "provider_unavailable",
      message: "service down",
      chain: [{ category: "provider_unavailable", message: "service down", carrier: false }],
    });
    expect(e.exception).to.be.instanceOf(CategorizedError);
    expect(Object.isFrozen(e)).to.equal(true);
    expect(toSpecFailureIsolationEvent(e)).to.deep.include({
      event_name: "extraction_failed",
      wrapped_node_lineage: {
        node_name: "failing",
        namespace: ["failing"],
        attempt_index: 0,
        fan_out_index: null,
        branch_name: null,
        fan_out_index_chain: [],
        branch_name_chain: [],
      },
      pre_state: { result: ["stale"], trace: [] },
      post_state: { result: [] },
    });
  });

  it("callable degraded update receives the pre-merge state; its result merges via reducers (fixture 059)", async () => {
    const S = defineState({ attempt_count: field.int().default(0), result: field.string().default(""), log: field.list(field.string()).default(["init"]).reducer(append) });
    const seen: unknown[] = [];
    const g = new GraphBuilder(S)
      .addNode("failing", flaky([{ category: "provider_unavailable", message: "down" }]), {
        middleware: [
          failureIsolation({
            eventName: "summarize_failed",
            degradedUpdate: async (s) => {
              seen.push(s);
              return { result: `degraded after ${s.attempt_count} attempts`, log: ["degraded"] };
            },
          }),
        ],
      })
      .addEdge("failing", END)
      .setEntry("failing")
      .compile();
    const obs = allEvents();
    const r = await g.invoke({ attempt_count: 2 }, { observers: [obs] });
    await drain();
    expect(seen).to.deep.equal([{ attempt_count: 2, result: "", log: ["init"] }]);
    expect(r.state).to.deep.equal({ attempt_count: 2, result: "degraded after 2 attempts", log: ["init", "degraded"] });
    expect(obs.isolations[0]!.postState).to.deep.equal({ result: "degraded after 2 attempts", log: ["degraded"] });
    expect(obs.isolations[0]!.preState).to.deep.equal({ attempt_count: 2, result: "", log: ["init"] });
  });

  it("predicate: a match is caught; a non-match propagates as node_exception with no event (fixture 060)", async () => {
    const build = (category: string, message: string) =>
      new GraphBuilder(S1)
        .addNode("failing", flaky([{ category, message }]), {
          middleware: [
            failureIsolation({
              degradedUpdate: { result: "degraded" },
              eventName: "shape_failed",
              predicate: (e) => e instanceof CategorizedError && e.category === "provider_invalid_response",
            }),
          ],
        })
        .addEdge("failing", END)
        .setEntry("failing")
        .compile();
    const hit = allEvents();
    expect((await build("provider_invalid_response", "bad shape").invoke({}, { observers: [hit] })).state.result).to.equal("degraded");
    const miss = allEvents();
    const err = await runtimeErrorOf(build("provider_invalid_request", "missing field").invoke({}, { observers: [miss] }));
    await drain();
    expect(hit.isolations.map((e) => [e.eventName, e.caughtException.category, e.caughtException.message])).to.deep.equal([
      ["shape_failed", "provider_invalid_response", "bad shape"],
    ]);
    expect(err.category).to.equal("node_exception");
    expect(err.nodeName).to.equal("failing");
    expect(err.message).to.equal("missing field");
    expect(miss.isolations).to.deep.equal([]);
  });

  it("default gate catches a bare uncategorized error: category null, message = the error's message (fixture 063)", async () => {
    const g = new GraphBuilder(S1)
      .addNode("failing", async () => {
        throw new RangeError("bad input");
      }, { middleware: [failureIsolation({ degradedUpdate: { result: "degraded" }, eventName: "parse_failed" })] })
      .addEdge("failing", END)
      .setEntry("failing")
      .compile();
    const obs = allEvents();
    expect((await g.invoke({}, { observers: [obs] })).state.result).to.equal("degraded");
    await drain();
    expect(obs.isolations[0]!.caughtException).to.deep.equal({
      category: null,
      message: "bad input",
      chain: [{ category: null, message: "bad input", carrier: false }],
    });
  });

  it("three-piece pattern: isolation outside retry catches the exhausted error; lineage attempt_index is the final attempt (fixture 061)", async () => {
    const node = flaky([
      { category: "provider_unavailable", message: "down 1" },
      { category: "provider_unavailable", message: "down 2" },
    ]);
    const g = new GraphBuilder(defineState({ result: field.string().default(""), trace: field.list(field.string()).default([]).reducer(append) }))
      .addNode("target", node, {
        middleware: [
          failureIsolation({ degradedUpdate: { result: "degraded" }, eventName: "extraction_failed" }),
          retry({ maxAttempts: 2, backoff: constantBackoff(0), sleep: fakeSleep() }),
        ],
      })
      .addEdge("target", END)
      .setEntry("target")
      .compile();
    const obs = allEvents();
    const r = await g.invoke({}, { observers: [obs] });
    await drain();
    expect(r.state).to.deep.equal({ result: "degraded", trace: [] });
    expect(node.calls).to.equal(2);
    const failed = obs.nodes.filter((e) => e.phase === "completed" && e.error);
    expect(failed.map((e) => [e.attemptIndex, classifyCause(e.error).category])).to.deep.equal([
      [0, "provider_unavailable"],
      [1, "provider_unavailable"],
    ]);
    expect(obs.isolations).to.have.length(1);
    const e = obs.isolations[0]!;
    expect(e.attemptIndex).to.equal(1);
    expect(e.caughtException.category).to.equal("provider_unavailable");
    expect(e.caughtException.message).to.equal("down 2");
    // the isolation event follows the final attempt's events on the queue
    expect(obs.events.indexOf(e)).to.be.greaterThan(obs.events.indexOf(failed[1]!));
  });

  it("the attempt index a retry gave up at is scoped to its dispatch (a reused error object does not leak it)", async () => {
    const shared = new Error("circuit open");
    const breaker: Middleware<{ result: string }, Partial<{ result: string }>> = async () => {
      throw shared;
    };
    const build = (maxAttempts: number) =>
      new GraphBuilder(S1)
        .addNode("n", async () => ({ result: "ok" }), {
          middleware: [
            failureIsolation({ degradedUpdate: { result: "d" }, eventName: "e" }),
            retry({ maxAttempts, classifier: () => true, backoff: constantBackoff(0), sleep: fakeSleep() }),
            breaker,
          ],
        })
        .addEdge("n", END)
        .setEntry("n")
        .compile();
    const obs = allEvents();
    await build(3).invoke({}, { observers: [obs] });
    await build(1).invoke({}, { observers: [obs] });
    await drain();
    expect(obs.isolations.map((e) => e.attemptIndex)).to.deep.equal([2, 0]);
  });

  it("reversing the order (isolation inside retry) defeats retry: the first transient is degraded", async () => {
    const node = flaky([{ category: "provider_unavailable", message: "down" }], { result: "ok" });
    const g = new GraphBuilder(S1)
      .addNode("target", node, {
        middleware: [
          retry({ maxAttempts: 3, backoff: constantBackoff(0), sleep: fakeSleep() }),
          failureIsolation({ degradedUpdate: { result: "degraded" }, eventName: "too_early" }),
        ],
      })
      .addEdge("target", END)
      .setEntry("target")
      .compile();
    expect((await g.invoke({})).state.result).to.equal("degraded");
    expect(node.calls).to.equal(1);
  });

  it("catch set: matches the derived category through a node_exception carrier (subgraph node placement)", async () => {
    const inner = new GraphBuilder(defineState({ out: field.string().default("") }))
      .addNode("work", flaky([{ category: "provider_unavailable", message: "provider down" }]))
      .addEdge("work", END)
      .setEntry("work")
      .compile({ name: "unit" });
    const build = (categories: string[]) =>
      new GraphBuilder(defineState({ out: field.string().default("") }))
        .addSubgraph("sub", inner, {}, {
          middleware: [failureIsolation({ degradedUpdate: { out: "(degraded)" }, eventName: "unit_isolated", catch: categories })],
        })
        .addEdge("sub", END)
        .setEntry("sub")
        .compile();
    const obs = allEvents();
    const r = await build(["provider_unavailable", "provider_rate_limit"]).invoke({}, { observers: [obs] });
    await drain();
    expect(r.state.out).to.equal("(degraded)");
    const e = obs.isolations[0]!;
    expect(e.namespace).to.deep.equal(["sub"]);
    expect(e.caughtException.category).to.equal("provider_unavailable");
    expect(e.caughtException.message).to.equal("provider down");
    expect(e.caughtException.chain.map((l) => [l.carrier, l.category])).to.deep.equal([
      [true, "node_exception"],
      [false, "provider_unavailable"],
    ]);
    expect(e.exception).to.be.instanceOf(NodeException);
    expect((e.exception as NodeException).namespace).to.deep.equal(["sub", "work"]);

    const err = await runtimeErrorOf(build(["provider_rate_limit"]).invoke({}));
    expect(err.namespace).to.deep.equal(["sub", "work"]);
  });

  it("catch set never matches an uncategorized error (derived category null): it propagates", async () => {
    const g = new GraphBuilder(S1)
      .addNode("n", flaky([{ message: "bare" }]), {
        middleware: [failureIsolation({ degradedUpdate: { result: "x" }, eventName: "e", catch: ["provider_unavailable"] })],
      })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const err = await runtimeErrorOf(g.invoke({}));
    expect(err.message).to.equal("bare");
  });

  it("catch uses the outermost non-carrier category (a re-categorized surface wins over its cause)", async () => {
    const build = (categories: string[]) =>
      new GraphBuilder(S1)
        .addNode("n", flaky([{ category: "provider_invalid_response", message: "surface", cause: { category: "provider_unavailable", message: "origin" } }]), {
          middleware: [failureIsolation({ degradedUpdate: { result: "x" }, eventName: "e", catch: categories })],
        })
        .addEdge("n", END)
        .setEntry("n")
        .compile();
    expect((await build(["provider_invalid_response"]).invoke({})).state.result).to.equal("x");
    await runtimeErrorOf(build(["provider_unavailable"]).invoke({}));
  });

  it("catch and predicate compose as a conjunction; the predicate sees the surface error", async () => {
    const surfaces: unknown[] = [];
    const build = (allow: boolean) =>
      new GraphBuilder(S1)
        .addNode("n", flaky([{ category: "provider_unavailable", message: "down" }]), {
          middleware: [
            failureIsolation({
              degradedUpdate: { result: "x" },
              eventName: "e",
              catch: ["provider_unavailable"],
              predicate: (err) => (surfaces.push(err), allow),
            }),
          ],
        })
        .addEdge("n", END)
        .setEntry("n")
        .compile();
    expect((await build(true).invoke({})).state.result).to.equal("x");
    await runtimeErrorOf(build(false).invoke({}));
    expect(surfaces).to.have.length(2);
    expect(surfaces[0]).to.be.instanceOf(CategorizedError);
  });

  it("onCaught runs after the event is emitted, with the caught error", async () => {
    const order: string[] = [];
    const g = new GraphBuilder(S1)
      .addNode("n", flaky([{ category: "provider_unavailable", message: "down" }]), {
        middleware: [
          failureIsolation({
            degradedUpdate: () => (order.push("resolve"), { result: "x" }),
            eventName: "e",
            onCaught: async (err) => void order.push(`caught ${(err as Error).message}`),
          }),
        ],
      })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const obs = allEvents();
    await g.invoke({}, { observers: [obs] });
    await drain();
    expect(order).to.deep.equal(["resolve", "caught down"]);
    expect(obs.isolations).to.have.length(1);
  });

  it("the event bypasses the phases filter (no phase): a started-only observer still receives it", async () => {
    const got: string[] = [];
    const g = new GraphBuilder(S1)
      .addNode("n", flaky([{ message: "x" }]), { middleware: [failureIsolation({ degradedUpdate: { result: "d" }, eventName: "e" })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    g.attachObserver((e) => void got.push(isFailureIsolationEvent(e) ? "isolation" : isNodeEvent(e) ? `node:${e.phase}` : (e as { kind: string }).kind), { phases: ["started"] });
    await g.invoke({});
    await drain();
    expect(got).to.deep.equal(["node:started", "isolation"]);
  });

  it("does not re-catch: a successful chain returns its own update and emits nothing", async () => {
    const g = new GraphBuilder(S1)
      .addNode("n", async () => ({ result: "real" }), { middleware: [failureIsolation({ degradedUpdate: { result: "d" }, eventName: "e" })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const obs = allEvents();
    expect((await g.invoke({}, { observers: [obs] })).state.result).to.equal("real");
    await drain();
    expect(obs.isolations).to.deep.equal([]);
    expect(pairs(obs.nodes)).to.deep.equal([
      ["started", 0, "-"],
      ["completed", 0, "ok"],
    ]);
  });

  it("cancellation is never isolated", async () => {
    const g = new GraphBuilder(S1)
      .addNode("n", async () => {
        throw Object.assign(new Error("aborted"), { name: "AbortError" });
      }, { middleware: [failureIsolation({ degradedUpdate: { result: "d" }, eventName: "e" })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const err = await runtimeErrorOf(g.invoke({}));
    expect((err.cause as Error).name).to.equal("AbortError");
  });

  it("a cyclic cause chain does not hang the degrade path", async () => {
    const a = new CategorizedError("provider_unavailable", "a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    const g = new GraphBuilder(S1)
      .addNode("n", async () => {
        throw b;
      }, { middleware: [failureIsolation({ degradedUpdate: { result: "d" }, eventName: "cyclic" })] })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const obs = allEvents();
    expect((await g.invoke({}, { observers: [obs] })).state.result).to.equal("d");
    await drain();
    expect(obs.isolations[0]!.caughtException).to.deep.equal({
      category: "provider_unavailable",
      message: "a",
      chain: [
        { category: null, message: "b", carrier: false },
        { category: "provider_unavailable", message: "a", carrier: false },
      ],
    });
  });

  it("per-graph isolation wraps every node and composes outside per-node middleware", async () => {
    const order: string[] = [];
    const mark: Middleware<VTState, Partial<VTState>> = async (s, next) => {
      order.push("per-node");
      return next(s);
    };
    const g = new GraphBuilder(VT)
      .use(failureIsolation({ degradedUpdate: { trace: ["degraded"] }, eventName: "graph_isolated" }))
      .addNode("a", flaky([{ message: "a failed" }]), { middleware: [mark] })
      .addNode("b", async () => ({ trace: ["b"] }))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile();
    const obs = allEvents();
    const r = await g.invoke({}, { observers: [obs] });
    await drain();
    expect(r.state.trace).to.deep.equal(["degraded", "b"]);
    expect(order).to.deep.equal(["per-node"]);
    expect(obs.isolations.map((e) => [e.eventName, e.nodeName])).to.deep.equal([["graph_isolated", "a"]]);
  });

  it("exposes its static degraded update for introspection (§9.8 slot-coverage checks)", () => {
    const s = failureIsolation({ degradedUpdate: { out: "(degraded)" }, eventName: "e", catch: ["provider_unavailable"] });
    const c = failureIsolation({ degradedUpdate: () => ({ out: "x" }), eventName: "e" });
    expect(isFailureIsolationMiddleware(s)).to.equal(true);
    expect(isFailureIsolationMiddleware(retry())).to.equal(false);
    expect(s.staticDegradedUpdate).to.deep.equal({ out: "(degraded)" });
    expect(c.staticDegradedUpdate).to.equal(undefined);
    expect([...s.catchCategories!]).to.deep.equal(["provider_unavailable"]);
    expect(s.eventName).to.equal("e");
  });

  it("validates its configuration: eventName and degradedUpdate are required", () => {
    expect(() => failureIsolation({ degradedUpdate: {}, eventName: "" })).to.throw(TypeError);
    expect(() => failureIsolation({ degradedUpdate: undefined as never, eventName: "e" })).to.throw(TypeError);
    expect(() => failureIsolation({ degradedUpdate: [] as never, eventName: "e" })).to.throw(TypeError);
    expect(() => failureIsolation({ degradedUpdate: {}, eventName: "e", catch: [""] })).to.throw(TypeError);
    expect(() => failureIsolation({ degradedUpdate: {}, eventName: "e", predicate: 1 as never })).to.throw(TypeError);
  });
});
