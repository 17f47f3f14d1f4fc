import { expect } from "chai";
import { defineState, END, field, GraphBuilder, NodeException, ReducerError, type Middleware, type StateRecord } from "../../../src/graph/index.ts";
import { CategorizedError, categoryOf, classifyCause } from "../../../src/pipeline/middleware/index.ts";
import { isCarrier, surfaceError } from "../../../src/internal.ts";
import { runtimeErrorOf } from "./helpers.ts";

/** A carrier subtype like §11.9 `parallel_branches_branch_failed`. */
class BranchFailed extends Error {
  readonly category = "parallel_branches_branch_failed";
  readonly isCarrier = true;
}

describe("pipeline/middleware: cause-chain classification (§6.4)", () => {
  it("a bare error: one non-carrier link, derived category null, message the error's own", () => {
    expect(classifyCause(new TypeError("bad input"))).to.deep.equal({
      category: null,
      message: "bad input",
      chain: [{ category: null, message: "bad input", carrier: false }],
    });
  });

  it("skips node_exception carriers when deriving, keeps them in the chain with their own category", () => {
    const origin = new CategorizedError("provider_unavailable", "provider down");
    const c = classifyCause(new NodeException(origin, { nodeName: "work" }));
    expect(c.category).to.equal("provider_unavailable");
    expect(c.message).to.equal("provider down");
    expect(c.chain).to.deep.equal([
      { category: "node_exception", message: "provider down", carrier: true },
      { category: "provider_unavailable", message: "provider down", carrier: false },
    ]);
  });

  it("outermost non-carrier with a category wins over the originating cause (fixture 068)", () => {
    const origin = new CategorizedError("provider_unavailable", "originating upstream failure");
    const surface = new CategorizedError("provider_invalid_response", "re-categorized at the surface", { cause: origin });
    const c = classifyCause(new NodeException(surface));
    expect(c.category).to.equal("provider_invalid_response");
    expect(c.message).to.equal("re-categorized at the surface");
    expect(c.chain.map((l) => [l.carrier, l.category, l.message])).to.deep.equal([
      [true, "node_exception", "re-categorized at the surface"],
      [false, "provider_invalid_response", "re-categorized at the surface"],
      [false, "provider_unavailable", "originating upstream failure"],
    ]);
  });

  it("an uncategorized non-carrier above a categorized one: the deeper category is derived (first non-carrier *with* a category)", () => {
    const c = classifyCause(new NodeException(new Error("wrapper", { cause: new CategorizedError("provider_rate_limit", "429") })));
    expect(c.category).to.equal("provider_rate_limit");
    expect(c.message).to.equal("429");
  });

  it("no categorized non-carrier: derived null, message of the outermost non-carrier (fixture 066 case 3)", () => {
    const c = classifyCause(new NodeException(new Error("boom", { cause: new Error("deeper") })));
    expect(c.category).to.equal(null);
    expect(c.message).to.equal("boom");
    expect(c.chain.map((l) => l.carrier)).to.deep.equal([true, false, false]);
  });

  it("carrier subtypes (isCarrier) are carriers too; nested carriers are all skipped", () => {
    const origin = new CategorizedError("provider_rate_limit", "slow down");
    const c = classifyCause(new NodeException(new BranchFailed("branch failed", { cause: new NodeException(origin) })));
    expect(c.chain.map((l) => [l.carrier, l.category])).to.deep.equal([
      [true, "node_exception"],
      [true, "parallel_branches_branch_failed"],
      [true, "node_exception"],
      [false, "provider_rate_limit"],
    ]);
    expect(c.category).to.equal("provider_rate_limit");
  });

  it("a non-carrier engine error keeps its own category (reducer_error is not skipped)", () => {
    const c = classifyCause(new ReducerError("items", "append", new TypeError("not a list")));
    expect(c.category).to.equal("reducer_error");
    expect(c.chain).to.have.length(2);
  });

  it("terminates on a cyclic chain and stops at a non-exception cause", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(classifyCause(b).chain.map((l) => l.message)).to.deep.equal(["b", "a"]);
    const self = new Error("self");
    (self as { cause?: unknown }).cause = self;
    expect(classifyCause(self).chain).to.have.length(1);
    expect(classifyCause(new Error("top", { cause: { category: "provider_unavailable", message: "not an Error" } })).chain).to.have.length(1);
  });

  it("classifies non-Error throwables as one uncategorized link", () => {
    expect(classifyCause("plain string")).to.deep.equal({ category: null, message: "plain string", chain: [{ category: null, message: "plain string", carrier: false }] });
    expect(classifyCause({ code: 7 }).message).to.equal('{"code":7}');
    expect(classifyCause(undefined).chain).to.have.length(1);
  });

  it("all-carrier chain (carrier over a thrown string): message falls back to the carrier's", () => {
    const c = classifyCause(new NodeException("thrown string"));
    expect(c.category).to.equal(null);
    expect(c.message).to.equal("thrown string");
    expect(c.chain).to.deep.equal([{ category: "node_exception", message: "thrown string", carrier: true }]);
  });

  it("empty-string categories count as none; results are frozen", () => {
    const e = Object.assign(new Error("x"), { category: "" });
    expect(categoryOf(e)).to.equal(null);
    expect(categoryOf("provider_unavailable")).to.equal(null);
    const c = classifyCause(e);
    expect(c.category).to.equal(null);
    expect(Object.isFrozen(c) && Object.isFrozen(c.chain) && Object.isFrozen(c.chain[0])).to.equal(true);
    expect(isCarrier(new NodeException(e))).to.equal(true);
    expect(isCarrier(e)).to.equal(false);
  });

  it("classifies an invoke() failure identically to the failure-isolation report (through the engine's carrier)", async () => {
    const g = new GraphBuilder(defineState({ v: field.int().default(0) }))
      .addNode("n", async () => {
        throw new CategorizedError("provider_rate_limit", "429", { cause: new Error("http") });
      })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const err = await runtimeErrorOf(g.invoke({}));
    const c = classifyCause(err);
    expect(c.category).to.equal("provider_rate_limit");
    expect(c.chain.map((l) => [l.carrier, l.category, l.message])).to.deep.equal([
      [true, "node_exception", "429"],
      [false, "provider_rate_limit", "429"],
      [false, null, "http"],
    ]);
  });

  describe("surfaceError", () => {
    it("inside a node's own chain, recovers the raw error from the engine's attempt carrier — and only that one", async () => {
      const raw = new CategorizedError("provider_unavailable", "down");
      const seen: [unknown, unknown][] = [];
      const spy = <S extends StateRecord, U>(): Middleware<S, U> => async (s, next, ctx) => {
        try {
          return await next(s);
        } catch (e) {
          seen.push([e, surfaceError(e, ctx)]);
          throw e;
        }
      };
      const inner = new GraphBuilder(defineState({ v: field.int().default(0) }))
        .addNode("work", async () => {
          throw raw;
        }, { middleware: [spy()] })
        .addEdge("work", END)
        .setEntry("work")
        .compile({ name: "inner" });
      const outer = new GraphBuilder(defineState({ v: field.int().default(0) }))
        .addSubgraph("sub", inner, {}, { middleware: [spy()] })
        .addEdge("sub", END)
        .setEntry("sub")
        .compile();
      const err = await runtimeErrorOf(outer.invoke({}));
      expect(seen).to.have.length(2);
      // node-level placement: the engine hands middleware the node's raw error (no carrier)
      expect(seen[0]![0]).to.equal(raw);
      expect(seen[0]![1]).to.equal(raw);
      // subgraph-node placement: the inner node's carrier is kept
      expect(seen[1]![0]).to.equal(err);
      expect(seen[1]![1]).to.equal(err);
      expect(err.namespace).to.deep.equal(["sub", "work"]);
    });

    it("leaves foreign values alone", () => {
      const ctx = { nodeName: "a", namespace: ["a"], step: 0 };
      const e = new Error("x");
      expect(surfaceError(e, ctx)).to.equal(e);
      const other = new NodeException(e, { nodeName: "b", namespace: ["b"], step: 0 });
      expect(surfaceError(other, ctx)).to.equal(other);
      const ownWrongStep = new NodeException(e, { nodeName: "a", namespace: ["a"], step: 3 });
      expect(surfaceError(ownWrongStep, ctx)).to.equal(ownWrongStep);
      class Sub extends NodeException {}
      const sub = new Sub(e, { nodeName: "a", namespace: ["a"], step: 0 });
      expect(surfaceError(sub, ctx)).to.equal(sub);
      expect(surfaceError(new NodeException(e, { nodeName: "a", namespace: ["a"], step: 0 }), ctx)).to.equal(e);
    });
  });
});
