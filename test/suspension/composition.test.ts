import { expect } from "chai";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { defineState, drain, END, field, GraphBuilder, stateSchema, subgraphNode } from "../../src/graph/index.ts";
import { cancellationSignal, fanOut, parallelBranches } from "../../src/pipeline/index.ts";
import { retry } from "../../src/pipeline/middleware/index.ts";
import { InMemorySessionStore, withSessions } from "../../src/sessions/index.ts";
import { suspend, withSuspension } from "../../src/suspension/index.ts";
import { categoryOf, phases, recorder, rejection, tempDir } from "./helpers.ts";

const exec = promisify(execFile);
const worker = fileURLToPath(new URL("./fixtures/worker.ts", import.meta.url));

function leafGraph(markNodeCompleted = true, seen?: unknown[]) {
  const L = defineState({ inner_done: field.bool().default(false), inner_completed: field.bool().default(false), go: field.bool().default(false) });
  return new GraphBuilder(L)
    .addNode("inner_pre", async () => ({ inner_done: true }))
    .addNode("inner_suspend", async (s) => {
      seen?.push(s);
      if (!s.go) suspend({ signalId: "subgraph-suspend" }, { markNodeCompleted });
      return {};
    })
    .addNode("inner_post", async () => ({ inner_completed: true }))
    .addEdge("inner_pre", "inner_suspend")
    .addEdge("inner_suspend", "inner_post")
    .addEdge("inner_post", END)
    .setEntry("inner_pre")
    .compile({ name: "leaf" });
}

function outerGraph(leaf: ReturnType<typeof leafGraph>, counts: Record<string, number>) {
  const O = defineState({ pre: field.bool().default(false), post: field.bool().default(false), result: field.bool().default(false), go: field.bool().default(false) });
  return new GraphBuilder(O)
    .addNode("pre", async () => {
      counts.pre = (counts.pre ?? 0) + 1;
      return { pre: true };
    })
    .addNode("wrapper", subgraphNode(leaf, { inputs: { go: "go" }, outputs: { result: "inner_completed" } }))
    .addNode("after", async () => ({ post: true }))
    .addEdge("pre", "wrapper")
    .addEdge("wrapper", "after")
    .addEdge("after", END)
    .setEntry("pre")
    .compile({ name: "outer" });
}

describe("suspension §8.1: subgraphs", () => {
  it("an inner suspend suspends the outer invocation; resume re-enters after the inner node", async () => {
    const counts: Record<string, number> = {};
    const obs = recorder();
    const runner = withSuspension(outerGraph(leafGraph(), counts));
    const s = await runner.invoke({}, { observers: [obs] });
    expect(s.outcome).to.equal("suspended");
    if (s.outcome !== "suspended") return;
    expect(s.nodeName).to.equal("wrapper");
    expect(s.namespace).to.deep.equal(["wrapper", "inner_suspend"]);
    expect(s.state).to.deep.equal({ pre: true, post: false, result: false, go: false });
    expect(s.record.resumePoint).to.deep.include({ namespace: ["wrapper"], nodeName: "inner_suspend" });
    expect(s.record.parentStates).to.deep.equal([s.state]);
    const r = await runner.resume(s.invocationId, {}, { observers: [obs] });
    expect(r.state).to.deep.equal({ pre: true, post: true, result: true, go: false });
    expect(r.executionOrder).to.deep.equal(["wrapper", "after"]);
    expect(counts.pre).to.equal(1);
    await drain();
    expect(phases(obs.events)).to.deep.equal([
      "started:pre",
      "completed:pre",
      "started:wrapper/inner_pre",
      "completed:wrapper/inner_pre",
      "started:wrapper/inner_suspend",
      "suspended:wrapper/inner_suspend",
      "started:wrapper/inner_post",
      "completed:wrapper/inner_post",
      "started:after",
      "completed:after",
    ]);
  });

  it("markNodeCompleted: false re-runs the inner node with the subgraph's saved state", async () => {
    const seen: unknown[] = [];
    const runner = withSuspension(outerGraph(leafGraph(false, seen), {}));
    const s = await runner.invoke({});
    const r = await runner.resume(s.invocationId, {});
    expect(seen).to.have.length(2);
    expect(seen[1]).to.deep.include({ inner_done: true });
    expect(r.outcome).to.equal("suspended"); // go is still false inside the subgraph: it suspends again
    expect(r.invocationId).to.equal(s.invocationId);
  });
});

describe("suspension §8.2: fan-out", () => {
  const Item = defineState({ item: field.int().default(0), out: field.int().default(0) });
  const P = defineState({ items: field.list(field.int()).default([0, 1, 2]), outs: field.list(field.int()).default([]).reducer("append"), after: field.bool().default(false) });

  function fanGraph(policy: "fail_fast" | "collect", cancelled: number[], markNodeCompleted = true) {
    const inst = new GraphBuilder(Item)
      .addNode("work", async (s) => {
        if (s.item === 1) suspend({ signalId: "instance-signal", metadata: { kind: "review" } }, { markNodeCompleted });
        await new Promise((r) => setTimeout(r, 20));
        if (cancellationSignal()?.aborted) cancelled.push(s.item);
        return { out: s.item * 10 };
      })
      .addEdge("work", END)
      .setEntry("work")
      .compile({ name: "inst" });
    return new GraphBuilder(P)
      .addNode("fan", fanOut({ subgraph: inst, itemsField: "items", itemField: "item", collectField: "out", targetField: "outs", errorPolicy: policy }))
      .addNode("next", async () => ({ after: true }))
      .addEdge("fan", "next")
      .addEdge("next", END)
      .setEntry("fan")
      .compile({ name: "fan" });
  }

  it("fail_fast: the fan-out node suspends as a whole; siblings are cancelled; the descriptor carries fan_out_index", async () => {
    const cancelled: number[] = [];
    const runner = withSuspension(fanGraph("fail_fast", cancelled));
    const s = await runner.invoke({});
    expect(s.outcome).to.equal("suspended");
    if (s.outcome !== "suspended") return;
    expect(s.nodeName).to.equal("fan");
    expect(s.namespace).to.deep.equal(["fan", "work"]);
    expect(s.descriptor).to.deep.equal({ signalId: "instance-signal", metadata: { kind: "review", fan_out_index: 1 } });
    expect(s.state.outs).to.deep.equal([]); // nothing merged
    expect(cancelled.sort()).to.deep.equal([0, 2]);
    // mark_node_completed: continue after the fan-out (its aggregate stays what was merged: nothing)
    const r = await runner.resume(s.invocationId, {});
    expect(r.executionOrder).to.deep.equal(["next"]);
    expect(r.state).to.deep.equal({ items: [0, 1, 2], outs: [], after: true });
  });

  it("fail_fast, markNodeCompleted: false: the fan-out re-runs from scratch with the merged state", async () => {
    const runner = withSuspension(fanGraph("fail_fast", [], false));
    const s = await runner.invoke({});
    const r = await runner.resume(s.invocationId, { items: [3, 4] });
    expect(r.executionOrder).to.deep.equal(["fan", "next"]);
    expect(r.state).to.deep.equal({ items: [3, 4], outs: [30, 40], after: true });
  });

  it("collect: suspension_in_unsupported_context (runtime detection)", async () => {
    const e = await rejection(withSuspension(fanGraph("collect", [])).invoke({}));
    expect(e.category).to.equal("suspension_in_unsupported_context");
    expect(e["context"]).to.equal("collect_fan_out");
  });
});

describe("suspension §8.3: parallel branches", () => {
  const A = defineState({ a_out: field.int().default(0) });
  const B = defineState({ b_out: field.int().default(0) });
  const P = defineState({ a_result: field.int().default(0), b_result: field.int().default(0) });
  function branches(policy: "fail_fast" | "collect", betaSawCancel: boolean[]) {
    const alpha = new GraphBuilder(A).addNode("a", async () => suspend({ signalId: "alpha", metadata: { kind: "approval" } })).addEdge("a", END).setEntry("a").compile({ name: "alpha" });
    const beta = new GraphBuilder(B)
      .addNode("b", async () => {
        await new Promise((r) => setTimeout(r, 20));
        betaSawCancel.push(cancellationSignal()?.aborted === true);
        return { b_out: 99 };
      })
      .addEdge("b", END)
      .setEntry("b")
      .compile({ name: "beta" });
    return new GraphBuilder(P)
      .addNode(
        "dispatcher",
        parallelBranches({
          errorPolicy: policy,
          branches: { alpha: { subgraph: alpha, outputs: { a_result: "a_out" } }, beta: { subgraph: beta, outputs: { b_result: "b_out" } } },
        }),
      )
      .addEdge("dispatcher", END)
      .setEntry("dispatcher")
      .compile({ name: "pb" });
  }

  it("fail_fast: the node suspends; the sibling is cancelled; the descriptor carries branch_name", async () => {
    const saw: boolean[] = [];
    const s = await withSuspension(branches("fail_fast", saw)).invoke({});
    expect(s.outcome).to.equal("suspended");
    if (s.outcome !== "suspended") return;
    expect(s.nodeName).to.equal("dispatcher");
    expect(s.descriptor).to.deep.equal({ signalId: "alpha", metadata: { kind: "approval", branch_name: "alpha" } });
    expect(s.state).to.deep.equal({ a_result: 0, b_result: 0 });
    expect(saw).to.deep.equal([true]);
  });

  it("a call branch suspends the same way", async () => {
    const g = new GraphBuilder(P)
      .addNode("d", parallelBranches({ branches: { human: { call: async () => suspend({ signalId: "h" }) }, bot: { call: async () => ({ b_result: 1 }) } } }))
      .addEdge("d", END)
      .setEntry("d")
      .compile();
    const s = await withSuspension(g).invoke({});
    expect(s.outcome === "suspended" && [s.nodeName, s.namespace, s.descriptor]).to.deep.equal(["d", ["d", "human"], { signalId: "h", metadata: { branch_name: "human" } }]);
  });

  it("collect: suspension_in_unsupported_context", async () => {
    const e = await rejection(withSuspension(branches("collect", [])).invoke({}));
    expect(e.category).to.equal("suspension_in_unsupported_context");
    expect(e["context"]).to.equal("collect_parallel_branches");
  });
});

describe("suspension §8.4: retry middleware passes the suspension through", () => {
  it("no retry attempt is made for a suspension; attempt_index is recorded", async () => {
    let calls = 0;
    const S = defineState({ x: field.int().default(0) });
    const g = new GraphBuilder(S)
      .addNode(
        "gate",
        async () => {
          calls++;
          suspend({ signalId: "r" });
        },
        { middleware: [retry({ maxAttempts: 3 })] },
      )
      .addEdge("gate", END)
      .setEntry("gate")
      .compile();
    const s = await withSuspension(g).invoke({});
    expect(s.outcome).to.equal("suspended");
    expect(calls).to.equal(1);
    expect(s.outcome === "suspended" && s.record.attemptIndex).to.equal(0);
  });
});

describe("suspension §8.6: sessions", () => {
  const S = stateSchema({ fields: { session_counter: { type: "int", default: 0 }, completed_flag: { type: "bool", default: false } } });
  const graph = new GraphBuilder(S)
    .addNode("pre_gate", async () => ({ session_counter: 5 }))
    .addNode("gate", async () => suspend({ signalId: "session-suspend" }))
    .addNode("post", async () => ({ completed_flag: true }))
    .addEdge("pre_gate", "gate")
    .addEdge("gate", "post")
    .addEdge("post", END)
    .setEntry("pre_gate")
    .compile();

  it("the session saves at suspend; the resume binds the same session and saves at END", async () => {
    const store = new InMemorySessionStore();
    const runner = withSuspension(withSessions(graph, { store, projection: "full" }));
    const s = await runner.invoke({}, { sessionId: "sess-1" });
    expect(s.outcome).to.equal("suspended");
    expect(s.savedSession?.savePoint).to.equal("suspended");
    expect((await store.load("sess-1"))?.state).to.deep.equal({ session_counter: 5, completed_flag: false });
    expect(s.outcome === "suspended" && s.record.sessionId).to.equal("sess-1");
    const r = await runner.resume(s.invocationId, {}); // session bound from the record
    expect(r.state).to.deep.equal({ session_counter: 5, completed_flag: true });
    expect(r.sessionId).to.equal("sess-1");
    expect((await store.load("sess-1"))?.state).to.deep.equal({ session_counter: 5, completed_flag: true });
    expect((await rejection(withSuspension(withSessions(graph, { store, projection: "full" })).resume("nope", {}))).category).to.equal(
      "suspension_record_invalid",
    );
  });

  it("resuming under another session is suspension_record_invalid", async () => {
    const runner = withSuspension(withSessions(graph, { store: new InMemorySessionStore(), projection: "full" }));
    const s = await runner.invoke({}, { sessionId: "a" });
    const e = await rejection(runner.resume(s.invocationId, {}, { sessionId: "b" }));
    expect([e.category, e["reason"]]).to.deep.equal(["suspension_record_invalid", "incompatible"]);
  });

  it("atomic suspend: a failing session save errors the invocation and writes no paused record", async () => {
    const store = new InMemorySessionStore();
    store.save = async () => {
      throw new Error("session backend down");
    };
    const runner = withSuspension(withSessions(graph, { store, projection: "full" }));
    const e = await rejection(runner.invoke({}, { sessionId: "s", invocationId: "atomic-1" }));
    expect(e.category).to.equal("suspension_persistence_failed");
    expect(e["part"]).to.equal("session");
    expect(await runner.store.recordType("atomic-1")).to.equal("none");
    expect(categoryOf(await rejection(runner.resume("atomic-1", {})))).to.equal("suspension_record_invalid");
  });
});

describe("suspension §1: stateless workers (suspend in one process, resume in another)", () => {
  const tmp = tempDir();
  after(() => tmp.cleanup());

  async function work(...args: string[]): Promise<Record<string, unknown>> {
    const { stdout } = await exec(process.execPath, ["--import", "tsx", worker, ...args], { timeout: 30000, env: { ...process.env, OA_SUSPENSION_WORKER: "1" } });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  it("the paused record lives only in SQLite between the two processes", async () => {
    const db = tmp.file("paused.db");
    const a = await work(db, "suspend");
    expect(a["outcome"]).to.equal("suspended");
    expect(a["descriptor"]).to.deep.equal({ signalId: "ticket-7", metadata: { kind: "approval" } });
    const b = await work(db, "resume", a["invocationId"] as string, JSON.stringify({ approved: true }));
    expect(b["pid"]).to.not.equal(a["pid"]);
    expect(b["outcome"]).to.equal("completed");
    expect([b["invocationId"], b["correlationId"]]).to.deep.equal([a["invocationId"], a["correlationId"]]);
    expect(b["executionOrder"]).to.deep.equal(["publish"]);
    expect((b["state"] as { trail: string[] }).trail).to.deep.equal([`draft@${a["pid"] as number}`, `publish:true@${b["pid"] as number}`]);
    const again = await exec(process.execPath, ["--import", "tsx", worker, db, "resume", a["invocationId"] as string, "{}"], {
      env: { ...process.env, OA_SUSPENSION_WORKER: "1" },
    }).then(
      () => "resolved",
      (e: { stderr?: string }) => e.stderr ?? "",
    );
    expect(again).to.contain("suspension_record_invalid");
  });
});
