import { expect } from "chai";
import { append, boundedAppend, concatFlatten, dedupeAppend, defineReducer, END, GraphBuilder, lastWriteWins, merge, mergeAll, mergeByKey, ReducerError, stateSchema, type ReducerSpec } from "../../src/graph/index.ts";
import { resolveReducer } from "../../src/internal.ts";
import { compileErrorOf, runtimeErrorOf } from "./helpers.ts";

/** Run a one-field graph whose nodes apply `updates` in order; return the final field value. */
async function fold(type: string, reducer: ReducerSpec, initial: unknown, ...updates: unknown[]): Promise<unknown> {
  let b = new GraphBuilder(stateSchema({ fields: { f: { type, reducer, default: initial } } }));
  updates.forEach((u, i) => {
    b = b.addNode(`n${i}`, async () => ({ f: u }));
    b.addEdge(`n${i}`, i + 1 < updates.length ? `n${i + 1}` : END);
  });
  const r = await b.setEntry("n0").compile().invoke();
  return r.state["f"];
}

describe("graph/reducers: canonical reducers", () => {
  it("last_write_wins replaces (the default)", async () => {
    expect(await fold("string", "last_write_wins", "", "first", "second")).to.equal("second");
    expect(lastWriteWins(1, 2)).to.equal(2);
  });

  it("append concatenates lists without flattening list elements", async () => {
    expect(await fold("list", "append", ["seed"], ["x", "y"], [["z"]])).to.deep.equal(["seed", "x", "y", ["z"]]);
    const prior = ["a"];
    expect(append(prior, [])).to.equal(prior);
    expect(() => append(["a"], "b" as never)).to.throw(TypeError, /list/);
  });

  it("append copies frozen priors and updates of any length, holes read as undefined, inputs untouched", () => {
    const prior = Object.freeze(["p0", "p1"]);
    for (const n of [1, 1023, 1024, 1025, 200_000]) {
      // 200,000 elements: more than an engine accepts as call arguments, so the copy must not spread them into a call.
      const update = Object.freeze(Array.from({ length: n }, (_, i) => `u${i}`));
      const out = append(prior, update);
      expect(out).to.have.length(2 + n);
      expect(out[0]).to.equal("p0");
      expect(out[2]).to.equal("u0");
      expect(out[1 + n]).to.equal(`u${n - 1}`);
      expect(Object.isFrozen(out)).to.equal(false, "the engine freezes a reducer's result, not the reducer");
    }
    // eslint-disable-next-line no-sparse-arrays
    expect(append(prior, [, "b"] as string[])).to.deep.equal(["p0", "p1", undefined, "b"]);
    expect(prior).to.deep.equal(["p0", "p1"]);
    expect(boundedAppend<string>(3)(prior, Object.freeze(["a", "b"]))).to.deep.equal(["p1", "a", "b"]);
  });

  it("merge is a shallow mapping merge", async () => {
    expect(await fold("dict", "merge", { a: 1, b: { x: 1 } }, { b: { y: 2 } }, { c: 3 })).to.deep.equal({ a: 1, b: { y: 2 }, c: 3 });
    expect(() => merge({}, [] as never)).to.throw(TypeError);
  });

  it("concat_flatten flattens exactly one level; empty update and empty sub-lists are no-ops", async () => {
    expect(await fold("list", "concat_flatten", ["a", "b"], [["c"], ["d", "e"], []], [["f"]])).to.deep.equal(["a", "b", "c", "d", "e", "f"]);
    expect(await fold("list", "concat_flatten", ["a"], [])).to.deep.equal(["a"]);
    expect(await fold("list", "concat_flatten", [], [[], []])).to.deep.equal([]);
    expect(() => concatFlatten([], [["a"], "nope"] as never)).to.throw(TypeError, /element 1/);
  });

  it("merge_all folds a list of mappings, last write wins", async () => {
    const out = await fold(
      "dict",
      "merge_all",
      { seed_key: "seed", retained: "prior" },
      [{ a: "1" }, { seed_key: "over", b: "2" }, { a: "wins" }],
      [{ b: "y" }, { c: "3" }],
    );
    expect(out).to.deep.equal({ seed_key: "over", retained: "prior", a: "wins", b: "y", c: "3" });
    expect(await fold("dict", "merge_all", { k: "v" }, [], [{}, {}])).to.deep.equal({ k: "v" });
    expect(() => mergeAll({}, [{ k: 1 }, "x"] as never)).to.throw(TypeError, /element 1/);
    expect(() => mergeAll({}, { k: 1 } as never)).to.throw(TypeError);
  });
});

describe("graph/reducers: factory reducers", () => {
  it("bounded_append truncates from the front after concatenation", async () => {
    expect(await fold("list<string>", { bounded_append: { max_len: 3 } }, [], ["a", "b", "c", "d", "e"])).to.deep.equal(["c", "d", "e"]);
    expect(await fold("list<string>", { bounded_append: { max_len: 4 } }, [], ["1", "2"], ["3", "4"], ["5", "6"])).to.deep.equal(["3", "4", "5", "6"]);
    expect(await fold("list<string>", { bounded_append: { max_len: 2 } }, ["s1", "s2"], ["a", "b", "c", "d", "e"])).to.deep.equal(["d", "e"]);
    expect(await fold("list<string>", { bounded_append: { max_len: 3 } }, ["a", "b", "c", "d", "e"], [])).to.deep.equal(["a", "b", "c", "d", "e"]);
    expect(boundedAppend(2).maxLen).to.equal(2);
  });

  it("dedupe_append filters by item or key, first occurrence wins, prior untouched", async () => {
    expect(await fold("list<string>", { dedupe_append: {} }, ["seed"], ["seed", "a", "b", "a"])).to.deep.equal(["seed", "a", "b"]);
    expect(
      await fold("list", { dedupe_append: { key: "id" } }, [{ id: 1, v: "alpha" }], [
        { id: 1, v: "alpha-updated" },
        { id: 2, v: "beta" },
        { id: 2, v: "beta-dup" },
      ]),
    ).to.deep.equal([{ id: 1, v: "alpha" }, { id: 2, v: "beta" }]);
    const byLen = dedupeAppend((s: string) => s.length);
    expect(byLen(["aa"], ["bb", "c", "dd", "e"])).to.deep.equal(["aa", "c"]);
    expect(() => dedupeAppend()([], [{ not: "hashable" }])).to.throw(TypeError, /hashable/);
  });

  it("merge_by_key replaces in place (last prior duplicate), appends novel keys in order", async () => {
    const out = await fold(
      "list",
      { merge_by_key: { key: "id" } },
      [{ id: 1, v: "old-a" }, { id: 1, v: "old-b" }, { id: 2, v: "old-c" }, { id: 9, v: "keep" }],
      [{ id: 1, v: "new-b" }, { id: 3, v: "novel" }, { id: 2, v: "new-c1" }, { id: 2, v: "new-c2" }, { id: 4, v: "q" }],
    );
    expect(out).to.deep.equal([
      { id: 1, v: "old-a" },
      { id: 1, v: "new-b" },
      { id: 2, v: "new-c2" },
      { id: 9, v: "keep" },
      { id: 3, v: "novel" },
      { id: 4, v: "q" },
    ]);
    expect(mergeByKey((r: { k: string }) => r.k)([{ k: "a" }], [])).to.deep.equal([{ k: "a" }]);
  });

  it("invalid factory parameters raise reducer_configuration_invalid at registration", () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(compileErrorOf(() => boundedAppend(bad)).category).to.equal("reducer_configuration_invalid");
    }
    expect(compileErrorOf(() => mergeByKey(null as never)).category).to.equal("reducer_configuration_invalid");
    expect(compileErrorOf(() => dedupeAppend(42 as never)).category).to.equal("reducer_configuration_invalid");
    // the document form fails when the schema is declared — before any node body runs
    let ran = false;
    const err = compileErrorOf(() => {
      const S = stateSchema({ fields: { items: { type: "list", reducer: { bounded_append: { max_len: 0 } }, default: [] } } });
      new GraphBuilder(S).addNode("x", async () => ((ran = true), {})).addEdge("x", END).setEntry("x").compile();
    });
    expect(err.category).to.equal("reducer_configuration_invalid");
    expect(ran).to.equal(false);
    expect(compileErrorOf(() => resolveReducer({ merge_by_key: { key: null } })).category).to.equal("reducer_configuration_invalid");
    expect(compileErrorOf(() => resolveReducer("no_such_reducer" as never)).category).to.equal("reducer_configuration_invalid");
  });

  it("an argument a factory does not take is reducer_configuration_invalid, naming it", () => {
    const err = compileErrorOf(() => resolveReducer({ merge_by_key: { key: "id", keys: "id" } }));
    expect(err.category).to.equal("reducer_configuration_invalid");
    expect(err.message).to.contain('"keys"');
    expect(compileErrorOf(() => resolveReducer({ bounded_append: { max_len: 2, len: 2 } })).category).to.equal("reducer_configuration_invalid");
    expect(resolveReducer({ bounded_append: { maxLen: 2 } })([1, 2], [3])).to.deep.equal([2, 3]);
    expect(resolveReducer({ dedupe_append: {} })([1], [1, 2])).to.deep.equal([1, 2]);
  });
});

describe("graph/reducers: reducer_error at merge time", () => {
  it("names field, reducer and node; keeps the cause and the pre-merge state", async () => {
    const S = stateSchema({
      fields: { items: { type: "list", reducer: { bounded_append: { max_len: 3 } }, default: [] }, n: { type: "int", default: 0 } },
    });
    const g = new GraphBuilder(S)
      .addNode("w", async () => ({ n: 1, items: ["ok"] }))
      .addNode("x", async () => ({ items: "not_a_list" }) as never)
      .addEdge("w", "x")
      .addEdge("x", END)
      .setEntry("w")
      .compile();
    const err = await runtimeErrorOf(g.invoke());
    expect(err).to.be.instanceOf(ReducerError);
    const re = err as ReducerError;
    expect(re.category).to.equal("reducer_error");
    expect(re.field).to.equal("items");
    expect(re.reducerName).to.equal("bounded_append");
    expect(re.nodeName).to.equal("x");
    expect(re.cause).to.be.instanceOf(TypeError);
    expect(String((re.cause as Error).message)).to.match(/not_a_list/);
    expect(re.state).to.deep.equal({ items: ["ok"], n: 1 });
    expect(re.executionOrder).to.deep.equal(["w", "x"]);
  });

  it("a key callable that throws, or a custom reducer that throws, is a reducer_error", async () => {
    const boom = defineReducer("boom", () => {
      throw new Error("custom failure");
    });
    const S = stateSchema({ fields: { a: { type: "any", reducer: boom, default: 0 } } });
    const g = new GraphBuilder(S).addNode("n", async () => ({ a: 1 })).addEdge("n", END).setEntry("n").compile();
    const err = await runtimeErrorOf(g.invoke());
    expect(err.category).to.equal("reducer_error");
    expect((err as ReducerError).reducerName).to.equal("boom");
    expect((err.cause as Error).message).to.equal("custom failure");

    const keyed = stateSchema({ fields: { r: { type: "list", reducer: dedupeAppend(() => { throw new Error("key"); }), default: [] } } });
    const g2 = new GraphBuilder(keyed).addNode("n", async () => ({ r: [1] })).addEdge("n", END).setEntry("n").compile();
    expect((await runtimeErrorOf(g2.invoke())).category).to.equal("reducer_error");
  });
});
