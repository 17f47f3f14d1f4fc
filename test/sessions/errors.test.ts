import { expect } from "chai";
import Database from "better-sqlite3";
import {
  defineState,
  END,
  field,
  GraphBuilder,
  GraphInterrupt,
  GraphRuntimeError,
  NodeException,
  stateSchema,
} from "../../src/graph/index.ts";
import {
  defineSessionMigration,
  isSessionError,
  saveSession,
  SESSION_ERROR_CATEGORIES,
  SessionError,
  SessionLoadFailedError,
  SessionSaveFailedError,
  SessionStateMigrationChainAmbiguousError,
  SessionStateMigrationFailedError,
  SessionStateMigrationMissingError,
  SessionWriteConflictError,
  SqliteSessionStore,
  SuspensionPersistenceFailedError,
  withSessions,
} from "../../src/sessions/index.ts";
import { FaultyStore, forEachStore, rejection } from "./helpers.ts";

const S = defineState({ n: field.int().default(0), note: field.any().optional() });

function counting(entered: string[] = []) {
  return new GraphBuilder(S)
    .addNode("inc", async (s) => {
      entered.push("inc");
      return { n: s.n + 1 };
    })
    .addEdge("inc", END)
    .setEntry("inc")
    .compile();
}

/** A harness-style "KeyError". */
class KeyError extends Error {
  override name = "KeyError";
}

function expectSessionError(e: unknown, category: string): void {
  expect(e).to.be.instanceOf(SessionError);
  expect(e).to.be.instanceOf(GraphRuntimeError);
  expect(isSessionError(e)).to.equal(true);
  expect(e).to.include({ category, transient: false });
}

forEachStore("sessions §10 error categories", (kind) => {
  it("session_load_failed: load() raised — cause preserved, the graph never runs, nothing is saved", async () => {
    const faulty = new FaultyStore(kind.make());
    const boom = new Error("disk gone");
    faulty.failLoad = boom;
    const entered: string[] = [];
    const e = await rejection(withSessions(counting(entered), { store: faulty, projection: "full" }).invoke({}, { sessionId: "L" }));
    expectSessionError(e, "session_load_failed");
    expect(e).to.be.instanceOf(SessionLoadFailedError);
    expect(e).to.include({ sessionId: "L" });
    expect(e.cause).to.equal(boom);
    expect(entered).to.deep.equal([]);
    expect(faulty.saves).to.equal(0);
  });

  it("session_load_failed: load() returned something that is not a record", async () => {
    const faulty = new FaultyStore(kind.make());
    faulty.loadResult = { state: "not a mapping" };
    const e = await rejection(withSessions(counting(), { store: faulty, projection: "full" }).invoke({}, { sessionId: "L" }));
    expectSessionError(e, "session_load_failed");
    expect(e.cause).to.be.instanceOf(TypeError);
  });

  it("session_load_failed: a record whose state cannot be copied for migration", async () => {
    const faulty = new FaultyStore(kind.make());
    faulty.loadResult = { sessionId: "L", state: { f: () => 1 }, schemaVersion: "v0", createdAt: new Date(), updatedAt: new Date(), version: 1 };
    const e = await rejection(
      withSessions(counting(), { store: faulty, projection: "full", migrations: [defineSessionMigration("v0", "", (s) => s)] }).invoke({}, { sessionId: "L" }),
    );
    expectSessionError(e, "session_load_failed");
  });

  it("session_save_failed at END: post-completion — the result is carried, not rolled back; the store keeps the prior state", async () => {
    const inner = kind.make();
    await inner.save("S", { state: { n: 5 } });
    const faulty = new FaultyStore(inner);
    const boom = new Error("write failed");
    faulty.failSave = boom;
    const g = withSessions(counting(), { store: faulty, projection: "full" });
    const e = await rejection(g.invoke({}, { sessionId: "S" }));
    expectSessionError(e, "session_save_failed");
    const err = e as SessionSaveFailedError;
    expect(err.savePoint).to.equal("completed");
    expect(err.cause).to.equal(boom);
    expect(err.result!.outcome).to.equal("completed");
    expect(err.result!.state).to.deep.equal({ n: 6 });
    expect(err.result).to.deep.include({ sessionId: "S", loadedSessionState: { n: 5 }, savedSession: null });
    faulty.failSave = undefined;
    const next = await g.invoke({}, { sessionId: "S" });
    expect(next.loadedSessionState).to.deep.equal({ n: 5 }); // the prior session state
  });

  it("session_save_failed: a non-JSON-native session state fails the save (TypeError cause)", async () => {
    const store = kind.make();
    const graph = new GraphBuilder(S).addNode("n", async () => ({ note: new Map() })).addEdge("n", END).setEntry("n").compile();
    const e = await rejection(withSessions(graph, { store, projection: "full" }).invoke({}, { sessionId: "J" }));
    expectSessionError(e, "session_save_failed");
    expect(e.cause).to.be.instanceOf(TypeError);
    expect(await store.load("J")).to.equal(null);
  });

  it("session_save_failed mid-invoke: raised at the save call — a node may swallow it, or propagate it as node_exception", async () => {
    const faulty = new FaultyStore(kind.make());
    faulty.failSave = new Error("flaky");
    const caught: unknown[] = [];
    const swallowing = new GraphBuilder(S)
      .addNode("n", async () => {
        try {
          await saveSession({ update: { n: 1 } });
        } catch (e) {
          caught.push(e);
        }
        return { n: 1 };
      })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const r = await withSessions(swallowing, { store: faulty, projection: "full", autoSave: false }).invoke({}, { sessionId: "M" });
    expect(r.state).to.deep.equal({ n: 1 });
    expect(caught).to.have.length(1);
    expectSessionError(caught[0], "session_save_failed");
    expect((caught[0] as SessionSaveFailedError).savePoint).to.equal("explicit");

    const propagating = new GraphBuilder(S)
      .addNode("n", async () => {
        await saveSession();
        return {};
      })
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const e = await rejection(withSessions(propagating, { store: faulty, projection: "full" }).invoke({}, { sessionId: "M" }));
    expect(e).to.be.instanceOf(NodeException);
    expect(e).to.include({ category: "node_exception", nodeName: "n" });
    expectSessionError(e.cause, "session_save_failed");
  });

  it("session_save_failed from an explicit save() outside an invocation", async () => {
    const faulty = new FaultyStore(kind.make());
    faulty.failSave = new Error("nope");
    const e = await rejection(withSessions(counting(), { store: faulty, projection: "full" }).save("X", { n: 1 }));
    expectSessionError(e, "session_save_failed");
    expect((e as SessionSaveFailedError).savePoint).to.equal("explicit");
  });

  it("session_state_migration_missing: carries from/to, the registered count and the registry description; the graph never runs", async () => {
    const store = kind.make();
    await store.save("s8", { state: { n: 1 }, schemaVersion: "v1" });
    const entered: string[] = [];
    const graph = new GraphBuilder(defineState({ n: field.int().default(0) }, { schemaVersion: "v3" }))
      .addNode("n", async () => (entered.push("n"), {}))
      .addEdge("n", END)
      .setEntry("n")
      .compile();
    const none = await rejection(withSessions(graph, { store, projection: "full" }).invoke({}, { sessionId: "s8" }));
    expectSessionError(none, "session_state_migration_missing");
    expect(none).to.be.instanceOf(SessionStateMigrationMissingError);
    expect(none).to.include({ fromVersion: "v1", toVersion: "v3", registeredMigrationsCount: 0, registryDescription: "(none)", sessionId: "s8" });
    const some = await rejection(
      withSessions(graph, { store, projection: "full", migrations: [defineSessionMigration("v2", "v3", (s) => s)] }).invoke({}, { sessionId: "s8" }),
    );
    expect(some).to.include({ category: "session_state_migration_missing", registeredMigrationsCount: 1, registryDescription: '"v2" -> "v3"' });
    // an unversioned record under a versioned graph is a mismatch too ("" -> "v3")
    await store.save("legacy", { state: { n: 1 } });
    const legacy = await rejection(withSessions(graph, { store, projection: "full" }).invoke({}, { sessionId: "legacy" }));
    expect(legacy).to.include({ category: "session_state_migration_missing", fromVersion: "", toVersion: "v3" });
    expect(entered).to.deep.equal([]);
  });

  it("session_state_migration_chain_ambiguous: a duplicate pair or two shortest chains, with the (from, to) pair", () => {
    const store = kind.make();
    const dup = [defineSessionMigration("v1", "v2", (s) => s), defineSessionMigration("v1", "v2", (s) => s)];
    let e: unknown;
    try {
      withSessions(counting(), { store, projection: "full", migrations: dup });
    } catch (err) {
      e = err;
    }
    expectSessionError(e, "session_state_migration_chain_ambiguous");
    expect(e).to.be.instanceOf(SessionStateMigrationChainAmbiguousError);
    expect(e).to.include({ fromVersion: "v1", toVersion: "v2", sessionId: undefined });
  });

  it("fixture 013 session_state_migration_failed: a raising migration — (from, to), cause kept, later migrations and the graph never run", async () => {
    const store = kind.make();
    await store.save("s13", { state: { value: 0 }, schemaVersion: "v1" });
    const entered: string[] = [];
    const later: string[] = [];
    const graph = new GraphBuilder(stateSchema({ schemaVersion: "v3", fields: { value: { type: "int", default: 0 } } }))
      .addNode("noop", async () => (entered.push("noop"), {}))
      .addEdge("noop", END)
      .setEntry("noop")
      .compile();
    const keyError = new KeyError("'missing_key'");
    const g = withSessions(graph, {
      store,
      projection: "full",
      migrations: [
        defineSessionMigration("v1", "v2", () => {
          throw keyError;
        }),
        defineSessionMigration("v2", "v3", (s) => (later.push("v2->v3"), s)),
      ],
    });
    store.resetStats();
    const e = await rejection(g.invoke({}, { sessionId: "s13" }));
    expectSessionError(e, "session_state_migration_failed");
    expect(e).to.be.instanceOf(SessionStateMigrationFailedError);
    expect(e).to.include({ fromVersion: "v1", toVersion: "v2", sessionId: "s13" });
    expect(e.cause).to.equal(keyError);
    for (const c of ["session_load_failed", "session_state_migration_missing", "session_state_migration_chain_ambiguous"]) {
      expect(e.category).to.not.equal(c);
    }
    expect(entered).to.deep.equal([]);
    expect(later).to.deep.equal([]);
    expect(store.stats()).to.deep.include({ load: 1, save: 0 });
    expect((await store.load("s13"))!.schemaVersion).to.equal("v1");
  });

  it("session_write_conflict: an explicit save with a stale expectedVersion", async () => {
    const store = kind.make();
    const g = withSessions(counting(), { store, projection: "full" });
    await g.save("W", { n: 1 });
    await g.save("W", { n: 2 });
    const e = await rejection(g.save("W", { n: 3 }, { expectedVersion: 1 }));
    expectSessionError(e, "session_write_conflict");
    expect(e).to.be.instanceOf(SessionWriteConflictError);
    expect(e).to.include({ expectedVersion: 1, actualVersion: 2, sessionId: "W" });
  });

  it("suspension §8.6: a failing save at suspend is suspension_persistence_failed — the outcome is errored", async () => {
    const faulty = new FaultyStore(kind.make());
    const boom = new Error("down");
    faulty.failSave = boom;
    const graph = new GraphBuilder(S)
      .addNode("a", async () => ({ n: 1 }))
      .addNode("wait", async () => {
        throw new GraphInterrupt({ signalId: "s" });
      })
      .addEdge("a", "wait")
      .addEdge("wait", END)
      .setEntry("a")
      .compile();
    const e = await rejection(withSessions(graph, { store: faulty, projection: "full" }).invoke({}, { sessionId: "P" }));
    expect(e).to.be.instanceOf(SuspensionPersistenceFailedError);
    expect(e).to.be.instanceOf(GraphRuntimeError);
    const err = e as SuspensionPersistenceFailedError;
    expect(err).to.include({ category: "suspension_persistence_failed", sessionId: "P", nodeName: "wait" });
    expect(err.suspended.outcome).to.equal("suspended");
    expect(err.suspended.state).to.deep.equal({ n: 1 });
    expectSessionError(err.cause, "session_save_failed");
    expect((err.cause as SessionSaveFailedError).savePoint).to.equal("suspended");
    expect((err.cause as Error).cause).to.equal(boom);
  });
});

describe("sessions §10 categories (inventory)", () => {
  it("exposes exactly the six canonical categories", () => {
    expect(SESSION_ERROR_CATEGORIES).to.deep.equal([
      "session_load_failed",
      "session_save_failed",
      "session_state_migration_missing",
      "session_state_migration_chain_ambiguous",
      "session_state_migration_failed",
      "session_write_conflict",
    ]);
  });

  it("SqliteSessionStore: a corrupt stored row is session_load_failed", async () => {
    const db = new Database(":memory:");
    const store = new SqliteSessionStore(db);
    await store.save("c", { state: { n: 1 } });
    db.prepare("UPDATE openarmature_sessions SET state = ? WHERE session_id = ?").run("{not json", "c");
    const e = await rejection(withSessions(counting(), { store, projection: "full" }).invoke({}, { sessionId: "c" }));
    expectSessionError(e, "session_load_failed");
    expect(e.cause).to.be.instanceOf(SyntaxError);
    store.close(); // a passed-in Database stays open
    expect(db.open).to.equal(true);
    db.close();
  });
});
