import { expect } from "chai";
import { append, defineState, drain, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { recorder } from "./helpers.ts";

const S = defineState({ v: field.int().default(0), trace: field.list(field.string()).default([]).reducer(append) });

function graphs() {
  const inner = new GraphBuilder(S)
    .addNode("inner_x", async () => ({ v: 10, trace: ["inner_x"] }))
    .addEdge("inner_x", END)
    .setEntry("inner_x")
    .compile({ name: "inner" });
  const outer = new GraphBuilder(S)
    .addNode("outer_in", async () => ({ v: 1, trace: ["outer_in"] }))
    .addSubgraph("outer_sub", inner)
    .addEdge("outer_in", "outer_sub")
    .addEdge("outer_sub", END)
    .setEntry("outer_in")
    .compile({ name: "outer" });
  const other = new GraphBuilder(S).addNode("z", async () => ({ v: 0 })).addEdge("z", END).setEntry("z").compile({ name: "other" });
  return { inner, outer, other };
}

describe("graph/observers: invocation-scoped observers with a graph scope", () => {
  it("a scoped invocation observer receives only the scoped graph's events, for that invocation only, after graph-attached ones", async () => {
    const { inner, outer } = graphs();
    const log: string[] = [];
    const attached = recorder(log, "graph");
    const detach = outer.attachObserver(attached);
    const scoped = recorder(log, "scoped");
    const whole = recorder(log, "whole");
    await outer.invoke({}, { observers: [{ observer: scoped, graph: inner, phases: ["completed"] }, whole] });
    await outer.invoke({});
    await drain();
    detach();
    expect(log.filter((l) => l.startsWith("scoped"))).to.deep.equal(["scoped:1:completed:outer_sub/inner_x"]);
    expect(log.filter((l) => l.startsWith("whole"))).to.have.length(4);
    expect(log.slice(6, 9)).to.deep.equal(["graph:1:completed:outer_sub/inner_x", "scoped:1:completed:outer_sub/inner_x", "whole:1:completed:outer_sub/inner_x"]);
  });

  it("scoping to the invoked graph itself is the unscoped behavior", async () => {
    const { outer } = graphs();
    const scoped = recorder();
    await outer.invoke({}, { observers: [{ observer: scoped, graph: outer }] });
    await drain();
    expect(scoped.events).to.have.length(4);
  });

  it("rejects a scope graph that does not run inside the invocation, naming it", async () => {
    const { outer, other } = graphs();
    let err: unknown;
    try {
      await outer.invoke({}, { observers: [{ observer: recorder(), graph: other, name: "obs" }] });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(RangeError);
    expect((err as Error).message).to.include('"other"').and.include('"outer"').and.include('"obs"');
  });
});
