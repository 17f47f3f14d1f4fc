/** §10.4 resume, §10.6 attempt-index reset, subgraph re-entry. */
import { expect } from "chai";
import { END, GraphBuilder, isNodeEvent, stateSchema, type NodeEvent, type ObserverEvent } from "../../../src/graph/index.ts";
import { withCheckpointer, type CheckpointRecord } from "../../../src/checkpoint/index.ts";
import { chain, flaky, logged, RecordingCheckpointer, rejection, type Backend, type Graph } from "../helpers.ts";
import { retry } from "./saving.ts";

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const RAN = { a_ran: { type: "bool", default: false }, b_ran: { type: "bool", default: false }, c_ran: { type: "bool", default: false } } as const;

function abc(log: string[]): { g: Graph; b: ReturnType<typeof flaky> } {
  const b = flaky({ b_ran: true }, log, "node_b");
  const g = chain(RAN, [["node_a", logged(log, "node_a", { a_ran: true })], ["node_b", b], ["node_c", logged(log, "node_c", { c_ran: true })]]);
  return { g, b };
}

export function resumeSuite(bk: Backend): void {
  describe("resume (§10.4)", () => {
    it("continues after the last completed node without re-running it; fresh invocation id, same correlation id", async () => {
      const log: string[] = [];
      const { g, b } = abc(log);
      const runner = withCheckpointer(g, bk.make());
      const e = await rejection(runner.invoke({}, { correlationId: "my-business-request-42", invocationId: "run-first-001" }));
      expect(e["category"]).to.equal("node_exception");
      expect(e["invocationId"]).to.equal("run-first-001");
      expect(log).to.deep.equal(["node_a", "node_b"]);
      b.fail = false;
      log.length = 0;
      const events: NodeEvent[] = [];
      const r = await runner.resume("run-first-001", {
        invocationId: "run-resume-999",
        correlationId: "someone-else",
        observers: [(ev: ObserverEvent) => void (isNodeEvent(ev) && events.push(ev))],
      });
      await g.drain();
      expect(r.outcome).to.equal("completed");
      expect(r.state).to.deep.equal({ a_ran: true, b_ran: true, c_ran: true });
      expect(log).to.deep.equal(["node_b", "node_c"]);
      expect(r.executionOrder).to.deep.equal(["node_b", "node_c"]);
      expect(r.invocationId).to.match(UUID4);
      expect(r.invocationId).to.not.be.oneOf(["run-first-001", "run-resume-999"]);
      expect(r.correlationId).to.equal("my-business-request-42");
      expect(events.map((ev) => `${ev.nodeName}:${ev.phase}`)).to.deep.equal(["node_b:started", "node_b:completed", "node_c:started", "node_c:completed"]);
      for (const ev of events) expect(ev).to.include({ invocationId: r.invocationId, correlationId: "my-business-request-42", attemptIndex: 0 });
      // §6 step numbers continue the original invocation's.
      expect(events.map((ev) => ev.step)).to.deep.equal([2, 2, 3, 3]);
    });

    it("preserves an auto-generated correlation id (no new one is minted on resume)", async () => {
      const log: string[] = [];
      const { g, b } = abc(log);
      const runner = withCheckpointer(g, bk.make());
      const e = await rejection(runner.invoke());
      const first = (await runner.checkpointer!.load(e["invocationId"] as string))!;
      expect(first.correlationId).to.match(UUID4);
      b.fail = false;
      const r = await runner.resume(first.invocationId);
      expect(r.correlationId).to.equal(first.correlationId);
      expect(r.invocationId).to.not.equal(first.invocationId);
    });

    it("saves the resumed run under its new id, carrying the completed positions forward, and can be resumed again", async () => {
      const log: string[] = [];
      const b = flaky({ b_ran: true }, log, "node_b");
      const c = flaky({ c_ran: true }, log, "node_c");
      const g = chain(RAN, [["node_a", logged(log, "node_a", { a_ran: true })], ["node_b", b], ["node_c", c]]);
      const cp = bk.make();
      const runner = withCheckpointer(g, cp);
      const first = (await rejection(runner.invoke()))["invocationId"] as string;
      b.fail = false;
      const second = (await rejection(runner.resume(first)))["invocationId"] as string;
      expect(second).to.not.equal(first);
      const rec = (await cp.load(second))!;
      expect(rec.resumedFrom).to.equal(first);
      expect(rec.completedPositions.map((p) => p.nodeName)).to.deep.equal(["node_a", "node_b"]);
      expect(rec.completedPositions.map((p) => p.step)).to.deep.equal([0, 2]);
      expect((await cp.load(first))!.completedPositions.map((p) => p.nodeName)).to.deep.equal(["node_a"]);
      c.fail = false;
      log.length = 0;
      const r = await runner.resume(second);
      expect(r.state).to.deep.equal({ a_ran: true, b_ran: true, c_ran: true });
      expect(log).to.deep.equal(["node_c"]);
      const attempts = await cp.list({ correlationId: rec.correlationId });
      expect(attempts.map((s) => s.invocationId)).to.deep.equal([r.invocationId, second, first]);
    });

    it("invoke({ resumeInvocation }) is resume (initial state ignored)", async () => {
      const log: string[] = [];
      const { g, b } = abc(log);
      const runner = withCheckpointer(g, bk.make());
      const id = (await rejection(runner.invoke()))["invocationId"] as string;
      b.fail = false;
      const r = await runner.invoke({ a_ran: false }, { resumeInvocation: id });
      expect(r.state).to.deep.equal({ a_ran: true, b_ran: true, c_ran: true });
    });

    it("resuming an invocation that already completed runs nothing and returns its final state", async () => {
      const log: string[] = [];
      const g = chain(RAN, [["node_a", logged(log, "a", { a_ran: true })], ["node_b", logged(log, "b", { b_ran: true })]]);
      const runner = withCheckpointer(g, bk.make());
      const done = await runner.invoke();
      log.length = 0;
      const again = await runner.resume(done.invocationId);
      expect(log).to.deep.equal([]);
      expect(again).to.deep.include({ outcome: "completed", correlationId: done.correlationId, executionOrder: [] });
      expect(again.state).to.deep.equal(done.state);
      expect(again.invocationId).to.not.equal(done.invocationId);
    });

    it("re-evaluates a conditional edge against the restored state (loops resume mid-loop)", async () => {
      const log: string[] = [];
      let failAt = 3;
      const g = new GraphBuilder(stateSchema({ fields: { count: { type: "int", default: 0 }, done: { type: "bool", default: false } } }))
        .addNode("tick", async (s) => {
          log.push(`tick${s.count}`);
          if (s.count === failAt) throw new Error("crash in the loop");
          return { count: s.count + 1 };
        })
        .addNode("finish", async () => ({ done: true }))
        .addConditionalEdge("tick", (s) => (s.count < 5 ? "tick" : "finish"), { targets: ["tick", "finish"] })
        .addEdge("finish", END)
        .setEntry("tick")
        .compile() as unknown as Graph;
      const runner = withCheckpointer(g, bk.make());
      const id = (await rejection(runner.invoke()))["invocationId"] as string;
      expect(log).to.deep.equal(["tick0", "tick1", "tick2", "tick3"]);
      failAt = -1;
      log.length = 0;
      const r = await runner.resume(id);
      expect(log).to.deep.equal(["tick3", "tick4"]);
      expect(r.state).to.deep.equal({ count: 5, done: true });
    });

    it("re-enters a subgraph at the failed inner node, using parent_states; completed inner nodes are not re-run", async () => {
      const log: string[] = [];
      const two = flaky({ inner_b_done: true }, log, "step_two");
      const inner = chain({ inner_a_done: { type: "bool", default: false }, inner_b_done: { type: "bool", default: false } }, [
        ["step_one", logged(log, "step_one", { inner_a_done: true })],
        ["step_two", two],
      ], "inner");
      const g = new GraphBuilder(stateSchema({ fields: { outer_done: { type: "bool", default: false } } }))
        .addSubgraph("dispatch", inner, { outputs: { outer_done: "inner_b_done" } })
        .addEdge("dispatch", END)
        .setEntry("dispatch")
        .compile({ name: "outer" }) as unknown as Graph;
      const cp = bk.make();
      const runner = withCheckpointer(g, cp);
      const id = (await rejection(runner.invoke()))["invocationId"] as string;
      const saved = (await cp.load(id))!;
      expect(saved.completedPositions).to.deep.equal([{ namespace: ["dispatch"], nodeName: "step_one", step: 0, attemptIndex: 0 }]);
      expect(saved.parentStates).to.deep.equal([{ outer_done: false }]);
      two.fail = false;
      log.length = 0;
      const r = await runner.resume(id);
      expect(log).to.deep.equal(["step_two"]);
      expect(r.state).to.deep.equal({ outer_done: true });
    });

    it("finishes a subgraph whose last inner node completed: merges its projection-out, continues in the parent", async () => {
      const log: string[] = [];
      const post = flaky({ outer_done: true }, log, "outer_post");
      const inner = chain({ inner_x: { type: "int", default: 0 }, tags: { type: "list<string>", default: [] } }, [
        ["inner_node", logged(log, "inner_node", { inner_x: 3, tags: ["from-inner"] })],
      ], "inner");
      const g = new GraphBuilder(
        stateSchema({ fields: { outer_x: { type: "int", default: 0 }, tags: { type: "list<string>", default: ["outer"], reducer: "append" }, outer_done: { type: "bool", default: false } } }),
      )
        .addNode("outer_pre", async () => (log.push("outer_pre"), { outer_x: 5 }))
        .addSubgraph("sub", inner)
        .addNode("outer_post", post as never)
        .addEdge("outer_pre", "sub")
        .addEdge("sub", "outer_post")
        .addEdge("outer_post", END)
        .setEntry("outer_pre")
        .compile({ name: "outer" }) as unknown as Graph;
      const runner = withCheckpointer(g, bk.make());
      const id = (await rejection(runner.invoke()))["invocationId"] as string;
      post.fail = false;
      log.length = 0;
      const r = await runner.resume(id);
      expect(log).to.deep.equal(["outer_post"]);
      // The append reducer merged the subgraph's `tags` exactly once.
      expect(r.state).to.deep.equal({ outer_x: 5, tags: ["outer", "from-inner"], outer_done: true });
    });

    it("resets attempt_index and retry budgets on resume (§10.6)", async () => {
      let failing = true;
      const attempts: number[] = [];
      const g = new GraphBuilder(stateSchema({ fields: { n: { type: "int", default: 0 } } }))
        .addNode("prep", async () => ({ n: 1 }))
        .addNode(
          "work",
          async (_s, ctx) => {
            attempts.push(ctx.attemptIndex);
            if (failing) throw new Error("down");
            return { n: 2 };
          },
          { middleware: [retry(3)] },
        )
        .addEdge("prep", "work")
        .addEdge("work", END)
        .setEntry("prep")
        .compile() as unknown as Graph;
      const cp = new RecordingCheckpointer(bk.make());
      const runner = withCheckpointer(g, cp);
      const id = (await rejection(runner.invoke()))["invocationId"] as string;
      expect(attempts).to.deep.equal([0, 1, 2]);
      failing = false;
      attempts.length = 0;
      const r = await runner.resume(id);
      expect(attempts).to.deep.equal([0]);
      expect(r.state).to.deep.equal({ n: 2 });
      const last = cp.saves[cp.saves.length - 1]!.record as CheckpointRecord;
      expect(last.completedPositions.map((p) => [p.nodeName, p.attemptIndex])).to.deep.equal([["prep", 0], ["work", 0]]);
    });

    it("resumes from the entry node when nothing had completed", async () => {
      const log: string[] = [];
      const a = flaky({ a_ran: true }, log, "node_a");
      const g = chain(RAN, [["node_a", a], ["node_b", logged(log, "node_b", { b_ran: true })]]);
      const runner = withCheckpointer(g, bk.make());
      const id = (await rejection(runner.invoke({ c_ran: true })))["invocationId"] as string;
      a.fail = false;
      log.length = 0;
      const r = await runner.resume(id);
      expect(log).to.deep.equal(["node_a", "node_b"]);
      expect(r.state).to.deep.equal({ a_ran: true, b_ran: true, c_ran: true });
    });
  });
}
