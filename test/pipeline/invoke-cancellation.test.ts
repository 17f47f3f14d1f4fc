/**
 * `invoke({ signal })` through fan-out and parallel branches: in-flight instances / branches see the
 * abort on `ctx.signal`, no new ones start, and the invocation rejects with one
 * `invocation_cancelled` error located at the composite node, with the state at its entry.
 */
import { expect } from "chai";
import { END, GraphBuilder, InvocationCancelledError, stateSchema, type NodeContext, type StateRecord } from "../../src/graph/index.ts";
import { fanOut, parallelBranches, type ErrorPolicy } from "../../src/pipeline/index.ts";
import { retry } from "../../src/pipeline/middleware/index.ts";
import { fakeFetch } from "../graph/cancellation.test.ts";
import { chain, runtimeErrorOf, single } from "./helpers.ts";

const P = {
  items: { type: "list<int>", default: [0, 1, 2, 3, 4, 5, 6, 7] },
  results: { type: "list<string>", reducer: "append", default: [] },
  errors: { type: "list<dict<string,string>>", reducer: "append", default: [] },
  prepared: { type: "bool", default: false },
  a: { type: "string", default: "" },
  b: { type: "string", default: "" },
  c: { type: "string", default: "" },
} as const;

const I = { idx: { type: "int", default: -1 }, body: { type: "string", default: "" } } as const;

/** Abort `ac` once `n` tasks have started (on the next macrotask, so they are all in flight). */
function abortAfter(ac: AbortController, n: number): () => void {
  let started = 0;
  return () => {
    if (++started === n) setTimeout(() => ac.abort(), 5);
  };
}

for (const errorPolicy of ["fail_fast", "collect"] as const satisfies readonly ErrorPolicy[]) {
  describe(`invoke({ signal }) through a fan-out (${errorPolicy})`, () => {
    it("stops in-flight instances (they observe ctx.signal), starts no new one, rejects with one invocation_cancelled at the fan-out node", async () => {
      const ac = new AbortController();
      const onStart = abortAfter(ac, 2);
      const started: number[] = [];
      const sawAbort: number[] = [];
      const worker = single(I, "work", async (s: Readonly<StateRecord>, ctx: NodeContext) => {
        const i = s["idx"] as number;
        started.push(i);
        onStart();
        try {
          return { body: await fakeFetch(10_000, { signal: ctx.signal }) };
        } catch (e) {
          if (ctx.signal.aborted) sawAbort.push(i);
          throw e;
        }
      });
      const g = chain(P, [
        ["prep", () => ({ prepared: true })],
        ["fan", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "body", targetField: "results", concurrency: 2, errorPolicy, ...(errorPolicy === "collect" ? { errorsField: "errors" } : {}) })],
        ["after", () => ({ a: "ran" })],
      ]);
      const t0 = Date.now();
      const err = await runtimeErrorOf(g.invoke({}, { signal: ac.signal }));
      expect(Date.now() - t0, "the in-flight instances were interrupted").to.be.below(5_000);
      expect(started, "no instance started after the abort").to.deep.equal([0, 1]);
      expect(sawAbort.sort()).to.deep.equal([0, 1]);
      expect(err).to.be.instanceOf(InvocationCancelledError);
      expect(err.category).to.equal("invocation_cancelled");
      expect(err.nodeName).to.equal("fan");
      expect(err.namespace).to.deep.equal(["fan"]);
      expect(err.state, "recoverable: the state at fan-out entry").to.include({ prepared: true, a: "" });
      expect(err.state!["results"]).to.deep.equal([]);
      expect(err.executionOrder).to.deep.equal(["prep", "fan"]);
    });
  });
}

describe("invoke({ signal }) through a nested fan-out", () => {
  it("an inner fan-out's instances observe the caller's abort too", async () => {
    const ac = new AbortController();
    const onStart = abortAfter(ac, 4);
    const saw: string[] = [];
    const leaf = single(I, "leaf", async (s: Readonly<StateRecord>, ctx: NodeContext) => {
      onStart();
      await fakeFetch(10_000, { signal: ctx.signal }).catch((e: unknown) => {
        if (ctx.signal.aborted) saw.push(String(s["idx"]));
        throw e;
      });
      return {};
    });
    const middle = single({ idx: { type: "int", default: -1 }, items: { type: "list<int>", default: [0, 1] }, body: { type: "list<string>", default: [] } }, "inner_fan", fanOut({ subgraph: leaf, itemsField: "items", itemField: "idx", collectField: "body", targetField: "body" }));
    const g = chain(P, [["fan", fanOut({ subgraph: middle, itemsField: "items", itemField: "idx", collectField: "body", targetField: "results", concurrency: 2 })]]);
    const err = await runtimeErrorOf(g.invoke({ items: [0, 1] }, { signal: ac.signal }));
    expect(saw).to.have.length(4);
    expect(err).to.be.instanceOf(InvocationCancelledError);
    expect(err.nodeName).to.equal("fan");
  });
});

describe("invoke({ signal }) through parallel branches", () => {
  for (const errorPolicy of ["fail_fast", "collect"] as const satisfies readonly ErrorPolicy[]) {
    it(`every running branch (subgraph and call forms) observes ctx.signal; one invocation_cancelled at the branches node (${errorPolicy})`, async () => {
      const ac = new AbortController();
      const onStart = abortAfter(ac, 3);
      const saw: string[] = [];
      const body = async (name: string, ctx: NodeContext): Promise<string> => {
        onStart();
        try {
          return await fakeFetch(10_000, { signal: ctx.signal });
        } catch (e) {
          if (ctx.signal.aborted) saw.push(name);
          throw e;
        }
      };
      const sub = (name: string) => single(I, name, async (_s: Readonly<StateRecord>, ctx: NodeContext) => ({ body: await body(name, ctx) }));
      const g = chain(P, [
        ["prep", () => ({ prepared: true })],
        [
          "branches",
          parallelBranches({
            errorPolicy,
            ...(errorPolicy === "collect" ? { errorsField: "errors" } : {}),
            branches: {
              alpha: { subgraph: sub("alpha"), outputs: { a: "body" } },
              beta: { subgraph: sub("beta"), outputs: { b: "body" } },
              gamma: { call: async (_s: Readonly<StateRecord>, ctx: NodeContext) => ({ c: await body("gamma", ctx) }) },
            },
          }),
        ],
      ]);
      const t0 = Date.now();
      const err = await runtimeErrorOf(g.invoke({}, { signal: ac.signal }));
      expect(Date.now() - t0, "the running branches were interrupted").to.be.below(5_000);
      expect(saw.sort()).to.deep.equal(["alpha", "beta", "gamma"]);
      expect(err).to.be.instanceOf(InvocationCancelledError);
      expect(err.category).to.equal("invocation_cancelled");
      expect(err.nodeName).to.equal("branches");
      expect(err.state, "recoverable: the state at branches entry").to.include({ prepared: true, a: "", b: "", c: "" });
    });
  }
});

describe("invoke({ signal }) and retry middleware", () => {
  it("a pending backoff sleep ends at the caller's abort (retry defaults to ctx.signal); no further attempt", async () => {
    const ac = new AbortController();
    let attempts = 0;
    const g = new GraphBuilder(stateSchema({ fields: P }))
      .addNode(
        "flaky",
        async () => {
          attempts++;
          setTimeout(() => ac.abort(), 20);
          throw new Error("unavailable");
        },
        { middleware: [retry({ maxAttempts: 5, backoff: () => 60, classifier: () => true })] },
      )
      .addEdge("flaky", END)
      .setEntry("flaky")
      .compile();
    const t0 = Date.now();
    const err = await runtimeErrorOf(g.invoke({}, { signal: ac.signal }));
    expect(Date.now() - t0, "the 60 s backoff was interrupted").to.be.below(5_000);
    expect(attempts).to.equal(1);
    expect(err).to.be.instanceOf(InvocationCancelledError);
    expect(err.nodeName).to.equal("flaky");
  });
});
