import { expect } from "chai";
import {
  append,
  defineState,
  drain,
  END,
  field,
  GraphBuilder,
  GraphInterrupt,
  NodeException,
  stateSchema,
  type NodeKind,
  type StateRecord,
} from "../../src/graph/index.ts";
import {
  currentSessionId,
  saveSession,
  SessionWriteConflictError,
  withSessions,
  type SessionStore,
} from "../../src/sessions/index.ts";
import { forEachStore, rejection } from "./helpers.ts";

/** Fixture 001's graph: `history` (append) gets ["x"] per run. */
function historyGraph(seen?: unknown[]) {
  return new GraphBuilder(defineState({ history: field.list(field.string()).default([]).reducer(append) }))
    .addNode("record_turn", async (s) => {
      seen?.push(s.history);
      return { history: ["x"] };
    })
    .addEdge("record_turn", END)
    .setEntry("record_turn")
    .compile({ name: "history" });
}

const XState = defineState({ x: field.int().default(0) });
function xGraph(body: (s: { readonly x: number }) => Promise<{ x?: number } | void> = async () => ({ x: 1 })) {
  return new GraphBuilder(XState).addNode("a", body).addEdge("a", END).setEntry("a").compile({ name: "x" });
}

forEachStore("sessions §3/§6 auto-load and auto-save", (kind) => {
  it("fixture 001: a second invoke under the same session id loads and merges the first one's saved state", async () => {
    const store = kind.make();
    const seen: unknown[] = [];
    const chat = withSessions(historyGraph(seen), { store, projection: "full" });

    const r1 = await chat.invoke({}, { sessionId: "s1" });
    expect(r1.outcome).to.equal("completed");
    expect(r1.loadedSessionState).to.equal(null);
    expect(r1.state).to.deep.equal({ history: ["x"] });
    expect((await store.load("s1"))!.state).to.deep.equal({ history: ["x"] });

    const r2 = await chat.invoke({}, { sessionId: "s1" });
    expect(r2.loadedSessionState).to.deep.equal({ history: ["x"] });
    expect(seen).to.deep.equal([[], ["x"]]); // invoke #2's pre-execution state is the loaded one
    expect(r2.state).to.deep.equal({ history: ["x", "x"] });
    const rec = (await store.load("s1"))!;
    expect(rec.state).to.deep.equal({ history: ["x", "x"] });
    expect(rec.version).to.equal(2); // overwrote invoke #1's record
    expect(r2.savedSession).to.deep.include({ sessionId: "s1", savePoint: "completed", version: 2 });
    expect(r2.sessionId).to.equal("s1");
  });

  it("fixture 002: a session id without a registered store runs normally and persists nothing", async () => {
    const untouched = kind.make();
    let ambient: string | undefined;
    const g = withSessions(
      xGraph(async () => {
        ambient = currentSessionId();
        return { x: 1 };
      }),
      { projection: "full" },
    );
    const r = await g.invoke({}, { sessionId: "s1" });
    expect(r.state).to.deep.equal({ x: 1 });
    expect(ambient).to.equal("s1"); // §3 still propagates
    expect(r.loadedSessionState).to.equal(null);
    expect(r.savedSession).to.equal(null);
    expect(untouched.stats()).to.deep.equal({ load: 0, save: 0, delete: 0, list: 0 });
  });

  it("fixture 003: a registered store is never called when no session id is supplied", async () => {
    const store = kind.make();
    let ambient: string | undefined = "unset";
    const g = withSessions(
      xGraph(async () => {
        ambient = currentSessionId();
        return { x: 1 };
      }),
      { store, projection: "full" },
    );
    const r = await g.invoke({});
    expect(r.state).to.deep.equal({ x: 1 });
    expect(ambient).to.equal(undefined);
    expect(r.sessionId).to.equal(undefined);
    expect(store.stats()).to.deep.equal({ load: 0, save: 0, delete: 0, list: 0 });
    store.resetStats();
    expect(await store.list()).to.deep.equal([]);
  });

  it("fixture 004: a projected session persists only the projected fields; scratch starts from its default", async () => {
    const store = kind.make();
    const pre: unknown[] = [];
    const graph = new GraphBuilder(stateSchema({ fields: { summary: { type: "string", default: "" }, scratch: { type: "string", default: "" } } }))
      .addNode("work", async (s) => {
        pre.push({ ...s });
        return { summary: "done", scratch: "tmp" };
      })
      .addEdge("work", END)
      .setEntry("work")
      .compile();
    const g = withSessions(graph, { store, projection: { fields: ["summary"] } });
    const r1 = await g.invoke({}, { sessionId: "s1" });
    expect(r1.state).to.deep.equal({ summary: "done", scratch: "tmp" });
    const rec = (await store.load("s1"))!;
    expect(rec.state).to.deep.equal({ summary: "done" });
    expect(rec.state).to.not.have.property("scratch");
    const r2 = await g.invoke({}, { sessionId: "s1" });
    expect(r2.loadedSessionState).to.deep.equal({ summary: "done" });
    expect(pre[1]).to.deep.equal({ summary: "done", scratch: "" });
    expect(r2.state).to.deep.equal({ summary: "done", scratch: "tmp" });
  });

  it("§4.2 map: session fields may be named differently from state fields", async () => {
    const store = kind.make();
    const graph = new GraphBuilder(defineState({ turns: field.int().default(0), tmp: field.string().default("") }))
      .addNode("n", async (s) => ({ turns: s.turns + 1, tmp: "t" }))
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const g = withSessions(graph, { store, projection: { map: { turn_count: "turns" } } });
    await g.invoke({}, { sessionId: "m" });
    expect((await store.load("m"))!.state).to.deep.equal({ turn_count: 1 });
    const r = await g.invoke({}, { sessionId: "m" });
    expect(r.loadedSessionState).to.deep.equal({ turn_count: 1 });
    expect(r.state).to.deep.equal({ turns: 2, tmp: "t" });
  });

  it("fixture 005: autoSave: false never saves automatically", async () => {
    const store = kind.make();
    const g = withSessions(xGraph(), { store, projection: "full", autoSave: false });
    const r = await g.invoke({}, { sessionId: "s5" });
    expect(r.state).to.deep.equal({ x: 1 });
    expect(r.savedSession).to.equal(null);
    expect(store.stats()).to.deep.include({ load: 1, save: 0 });
    expect(await store.load("s5")).to.equal(null);
  });

  it("fixture 006: a mid-invoke save survives a later crash; no auto-save runs on error", async () => {
    const store = kind.make();
    const graph = new GraphBuilder(defineState({ step: field.string().default("") }))
      .addNode("A", async () => ({ step: "A" }))
      .addNode("B", async () => {
        const update = { step: "B" };
        await saveSession({ update }); // §6.2: after B's update merges
        return update;
      })
      .addNode("C", async () => {
        throw new Error("C failed");
      })
      .addEdge("A", "B")
      .addEdge("B", "C")
      .addEdge("C", END)
      .setEntry("A")
      .compile();
    const g = withSessions(graph, { store, projection: "full" });
    const e = await rejection(g.invoke({}, { sessionId: "s6" }));
    expect(e).to.be.instanceOf(NodeException);
    expect(e).to.include({ category: "node_exception", nodeName: "C" });
    expect(store.stats()).to.deep.include({ load: 1, save: 1 }); // only the explicit one
    expect((await store.load("s6"))!.state).to.deep.equal({ step: "B" });
  });

  it("§6.2: the auto-save at END subsumes mid-invoke saves; each save overwrites", async () => {
    const store = kind.make();
    const Counter = defineState({ n: field.int().default(0) });
    const graph = new GraphBuilder(Counter)
      .addNode("tick", async (s) => {
        await saveSession({ update: { n: s.n + 1 } });
        return { n: s.n + 1 };
      })
      .addConditionalEdge("tick", (s) => (s.n < 3 ? "tick" : END))
      .setEntry("tick")
      .compile();
    const g = withSessions(graph, { store, projection: "full" });
    const r = await g.invoke({}, { sessionId: "c" });
    expect(r.state).to.deep.equal({ n: 3 });
    expect(store.stats()).to.deep.include({ load: 1, save: 4 });
    const rec = (await store.load("c"))!;
    expect(rec.state).to.deep.equal({ n: 3 });
    expect(rec.version).to.equal(4);
  });

  it("§6.2 saveSession() without options saves the node's pre-state; { state } saves exactly that state; both are projected", async () => {
    const store = kind.make();
    const graph = new GraphBuilder(defineState({ a: field.string().default(""), b: field.string().default(""), tmp: field.string().default("") }))
      .addNode("one", async () => ({ a: "one", tmp: "scratch" }))
      .addNode("two", async (s) => {
        const r1 = await saveSession();
        expect(r1!.state).to.deep.equal({ a: "one", b: "" });
        expect((await store.load("p"))!.state).to.deep.equal({ a: "one", b: "" });
        await saveSession({ state: { ...s, b: "explicit" } });
        expect((await store.load("p"))!.state).to.deep.equal({ a: "one", b: "explicit" });
        return {};
      })
      .addEdge("one", "two")
      .addEdge("two", END)
      .setEntry("one")
      .compile();
    const g = withSessions(graph, { store, projection: { fields: ["a", "b"] }, autoSave: false });
    await g.invoke({}, { sessionId: "p" });
    expect((await store.load("p"))!.state).to.deep.equal({ a: "one", b: "explicit" });
  });

  it("saveCurrent(): the typed mid-invoke save on the bound graph", async () => {
    const store = kind.make();
    const Counter = defineState({ n: field.int().default(0) });
    const builder = new GraphBuilder(Counter);
    let bound: ReturnType<typeof withSessions<{ n: number }, Partial<{ n: number }>, "full">> | undefined;
    builder
      .addNode("inc", async (s) => {
        const rep = await bound!.saveCurrent({ update: { n: s.n + 10 } });
        expect(rep!.state).to.deep.equal({ n: 10 });
        return { n: s.n + 1 };
      })
      .addEdge("inc", END)
      .setEntry("inc");
    bound = withSessions(builder.compile(), { store, projection: "full", autoSave: false });
    await bound.invoke({}, { sessionId: "t" });
    expect((await store.load("t"))!.state).to.deep.equal({ n: 10 });
    expect(await bound.saveCurrent()).to.equal(null); // outside an invocation
  });

  it("saveSession() resolves null when the invocation is not session-bound or has no store", async () => {
    const results: unknown[] = [];
    const graph = xGraph(async () => {
      results.push(await saveSession());
      return {};
    });
    await graph.invoke({}); // plain engine invocation
    await withSessions(graph, { projection: "full" }).invoke({}, { sessionId: "no-store" });
    await withSessions(graph, { store: kind.make(), projection: "full" }).invoke({}); // no session id
    expect(results).to.deep.equal([null, null, null]);
  });

  it("explicit save() / load() / delete() outside an invocation", async () => {
    const store = kind.make();
    const g = withSessions(historyGraph(), { store, projection: "full" });
    const rep = await g.save("e", { history: ["seeded"] });
    expect(rep).to.deep.include({ sessionId: "e", savePoint: "explicit", version: 1, schemaVersion: "" });
    expect((await g.load("e"))!.state).to.deep.equal({ history: ["seeded"] });
    const r = await g.invoke({}, { sessionId: "e" });
    expect(r.state).to.deep.equal({ history: ["seeded", "x"] });
    await g.delete("e");
    expect(await g.load("e")).to.equal(null);
    expect(await rejection(withSessions(historyGraph(), { projection: "full" }).save("e", {}))).to.be.instanceOf(TypeError);
  });

  it("§3 identity scoping: two session ids never see each other's state", async () => {
    const store = kind.make();
    const chat = withSessions(historyGraph(), { store, projection: "full" });
    await chat.invoke({}, { sessionId: "alice" });
    await chat.invoke({}, { sessionId: "alice" });
    const bob = await chat.invoke({}, { sessionId: "bob" });
    expect(bob.loadedSessionState).to.equal(null);
    expect(bob.state).to.deep.equal({ history: ["x"] });
    expect((await store.load("alice"))!.state).to.deep.equal({ history: ["x", "x"] });
    expect((await store.load("bob"))!.state).to.deep.equal({ history: ["x"] });
    expect((await store.list()).map((s) => s.sessionId)).to.deep.equal(["alice", "bob"]);
  });

  it("entry merge: the loaded state is the base; the caller's initial fields merge over it through the reducers", async () => {
    const store = kind.make();
    const S = defineState({ history: field.list(field.string()).default([]).reducer(append), mood: field.string().default("") });
    const graph = new GraphBuilder(S).addNode("n", async () => ({})).addEdge("n", END).setEntry("n").compile();
    const g = withSessions(graph, { store, projection: "full" });
    await g.invoke({ history: ["m1"], mood: "calm" }, { sessionId: "m" });
    const r = await g.invoke({ history: ["m2"], mood: "excited" }, { sessionId: "m" });
    expect(r.state).to.deep.equal({ history: ["m1", "m2"], mood: "excited" });
    const r3 = await g.invoke({}, { sessionId: "m" });
    expect(r3.state).to.deep.equal({ history: ["m1", "m2"], mood: "excited" });
  });

  it("each session-bound invocation makes exactly one load() and one save() (the harness's per-call counts)", async () => {
    const store = kind.make();
    const g = withSessions(historyGraph(), { store, projection: "full" });
    for (let i = 0; i < 3; i++) {
      store.resetStats();
      await g.invoke({}, { sessionId: "count" });
      expect(store.stats()).to.deep.equal({ load: 1, save: 1, delete: 0, list: 0 });
    }
  });

  it("an errored invocation saves nothing", async () => {
    const store = kind.make();
    await store.save("err", { state: { x: 7 } });
    store.resetStats();
    const g = withSessions(
      xGraph(async () => {
        throw new Error("boom");
      }),
      { store, projection: "full" },
    );
    await rejection(g.invoke({}, { sessionId: "err" }));
    expect(store.stats()).to.deep.include({ load: 1, save: 0 });
    expect((await store.load("err"))!.state).to.deep.equal({ x: 7 });
  });
});

forEachStore("sessions §9.5 / suspension §8.6 save at suspend", (kind) => {
  const S = defineState({ trace: field.list(field.string()).default([]).reducer(append), scratch: field.string().default("") });
  function suspending() {
    return new GraphBuilder(S)
      .addNode("a", async () => ({ trace: ["a"], scratch: "s" }))
      .addNode("ask", async () => {
        throw new GraphInterrupt({ signalId: "approval" });
      })
      .addEdge("a", "ask")
      .addEdge("ask", END)
      .setEntry("a")
      .compile();
  }

  it("a suspended invocation saves the outermost state at suspension", async () => {
    const store = kind.make();
    const g = withSessions(suspending(), { store, projection: { fields: ["trace"] } });
    const r = await g.invoke({}, { sessionId: "sus" });
    expect(store.stats()).to.deep.include({ load: 1, save: 1 });
    expect(r.outcome).to.equal("suspended");
    expect(r.savedSession).to.deep.include({ savePoint: "suspended", state: { trace: ["a"] } });
    expect((await store.load("sus"))!.state).to.deep.equal({ trace: ["a"] });
    const again = await g.invoke({}, { sessionId: "sus" });
    expect(again.loadedSessionState).to.deep.equal({ trace: ["a"] });
  });

  it("saveOnSuspend: false, or autoSave: false, skips the save at suspend", async () => {
    const store = kind.make();
    const r1 = await withSessions(suspending(), { store, projection: "full", saveOnSuspend: false }).invoke({}, { sessionId: "a" });
    const r2 = await withSessions(suspending(), { store, projection: "full", autoSave: false }).invoke({}, { sessionId: "b" });
    expect([r1.outcome, r2.outcome]).to.deep.equal(["suspended", "suspended"]);
    expect(store.stats()).to.deep.include({ load: 2, save: 0 });
  });
});

forEachStore("sessions §9 composition: subgraphs and fan-out never see session state", (kind) => {
  it("fixture 010: the inner subgraph sees only its projected inputs; the outer state is saved", async () => {
    const store = kind.make();
    await store.save("s10", { state: { summary: "outer-data" } });
    store.resetStats();
    const innerPre: unknown[] = [];
    const innerSessionIds: unknown[] = [];
    const inner = new GraphBuilder(stateSchema({ fields: { inner_input: { type: "string", default: "" }, inner_output: { type: "string", default: "" } } }))
      .addNode("inner_node", async (s) => {
        innerPre.push({ ...s });
        innerSessionIds.push(await saveSession().catch((e: Error) => e.constructor.name));
        return { inner_output: "inner-done" };
      })
      .addEdge("inner_node", END)
      .setEntry("inner_node")
      .compile({ name: "inner" });
    const outer = new GraphBuilder(stateSchema({ fields: { summary: { type: "string", default: "" }, outer_result: { type: "string", default: "" } } }))
      .addSubgraph("outer_dispatch", inner, { inputs: { inner_input: "summary" }, outputs: { outer_result: "inner_output" } })
      .addEdge("outer_dispatch", END)
      .setEntry("outer_dispatch")
      .compile({ name: "outer" });
    const r = await withSessions(outer, { store, projection: "full" }).invoke({}, { sessionId: "s10" });
    expect(store.stats()).to.deep.include({ load: 1, save: 1 }); // outer only
    expect(innerPre).to.deep.equal([{ inner_input: "outer-data", inner_output: "" }]);
    expect(innerSessionIds).to.deep.equal(["TypeError"]); // §9.1: no session surface inside
    expect(r.state).to.deep.equal({ summary: "outer-data", outer_result: "inner-done" });
    expect((await store.load("s10"))!.state).to.deep.equal({ summary: "outer-data", outer_result: "inner-done" });
  });

  it("fixture 011: fan-out instances see only their per-item input; the outer graph saves the merged outputs", async () => {
    const store = kind.make();
    await store.save("s11", { state: { items: ["a", "b", "c"] } });
    store.resetStats();
    const instancePre: StateRecord[] = [];
    const perItem = new GraphBuilder(stateSchema({ fields: { item: { type: "string", default: "" }, processed: { type: "string", default: "" } } }))
      .addNode("process", async (s) => {
        instancePre.push({ ...s });
        return { processed: "ok" };
      })
      .addEdge("process", END)
      .setEntry("process")
      .compile({ name: "per_item" });
    // A minimal fan-out node kind over the engine seam (the pipeline's fan-out behaves the same).
    const fanOut: NodeKind = {
      kind: "test_fan_out",
      async run(state, ctx) {
        const items = state["items"] as readonly string[];
        const outs = await Promise.all(items.map((item, i) => ctx.runSubgraph(perItem, { item }, { fanOutIndex: i })));
        return { outputs: outs.map((o) => o["processed"]) };
      },
    };
    const outer = new GraphBuilder(
      stateSchema({ fields: { items: { type: "list", default: [] }, outputs: { type: "list", reducer: "append", default: [] } } }),
    )
      .addNode("fan_out_node", fanOut)
      .addEdge("fan_out_node", END)
      .setEntry("fan_out_node")
      .compile();
    const r = await withSessions(outer, { store, projection: "full" }).invoke({}, { sessionId: "s11" });
    expect(store.stats()).to.deep.include({ load: 1, save: 1 }); // no per-instance load / save
    expect(instancePre.sort((a, b) => String(a["item"]).localeCompare(String(b["item"])))).to.deep.equal([
      { item: "a", processed: "" },
      { item: "b", processed: "" },
      { item: "c", processed: "" },
    ]);
    expect(r.state).to.deep.equal({ items: ["a", "b", "c"], outputs: ["ok", "ok", "ok"] });
    expect((await store.load("s11"))!.state).to.deep.equal({ items: ["a", "b", "c"], outputs: ["ok", "ok", "ok"] });
  });
});

forEachStore("sessions §8 concurrency", (kind) => {
  function gated() {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const S = defineState({ who: field.string().default("") });
    const graph = new GraphBuilder(S)
      .addNode("n", async (s) => {
        if (s.who === "slow") await gate;
        return {};
      })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    return { graph, release };
  }

  it("§8.1 default last-write-wins: the later save overwrites silently", async () => {
    const store = kind.make();
    const { graph, release } = gated();
    const g = withSessions(graph, { store, projection: "full" });
    const slow = g.invoke({ who: "slow" }, { sessionId: "c" });
    await g.invoke({ who: "fast" }, { sessionId: "c" });
    release();
    await slow;
    expect((await store.load("c"))!.state).to.deep.equal({ who: "slow" });
  });

  it("§8.2 optimistic: a save racing a concurrent writer raises session_write_conflict (with the committed result)", async () => {
    const store = kind.make();
    // The race: the slow invocation has loaded (version 0) before the fast one runs. A network store
    // answers concurrent calls in no fixed order, so wait for that load rather than assume it.
    let loaded!: () => void;
    const slowLoaded = new Promise<void>((r) => (loaded = r));
    const watched: SessionStore = {
      load: async (id) => {
        const r = await store.load(id);
        loaded();
        return r;
      },
      save: (id, r, o) => store.save(id, r, o),
      delete: (id) => store.delete(id),
      list: (f) => store.list(f),
    };
    const { graph, release } = gated();
    const g = withSessions(graph, { store: watched, projection: "full", concurrency: "optimistic" });
    const slow = g.invoke({ who: "slow" }, { sessionId: "c" });
    await slowLoaded;
    const fast = await g.invoke({ who: "fast" }, { sessionId: "c" });
    expect(fast.savedSession!.version).to.equal(1);
    release();
    const e = await rejection(slow);
    expect(e).to.be.instanceOf(SessionWriteConflictError);
    const conflict = e as SessionWriteConflictError;
    expect(conflict).to.include({ category: "session_write_conflict", expectedVersion: 0, actualVersion: 1, sessionId: "c" });
    expect(conflict.result!.outcome).to.equal("completed");
    expect(conflict.result!.state).to.deep.equal({ who: "slow" });
    expect((await store.load("c"))!.state).to.deep.equal({ who: "fast" });
    // sequential optimistic invocations (and their mid-invoke saves) never conflict
    await g.invoke({ who: "again" }, { sessionId: "c" });
    expect((await store.load("c"))!.version).to.equal(2);
  });

  it("§8.2 optimistic: concurrent mid-invoke saves of one invocation are serialized and never conflict with each other", async () => {
    const store = kind.make();
    const S = defineState({ n: field.int().default(0) });
    const graph = new GraphBuilder(S)
      .addNode("n", async () => {
        const reports = await Promise.all([saveSession({ update: { n: 1 } }), saveSession({ update: { n: 2 } }), saveSession({ update: { n: 3 } })]);
        expect(reports.map((r) => r!.version)).to.deep.equal([1, 2, 3]);
        return { n: 4 };
      })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const r = await withSessions(graph, { store, projection: "full", concurrency: "optimistic" }).invoke({}, { sessionId: "q" });
    expect(r.savedSession!.version).to.equal(4);
    expect((await store.load("q"))!.state).to.deep.equal({ n: 4 });
  });
});

describe("sessions §3 ambient session_id", () => {
  it("is readable in nodes, middleware, helpers and observers, and is reset after the invocation", async () => {
    const seen: Record<string, unknown> = {};
    const helper = async (): Promise<string | undefined> => {
      await new Promise((r) => setTimeout(r, 1));
      return currentSessionId();
    };
    const graph = new GraphBuilder(XState)
      .use(async (s, next) => {
        seen["middleware"] = currentSessionId();
        return next(s);
      })
      .addNode("a", async () => {
        seen["node"] = currentSessionId();
        seen["helper"] = await helper();
        return { x: 1 };
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    const observed: unknown[] = [];
    const events: object[] = [];
    const g = withSessions(graph, { projection: "full" });
    await g.invoke({}, {
      sessionId: "ambient",
      observers: [
        (e) => {
          observed.push(currentSessionId());
          events.push(e);
        },
      ],
    });
    await drain({ timeoutMs: 2000 });
    expect(seen).to.deep.equal({ middleware: "ambient", node: "ambient", helper: "ambient" });
    expect(observed.length).to.be.greaterThan(0);
    expect(new Set(observed)).to.deep.equal(new Set(["ambient"]));
    for (const e of events) expect(JSON.stringify(e)).to.not.include("ambient"); // §11.1: not a NodeEvent field
    expect(currentSessionId()).to.equal(undefined);
    await g.invoke({});
    expect(seen["node"]).to.equal(undefined);
  });

  it("a plain invoke() nested in a session-bound node is not session-bound; a nested unbound withSessions invoke is not either", async () => {
    const inner: unknown[] = [];
    const innerGraph = xGraph(async () => {
      inner.push(currentSessionId());
      return {};
    });
    const outer = xGraph(async () => {
      await innerGraph.invoke({});
      await withSessions(innerGraph, { projection: "full" }).invoke({});
      await withSessions(innerGraph, { projection: "full" }).invoke({}, { sessionId: "inner" });
      inner.push(currentSessionId());
      return {};
    });
    await withSessions(outer, { projection: "full" }).invoke({}, { sessionId: "outer" });
    expect(inner).to.deep.equal([undefined, undefined, "inner", "outer"]);
  });
});
