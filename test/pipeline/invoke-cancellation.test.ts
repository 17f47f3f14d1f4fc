/**
 * `invoke({ signal })` through fan-out and parallel branches: in-flight instances / branches see the
 * abort on `ctx.signal`, no new ones start, and the invocation rejects with one
 * `invocation_cancelled` error located at the composite node, with the state at its entry.
 */
import { expect } from "chai";
import { END, GraphBuilder, InvocationCancelledError, stateSchema, type NodeContext, type StateRecord } from "../../src/graph/index.ts";
import { fanOut, parallelBranches, type ErrorPolicy } from "../../src/pipeline/index.ts";
import { failureIsolation, retry } from "../../src/pipeline/middleware/index.ts";
import { fakeFetch } from "../graph/helpers.ts";
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

describe("fail_fast: a sibling's failure stops the running instances before their next node", () => {
  it("an instance whose node ignores the cancellation finishes that node, but its next node does not start", async () => {
    const ran: string[] = [];
    const worker = new GraphBuilder(stateSchema({ fields: I }))
      .addNode("s1", async (s) => {
        const i = s["idx"] as number;
        if (i === 0) throw new Error("instance 0 failed");
        await new Promise((r) => setTimeout(r, 30)); // ignores ctx.signal
        ran.push(`s1:${i}`);
        return {};
      })
      .addNode("s2", (s) => (ran.push(`s2:${s["idx"] as number}`), { body: "done" }))
      .addEdge("s1", "s2")
      .addEdge("s2", END)
      .setEntry("s1")
      .compile();
    const g = chain(P, [["fan", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "body", targetField: "results" })]]);
    const err = await runtimeErrorOf(g.invoke({ items: [0, 1, 2] }));
    expect(err.category).to.equal("node_exception");
    expect(ran.sort()).to.deep.equal(["s1:1", "s1:2"]);
  });
});

describe("invoke({ signal }) and failure isolation", () => {
  it("an abort whose reason is a plain Error is not degraded: the invocation rejects with invocation_cancelled", async () => {
    const ac = new AbortController();
    const g = new GraphBuilder(stateSchema({ fields: P }))
      .addNode("call", async (_s, ctx) => ({ a: await fakeFetch(10_000, { signal: ctx.signal }) }), {
        middleware: [failureIsolation({ eventName: "call_failed", degradedUpdate: { a: "degraded" } })],
      })
      .addEdge("call", END)
      .setEntry("call")
      .compile();
    setTimeout(() => ac.abort(new Error("shutting down")), 20);
    const err = await runtimeErrorOf(g.invoke({}, { signal: ac.signal }));
    expect(err).to.be.instanceOf(InvocationCancelledError);
    expect(err.message).to.equal('invocation cancelled while node "call" was running: shutting down');
    expect(err.state!["a"]).to.equal("");
  });
});

describe("invoke({ signal }) with a checkpointer", () => {
  it("a cancelled fan-out run resumes from its saves: instances completed before the abort are not re-run", async () => {
    const { InMemoryCheckpointer, withCheckpointer } = await import("../../src/checkpoint/index.ts");
    const ac = new AbortController();
    const runs: number[] = [];
    const worker = single(I, "work", async (s: Readonly<StateRecord>, ctx: NodeContext) => {
      const i = s["idx"] as number;
      runs.push(i);
      if (i === 2 && !ac.signal.aborted) {
        setTimeout(() => ac.abort(), 5);
        await fakeFetch(10_000, { signal: ctx.signal }); // interrupted: the first run ends here
      }
      return { body: `r${i}` };
    });
    const g = chain(P, [
      ["prep", () => ({ prepared: true })],
      ["fan", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "body", targetField: "results", concurrency: 1 })],
    ]);
    const runner = withCheckpointer(g, new InMemoryCheckpointer());
    const err = await runtimeErrorOf(runner.invoke({ items: [0, 1, 2, 3] }, { signal: ac.signal }));
    expect(err.category).to.equal("invocation_cancelled");
    expect(runs).to.deep.equal([0, 1, 2]);
    runs.length = 0;
    const done = await runner.resume(err.invocationId!);
    expect(runs, "instances 0 and 1 completed before the abort").to.deep.equal([2, 3]);
    expect(done.state["results"]).to.deep.equal(["r0", "r1", "r2", "r3"]);
  });
});

describe("cancellation scopes and listener counts", () => {
  it("many concurrent fail_fast fan-outs (with or without a caller signal) raise no MaxListenersExceededWarning and leave no listener behind", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => {
      if (w.name === "MaxListenersExceededWarning") warnings.push(w);
    };
    process.on("warning", onWarning);
    try {
      const worker = single(I, "w", async () => (await fakeFetch(10), { body: "x" }));
      const g = chain(P, [["fan", fanOut({ subgraph: worker, itemsField: "items", itemField: "idx", collectField: "body", targetField: "results" })]]);
      await Promise.all(Array.from({ length: 20 }, () => g.invoke({ items: [0, 1] })));
      const signal = new AbortController().signal;
      const added: unknown[] = [];
      const removed: unknown[] = [];
      const add = signal.addEventListener.bind(signal);
      const remove = signal.removeEventListener.bind(signal);
      signal.addEventListener = ((...a: Parameters<AbortSignal["addEventListener"]>) => (added.push(a[1]), add(...a))) as AbortSignal["addEventListener"];
      signal.removeEventListener = ((...a: Parameters<AbortSignal["removeEventListener"]>) => (removed.push(a[1]), remove(...a))) as AbortSignal["removeEventListener"];
      await Promise.all(Array.from({ length: 5 }, () => g.invoke({ items: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }, { signal })));
      expect(added, "one listener per invocation on the caller's signal").to.have.length(5);
      expect(removed.sort(), "each removed when its invocation ended").to.deep.equal(added.sort());
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => w.message)).to.deep.equal([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});
