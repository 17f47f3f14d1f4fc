import { expect } from "chai";
import { drain, type NodeEvent } from "../../src/graph/index.ts";
import { fanOut, parallelBranches } from "../../src/pipeline/index.ts";
import { chain, recorder, single, sleep } from "./helpers.ts";

function events(obs: { events: NodeEvent[] }, node: string): NodeEvent[] {
  return obs.events.filter((e) => e.nodeName === node);
}

describe("pipeline/lineage: fan_out_index on events (graph-engine §6, fixture 017 shape)", () => {
  it("tags inner events with the instance index; the fan-out node's own pair and outside nodes carry none", async () => {
    const leaf = single({ x: { type: "int", default: 0 }, result: { type: "int", default: 0 } }, "compute", (s) => ({ result: (s["x"] as number) * 2 }));
    const g = chain(
      { items: { type: "list<int>", default: [1, 2, 3] }, results: { type: "list<int>", reducer: "append", default: [] }, pre: { type: "bool", default: false } },
      [
        ["pre", () => ({ pre: true })],
        ["process", fanOut({ subgraph: leaf, itemsField: "items", itemField: "x", collectField: "result", targetField: "results" })],
      ],
    );
    const obs = recorder();
    const r = await g.invoke({}, { observers: [obs] });
    expect(r.state["results"]).to.deep.equal([2, 4, 6]);
    await drain();
    for (const n of ["pre", "process"]) {
      expect(events(obs, n)).to.have.length(2);
      expect(events(obs, n).every((e) => e.fanOutIndex === undefined && e.fanOutIndexChain.length === 0)).to.equal(true);
    }
    const inner = events(obs, "compute");
    expect(inner).to.have.length(6);
    expect([...new Set(inner.map((e) => e.fanOutIndex))].sort()).to.deep.equal([0, 1, 2]);
    expect(inner.every((e) => e.attemptIndex === 0 && e.namespace.join("/") === "process/compute")).to.equal(true);
    const ids = inner.map((e) => `${e.namespace.join("/")}|${e.fanOutIndex}|${e.attemptIndex}|${e.phase}`);
    expect(new Set(ids).size).to.equal(6);
    // The item each instance saw matches its index.
    for (const e of inner) expect(e.preState["x"]).to.equal([1, 2, 3][e.fanOutIndex!]);
    // Every inner event carries the fan-out node's entry state as its parent state.
    expect(inner.every((e) => e.parentStates.length === 1 && e.parentStates[0]!["pre"] === true)).to.equal(true);
  });

  it("starts instances in index order: the first wave's started events are dispatched in index order", async () => {
    const leaf = single({ x: { type: "int", default: 0 }, result: { type: "int", default: 0 } }, "w", async (s) => {
      await sleep(10 - (s["x"] as number));
      return { result: 1 };
    });
    const g = chain({ items: { type: "list<int>", default: [0, 1, 2, 3, 4, 5] }, results: { type: "list<int>", reducer: "append", default: [] } }, [
      ["f", fanOut({ subgraph: leaf, itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: 3 })],
    ]);
    const obs = recorder();
    await g.invoke({}, { observers: [obs] });
    await drain();
    const starts = obs.events.filter((e) => e.nodeName === "w" && e.phase === "started").map((e) => e.fanOutIndex);
    expect(starts.slice(0, 3)).to.deep.equal([0, 1, 2]);
    expect([...starts].sort()).to.deep.equal([0, 1, 2, 3, 4, 5]);
    const steps = obs.events.map((e) => e.step);
    expect(new Set(obs.events.filter((e) => e.phase === "started").map((e) => e.step)).size).to.equal(7); // one shared step counter
    expect(Math.min(...steps)).to.equal(0);
  });
});

describe("pipeline/lineage: nested fan-out chains (fixture 039 shape)", () => {
  it("carries fan_out_index_chain [outer, inner]; the scalar is the innermost index", async () => {
    const leafSg = single({ input: { type: "int", default: 0 }, out: { type: "int", default: 0 } }, "leaf", async (s) => {
      await sleep(Math.random() * 4);
      return { out: s["input"] as number };
    });
    const mid = chain({ inner_items: { type: "list<int>", default: [] }, inner_results: { type: "list<int>", reducer: "append", default: [] } }, [
      ["inner_fan_out", fanOut({ subgraph: leafSg, itemsField: "inner_items", itemField: "input", collectField: "out", targetField: "inner_results", errorPolicy: "collect" })],
    ]);
    const g = chain(
      { outer_items: { type: "list<list<int>>", default: [[10, 11], [20, 21]] }, all_results: { type: "list<list<int>>", reducer: "append", default: [] } },
      [["outer_fan_out", fanOut({ subgraph: mid, itemsField: "outer_items", itemField: "inner_items", collectField: "inner_results", targetField: "all_results", errorPolicy: "collect" })]],
    );
    const obs = recorder();
    const r = await g.invoke({}, { observers: [obs] });
    expect(r.state["all_results"]).to.deep.equal([[10, 11], [20, 21]]);
    await drain();

    const outer = events(obs, "outer_fan_out");
    expect(outer).to.have.length(2);
    expect(outer.every((e) => e.fanOutIndexChain.length === 0 && e.fanOutIndex === undefined)).to.equal(true);

    const innerNode = events(obs, "inner_fan_out");
    expect(innerNode).to.have.length(4);
    expect(new Set(innerNode.map((e) => JSON.stringify(e.fanOutIndexChain)))).to.deep.equal(new Set(["[0]", "[1]"]));
    expect(innerNode.every((e) => e.fanOutIndex === e.fanOutIndexChain[0] && e.branchName === undefined)).to.equal(true);
    expect(innerNode.every((e) => JSON.stringify(e.branchNameChain) === "[null]")).to.equal(true);
    expect(innerNode.every((e) => e.fanOutConfig?.parentNodeName === "inner_fan_out" && e.fanOutConfig.itemCount === 2)).to.equal(true);

    const leaves = events(obs, "leaf");
    expect(leaves).to.have.length(8);
    expect(new Set(leaves.map((e) => JSON.stringify(e.fanOutIndexChain)))).to.deep.equal(new Set(["[0,0]", "[0,1]", "[1,0]", "[1,1]"]));
    for (const e of leaves) {
      expect(e.namespace).to.deep.equal(["outer_fan_out", "inner_fan_out", "leaf"]);
      expect(e.fanOutIndex).to.equal(e.fanOutIndexChain[1]);
      expect(e.branchNameChain).to.deep.equal([null, null]);
      expect(e.preState["input"]).to.equal([[10, 11], [20, 21]][e.fanOutIndexChain[0]!]![e.fanOutIndexChain[1]!]);
    }
    const byChain = new Set(leaves.map((e) => `${JSON.stringify(e.fanOutIndexChain)}|${e.phase}`));
    expect(byChain.size).to.equal(8);
    expect(new Set(leaves.map((e) => `${e.fanOutIndex}|${e.phase}`)).size).to.equal(4); // the scalar alone collides
  });
});

describe("pipeline/lineage: branch_name (fixture 021 shape) and composition", () => {
  it("tags inner branch events with branch_name; outer nodes carry none", async () => {
    const a = single({ a_out: { type: "int", default: 0 } }, "a", () => ({ a_out: 1 }));
    const b = single({ b_out: { type: "int", default: 0 } }, "b", () => ({ b_out: 2 }));
    const g = chain({ a_result: { type: "int", default: 0 }, b_result: { type: "int", default: 0 } }, [
      ["outer_pre", () => ({ a_result: 0 })],
      ["dispatcher", parallelBranches({ branches: { alpha: { subgraph: a, outputs: { a_result: "a_out" } }, beta: { subgraph: b, outputs: { b_result: "b_out" } } } })],
      ["outer_post", () => ({ a_result: 0 })],
    ]);
    const obs = recorder();
    const r = await g.invoke({}, { observers: [obs] });
    expect(r.state).to.deep.equal({ a_result: 0, b_result: 2 });
    expect(r.executionOrder).to.deep.equal(["outer_pre", "dispatcher", "outer_post"]);
    await drain();
    for (const n of ["outer_pre", "dispatcher", "outer_post"]) expect(events(obs, n).every((e) => e.branchName === undefined)).to.equal(true);
    expect(events(obs, "a").map((e) => e.branchName)).to.deep.equal(["alpha", "alpha"]);
    expect(events(obs, "b").map((e) => e.branchName)).to.deep.equal(["beta", "beta"]);
    expect(events(obs, "a")[0]!.branchNameChain).to.deep.equal(["alpha"]);
    const d = events(obs, "dispatcher");
    expect(d.map((e) => e.phase)).to.deep.equal(["started", "completed"]);
    expect(d[1]!.parallelBranchesConfig).to.deep.equal({ branchNames: ["alpha", "beta"], branchCount: 2, errorPolicy: "fail_fast", parentNodeName: "dispatcher" });
    // Branch dispatch order = insertion order (§11.8): alpha's first event precedes beta's.
    expect(obs.events.findIndex((e) => e.nodeName === "a")).to.be.below(obs.events.findIndex((e) => e.nodeName === "b"));
  });

  it("a fan-out inside a branch carries both branch_name and fan_out_index, with aligned chains", async () => {
    const leaf = single({ x: { type: "int", default: 0 }, y: { type: "int", default: 0 } }, "leaf", (s) => ({ y: (s["x"] as number) + 1 }));
    const branchSg = chain({ xs: { type: "list<int>", default: [5, 6] }, ys: { type: "list<int>", reducer: "append", default: [] } }, [
      ["fo", fanOut({ subgraph: leaf, itemsField: "xs", itemField: "x", collectField: "y", targetField: "ys" })],
    ]);
    const g = chain({ ys: { type: "list<int>", reducer: "append", default: [] } }, [
      ["pb", parallelBranches({ branches: { left: { subgraph: branchSg, outputs: { ys: "ys" } } } })],
    ]);
    const obs = recorder();
    const r = await g.invoke({}, { observers: [obs] });
    expect(r.state["ys"]).to.deep.equal([6, 7]);
    await drain();
    const leaves = events(obs, "leaf");
    expect(leaves).to.have.length(4);
    for (const e of leaves) {
      expect(e.namespace).to.deep.equal(["pb", "fo", "leaf"]);
      expect(e.branchName).to.equal("left");
      expect(e.branchNameChain).to.deep.equal(["left", null]);
      expect(e.fanOutIndexChain[0]).to.equal(null);
      expect(e.fanOutIndex).to.equal(e.fanOutIndexChain[1]);
    }
  });

  it("parallel branches inside a fan-out instance carry fan_out_index then branch_name", async () => {
    const inst = chain({ x: { type: "int", default: 0 }, a: { type: "int", default: 0 }, b: { type: "int", default: 0 }, sum: { type: "int", default: 0 } }, [
      ["pb", parallelBranches({ branches: { plus: { call: (s) => ({ a: (s["x"] as number) + 1 }) }, times: { call: (s) => ({ b: (s["x"] as number) * 10 }) } } })],
      ["add", (s) => ({ sum: (s["a"] as number) + (s["b"] as number) })],
    ]);
    const g = chain({ xs: { type: "list<int>", default: [1, 2] }, sums: { type: "list<int>", reducer: "append", default: [] } }, [
      ["fo", fanOut({ subgraph: inst, itemsField: "xs", itemField: "x", collectField: "sum", targetField: "sums" })],
    ]);
    const obs = recorder();
    const r = await g.invoke({}, { observers: [obs] });
    expect(r.state["sums"]).to.deep.equal([12, 23]);
    await drain();
    const plus = events(obs, "plus");
    expect(plus).to.have.length(4);
    for (const e of plus) {
      expect(e.namespace).to.deep.equal(["fo", "pb", "plus"]);
      expect(e.fanOutIndexChain).to.deep.equal([e.fanOutIndex, null]);
      expect(e.branchNameChain).to.deep.equal([null, "plus"]);
    }
    expect(new Set(plus.map((e) => e.fanOutIndex))).to.deep.equal(new Set([0, 1]));
  });
});
