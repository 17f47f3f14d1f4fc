import { expect } from "chai";
import { append, defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { canonicalCopier, spreadCopy } from "../../src/graph/state-copy.ts";

describe("graph: state copies for merges (state-copy.ts)", () => {
  it("a generated copier copies exactly the named keys, in order, into a fresh unfrozen object", () => {
    const copy = canonicalCopier(["b", "a", "it's \"quoted\""]);
    expect(copy).to.not.equal(spreadCopy);
    const prior = Object.freeze({ b: 1, a: [2], "it's \"quoted\"": "q" });
    const next = copy(prior);
    expect(next).to.not.equal(prior);
    expect(Object.keys(next)).to.deep.equal(["b", "a", "it's \"quoted\""]);
    expect(next).to.deep.equal(prior);
    expect(Object.isFrozen(next)).to.equal(false);
    expect(next["a"]).to.equal(prior.a);
  });

  it("a `__proto__` field is copied as a field (spread), never as the prototype", () => {
    const copy = canonicalCopier(["x", "__proto__"]);
    expect(copy).to.equal(spreadCopy);
    const prior = JSON.parse('{"x": 1, "__proto__": {"polluted": true}}') as Record<string, unknown>;
    const next = copy(prior);
    expect(Object.getPrototypeOf(next)).to.equal(Object.prototype);
    expect(Object.keys(next)).to.deep.equal(["x", "__proto__"]);
  });

  it("merges through the schema keep field order, presence and immutability", async () => {
    const All = defineState({ n: field.int().default(0), log: field.list(field.string()).reducer(append).default([]), last: field.string().default("") });
    // A field without a default is absent until written: such states are copied by spread.
    const Some = defineState({ n: field.int().default(0), late: field.string().optional() });
    const all = new GraphBuilder(All)
      .addNode("a", (s) => ({ n: s.n + 1, log: ["a"] }))
      .addNode("b", (s) => ({ last: "b", log: [`b${s.n}`] }))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile({ name: "all" });
    const r = await all.invoke({});
    expect(Object.keys(r.state)).to.deep.equal(["n", "log", "last"]);
    expect(r.state).to.deep.equal({ n: 1, log: ["a", "b1"], last: "b" });
    expect(Object.isFrozen(r.state) && Object.isFrozen(r.state.log)).to.equal(true);

    const seen: boolean[] = [];
    const some = new GraphBuilder(Some)
      .addNode("a", (s) => (seen.push("late" in s), { n: s.n + 1 }))
      .addNode("b", (s) => (seen.push("late" in s), { late: "x" }))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile({ name: "some" });
    const r2 = await some.invoke({});
    expect(seen).to.deep.equal([false, false]);
    expect(r2.state).to.deep.equal({ n: 1, late: "x" });
  });

  it("`mergeUpdate` copies a caller's prior as it is (no generated copier: its keys are the caller's)", () => {
    const All = defineState({ n: field.int().default(0), log: field.list(field.string()).reducer(append).default([]) });
    const g = new GraphBuilder(All).addNode("a", () => ({})).setEntry("a").compile({ name: "g" });
    const next = g.mergeUpdate({ n: 1 } as never, { n: 2 });
    expect(Object.keys(next)).to.deep.equal(["n"]);
    expect("log" in next).to.equal(false);
  });

  it("`append` freezes what state keeps: the merged list and the update's elements", async () => {
    const Item = defineState({ items: field.list(field.any()).reducer(append).default([]) });
    const returned: unknown[][] = [];
    const g = new GraphBuilder(Item)
      .addNode("first", () => {
        const u = [{ k: 1 }];
        returned.push(u);
        return { items: u };
      })
      .addNode("second", () => {
        const u = [{ k: 2, inner: [1] }];
        returned.push(u);
        return { items: u };
      })
      .addEdge("first", "second")
      .addEdge("second", END)
      .setEntry("first")
      .compile({ name: "g" });
    const r = await g.invoke({});
    const items = r.state.items as readonly { k: number; inner?: number[] }[];
    expect(items.map((i) => i.k)).to.deep.equal([1, 2]);
    expect(Object.isFrozen(items)).to.equal(true);
    expect(items.every((i) => Object.isFrozen(i))).to.equal(true);
    expect(Object.isFrozen(items[1]!.inner)).to.equal(true);
    // Onto an empty prior the update list itself becomes the state's list: frozen with it.
    expect(Object.isFrozen(returned[0])).to.equal(true);
    // Onto a non-empty prior it is copied: the state does not hold it.
    expect(items).to.not.equal(returned[1]);
    expect(() => (items as unknown as unknown[]).push(3)).to.throw(TypeError);
  });
});
