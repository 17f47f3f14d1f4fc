import { expect } from "chai";
import { drain, END, GraphBuilder, NodeException, stateSchema } from "../../src/graph/index.ts";
import {
  CancelledError,
  cancellationSignal,
  findCause,
  parallelBranches,
  ParallelBranchesBranchFailedError,
  type BranchFailure,
} from "../../src/pipeline/index.ts";
import { CategorizedError, constantBackoff, retry } from "../../src/pipeline/middleware/index.ts";
import { chain, recorder, runtimeErrorOf, single, sleep } from "./helpers.ts";

const alpha = single({ a_out: { type: "int", default: 0 } }, "a", () => ({ a_out: 1 }), "alpha");
const beta = single({ b_out: { type: "int", default: 0 } }, "b", () => ({ b_out: 2 }), "beta");
const gamma = single({ c_out: { type: "int", default: 0 } }, "c", () => ({ c_out: 3 }), "gamma");
const P = {
  alpha_result: { type: "int", default: 0 },
  beta_result: { type: "int", default: 0 },
  gamma_result: { type: "int", default: 0 },
} as const;

describe("pipeline/parallel-branches: subgraph branches (§11.1–§11.4)", () => {
  it("runs heterogeneous subgraphs and projects each out into its own parent field", async () => {
    const g = chain(P, [
      [
        "dispatcher",
        parallelBranches({
          branches: {
            alpha: { subgraph: alpha, outputs: { alpha_result: "a_out" } },
            beta: { subgraph: beta, outputs: { beta_result: "b_out" } },
            gamma: { subgraph: gamma, outputs: { gamma_result: "c_out" } },
          },
        }),
      ],
    ]);
    const r = await g.invoke();
    expect(r.state).to.deep.equal({ alpha_result: 1, beta_result: 2, gamma_result: 3 });
    expect(r.executionOrder).to.deep.equal(["dispatcher"]);
    expect(g.nodeKind("dispatcher")).to.equal("parallel_branches");
  });

  it("introspection: childGraph(branchName) and errorPolicy on the node kind", () => {
    const g = chain(P, [
      ["dispatcher", parallelBranches({ errorPolicy: "collect", branches: { alpha: { subgraph: alpha }, inline: { call: () => ({}) } } })],
    ]);
    const kind = g.node("dispatcher")!.kind;
    expect(kind.errorPolicy).to.equal("collect");
    expect(kind.childGraph?.({ branchName: "alpha" })).to.equal(alpha);
    expect(kind.childGraph?.({ branchName: "inline" })).to.equal(undefined);
    expect(kind.childGraph?.({ branchName: "toString" })).to.equal(undefined);
    expect(kind.childGraph?.({})).to.equal(undefined);
  });

  it("projects parent fields in via inputs; without outputs, merges same-named fields out", async () => {
    const echo = single({ q: { type: "string", default: "" }, answer: { type: "string", default: "" } }, "e", (s) => ({ answer: `A:${s["q"] as string}` }));
    const g = chain({ question: { type: "string", default: "why" }, answer: { type: "string", default: "" }, q_copy: { type: "string", default: "" } }, [
      ["d", parallelBranches({ branches: { one: { subgraph: echo, inputs: { q: "question" } } } })],
    ]);
    expect((await g.invoke()).state).to.deep.equal({ question: "why", answer: "A:why", q_copy: "" });
  });

  it("dispatches all branches at once (no concurrency bound, §11.3)", async () => {
    let inFlight = 0;
    let max = 0;
    const slow = (name: string) =>
      single({ v: { type: "int", default: 0 } }, name, async () => {
        inFlight++;
        max = Math.max(max, inFlight);
        await sleep(10);
        inFlight--;
        return { v: 1 };
      });
    const branches = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`b${i}`, { subgraph: slow(`n${i}`), outputs: {} }]));
    const g = chain(P, [["d", parallelBranches({ branches })]]);
    await g.invoke();
    expect(max).to.equal(12);
  });

  it("merges same-field contributions in branch insertion order, not completion order (§11.8)", async () => {
    const writer = (tag: string, delay: number) =>
      single({ log: { type: "list<string>", default: [] }, last: { type: "string", default: "" }, m: { type: "dict<string,string>", default: {} } }, `w_${tag}`, async () => {
        await sleep(delay);
        return { log: [tag], last: tag, m: { [tag]: tag, shared: tag } };
      });
    const g = chain(
      {
        log: { type: "list<string>", reducer: "append", default: ["start"] },
        last: { type: "string", default: "" },
        m: { type: "dict<string,string>", reducer: "merge", default: {} },
      },
      [
        [
          "d",
          parallelBranches({
            branches: {
              first: { subgraph: writer("first", 15) },
              second: { subgraph: writer("second", 1) },
              third: { subgraph: writer("third", 8) },
            },
          }),
        ],
      ],
    );
    const r = await g.invoke();
    expect(r.state["log"]).to.deep.equal(["start", "first", "second", "third"]);
    expect(r.state["last"]).to.equal("third"); // last_write_wins: the last-listed branch
    expect(r.state["m"]).to.deep.equal({ first: "first", second: "second", third: "third", shared: "third" });
  });
});

describe("pipeline/parallel-branches: call branches (§11.1.1) and when (§11.10)", () => {
  const R = {
    run_vector: { type: "bool", default: false },
    vector_result: { type: "int", default: 0 },
    fts_result: { type: "int", default: 0 },
    hits: { type: "list<string>", reducer: "append", default: [] },
  } as const;

  it("merges a callable's parent-shaped update; mixes with subgraph branches", async () => {
    const g = chain({ ...R, alpha_result: { type: "int", default: 0 } }, [
      [
        "retrieve",
        parallelBranches({
          branches: {
            vector: { call: async (s) => ({ vector_result: s["fts_result"] === 0 ? 1 : -1, hits: ["v"] }) },
            fts: { call: () => ({ fts_result: 2, hits: ["f"] }) },
            sub: { subgraph: alpha, outputs: { alpha_result: "a_out" } },
          },
        }),
      ],
    ]);
    const r = await g.invoke();
    expect(r.state).to.deep.include({ vector_result: 1, fts_result: 2, alpha_result: 1, hits: ["v", "f"] });
  });

  it("emits one synthetic started/completed pair per call branch, named after the branch", async () => {
    const g = chain(R, [
      ["retrieve", parallelBranches({ branches: { vector: { call: () => ({ vector_result: 1 }) }, fts: { call: () => ({ fts_result: 2 }) } } })],
    ]);
    const obs = recorder();
    await g.invoke({}, { observers: [obs] });
    await drain();
    const inner = obs.events.filter((e) => e.namespace.length === 2);
    expect(inner.map((e) => [e.nodeName, e.namespace.join("/"), e.branchName, e.phase])).to.have.deep.members([
      ["vector", "retrieve/vector", "vector", "started"],
      ["vector", "retrieve/vector", "vector", "completed"],
      ["fts", "retrieve/fts", "fts", "started"],
      ["fts", "retrieve/fts", "fts", "completed"],
    ]);
    const vc = inner.find((e) => e.nodeName === "vector" && e.phase === "completed")!;
    expect(vc.preState).to.deep.include({ vector_result: 0 });
    expect(vc.postState).to.deep.include({ vector_result: 1, fts_result: 0 });
    expect(vc.branchNameChain).to.deep.equal(["vector"]);
    expect(vc.fanOutIndexChain).to.deep.equal([null]);
    expect(vc.parentStates).to.have.length(1);
  });

  it("skips a branch whose when() is false: no work, no contribution, no events", async () => {
    let vectorRan = 0;
    const node = parallelBranches({
      branches: {
        vector: { call: () => (vectorRan++, { vector_result: 1 }), when: (s) => s["run_vector"] === true },
        fts: { call: () => ({ fts_result: 2 }) },
      },
    });
    const g = chain(R, [["retrieve", node]]);
    const obs = recorder();
    const r = await g.invoke({}, { observers: [obs] });
    expect(r.state).to.deep.include({ vector_result: 0, fts_result: 2 });
    expect(vectorRan).to.equal(0);
    await drain();
    expect(obs.events.filter((e) => e.branchName === "vector")).to.have.length(0);
    const own = obs.events.filter((e) => e.nodeName === "retrieve");
    expect(own[0]!.parallelBranchesConfig).to.deep.equal({
      branchNames: ["vector", "fts"],
      branchCount: 1,
      errorPolicy: "fail_fast",
      parentNodeName: "retrieve",
    });

    const r2 = await g.invoke({ run_vector: true });
    expect(r2.state).to.deep.include({ vector_result: 1, fts_result: 2 });
  });

  it("completes as a no-op when every branch is skipped", async () => {
    const g = chain(R, [["retrieve", parallelBranches({ branches: { v: { call: () => ({ vector_result: 9 }), when: () => false } } })]]);
    expect((await g.invoke()).state).to.deep.include({ vector_result: 0 });
  });
});

describe("pipeline/parallel-branches: error policy (§11.5, §11.9)", () => {
  const failing = single({ b_out: { type: "int", default: 0 } }, "b", async () => {
    await sleep(3);
    throw new Error("branch beta failed");
  });

  it("fail_fast raises parallel_branches_branch_failed carrying the branch name; nothing merges; siblings are cancelled", async () => {
    let gammaCancelled = false;
    const slow = single({ c_out: { type: "int", default: 0 } }, "c", async () => {
      try {
        await sleep(5000, cancellationSignal());
      } catch (e) {
        gammaCancelled = e instanceof CancelledError;
        throw e;
      }
      return { c_out: 3 };
    });
    const g = chain(P, [
      [
        "dispatcher",
        parallelBranches({
          branches: {
            alpha: { subgraph: alpha, outputs: { alpha_result: "a_out" } },
            beta: { subgraph: failing, outputs: { beta_result: "b_out" } },
            gamma: { subgraph: slow, outputs: { gamma_result: "c_out" } },
          },
        }),
      ],
    ]);
    const t0 = Date.now();
    const err = await runtimeErrorOf(g.invoke());
    expect(Date.now() - t0).to.be.below(1000);
    expect(err.nodeName).to.equal("dispatcher");
    expect(err.state).to.deep.equal({ alpha_result: 0, beta_result: 0, gamma_result: 0 });
    const failed = findCause(err, (e): e is ParallelBranchesBranchFailedError => e instanceof ParallelBranchesBranchFailedError)!;
    expect(failed.category).to.equal("parallel_branches_branch_failed");
    expect(failed.isCarrier).to.equal(true);
    expect(failed.branchName).to.equal("beta");
    expect(failed.nodeName).to.equal("dispatcher");
    expect(failed.state).to.deep.equal({ alpha_result: 0, beta_result: 0, gamma_result: 0 });
    expect(failed.cause).to.be.instanceOf(NodeException);
    expect(((failed.cause as NodeException).cause as Error).message).to.equal("branch beta failed");
    expect(gammaCancelled).to.equal(true);
  });

  it("fail_fast applies to call branches too", async () => {
    const g = chain(P, [
      ["d", parallelBranches({ branches: { ok: { call: () => ({ alpha_result: 1 }) }, bad: { call: () => { throw new Error("nope"); } } } })],
    ]);
    const err = await runtimeErrorOf(g.invoke());
    expect(findCause(err, (e): e is ParallelBranchesBranchFailedError => e instanceof ParallelBranchesBranchFailedError)?.branchName).to.equal("bad");
    expect(err.state).to.deep.equal({ alpha_result: 0, beta_result: 0, gamma_result: 0 });
  });

  it("collect merges successes, records failures with their branch name, and does not raise", async () => {
    const g = chain({ ...P, errors: { type: "list<dict<string,string>>", reducer: "append", default: [] } }, [
      [
        "dispatcher",
        parallelBranches({
          branches: {
            alpha: { subgraph: alpha, outputs: { alpha_result: "a_out" } },
            beta: { subgraph: failing, outputs: { beta_result: "b_out" } },
            gamma: { call: () => ({ gamma_result: 3 }) },
            delta: { call: () => { throw new TypeError("delta broke"); } },
          },
          errorPolicy: "collect",
          errorsField: "errors",
        }),
      ],
    ]);
    const r = await g.invoke();
    expect(r.state).to.deep.include({ alpha_result: 1, beta_result: 0, gamma_result: 3 });
    expect(r.state["errors"]).to.deep.equal([
      { branch_name: "beta", category: "node_exception", message: "branch beta failed" },
      { branch_name: "delta", category: "node_exception", message: "delta broke" },
    ]);
  });

  it("builds custom error records with errorRecord", async () => {
    const g = chain({ ...P, errors: { type: "list<string>", reducer: "append", default: [] } }, [
      [
        "d",
        parallelBranches({
          branches: { beta: { subgraph: failing, outputs: {} } },
          errorPolicy: "collect",
          errorsField: "errors",
          errorRecord: (f: BranchFailure) => `${f.branchName}!`,
        }),
      ],
    ]);
    expect((await g.invoke()).state["errors"]).to.deep.equal(["beta!"]);
  });
});

describe("pipeline/parallel-branches: branch middleware (§11.7)", () => {
  it("wraps the whole branch invocation; a retry re-runs it; a degrade that skips a projected field contributes nothing", async () => {
    const pb = parallelBranches;
    const GB = GraphBuilder;
    const ss = stateSchema;
    let runs = 0;
    const flakySub = new GB(ss({ fields: { out: { type: "string", default: "" } } }))
      .addNode("w", async () => {
        runs++;
        if (runs === 1) throw new Error("first run fails");
        return { out: "ok" };
      })
      .addEdge("w", END)
      .setEntry("w")
      .compile({ name: "flaky" });
    const retryOnce = async (s: Readonly<Record<string, unknown>>, next: (s?: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>) => {
      try {
        return await next(s);
      } catch {
        return next(s);
      }
    };
    const degrade = async (s: Readonly<Record<string, unknown>>, next: (s?: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>) =>
      next(s).catch(() => ({ note: "fellback" }));
    const alwaysFails = new GB(ss({ fields: { out: { type: "string", default: "" } } }))
      .addNode("w", async () => {
        throw new Error("down");
      })
      .addEdge("w", END)
      .setEntry("w")
      .compile({ name: "down" });
    const g = new GB(ss({ fields: { a: { type: "string", default: "prior" }, b: { type: "string", default: "prior" } } }))
      .addNode(
        "d",
        pb({
          branches: {
            one: { subgraph: flakySub, outputs: { a: "out" }, middleware: [retryOnce] },
            two: { subgraph: alwaysFails, outputs: { b: "out" }, middleware: [degrade] },
          },
        }),
      )
      .addEdge("d", END)
      .setEntry("d")
      .compile();
    const r = await g.invoke({});
    expect(runs).to.equal(2);
    expect(r.state).to.deep.equal({ a: "ok", b: "prior" });
  });
});

describe("parallel branches: a call branch's failure under fail_fast (§11.9)", () => {
  const State = stateSchema({ fields: { a: { type: "int", default: 0 }, b: { type: "int", default: 0 } } });
  const flakyBranches = (failures: number, counter: { calls: number }) =>
    parallelBranches({
      branches: {
        vector: {
          call: async () => {
            if (++counter.calls <= failures) throw new CategorizedError("provider_rate_limit", "429 from the index");
            return { a: 1 };
          },
        },
        fts: { call: async () => ({ b: 1 }) },
      },
    });

  it("wraps the callable's exception as the carrier's direct cause (no one-node-graph node_exception between)", async () => {
    const counter = { calls: 0 };
    const g = new GraphBuilder(State).addNode("retrieve", flakyBranches(1, counter)).addEdge("retrieve", END).setEntry("retrieve").compile();
    const carrier = await runtimeErrorOf(g.invoke({}));
    expect(carrier).to.be.instanceOf(ParallelBranchesBranchFailedError);
    expect((carrier as ParallelBranchesBranchFailedError).cause).to.be.instanceOf(CategorizedError);
    expect(((carrier as ParallelBranchesBranchFailedError).cause as CategorizedError).category).to.equal("provider_rate_limit");
  });

  it("so node-level retry with the default classifier re-runs the node on a transient branch failure", async () => {
    const counter = { calls: 0 };
    const g = new GraphBuilder(State)
      .addNode("retrieve", flakyBranches(1, counter), { middleware: [retry({ maxAttempts: 2, backoff: constantBackoff(0) })] })
      .addEdge("retrieve", END)
      .setEntry("retrieve")
      .compile();
    const r = await g.invoke({});
    expect(counter.calls).to.equal(2);
    expect(r.state).to.deep.equal({ a: 1, b: 1 });
  });
});
