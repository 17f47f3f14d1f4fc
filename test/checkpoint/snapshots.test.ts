import { expect } from "chai";
import { append, defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { fanOut } from "../../src/pipeline/index.ts";
import { withCheckpointer, type Checkpointer, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { VersionedList } from "../../src/checkpoint/versioned-list.ts";

/** A backend that keeps every saved record (by reference, as the in-memory one does). */
function keepingAll(): Checkpointer & { readonly saved: CheckpointRecord[] } {
  const saved: CheckpointRecord[] = [];
  return {
    saved,
    backendName: "keep_all",
    async save(_id, record) {
      saved.push(record);
    },
    async load() {
      return saved[saved.length - 1];
    },
    async list() {
      return [];
    },
    async delete() {},
  };
}

describe("checkpoint/snapshots: a saved record never changes after later saves", () => {
  it("VersionedList: every snapshot reads the list as it was when taken", () => {
    const l = new VersionedList(["a", "b", "c"]);
    const s0 = l.snapshot();
    l.set(1, "B");
    l.set(1, "BB");
    const s1 = l.snapshot();
    l.set(0, "A");
    const s2 = l.snapshot();
    const s2again = l.snapshot();
    expect(s1()).to.deep.equal(["a", "BB", "c"]);
    expect(s0()).to.deep.equal(["a", "b", "c"]);
    expect(s2()).to.deep.equal(["A", "BB", "c"]);
    expect(s2again()).to.deep.equal(["A", "BB", "c"]);
    expect(l.get(1)).to.equal("BB");
    expect(Object.isFrozen(s1())).to.equal(true);
    expect(s1()).to.equal(s1()); // materialized once
  });

  it("completedPositions of an earlier record keeps its length and content", async () => {
    const State = defineState({ n: field.int().default(0) });
    const g = new GraphBuilder(State)
      .addNode("tick", async (s) => ({ n: s.n + 1 }))
      .addConditionalEdge("tick", (s) => (s.n < 5 ? "tick" : END))
      .setEntry("tick").compile();
    const cp = keepingAll();
    await withCheckpointer(g, cp).invoke({});
    expect(cp.saved.map((r) => r.completedPositions.length)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(cp.saved.map((r) => r.completedPositions.map((p) => p.step))).to.deep.equal([[0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3, 4]]);
    expect(Object.isFrozen(cp.saved[0]!.completedPositions)).to.equal(true);
  });

  it("fan_out_progress instances of an earlier record keep the states they had then", async () => {
    const Item = defineState({ x: field.int().default(0), y: field.int().default(0) });
    const worker = new GraphBuilder(Item).addNode("w", async (s) => ({ y: s.x })).addEdge("w", END).setEntry("w").compile();
    const State = defineState({ xs: field.list(field.int()).default([1, 2, 3]), ys: field.list(field.int()).reducer(append).default([]) });
    const g = new GraphBuilder(State)
      .addNode("fan", fanOut({ subgraph: worker, itemsField: "xs", itemField: "x", collectField: "y", targetField: "ys", concurrency: 1 }))
      .addEdge("fan", END).setEntry("fan").compile();
    const cp = keepingAll();
    await withCheckpointer(g, cp).invoke({});
    const states = cp.saved
      .filter((r) => r.fanOutProgress !== undefined)
      .map((r) => r.fanOutProgress![0]!.instances.map((i) => i.state).join(","));
    // Serial instances: each goes not_started → in_flight → completed, one save at a time.
    expect(states[0]).to.equal("in_flight,not_started,not_started");
    expect(states[states.length - 1]).to.equal("completed,completed,completed");
    for (let k = 1; k < states.length; k++) {
      const done = (s: string) => s.split(",").filter((x) => x === "completed").length;
      expect(done(states[k]!)).to.be.at.least(done(states[k - 1]!));
    }
    expect(states).to.include("completed,in_flight,not_started");
  });
});
