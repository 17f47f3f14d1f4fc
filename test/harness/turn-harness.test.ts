import { expect } from "chai";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { InMemorySessionStore, withSessions, type SessionStore } from "../../src/sessions/index.ts";
import { suspend } from "../../src/suspension/index.ts";
import {
  categorizeTurnError,
  classifyTransmission,
  InMemorySignalCoordinator,
  TurnHarness,
  type SignalCoordinator,
  type TurnResult,
} from "../../src/harness/index.ts";

class Categorized extends Error {
  constructor(readonly category: string, message: string) {
    super(message);
  }
}

const State = defineState({ count: field.int().default(0), approved: field.bool().default(false), done: field.bool().default(false) });

function counter() {
  return new GraphBuilder(State)
    .addNode("inc", async (s) => ({ count: s.count + 1 }))
    .addEdge("inc", END)
    .setEntry("inc")
    .compile({ name: "counter" });
}

function gated() {
  return new GraphBuilder(State)
    .addNode("gate", async () => suspend({ signalId: "approval-1", metadata: { kind: "approval" } }))
    .addNode("after", async () => ({ done: true }))
    .addEdge("gate", "after")
    .addEdge("after", END)
    .setEntry("gate")
    .compile({ name: "gated" });
}

function failing(category: string, message: string) {
  return new GraphBuilder(State)
    .addNode("boom", async () => {
      throw new Categorized(category, message);
    })
    .addEdge("boom", END)
    .setEntry("boom")
    .compile({ name: "failing" });
}

function expectOutcome<K extends TurnResult["outcome"]>(r: TurnResult, k: K): Extract<TurnResult, { outcome: K }> {
  expect(r.outcome, JSON.stringify(r.outbound)).to.equal(k);
  return r as Extract<TurnResult, { outcome: K }>;
}

describe("harness: TurnHarness", () => {
  it("§3.1 mints a session id when the transmission has none, threads it, and the engine saves under it", async () => {
    const store = new InMemorySessionStore();
    const h = new TurnHarness({ mode: "sessioned", graph: withSessions(counter(), { store, projection: "full" }) });
    const r = expectOutcome(await h.handle({ intent: "new_session", payload: {} }), "completed");
    expect(r.path).to.equal("3.1");
    expect(r.sessionIdGenerated).to.equal(true);
    expect(r.invocation?.sessionId).to.be.a("string").and.equal(r.sessionId);
    expect((await store.load(r.sessionId!))?.state).to.deep.include({ count: 1 });
    expect(r.outbound).to.deep.equal({ kind: "completion_response", payload: r.state });
  });

  it("§3.2 continues the session: the second turn sees the first's saved state", async () => {
    const store = new InMemorySessionStore();
    const h = new TurnHarness({ mode: "sessioned", graph: withSessions(counter(), { store, projection: "full" }) });
    await h.handle({ payload: { session_id: "s-1" }, intent: "new_session" });
    const r = expectOutcome(await h.handle({ payload: { session_id: "s-1" } }), "completed");
    expect(r.path).to.equal("3.2");
    expect(r.sessionIdGenerated).to.equal(false);
    expect(r.state["count"]).to.equal(2);
  });

  it("§3.2 without a session id is harness_session_id_unresolved (session_terminating), before any invoke", async () => {
    const store = new InMemorySessionStore();
    const h = new TurnHarness({ mode: "sessioned", graph: withSessions(counter(), { store, projection: "full" }) });
    const r = expectOutcome(await h.handle({ intent: "existing_session", payload: {} }), "errored");
    expect(r.error.category).to.equal("harness_session_id_unresolved");
    expect(r.error.bucket).to.equal("session_terminating");
    expect(r.attempts).to.equal(0);
    expect(store.stats().load).to.equal(0);
  });

  it("§3.0 stateless: never passes a session id, so a registered store is never called", async () => {
    const store = new InMemorySessionStore();
    const h = new TurnHarness({ mode: "stateless", graph: withSessions(counter(), { store, projection: "full" }) });
    const r = expectOutcome(await h.handle({ payload: { session_id: "ignored" } }), "completed");
    expect(r.path).to.equal("3.0");
    expect(r.invocation).to.not.have.property("sessionId");
    expect(store.stats()).to.include({ load: 0, save: 0 });
  });

  it("§3.4 classification is deterministic and rejects contradictory transmissions", () => {
    expect(classifyTransmission("sessioned", { payload: {} }, false)).to.equal("3.1");
    expect(classifyTransmission("sessioned", { payload: {} }, true)).to.equal("3.2");
    expect(classifyTransmission("sessioned", { signal: { signalId: "x" } }, false)).to.equal("3.3");
    expect(classifyTransmission("stateless", { payload: {} }, true)).to.equal("3.0");
    expect(() => classifyTransmission("sessioned", { intent: "new_session", signal: { signalId: "x" } }, false)).to.throw(/harness_path_classification_ambiguous|cannot be classified/);
    expect(() => classifyTransmission("stateless", { intent: "existing_session" }, true)).to.throw(/stateless/);
  });

  it("§5.3 / §6 suspend registers a subscription, returns at once, and the signal resumes the same invocation in its session", async () => {
    const store = new InMemorySessionStore();
    const coordinator = new InMemorySignalCoordinator();
    const h = new TurnHarness({ mode: "sessioned", graph: withSessions(gated(), { store, projection: "full" }), coordinator });
    const s = expectOutcome(await h.handle({ sessionId: "conv", intent: "new_session" }), "suspended");
    expect(s.outbound).to.deep.equal({ kind: "suspended_acknowledgment", payload: { invocationId: s.invocationId, signalId: "approval-1", metadata: { kind: "approval" } } });
    expect(coordinator.subscriptions()).to.deep.equal([{ invocationId: s.invocationId, descriptor: s.descriptor, sessionId: "conv" }]);
    const r = expectOutcome(await h.handle({ signal: { signalId: "approval-1" }, signalPayload: { approved: true } }), "completed");
    expect(r.path).to.equal("3.3");
    expect(r.invocationId).to.equal(s.invocationId);
    expect(r.invocation).to.deep.equal({ initialState: {}, resumeInvocation: s.invocationId, signalPayload: { approved: true } });
    expect(r.state).to.deep.include({ approved: true, done: true });
    expect(r.sessionId).to.equal("conv");
    expect((await store.load("conv"))?.state).to.deep.include({ approved: true, done: true });
    expect(coordinator.subscriptions()).to.deep.equal([]);
  });

  it("§10 a signal no subscription matches is harness_signal_correlation_failed", async () => {
    const h = new TurnHarness({ mode: "stateless", graph: gated() });
    const r = expectOutcome(await h.handle({ signal: { signalId: "nobody" } }), "errored");
    expect(r.error.category).to.equal("harness_signal_correlation_failed");
    expect(r.path).to.equal("3.3");
    expect(r.error.message).to.contain('signal "nobody"').and.to.contain("none does");
  });

  it("§6 two paused invocations awaiting one signal id: the signal id alone does not correlate, and the message says so", async () => {
    const h = new TurnHarness({ mode: "stateless", graph: gated() });
    const first = expectOutcome(await h.handle({}), "suspended");
    expectOutcome(await h.handle({}), "suspended");
    const r = expectOutcome(await h.handle({ signal: { signalId: "approval-1" } }), "errored");
    expect(r.error.category).to.equal("harness_signal_correlation_failed");
    expect(r.error.message).to.contain("several paused invocations await the same signal id");
    // The invocation id still singles one out.
    expectOutcome(await h.handle({ signal: { invocationId: first.invocationId }, signalPayload: { approved: true } }), "completed");
  });

  it("§6 completeness: a coordinator that refuses the subscription turns the suspension into harness_signal_subscription_failed", async () => {
    const refusing: SignalCoordinator = {
      subscribe() {
        throw new Error("scheduler offline");
      },
      correlate: () => undefined,
      release() {},
    };
    const h = new TurnHarness({ mode: "stateless", graph: gated(), coordinator: refusing });
    const r = expectOutcome(await h.handle({}), "errored");
    expect(r.error.category).to.equal("harness_signal_subscription_failed");
    expect(r.error.bucket).to.equal("retryable_transient");
    expect(r.error.message).to.match(/scheduler offline/);
  });

  it("§7 buckets: terminating, transient, user-correctable, with the outbound flags", async () => {
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ["provider_unavailable", "retryable_transient", { retrySafe: true, interventionRequired: false, userActionRequired: false }],
      ["provider_invalid_request", "user_correctable", { retrySafe: false, userActionRequired: true }],
      ["session_state_migration_missing", "session_terminating", { interventionRequired: true, retrySafe: false }],
    ];
    for (const [category, bucket, flags] of cases) {
      const h = new TurnHarness({ mode: "stateless", graph: failing(category, `boom ${category}`) });
      const r = expectOutcome(await h.handle({}), "errored");
      expect(r.attempts).to.equal(1);
      expect(r.outbound.kind).to.equal("error_response");
      expect(r.outbound.payload).to.deep.include({ category, bucket, diagnosticMessage: `boom ${category}`, ...flags });
    }
  });

  it("§7.1 a failing session load is session_load_failed, terminating, and the graph does not run", async () => {
    const store = new InMemorySessionStore();
    const broken: SessionStore = Object.assign(Object.create(store) as SessionStore, {
      load: async () => {
        throw new Error("disk gone");
      },
    });
    let ran = false;
    const g = new GraphBuilder(State).addNode("n", async () => ((ran = true), {})).addEdge("n", END).setEntry("n").compile();
    const h = new TurnHarness({ mode: "sessioned", graph: withSessions(g, { store: broken, projection: "full" }) });
    const r = expectOutcome(await h.handle({ sessionId: "x" }), "errored");
    expect(r.error).to.include({ category: "session_load_failed", bucket: "session_terminating" });
    expect(ran).to.equal(false);
  });

  it("categorizeTurnError reads through the engine's node_exception carrier; refinements win", () => {
    expect(categorizeTurnError(new Categorized("provider_timeout", "t")).bucket).to.equal("retryable_transient");
    expect(categorizeTurnError(new Error("bug")).category).to.equal(null);
    expect(categorizeTurnError(new Categorized("provider_timeout", "t"), () => "user_correctable").bucket).to.equal("user_correctable");
  });

  it("sessioned mode needs a session-bound graph", () => {
    expect(() => new TurnHarness({ mode: "sessioned", graph: counter() })).to.throw(/withSessions/);
  });
});
