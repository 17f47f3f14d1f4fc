import { expect } from "chai";
import { defineState, END, field, GraphBuilder, stateSchema } from "../../src/graph/index.ts";
import {
  defineSessionMigration,
  SessionMigrationRegistry,
  SessionStateMigrationChainAmbiguousError,
  SessionStateMigrationFailedError,
  SessionStateMigrationMissingError,
  withSessions,
  type SessionMigration,
} from "../../src/sessions/index.ts";
import { forEachStore, rejection } from "./helpers.ts";

const id = (s: Record<string, unknown>): Record<string, unknown> => s;

describe("sessions §7 SessionMigrationRegistry", () => {
  it("resolves the shortest chain by version pair, not by registration order", () => {
    const r = new SessionMigrationRegistry()
      .register("v3", "v4", id)
      .register("v1", "v2", id)
      .register("v2", "v3", id)
      .register("v1", "v3", id); // shortcut
    expect(r.resolve("v1", "v4").map((m) => `${m.fromVersion}->${m.toVersion}`)).to.deep.equal(["v1->v3", "v3->v4"]);
    expect(r.resolve("v2", "v4").map((m) => `${m.fromVersion}->${m.toVersion}`)).to.deep.equal(["v2->v3", "v3->v4"]);
    expect(r.resolve("v4", "v4")).to.deep.equal([]);
    expect(r.size).to.equal(4);
    expect(r.describe()).to.equal('"v1" -> "v2", "v1" -> "v3", "v2" -> "v3", "v3" -> "v4"');
    expect(new SessionMigrationRegistry().describe()).to.equal("(none)");
  });

  it("a duplicate (from, to) registration is session_state_migration_chain_ambiguous at registration", () => {
    const r = new SessionMigrationRegistry().register("v1", "v2", id);
    let e: unknown;
    try {
      r.register(defineSessionMigration("v1", "v2", id));
    } catch (err) {
      e = err;
    }
    expect(e).to.be.instanceOf(SessionStateMigrationChainAmbiguousError);
    expect(e).to.include({ category: "session_state_migration_chain_ambiguous", fromVersion: "v1", toVersion: "v2" });
  });

  it("two distinct shortest chains are ambiguous at resolution and in checkUnambiguous()", () => {
    const r = new SessionMigrationRegistry([
      defineSessionMigration("v1", "v2a", id),
      defineSessionMigration("v1", "v2b", id),
      defineSessionMigration("v2a", "v3", id),
      defineSessionMigration("v2b", "v3", id),
    ]);
    expect(() => r.resolve("v1", "v3")).to.throw(SessionStateMigrationChainAmbiguousError).with.property("fromVersion", "v1");
    expect(() => r.checkUnambiguous()).to.throw(SessionStateMigrationChainAmbiguousError).that.includes({ fromVersion: "v1", toVersion: "v3" });
    expect(r.resolve("v2a", "v3")).to.have.length(1);
  });

  it("no chain is session_state_migration_missing with the §10 surface", () => {
    const r = new SessionMigrationRegistry().register("v0", "v1", id);
    expect(() => r.resolve("v1", "v2"))
      .to.throw(SessionStateMigrationMissingError)
      .that.includes({ fromVersion: "v1", toVersion: "v2", registeredMigrationsCount: 1, registryDescription: '"v0" -> "v1"' });
  });

  it("rejects malformed migrations", () => {
    const r = new SessionMigrationRegistry();
    expect(() => r.register("v1", "v1", id)).to.throw(RangeError);
    expect(() => r.register({ fromVersion: 1, toVersion: "v2", migrate: id } as unknown as SessionMigration)).to.throw(TypeError);
    expect(() => r.register("v1", "v2", "nope" as unknown as typeof id)).to.throw(TypeError);
  });

  it("apply(): runs in order on a private copy; async migrations are awaited; a raise stops the chain", async () => {
    const input = { n: 1, list: [1] };
    const calls: string[] = [];
    const chain = [
      defineSessionMigration("v1", "v2", (s) => {
        calls.push("v1->v2");
        (s["list"] as number[]).push(2);
        return { ...s, n: (s["n"] as number) + 1 };
      }),
      defineSessionMigration("v2", "v3", async (s) => {
        calls.push("v2->v3");
        return { ...s, n: (s["n"] as number) * 10 };
      }),
    ];
    expect(await SessionMigrationRegistry.apply(chain, input)).to.deep.equal({ n: 20, list: [1, 2] });
    expect(input).to.deep.equal({ n: 1, list: [1] });
    calls.length = 0;
    const failing = [
      defineSessionMigration("v1", "v2", () => {
        calls.push("boom");
        throw new RangeError("bad");
      }),
      chain[1]!,
    ];
    const e = await rejection(SessionMigrationRegistry.apply(failing, input));
    expect(e).to.be.instanceOf(SessionStateMigrationFailedError);
    expect(e.cause).to.be.instanceOf(RangeError);
    expect(calls).to.deep.equal(["boom"]);
    const notMapping = await rejection(SessionMigrationRegistry.apply([defineSessionMigration("v1", "v2", () => [] as unknown as Record<string, unknown>)], {}));
    expect(notMapping).to.include({ category: "session_state_migration_failed", fromVersion: "v1", toVersion: "v2" });
    expect(notMapping.cause).to.be.instanceOf(TypeError);
  });
});

forEachStore("sessions §7 migration on load", (kind) => {
  function valueGraph(version: string, pre: unknown[] = []) {
    return new GraphBuilder(stateSchema({ schemaVersion: version, fields: { value: { type: "int", default: 0 } } }))
      .addNode("noop", async (s) => {
        pre.push({ ...s });
        return {};
      })
      .addEdge("noop", END)
      .setEntry("noop")
      .compile();
  }

  it("fixture 007: a registered migration runs once, before the merge; the save is at the current version", async () => {
    const store = kind.make();
    await store.save("s7", { state: { value: 1 }, schemaVersion: "v1" });
    let runs = 0;
    const pre: unknown[] = [];
    const g = withSessions(valueGraph("v2", pre), {
      store,
      projection: "full",
      migrations: [
        defineSessionMigration("v1", "v2", (s) => {
          runs++;
          return { ...s, value: (s["value"] as number) + 10 };
        }),
      ],
    });
    expect(g.schemaVersion).to.equal("v2");
    const r = await g.invoke({}, { sessionId: "s7" });
    expect(runs).to.equal(1);
    expect(r.migrationsRun).to.deep.equal([{ fromVersion: "v1", toVersion: "v2" }]);
    expect(pre).to.deep.equal([{ value: 11 }]);
    expect(r.loadedSessionState).to.deep.equal({ value: 11 });
    expect(r.loadedRecord!.schemaVersion).to.equal("v1");
    expect(r.state).to.deep.equal({ value: 11 });
    const saved = (await store.load("s7"))!;
    expect(saved.schemaVersion).to.equal("v2");
    expect(saved.state).to.deep.equal({ value: 11 });
    // the next invoke is at the current version: the registry is not consulted again
    const r2 = await g.invoke({}, { sessionId: "s7" });
    expect(runs).to.equal(1);
    expect(r2.migrationsRun).to.deep.equal([]);
  });

  it("multi-step chains apply in order; migration runs on the record's dict form, before the projection", async () => {
    const store = kind.make();
    await store.save("c", { state: { name: "Ada", legacy: true }, schemaVersion: "v1" });
    const S = defineState({ title: field.string().default(""), tags: field.list(field.string()).default([]) }, { schemaVersion: "v3" });
    const graph = new GraphBuilder(S).addNode("n", async () => ({})).addEdge("n", END).setEntry("n").compile();
    const migrations = new SessionMigrationRegistry()
      .register("v2", "v3", ({ name, ...rest }) => ({ ...rest, title: name }))
      .register("v1", "v2", ({ legacy, ...rest }) => ({ ...rest, tags: legacy ? ["legacy"] : [] }));
    const g = withSessions(graph, { store, projection: { fields: ["title", "tags"] }, migrations });
    const r = await g.invoke({}, { sessionId: "c" });
    expect(r.migrationsRun.map((m) => `${m.fromVersion}->${m.toVersion}`)).to.deep.equal(["v1->v2", "v2->v3"]);
    expect(r.state).to.deep.equal({ title: "Ada", tags: ["legacy"] });
    const loaded = await g.load("c");
    expect(loaded!.state).to.deep.equal({ title: "Ada", tags: ["legacy"] });
    expect(loaded!.schemaVersion).to.equal("v3");
  });

  it("the schemaVersion option overrides the state schema's", async () => {
    const store = kind.make();
    await store.save("o", { state: { value: 5 }, schemaVersion: "s1" });
    const g = withSessions(valueGraph("graph-v9"), {
      store,
      projection: "full",
      schemaVersion: "s2",
      migrations: [defineSessionMigration("s1", "s2", (s) => ({ value: (s["value"] as number) * 2 }))],
    });
    const r = await g.invoke({}, { sessionId: "o" });
    expect(r.state).to.deep.equal({ value: 10 });
    expect((await store.load("o"))!.schemaVersion).to.equal("s2");
  });

  it("an ambiguous registry is rejected by withSessions() before any invoke", () => {
    const store = kind.make();
    const diamond = [
      defineSessionMigration("v1", "a", id),
      defineSessionMigration("v1", "b", id),
      defineSessionMigration("a", "v2", id),
      defineSessionMigration("b", "v2", id),
    ];
    expect(() => withSessions(valueGraph("v2"), { store, projection: "full", migrations: diamond }))
      .to.throw(SessionStateMigrationChainAmbiguousError)
      .that.includes({ fromVersion: "v1", toVersion: "v2" });
    expect(store.stats().load).to.equal(0);
  });
});
