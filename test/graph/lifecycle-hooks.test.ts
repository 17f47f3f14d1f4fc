import { expect } from "chai";
import {
  defineState,
  END,
  field,
  getInvocationMetadata,
  GraphBuilder,
  isNodeEvent,
  setInvocationMetadata,
  append,
  type ChildRunInfo,
  type InvocationHooks,
  type MetadataAugmentation,
  type NodeAttempt,
  type ObserverEvent,
} from "../../src/graph/index.ts";
import { fanOut } from "../../src/pipeline/index.ts";
import { constantBackoff, retry } from "../../src/pipeline/middleware/index.ts";
import { runtimeErrorOf } from "./helpers.ts";

const S = defineState({ v: field.int().default(0), log: field.list(field.string()).default([]).reducer(append) });

describe("graph: synchronous lifecycle hooks (observability seams)", () => {
  it("calls the node started hook before the body runs, and brackets the invocation", async () => {
    const log: string[] = [];
    const hooks: InvocationHooks = {
      onInvocationStart: (i) => log.push(`inv:start:${i.entryNode}`),
      onInvocationEnd: (_i, e) => log.push(`inv:end:${e.outcome}`),
      onNodeEvent: (e) => log.push(`${e.phase}:${e.nodeName}`),
    };
    const g = new GraphBuilder(S)
      .addNode("a", () => (log.push("body:a"), { v: 1 }))
      .addNode("b", () => (log.push("body:b"), { v: 2 }))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile({ name: "g" });
    await g.invoke({}, { hooks });
    expect(log).to.deep.equal([
      "inv:start:a",
      "started:a",
      "body:a",
      "completed:a",
      "started:b",
      "body:b",
      "completed:b",
      "inv:end:completed",
    ]);
  });

  it("reports a failed invocation with its error, and sub-millisecond event timestamps", async () => {
    let end: { outcome: string; error?: unknown } | undefined;
    const stamps: number[] = [];
    const g = new GraphBuilder(S)
      .addNode("a", () => {
        throw new Error("boom");
      })
      .setEntry("a")
      .compile({ name: "g" });
    const err = await runtimeErrorOf(
      g.invoke({}, { hooks: { onInvocationEnd: (_i, e) => (end = e), onNodeEvent: (e) => stamps.push(e.timestamp) } }),
    );
    expect(end?.outcome).to.equal("failed");
    expect(end?.error).to.equal(err);
    // performance.timeOrigin + performance.now(): fractional milliseconds (Date.now() never is).
    expect(stamps.some((t) => !Number.isInteger(t))).to.equal(true);
  });

  it("brackets child runs (subgraph, fan-out instances) with their lineage", async () => {
    const Inner = defineState({ idx: field.int().default(0), out: field.int().default(0) });
    const inner = new GraphBuilder(Inner).addNode("work", (s) => ({ out: s.idx * 2 })).setEntry("work").compile({ name: "inner" });
    const P = defineState({ items: field.list(field.int()).default([]), outs: field.list(field.int()).default([]).reducer(append) });
    const g = new GraphBuilder(P)
      .addNode("fan", fanOut({ subgraph: inner, itemsField: "items", itemField: "idx", collectField: "out", targetField: "outs" }))
      .setEntry("fan")
      .compile({ name: "outer" });
    const runs: ChildRunInfo[] = [];
    await g.invoke({ items: [1, 2] }, { hooks: { onChildRunStart: (r) => runs.push(r) } });
    expect(runs.map((r) => [r.nodeName, r.fanOutIndex, r.childFanOutIndexChain, r.nodeEmitsEvents, r.entryNode])).to.have.deep.members([
      ["fan", 0, [0], true, "work"],
      ["fan", 1, [1], true, "work"],
    ]);
  });

  /** A graph exercising every field a node event carries: fan-out lineage and config, a retried attempt, a failure. */
  function richGraph() {
    const Inner = defineState({ idx: field.int().default(0), out: field.int().default(0) });
    const inner = new GraphBuilder(Inner).addNode("work", (s) => ({ out: s.idx * 2 })).setEntry("work").compile({ name: "inner" });
    const P = defineState({ items: field.list(field.int()).default([]), outs: field.list(field.int()).default([]).reducer(append) });
    let calls = 0;
    return new GraphBuilder(P)
      .addNode("fan", fanOut({ subgraph: inner, itemsField: "items", itemField: "idx", collectField: "out", targetField: "outs" }))
      .addNode(
        "flaky",
        () => {
          if (++calls === 1) throw new Error("once");
          return { outs: [9] };
        },
        { middleware: [retry({ maxAttempts: 2, backoff: constantBackoff(0), classifier: () => true })] },
      )
      .addNode("boom", () => {
        throw new Error("boom");
      })
      .addEdge("fan", "flaky")
      .addEdge("flaky", "boom")
      .addEdge("boom", END)
      .setEntry("fan")
      .compile({ name: "outer" });
  }

  /** What a hook reads of an event or attempt, copied at the call (an attempt is live). */
  const FIELDS = [
    "phase", "nodeName", "namespace", "step", "preState", "postState", "error", "descriptor", "parentStates", "attemptIndex",
    "fanOutIndex", "branchName", "fanOutIndexChain", "branchNameChain", "invocationId", "correlationId", "graphName",
    "timestamp", "fanOutConfig", "parallelBranchesConfig",
  ] as const;
  const snapshot = (a: NodeAttempt): Record<string, unknown> => Object.fromEntries(FIELDS.map((k) => [k, a[k]]));

  it("node attempt hooks see, at the same moments, exactly what node event hooks see", async () => {
    const events: Record<string, unknown>[] = [];
    const attempts: Record<string, unknown>[] = [];
    const order: string[] = [];
    const eventHook: InvocationHooks = { onNodeEvent: (e) => (events.push(snapshot(e)), order.push(`event:${e.phase}:${e.nodeName}`)) };
    const attemptHook: InvocationHooks = {
      onNodeAttemptStart: (a) => (attempts.push(snapshot(a)), order.push(`attempt:${a.phase}:${a.nodeName}`)),
      onNodeAttemptEnd: (a) => (attempts.push(snapshot(a)), order.push(`attempt:${a.phase}:${a.nodeName}`)),
    };
    await runtimeErrorOf(richGraph().invoke({ items: [1, 2] }, { hooks: [attemptHook, eventHook] }));
    expect(events.length).to.be.greaterThan(10);
    expect(attempts).to.deep.equal(events);
    expect(attempts.some((a) => a["attemptIndex"] === 1 && a["nodeName"] === "flaky")).to.equal(true);
    expect(attempts.some((a) => a["fanOutConfig"] !== undefined)).to.equal(true);
    expect(attempts.some((a) => a["error"] !== undefined)).to.equal(true);
    // Each moment: the attempt hook, then the event hook (their order in `hooks`).
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).to.equal(order[i]!.replace("attempt:", "event:"));
  });

  it("a hook with attempt methods is not handed node events, even when it has `onNodeEvent` too", async () => {
    const seen: string[] = [];
    const both: InvocationHooks = {
      onNodeEvent: (e) => seen.push(`event:${e.phase}`),
      onNodeAttemptStart: (a) => seen.push(`start:${a.phase}`),
      onNodeAttemptEnd: (a) => seen.push(`end:${a.phase}`),
    };
    const g = new GraphBuilder(S).addNode("a", () => ({ v: 1 })).setEntry("a").compile({ name: "g" });
    await g.invoke({}, { hooks: both });
    expect(seen).to.deep.equal(["start:started", "end:completed"]);
  });

  it("hooks given as a list run in order after the graph's own", async () => {
    const log: string[] = [];
    const tag = (t: string): InvocationHooks => ({ onInvocationStart: () => log.push(t) });
    const g = new GraphBuilder(S).addNode("a", () => ({ v: 1 })).setEntry("a").compile({ name: "g", hooks: [tag("compiled-1"), tag("compiled-2")] });
    await g.invoke({}, { hooks: [tag("call-1"), tag("call-2")] });
    expect(log).to.deep.equal(["compiled-1", "compiled-2", "call-1", "call-2"]);
  });
});

describe("graph: invocation metadata (observability §3.4)", () => {
  it("refuses reserved keys and non-scalar values at invoke(), before any node runs", async () => {
    let ran = false;
    const g = new GraphBuilder(S).addNode("a", () => ((ran = true), {})).setEntry("a").compile({ name: "g" });
    for (const metadata of [{ "openarmature.x": 1 }, { "gen_ai.y": "z" }, { correlation_id: "c" }, { n: null }, { o: { a: 1 } }, { m: [1, "a"] }]) {
      const e = await g.invoke({}, { metadata }).then(() => null, (x: unknown) => x);
      expect(e, JSON.stringify(metadata)).to.be.instanceOf(RangeError);
    }
    expect(ran).to.equal(false);
  });

  it("set/get: additive in the calling context, forked per fan-out instance, invisible after the join", async () => {
    const Inner = defineState({ idx: field.int().default(0), seen: field.list(field.string()).default([]) });
    const inner = new GraphBuilder(Inner)
      .addNode("work", (s) => {
        setInvocationMetadata({ item: s.idx });
        return { seen: [JSON.stringify(getInvocationMetadata())] };
      })
      .setEntry("work")
      .compile({ name: "inner" });
    const P = defineState({ items: field.list(field.int()).default([]), seen: field.list(field.list(field.string())).default([]).reducer(append), after: field.string().default("") });
    const g = new GraphBuilder(P)
      .addNode("pre", () => (setInvocationMetadata({ tenant: "t1", tenantId: 7 }), {}))
      .addNode("fan", fanOut({ subgraph: inner, itemsField: "items", itemField: "idx", collectField: "seen", targetField: "seen" }))
      .addNode("post", () => ({ after: JSON.stringify(getInvocationMetadata()) }))
      .addEdge("pre", "fan")
      .addEdge("fan", "post")
      .setEntry("pre")
      .compile({ name: "outer" });
    const augs: MetadataAugmentation[] = [];
    const events: ObserverEvent[] = [];
    const r = await g.invoke({ items: [0, 1] }, { metadata: { user: "u" }, hooks: { onMetadataAugmented: (a) => augs.push(a) }, observers: [(e) => void events.push(e)] });
    expect(r.state.seen).to.deep.equal([
      ['{"user":"u","tenant":"t1","tenantId":7,"item":0}'],
      ['{"user":"u","tenant":"t1","tenantId":7,"item":1}'],
    ]);
    expect(JSON.parse(r.state.after)).to.deep.equal({ user: "u", tenant: "t1", tenantId: 7 });
    expect(augs.map((a) => [a.nodeName, a.fanOutIndexChain, a.added])).to.have.deep.members([
      ["pre", [], { tenant: "t1", tenantId: 7 }],
      ["work", [0], { item: 0 }],
      ["work", [1], { item: 1 }],
    ]);
    expect(augs.map((a) => a.nodeName).sort()).to.deep.equal(["pre", "work", "work"]);
    // The augmentation also travels the serial delivery queue, without a phase.
    await new Promise((res) => setTimeout(res, 10));
    expect(events.filter((e) => !isNodeEvent(e)).map((e) => e.kind)).to.deep.equal(["metadata_augmentation", "metadata_augmentation", "metadata_augmentation"]);
    expect(() => setInvocationMetadata({ "openarmature.x": 1 })).to.throw(RangeError);
    expect(getInvocationMetadata()).to.deep.equal({});
  });

  it("gives each retry attempt a fresh copy of the pre-attempt metadata", async () => {
    let calls = 0;
    const seen: string[] = [];
    const g = new GraphBuilder(S)
      .addNode(
        "flaky",
        () => {
          seen.push(JSON.stringify(getInvocationMetadata()));
          setInvocationMetadata({ [`attempt${calls}`]: true });
          if (calls++ === 0) throw new Error("transient");
          return {};
        },
        { middleware: [retry({ maxAttempts: 2, backoff: constantBackoff(0), classifier: () => true })] },
      )
      .setEntry("flaky")
      .compile({ name: "g" });
    await g.invoke({}, { metadata: { base: 1 } });
    expect(seen).to.deep.equal(['{"base":1}', '{"base":1}']);
  });

  it("commits the successful attempt's writes to the calling context: the next node reads them, not the failed attempt's", async () => {
    let calls = 0;
    let downstream = "";
    const g = new GraphBuilder(S)
      .addNode(
        "flaky",
        () => {
          setInvocationMetadata({ marker: calls === 0 ? "first" : "second", [`only${calls}`]: true });
          if (calls++ === 0) throw new Error("transient");
          return {};
        },
        { middleware: [retry({ maxAttempts: 2, backoff: constantBackoff(0), classifier: () => true })] },
      )
      .addNode("after", () => ((downstream = JSON.stringify(getInvocationMetadata())), {}))
      .addEdge("flaky", "after")
      .setEntry("flaky")
      .compile({ name: "g" });
    await g.invoke({}, { metadata: { base: 1 } });
    expect(JSON.parse(downstream)).to.deep.equal({ base: 1, marker: "second", only1: true });
  });
});
