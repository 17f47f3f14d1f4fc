import { expect } from "chai";
import { currentNodeContext, defineState, drain, drainEventsFor, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { EventCounter, NodeEventAccumulator, TypedEventCounter, type NodeEventBucket } from "../../src/observability/index.ts";

const S = defineState({ seen: field.int().default(0), bucketSize: field.int().default(-1), droppedGone: field.bool().default(false) });

describe("observability: queryable observers (§9)", () => {
  it("a counter read from a node is a non-negative count bounded by the events emitted before the read", async () => {
    const counter = new EventCounter();
    const g = new GraphBuilder(S)
      .addNode("a", () => ({}))
      .addNode("b", () => ({ seen: counter.count }))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile({ name: "q" });
    const r = await g.invoke({}, { observers: [counter.observer] });
    await drain();
    expect(r.outcome).to.equal("completed");
    const seen = (r as { state: { seen: number } }).state.seen;
    // a.started, a.completed, b.started were emitted before b's body ran.
    expect(seen).to.be.within(0, 3);
    expect(counter.count).to.equal(4);
  });

  it("a typed counter's snapshot is frozen and its total always equals the sum of its breakdown", async () => {
    const typed = new TypedEventCounter();
    const g = new GraphBuilder(S).addNode("a", () => ({})).addEdge("a", END).setEntry("a").compile({ name: "t" });
    await g.invoke({}, { observers: [typed.observer] });
    await drain();
    const snap = typed.snapshot();
    expect(snap).to.deep.equal({ total: 2, byKind: { node: 2 } });
    expect(Object.isFrozen(snap) && Object.isFrozen(snap.byKind)).to.equal(true);
  });

  it("an accumulator keeps a bucket per invocation id past completion until dropped explicitly (§9.4)", async () => {
    const acc = new NodeEventAccumulator();
    let read: NodeEventBucket | undefined;
    const g = new GraphBuilder(S)
      .addNode("a", () => ({}))
      .addNode("b", async () => {
        const id = currentNodeContext()!.invocationId;
        // §9.2: a read is not guaranteed to see every event emitted so far; gate it on delivery.
        await drainEventsFor(id);
        read = acc.get(id);
        const dropped = acc.drop(id);
        return { bucketSize: read?.events.length ?? 0, droppedGone: dropped && acc.get(id) === undefined };
      })
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile({ name: "acc" });
    const one = await g.invoke({}, { observers: [acc.observer], invocationId: "inv-1" });
    const two = await g.invoke({}, { observers: [acc.observer], invocationId: "inv-2" });
    await drain();
    expect((one as { state: { droppedGone: boolean } }).state.droppedGone).to.equal(true);
    expect((two as { state: { droppedGone: boolean } }).state.droppedGone).to.equal(true);
    expect(read!.invocationId).to.equal("inv-2");
    // a.started, a.completed and b.started, delivered before the read.
    expect((two as { state: { bucketSize: number } }).state.bucketSize).to.equal(3);
    expect(Object.isFrozen(read!.events)).to.equal(true);
    // Events delivered after the drop (b's completed) start a fresh bucket, and nothing drops it
    // on completion: both invocations still hold one.
    expect(acc.invocationIds().sort()).to.deep.equal(["inv-1", "inv-2"]);
    expect(acc.get("inv-1")!.events.map((e) => `${e.nodeName}.${e.phase}`)).to.include("b.completed");
    expect(acc.get("inv-1")!.events.every((e) => e.nodeName !== "a")).to.equal(true);
    expect(acc.drop("inv-1")).to.equal(true);
    expect(acc.has("inv-1")).to.equal(false);
  });
});
