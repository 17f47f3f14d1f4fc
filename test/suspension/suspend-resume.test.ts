import { expect } from "chai";
import { defineState, drain, END, field, GraphBuilder, GraphInterrupt, stateSchema } from "../../src/graph/index.ts";
import { InMemoryCheckpointer, withCheckpointer } from "../../src/checkpoint/index.ts";
import {
  SuspensionInUnsupportedContextError,
  SuspensionRecordInvalidError,
  SuspensionResumePayloadInvalidError,
  SUSPENSION_ERROR_CATEGORIES,
  isSuspension,
  suspend,
  withSuspension,
} from "../../src/suspension/index.ts";
import { backends } from "../checkpoint/helpers.ts";
import { approvalGraph, categoryOf, phases, recorder, rejection } from "./helpers.ts";

describe("suspension §3 / §5 / §7: suspend and resume", () => {
  it("suspends with the descriptor, then resumes after the suspending node with the payload merged", async () => {
    const runner = withSuspension(approvalGraph());
    const s = await runner.invoke({});
    expect(s.outcome).to.equal("suspended");
    if (s.outcome !== "suspended") return;
    expect(s.descriptor).to.deep.equal({ signalId: "approval-1", metadata: { kind: "approval" } });
    expect(s.nodeName).to.equal("gate");
    expect(s.namespace).to.deep.equal(["gate"]);
    expect(s.state).to.deep.equal({ approved: false, completed: false, log: [] });
    expect(s.markNodeCompleted).to.equal(true);
    expect(s.executionOrder).to.deep.equal(["gate"]);

    const r = await runner.invoke({}, { resumeInvocation: s.invocationId, signalPayload: { approved: true } });
    expect(r.outcome).to.equal("completed");
    expect(r.state).to.deep.equal({ approved: true, completed: true, log: ["next"] });
    expect(r.executionOrder).to.deep.equal(["next"]); // gate not re-run
    expect(r.invocationId).to.equal(s.invocationId);
    expect(r.correlationId).to.equal(s.correlationId);
  });

  it("reuses the paused invocation's ids and ignores caller-supplied ones; step numbers continue", async () => {
    const obs = recorder();
    const graph = approvalGraph();
    graph.attachObserver(obs);
    const runner = withSuspension(graph);
    const s = await runner.invoke({}, { invocationId: "inv-1", correlationId: "corr-1" });
    expect(s.invocationId).to.equal("inv-1");
    const r = await runner.resume("inv-1", { approved: true }, { invocationId: "other", correlationId: "other" });
    expect([r.invocationId, r.correlationId]).to.deep.equal(["inv-1", "corr-1"]);
    await drain();
    expect(obs.events.map((e) => [e.step, e.phase, e.nodeName, e.invocationId])).to.deep.equal([
      [0, "started", "gate", "inv-1"],
      [0, "suspended", "gate", "inv-1"],
      [1, "started", "next", "inv-1"],
      [1, "completed", "next", "inv-1"],
    ]);
  });

  it("graph-engine §6: started then suspended (with the descriptor), never completed, for the suspending node", async () => {
    const obs = recorder();
    const runner = withSuspension(approvalGraph());
    await runner.invoke({}, { observers: [obs] });
    await drain();
    expect(phases(obs.events)).to.deep.equal(["started:gate", "suspended:gate"]);
    const ev = obs.events[1]!;
    expect(ev.descriptor).to.deep.equal({ signalId: "approval-1", metadata: { kind: "approval" } });
    expect(ev.postState).to.equal(undefined);
    expect(ev.error).to.equal(undefined);
  });

  it("markNodeCompleted: false re-runs the suspending node with the merged state on resume", async () => {
    const seen: unknown[] = [];
    const runner = withSuspension(approvalGraph({ markNodeCompleted: false, seen }));
    const s = await runner.invoke({});
    expect(s.outcome).to.equal("suspended");
    expect(s.outcome === "suspended" && s.record.completedPositions).to.deep.equal([]);
    const r = await runner.resume(s.invocationId, { approved: true });
    expect(seen).to.deep.equal([false, true]);
    expect(r.executionOrder).to.deep.equal(["gate", "next"]);
    expect(r.state).to.deep.equal({ approved: true, completed: true, log: ["gate", "next"] });
  });

  it("a node may suspend again on re-invocation (several cycles, one invocation id)", async () => {
    const S = defineState({ n: field.int().default(0), votes: field.list(field.string()).default([]).reducer("append") });
    const graph = new GraphBuilder(S)
      .addNode("collect", async (s) => {
        if (s.n < 2) suspend({ signalId: `vote-${s.n}` }, { markNodeCompleted: false });
        return { votes: ["done"] };
      })
      .addEdge("collect", END)
      .setEntry("collect")
      .compile();
    const runner = withSuspension(graph);
    let r = await runner.invoke({});
    const id = r.invocationId;
    const ids: string[] = [];
    for (let i = 1; r.outcome === "suspended"; i++) {
      ids.push(r.descriptor.signalId);
      r = await runner.resume(id, { n: i });
    }
    expect(ids).to.deep.equal(["vote-0", "vote-1"]);
    expect(r.state).to.deep.equal({ n: 2, votes: ["done"] });
    expect(r.invocationId).to.equal(id);
  });

  it("routes on the payload: the suspending node's edge is evaluated on the merged state", async () => {
    const S = defineState({ approved: field.bool().default(false), path: field.string().default("") });
    const graph = new GraphBuilder(S)
      .addNode("gate", async () => suspend({ signalId: "review" }))
      .addNode("accept", async () => ({ path: "accept" }))
      .addNode("reject", async () => ({ path: "reject" }))
      .addConditionalEdge("gate", (s) => (s.approved ? "accept" : "reject"), { targets: ["accept", "reject"] })
      .addEdge("accept", END)
      .addEdge("reject", END)
      .setEntry("gate")
      .compile();
    const runner = withSuspension(graph);
    const a = await runner.invoke({});
    const b = await runner.invoke({});
    expect((await runner.resume(a.invocationId, { approved: true })).state.path).to.equal("accept");
    expect((await runner.resume(b.invocationId, { approved: false })).state.path).to.equal("reject");
  });

  it("suspending at the last node resumes to completion without running anything", async () => {
    const S = defineState({ ok: field.bool().default(false) });
    const graph = new GraphBuilder(S).addNode("only", async () => suspend({ signalId: "x" })).addEdge("only", END).setEntry("only").compile();
    const runner = withSuspension(graph);
    const s = await runner.invoke({});
    const r = await runner.resume(s.invocationId, { ok: true });
    expect(r.outcome).to.equal("completed");
    expect(r.state).to.deep.equal({ ok: true });
    expect(r.executionOrder).to.deep.equal([]);
  });
});

describe("suspension §6: signal payload merge", () => {
  const S = stateSchema({
    fields: {
      audit_log: { type: "list", reducer: "append", default: [] },
      scalar: { type: "string", default: "" },
      count: { type: "int", default: 0 },
    },
  });
  const graph = new GraphBuilder(S)
    .addNode("pre", async () => ({ audit_log: ["entry_a"], scalar: "initial" }))
    .addNode("gate", async () => suspend({ signalId: "merge" }))
    .addNode("after", async () => ({}))
    .addEdge("pre", "gate")
    .addEdge("gate", "after")
    .addEdge("after", END)
    .setEntry("pre")
    .compile();

  it("overwrites each named field directly: reducers are not consulted", async () => {
    const runner = withSuspension(graph);
    const s = await runner.invoke({});
    expect(s.state).to.deep.equal({ audit_log: ["entry_a"], scalar: "initial", count: 0 });
    const log = ["entry_b"];
    const r = await runner.resume(s.invocationId, { audit_log: log, scalar: "overwritten" });
    expect(r.state).to.deep.equal({ audit_log: ["entry_b"], scalar: "overwritten", count: 0 });
    expect(Object.isFrozen(log)).to.equal(false); // the caller's payload objects are copied, not frozen
  });

  it("drops undeclared payload fields of an open schema (extraFields: allow)", async () => {
    const Open = stateSchema({ fields: { count: { type: "int", default: 0 } }, extraFields: "allow" });
    const g = new GraphBuilder(Open).addNode("a", async () => suspend({ signalId: "o" })).addEdge("a", END).setEntry("a").compile();
    const runner = withSuspension(g);
    const s = await runner.invoke({});
    const r = await runner.resume(s.invocationId, { count: 3, not_a_field: true });
    expect(r.state).to.deep.equal({ count: 3 });
  });

  it("an invalid merged state is suspension_resume_payload_invalid, and the record stays resumable", async () => {
    const runner = withSuspension(graph);
    const s = await runner.invoke({});
    // @ts-expect-error count is an int
    const e = await rejection(runner.resume(s.invocationId, { count: "not_an_int" }));
    expect(e).to.be.instanceOf(SuspensionResumePayloadInvalidError);
    expect(e.category).to.equal("suspension_resume_payload_invalid");
    expect((e as unknown as SuspensionResumePayloadInvalidError).fields).to.deep.equal(["count"]);
    expect((await runner.load(s.invocationId))?.status).to.equal("suspended");
    const r = await runner.resume(s.invocationId, { count: 4 });
    expect(r.state.count).to.equal(4);
  });

  for (const backend of backends()) {
    it(`a misspelled payload field is refused before the paused record is read, which stays resumable (${backend.name})`, async () => {
      try {
        const runner = withSuspension(approvalGraph(), { checkpointer: backend.make() });
        const s = await runner.invoke({});
        const before = await runner.load(s.invocationId);
        // @ts-expect-error "aproved" is not a state field (the schema is closed)
        const typo = await rejection(runner.invoke({}, { resumeInvocation: s.invocationId, signalPayload: { aproved: true } }));
        expect(typo).to.be.instanceOf(SuspensionResumePayloadInvalidError);
        expect(typo.category).to.equal("suspension_resume_payload_invalid");
        expect((typo as unknown as SuspensionResumePayloadInvalidError).fields).to.deep.equal(["aproved"]);
        expect(typo.message).to.contain('did you mean "approved"');
        // The payload is checked before any record is read: an unknown id reports the payload, not "missing".
        const first = await rejection(runner.resume("00000000-0000-4000-8000-000000000000", { aproved: true } as Record<string, unknown>));
        expect(first.category).to.equal("suspension_resume_payload_invalid");
        expect(await runner.load(s.invocationId)).to.deep.equal(before);
        const done = await runner.invoke({}, { resumeInvocation: s.invocationId, signalPayload: { approved: true } });
        expect(done.outcome).to.equal("completed");
        expect(done.state).to.deep.equal({ approved: true, completed: true, log: ["next"] });
      } finally {
        backend.cleanup();
      }
    });
  }
});

describe("suspension §7 / §9: suspension_record_invalid", () => {
  it("never existed, completed, already resumed, cancelled", async () => {
    const runner = withSuspension(approvalGraph());
    const never = await rejection(runner.resume("00000000-0000-4000-8000-000000000000", {}));
    expect(never).to.be.instanceOf(SuspensionRecordInvalidError);
    expect([never.category, never["reason"]]).to.deep.equal(["suspension_record_invalid", "missing"]);

    const done = await runner.invoke({ approved: true });
    expect(done.outcome).to.equal("completed");
    expect((await rejection(runner.resume(done.invocationId, {})))["reason"]).to.equal("missing");

    const s = await runner.invoke({});
    await runner.resume(s.invocationId, { approved: true });
    expect((await rejection(runner.resume(s.invocationId, {})))["reason"]).to.equal("completed");

    const c = await runner.invoke({});
    expect(await runner.cancel(c.invocationId)).to.equal(true);
    expect((await rejection(runner.resume(c.invocationId, {})))["reason"]).to.equal("missing");
  });

  it("a resume whose run errors leaves the record errored (no second resume)", async () => {
    const S = defineState({ go: field.bool().default(false) });
    const graph = new GraphBuilder(S)
      .addNode("gate", async () => suspend({ signalId: "g" }))
      .addNode("boom", async () => {
        throw new Error("boom");
      })
      .addEdge("gate", "boom")
      .addEdge("boom", END)
      .setEntry("gate")
      .compile();
    const runner = withSuspension(graph);
    const s = await runner.invoke({});
    expect((await rejection(runner.resume(s.invocationId, {}))).category).to.equal("node_exception");
    expect((await runner.load(s.invocationId))?.status).to.equal("errored");
    expect((await rejection(runner.resume(s.invocationId, {})))["reason"]).to.equal("errored");
  });

  it("two concurrent resumes of one suspension: one runs, the other is rejected", async () => {
    const runner = withSuspension(approvalGraph());
    const s = await runner.invoke({});
    const [a, b] = await Promise.allSettled([runner.resume(s.invocationId, { approved: true }), runner.resume(s.invocationId, { approved: true })]);
    const outcomes = [a.status, b.status].sort();
    expect(outcomes).to.deep.equal(["fulfilled", "rejected"]);
    const rej = (a.status === "rejected" ? a : b) as PromiseRejectedResult;
    expect((rej.reason as SuspensionRecordInvalidError).category).to.equal("suspension_record_invalid");
  });
});

describe("suspension §3 / §8.4 / §9: where suspend() may be called", () => {
  it("outside an invocation: suspension_in_unsupported_context", () => {
    expect(() => suspend({ signalId: "x" })).to.throw(SuspensionInUnsupportedContextError).with.property("context", "outside_invocation");
  });

  it("in a plain graph.invoke (nothing persists the pause): suspension_in_unsupported_context", async () => {
    const e = await rejection(approvalGraph().invoke({}));
    expect(e.category).to.equal("node_exception");
    expect(categoryOf(e)).to.equal("suspension_in_unsupported_context");
    expect((e.cause as SuspensionInUnsupportedContextError).context).to.equal("not_suspendable");
  });

  it("from middleware before next(): rejected, and the wrapped node never runs", async () => {
    const S = defineState({ ran: field.bool().default(false) });
    const graph = new GraphBuilder(S)
      .addNode("gate", async () => ({ ran: true }), {
        middleware: [
          async (s, next) => {
            suspend({ signalId: "mw" });
            return next(s);
          },
        ],
      })
      .addEdge("gate", END)
      .setEntry("gate")
      .compile();
    const obs = recorder();
    const e = await rejection(withSuspension(graph).invoke({}, { observers: [obs] }));
    expect(categoryOf(e)).to.equal("suspension_in_unsupported_context");
    expect(e.state).to.deep.equal({ ran: false });
    await drain();
    expect(obs.events).to.deep.equal([]);
  });

  it("a middleware swallowing the rejection cannot suppress it", async () => {
    const S = defineState({ ran: field.bool().default(false) });
    const graph = new GraphBuilder(S)
      .addNode("gate", async () => ({ ran: true }), {
        middleware: [
          async (s, next) => {
            try {
              suspend({ signalId: "mw" });
            } catch {
              /* swallowed */
            }
            return next(s);
          },
        ],
      })
      .addEdge("gate", END)
      .setEntry("gate")
      .compile();
    const e = await rejection(withSuspension(graph).invoke({}));
    expect(e.category).to.equal("suspension_in_unsupported_context");
  });

  it("§8.4: wrapping middleware runs its pre-next() block; its post-next() block does not run", async () => {
    const log: string[] = [];
    const S = defineState({ x: field.int().default(0) });
    const graph = new GraphBuilder(S)
      .addNode("gate", async () => suspend({ signalId: "wrapped" }), {
        middleware: [
          async (s, next) => {
            log.push("pre");
            const u = await next(s);
            log.push("post");
            return u;
          },
        ],
      })
      .addEdge("gate", END)
      .setEntry("gate")
      .compile();
    const r = await withSuspension(graph).invoke({});
    expect(r.outcome).to.equal("suspended");
    expect(log).to.deep.equal(["pre"]);
  });

  it("the descriptor is validated and copied", async () => {
    const meta = { kind: "k" };
    const S = defineState({ x: field.int().default(0) });
    const bad = new GraphBuilder(S).addNode("a", async () => suspend({ signalId: "" })).addEdge("a", END).setEntry("a").compile();
    expect((await rejection(withSuspension(bad).invoke({}))).cause).to.be.instanceOf(TypeError);
    const good = new GraphBuilder(S)
      .addNode("a", async () => {
        try {
          suspend({ signalId: "ok", metadata: meta });
        } finally {
          meta.kind = "changed";
        }
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const r = await withSuspension(good).invoke({});
    expect(r.outcome === "suspended" && r.descriptor).to.deep.equal({ signalId: "ok", metadata: { kind: "k" } });
  });

  it("isSuspension recognizes the signal; the category list is the §9 set", async () => {
    let caught: unknown;
    const S = defineState({ x: field.int().default(0) });
    const g = new GraphBuilder(S)
      .addNode("a", async () => {
        try {
          suspend({ signalId: "s" });
        } catch (e) {
          caught = e;
          throw e;
        }
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    await withSuspension(g).invoke({});
    expect(isSuspension(caught)).to.equal(true);
    expect(caught).to.be.instanceOf(GraphInterrupt);
    expect(SUSPENSION_ERROR_CATEGORIES).to.deep.equal([
      "suspension_persistence_failed",
      "suspension_record_invalid",
      "suspension_resume_payload_invalid",
      "suspension_in_unsupported_context",
    ]);
  });
});

describe("suspension §8.5 / pipeline-utilities §10.15: records through the Checkpointer", () => {
  it("the backend holds a discriminated paused record; checkpoint resume refuses it", async () => {
    const cp = new InMemoryCheckpointer();
    const graph = approvalGraph();
    const runner = withSuspension(graph, { checkpointer: cp });
    const s = await runner.invoke({});
    expect(await runner.store.recordType(s.invocationId)).to.equal("suspended");
    const raw = await cp.load(s.invocationId);
    expect(raw?.state["openarmature.record_type"]).to.equal("suspended");
    const e = await rejection(withCheckpointer(graph, cp).resume(s.invocationId));
    expect(e.category).to.equal("checkpoint_record_invalid");
    const r = await runner.resume(s.invocationId, { approved: true });
    expect(r.state.completed).to.equal(true);
  });

  it("a checkpoint record under the id is not a paused record", async () => {
    const cp = new InMemoryCheckpointer();
    const graph = approvalGraph();
    const done = await withCheckpointer(graph, cp).invoke({ approved: true });
    const e = await rejection(withSuspension(graph, { checkpointer: cp }).resume(done.invocationId, {}));
    expect(e["reason"]).to.equal("not_a_paused_record");
  });

  it("a failing record write is suspension_persistence_failed (the outcome is errored)", async () => {
    const cp = new InMemoryCheckpointer();
    const boom = new Error("disk full");
    cp.save = async () => {
      throw boom;
    };
    const e = await rejection(withSuspension(approvalGraph(), { checkpointer: cp }).invoke({}));
    expect(e.category).to.equal("suspension_persistence_failed");
    expect(e.cause).to.equal(boom);
    expect((e["suspended"] as { outcome: string }).outcome).to.equal("suspended");
    expect(e.nodeName).to.equal("gate");
  });
});
