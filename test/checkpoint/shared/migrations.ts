/** §10.12 state migrations applied on resume, for one backend. */
import { expect } from "chai";
import { END, GraphBuilder, stateSchema } from "../../../src/graph/index.ts";
import {
  CheckpointStateMigrationChainAmbiguousError,
  CheckpointStateMigrationFailedError,
  CheckpointStateMigrationMissingError,
  MigrationRegistry,
  withCheckpointer,
  type Checkpointer,
  type CheckpointRecord,
  type SerializedState,
} from "../../../src/checkpoint/index.ts";
import { chain, rejection, type Backend, type Graph } from "../helpers.ts";
import { record } from "./protocol.ts";

async function seed(cp: Checkpointer, r: Partial<CheckpointRecord>): Promise<string> {
  await cp.save("seeded", record("seeded", { completedPositions: [], ...r }));
  return "seeded";
}

function continueGraph(version: string, fields: Record<string, { type: string; default?: unknown; required?: boolean }>): Graph {
  return chain({ ...fields, completed: { type: "bool", default: false } }, [["continue_node", () => ({ completed: true })]], "g", version);
}

export function migrationsSuite(b: Backend): void {
  describe("state migrations on resume (§10.12)", () => {
    it("migrates an additive field (v1 -> v2) and resumes with the migrated state", async () => {
      const cp = b.make();
      const ran: string[] = [];
      const g = continueGraph("v2", { x: { type: "int", default: 0 }, new_field: { type: "string", default: "v2_default" } });
      const id = await seed(cp, { schemaVersion: "v1", state: { x: 7, completed: false } });
      const migrations = [{ fromVersion: "v1", toVersion: "v2", migrate: (s: SerializedState) => (ran.push("v1->v2"), { ...s, new_field: "migrated" }) }];
      const r = await withCheckpointer(g, cp, { migrations }).resume(id);
      expect(r.state).to.deep.equal({ x: 7, new_field: "migrated", completed: true });
      expect(ran).to.deep.equal(["v1->v2"]);
      // The resumed run saves at the current version.
      expect((await cp.load(r.invocationId))!.schemaVersion).to.equal("v2");
    });

    it("applies a chain in order, each migration's output feeding the next (v1 -> v2 -> v3)", async () => {
      const cp = b.make();
      const ran: string[] = [];
      const g = continueGraph("v3", { x: { type: "int", default: 0 }, v2_field: { type: "string", default: "" }, v3_field: { type: "string", default: "" } });
      const id = await seed(cp, { schemaVersion: "v1", state: { x: 5, completed: false } });
      // Registration order does not matter.
      const reg = new MigrationRegistry()
        .register("v2", "v3", (s) => (ran.push("v2->v3"), { ...s, v3_field: `after ${String(s["v2_field"])}` }))
        .register("v1", "v2", (s) => (ran.push("v1->v2"), { ...s, v2_field: "v2" }));
      const r = await withCheckpointer(g, cp, { migrations: reg }).resume(id);
      expect(ran).to.deep.equal(["v1->v2", "v2->v3"]);
      expect(r.state).to.deep.equal({ x: 5, v2_field: "v2", v3_field: "after v2", completed: true });
    });

    it("takes the shortest chain when a longer one also exists", async () => {
      const cp = b.make();
      const ran: string[] = [];
      const m = (f: string, t: string) => ({ fromVersion: f, toVersion: t, migrate: (s: SerializedState) => (ran.push(`${f}->${t}`), s) });
      const id = await seed(cp, { schemaVersion: "v1", state: {} });
      await withCheckpointer(continueGraph("v3", {}), cp, { migrations: [m("v1", "v2"), m("v2", "v3"), m("v1", "v3")] }).resume(id);
      expect(ran).to.deep.equal(["v1->v3"]);
    });

    it("migrates the state and every parent_states entry (a subgraph-internal save point)", async () => {
      const cp = b.make();
      let calls = 0;
      const inner = chain(
        { inner_x: { type: "int", default: 0 }, new_field: { type: "string", default: "" }, inner_done: { type: "bool", default: false } },
        [["inner_node", () => ({ inner_done: true })]],
        "inner",
        "v2",
      );
      const g = new GraphBuilder(
        stateSchema({
          schemaVersion: "v2",
          fields: { outer_x: { type: "int", default: 0 }, new_field: { type: "string", default: "" }, outer_done: { type: "bool", default: false } },
        }),
      )
        .addNode("outer_pre", async () => ({}))
        .addSubgraph("sub", inner)
        .addNode("outer_post", async () => ({ outer_done: true }))
        .addEdge("outer_pre", "sub")
        .addEdge("sub", "outer_post")
        .addEdge("outer_post", END)
        .setEntry("outer_pre")
        .compile() as unknown as Graph;
      const id = await seed(cp, {
        schemaVersion: "v1",
        state: { inner_x: 3 },
        parentStates: [{ outer_x: 5 }],
        completedPositions: [{ namespace: ["sub"], nodeName: "inner_node", step: 1, attemptIndex: 0 }],
      });
      const migrations = [{ fromVersion: "v1", toVersion: "v2", migrate: (s: SerializedState) => (calls++, { ...s, new_field: "v2_default" }) }];
      const r = await withCheckpointer(g, cp, { migrations }).resume(id);
      expect(calls).to.equal(2);
      expect(r.state).to.deep.equal({ outer_x: 5, new_field: "v2_default", outer_done: true });
    });

    it("does not consult the registry when the versions match (§10.12.3)", async () => {
      const cp = b.make();
      let calls = 0;
      const id = await seed(cp, { schemaVersion: "v2", state: { x: 1 } });
      const migrations = [{ fromVersion: "v1", toVersion: "v2", migrate: (s: SerializedState) => (calls++, s) }];
      await withCheckpointer(continueGraph("v2", { x: { type: "int", default: 0 } }), cp, { migrations }).resume(id);
      expect(calls).to.equal(0);
    });

    it("checkpoint_state_migration_missing with an empty registry (not checkpoint_record_invalid)", async () => {
      const cp = b.make();
      const id = await seed(cp, { schemaVersion: "v1", state: { x: 7 } });
      const e = await rejection(withCheckpointer(continueGraph("v2", { x: { type: "int", default: 0 } }), cp).resume(id));
      expect(e).to.be.instanceOf(CheckpointStateMigrationMissingError);
      expect(e).to.include({
        category: "checkpoint_state_migration_missing",
        transient: false,
        fromVersion: "v1",
        toVersion: "v2",
        registeredMigrationsCount: 0,
        registryDescription: "(none)",
      });
    });

    it("checkpoint_state_migration_missing when the registered migrations do not connect the versions", async () => {
      const cp = b.make();
      const id = await seed(cp, { schemaVersion: "v1", state: { x: 4 } });
      const migrations = [{ fromVersion: "v3", toVersion: "v4", migrate: (s: SerializedState) => s }];
      const e = await rejection(withCheckpointer(continueGraph("v2", { x: { type: "int", default: 0 } }), cp, { migrations }).resume(id));
      expect(e).to.include({ category: "checkpoint_state_migration_missing", fromVersion: "v1", toVersion: "v2", registeredMigrationsCount: 1 });
      expect(e["registryDescription"]).to.equal('"v3" -> "v4"');
    });

    it("checkpoint_state_migration_failed when a migration raises: cause preserved, the rest of the chain skipped", async () => {
      const cp = b.make();
      const id = await seed(cp, { schemaVersion: "v1", state: { x: 0 } });
      const ran: string[] = [];
      const keyError = new RangeError("KeyError: 'legacy_field'");
      const migrations = new MigrationRegistry()
        .register("v1", "v2", () => {
          ran.push("v1->v2");
          throw keyError;
        })
        .register("v2", "v3", (s) => (ran.push("v2->v3"), s));
      const e = await rejection(withCheckpointer(continueGraph("v3", { x: { type: "int", default: 0 } }), cp, { migrations }).resume(id));
      expect(e).to.be.instanceOf(CheckpointStateMigrationFailedError);
      expect(e).to.include({ category: "checkpoint_state_migration_failed", transient: false, fromVersion: "v1", toVersion: "v2" });
      expect(e.cause).to.equal(keyError);
      expect(ran).to.deep.equal(["v1->v2"]);
    });

    it("checkpoint_record_invalid when the migrated state fails the current schema (§10.12.4)", async () => {
      const cp = b.make();
      const id = await seed(cp, { schemaVersion: "v1", state: { x: 9 } });
      const g = continueGraph("v2", { x: { type: "int", default: 0 }, required_v2_field: { type: "string", required: true } });
      const migrations = [{ fromVersion: "v1", toVersion: "v2", migrate: (s: SerializedState) => s }];
      const e = await rejection(withCheckpointer(g, cp, { migrations }).resume(id));
      expect(e["category"]).to.equal("checkpoint_record_invalid");
      expect(e.message).to.contain("required_v2_field");
    });

    it("checkpoint_state_migration_chain_ambiguous: duplicate pairs at registration, two shortest chains before any resume", async () => {
      const cp = b.make();
      const same = (s: SerializedState) => s;
      const dup = await rejection(
        (async () => withCheckpointer(continueGraph("v2", {}), cp, { migrations: [{ fromVersion: "v1", toVersion: "v2", migrate: same }, { fromVersion: "v1", toVersion: "v2", migrate: same }] }))(),
      );
      expect(dup).to.be.instanceOf(CheckpointStateMigrationChainAmbiguousError);
      expect(dup).to.include({ category: "checkpoint_state_migration_chain_ambiguous", fromVersion: "v1", toVersion: "v2", transient: false });
      const diamond = [
        { fromVersion: "v1", toVersion: "v2a", migrate: same },
        { fromVersion: "v1", toVersion: "v2b", migrate: same },
        { fromVersion: "v2a", toVersion: "v3", migrate: same },
        { fromVersion: "v2b", toVersion: "v3", migrate: same },
      ];
      const amb = await rejection((async () => withCheckpointer(continueGraph("v3", {}), cp, { migrations: diamond }))());
      expect(amb).to.include({ category: "checkpoint_state_migration_chain_ambiguous", fromVersion: "v1", toVersion: "v3" });
    });

    it("a backend that cannot migrate routes a version mismatch to checkpoint_record_invalid when migrations are registered", async () => {
      const inner = b.make();
      const cp: Checkpointer = {
        supportsStateMigration: false,
        backendName: "live-objects",
        save: (id, r) => inner.save(id, r),
        load: (id) => inner.load(id),
        list: (f) => inner.list(f),
        delete: (id) => inner.delete(id),
      };
      const id = await seed(cp, { schemaVersion: "v1", state: {} });
      const g = continueGraph("v2", {});
      const migrations = [{ fromVersion: "v1", toVersion: "v2", migrate: (s: SerializedState) => s }];
      expect((await rejection(withCheckpointer(g, cp, { migrations }).resume(id)))["category"]).to.equal("checkpoint_record_invalid");
      expect((await rejection(withCheckpointer(g, cp).resume(id)))["category"]).to.equal("checkpoint_state_migration_missing");
    });

    it("hands migrations a private, mutable copy of the saved state", async () => {
      const cp = b.make();
      const id = await seed(cp, { schemaVersion: "v1", state: { list: [1] } });
      const g = continueGraph("v2", { list: { type: "list<int>", default: [] } });
      const migrations = [
        {
          fromVersion: "v1",
          toVersion: "v2",
          migrate: (s: SerializedState) => {
            (s["list"] as number[]).push(2);
            return s;
          },
        },
      ];
      const r = await withCheckpointer(g, cp, { migrations }).resume(id);
      expect(r.state["list"]).to.deep.equal([1, 2]);
      expect((await cp.load(id))!.state).to.deep.equal({ list: [1] });
    });
  });
}
