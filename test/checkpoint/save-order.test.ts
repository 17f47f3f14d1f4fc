/**
 * The recorder's write order (pipeline-utilities §10.3: one invocation's saves are written in
 * order): a save issued while another is in flight — concurrent fan-out instances — waits for it
 * to settle; a serial run starts each write at once. A backend that throws instead of rejecting
 * fails the invocation the same way.
 */
import { expect } from "chai";
import { CheckpointSaveFailedError, InMemoryCheckpointer, withCheckpointer, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { chain, rejection, seamFanOut } from "./helpers.ts";
import { sleep } from "../graph/helpers.ts";

/** An in-memory backend whose saves take a while, recording how many overlap and in what order they end. */
class SlowCheckpointer extends InMemoryCheckpointer {
  active = 0;
  maxActive = 0;
  readonly ended: number[] = [];
  override async save(id: string, record: CheckpointRecord): Promise<void> {
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    // Later saves finish faster: without the ordering they would end (and land) out of order.
    await sleep(Math.max(0, 6 - this.ended.length));
    await super.save(id, record);
    this.ended.push(record.lastSavedAt);
    this.active--;
  }
}

describe("checkpoint: save order within one invocation", () => {
  it("concurrent fan-out instances' saves never overlap and land in the order they were issued", async () => {
    const leaf = chain({ input: { type: "int", default: 0 }, out: { type: "int", default: 0 } }, [["score", async (s) => (await sleep(1), { out: s.input })]], "scorer");
    const g = chain(
      { items: { type: "list<int>", default: [1, 2, 3, 4, 5, 6] }, results: { type: "list<any>", default: [] } },
      [["process", seamFanOut({ sub: leaf, itemsField: "items", itemField: "input", collectField: "out", targetField: "results", concurrent: true })]],
      "fan",
    );
    const cp = new SlowCheckpointer();
    const r = await withCheckpointer(g, cp).invoke({}, { invocationId: "ordered" });
    expect([...(r.state["results"] as number[])].sort()).to.deep.equal([1, 2, 3, 4, 5, 6]);
    expect(cp.ended.length).to.be.greaterThan(6);
    expect(cp.maxActive).to.equal(1);
    const sorted = [...cp.ended].sort((a, b) => a - b);
    expect(cp.ended).to.deep.equal(sorted, "each record's lastSavedAt is later than the one saved before it");
    expect((await cp.load("ordered"))!.lastSavedAt).to.equal(cp.ended.at(-1));
  });

  it("a backend whose save throws synchronously fails the invocation with checkpoint_save_failed", async () => {
    const cp = new InMemoryCheckpointer();
    let calls = 0;
    cp.save = ((): Promise<void> => {
      calls++;
      throw new Error("no space left");
    }) as InMemoryCheckpointer["save"];
    const g = chain({ x: { type: "int", default: 0 } }, [["a", () => ({ x: 1 })], ["b", () => ({ x: 2 })]]);
    const e = await rejection(withCheckpointer(g, cp).invoke({}, { invocationId: "sync-throw" }));
    expect(e).to.be.instanceOf(CheckpointSaveFailedError);
    expect(e).to.include({ category: "checkpoint_save_failed", nodeName: "a" });
    expect((e.cause as Error).message).to.equal("no space left");
    expect(calls).to.equal(1);
  });
});
