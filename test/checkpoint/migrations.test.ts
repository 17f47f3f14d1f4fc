/** The migration registry: registration, chain resolution, ambiguity, application (§10.12). */
import { expect } from "chai";
import {
  CheckpointRecordInvalidError,
  CheckpointStateMigrationChainAmbiguousError,
  CheckpointStateMigrationFailedError,
  CheckpointStateMigrationMissingError,
  defineMigration,
  MigrationRegistry,
  type SerializedState,
} from "../../src/checkpoint/index.ts";

const id = (s: SerializedState): SerializedState => s;

function pairs(reg: MigrationRegistry, from: string, to: string): string[] {
  return reg.resolve(from, to).map((m) => `${m.fromVersion}->${m.toVersion}`);
}

function thrown<T extends Error>(fn: () => unknown, type: new (...args: never[]) => T): T {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(type);
    return e as T;
  }
  expect.fail(`expected ${type.name}`);
}

describe("checkpoint/migrations: MigrationRegistry (§10.12)", () => {
  it("registers by object or by (from, to, fn), ordered by version pair", () => {
    const reg = new MigrationRegistry([defineMigration("b", "c", id)]).register("a", "b", id).register({ fromVersion: "a", toVersion: "z", migrate: id });
    expect(reg.size).to.equal(3);
    expect(reg.migrations.map((m) => `${m.fromVersion}->${m.toVersion}`)).to.deep.equal(["a->b", "a->z", "b->c"]);
    expect(reg.describe()).to.equal('"a" -> "b", "a" -> "z", "b" -> "c"');
    expect(new MigrationRegistry().describe()).to.equal("(none)");
  });

  it("rejects a duplicate (from, to) pair at registration with chain_ambiguous carrying the pair", () => {
    const reg = new MigrationRegistry().register("v1", "v2", id);
    const e = thrown(() => reg.register("v1", "v2", (s) => ({ ...s })), CheckpointStateMigrationChainAmbiguousError);
    expect(e).to.include({ category: "checkpoint_state_migration_chain_ambiguous", fromVersion: "v1", toVersion: "v2" });
    expect(reg.size).to.equal(1);
  });

  it("rejects malformed migrations", () => {
    expect(() => new MigrationRegistry().register("v1", "v1", id)).to.throw(RangeError);
    expect(() => new MigrationRegistry().register({ fromVersion: 1 as unknown as string, toVersion: "v2", migrate: id })).to.throw(TypeError);
    expect(() => new MigrationRegistry().register("v1", "v2", "nope" as unknown as typeof id)).to.throw(TypeError);
  });

  it("resolves the shortest chain regardless of registration order; equal versions need no chain", () => {
    const reg = new MigrationRegistry().register("v3", "v4", id).register("v2", "v3", id).register("v1", "v2", id).register("v2", "v4", id);
    expect(pairs(reg, "v1", "v4")).to.deep.equal(["v1->v2", "v2->v4"]);
    expect(pairs(reg, "v1", "v3")).to.deep.equal(["v1->v2", "v2->v3"]);
    expect(pairs(reg, "v4", "v4")).to.deep.equal([]);
    reg.checkUnambiguous();
  });

  it("missing: no path, or a path only in the other direction", () => {
    const reg = new MigrationRegistry().register("v1", "v2", id);
    const e = thrown(() => reg.resolve("v2", "v1"), CheckpointStateMigrationMissingError);
    expect(e).to.include({ fromVersion: "v2", toVersion: "v1", registeredMigrationsCount: 1, registryDescription: '"v1" -> "v2"' });
    thrown(() => reg.resolve("v0", "v2"), CheckpointStateMigrationMissingError);
  });

  it("ambiguous: two distinct shortest chains, detected at resolution and by the whole-registry scan", () => {
    const reg = new MigrationRegistry()
      .register("v1", "v2a", id)
      .register("v1", "v2b", id)
      .register("v2a", "v3", id)
      .register("v2b", "v3", id)
      .register("v3", "v4", id);
    const e = thrown(() => reg.resolve("v1", "v4"), CheckpointStateMigrationChainAmbiguousError);
    expect(e).to.include({ fromVersion: "v1", toVersion: "v4" });
    expect(pairs(reg, "v2a", "v4")).to.deep.equal(["v2a->v3", "v3->v4"]); // unaffected pairs still resolve
    const scan = thrown(() => reg.checkUnambiguous(), CheckpointStateMigrationChainAmbiguousError);
    expect(scan).to.include({ fromVersion: "v1", toVersion: "v3" });
    // A direct shortcut makes the shortest chain unique again.
    reg.register("v1", "v3", id);
    reg.checkUnambiguous();
    expect(pairs(reg, "v1", "v4")).to.deep.equal(["v1->v3", "v3->v4"]);
  });

  it("a longer alternative does not make a chain ambiguous", () => {
    const reg = new MigrationRegistry().register("a", "b", id).register("b", "c", id).register("a", "c", id).register("c", "d", id);
    reg.checkUnambiguous();
    expect(pairs(reg, "a", "d")).to.deep.equal(["a->c", "c->d"]);
  });

  it("apply runs the chain in order on a private copy, awaiting async migrations", async () => {
    const reg = new MigrationRegistry()
      .register("v1", "v2", async (s) => ({ ...s, trail: [...(s["trail"] as string[]), "v2"] }))
      .register("v2", "v3", (s) => {
        (s["trail"] as string[]).push("v3");
        return s;
      });
    const input = Object.freeze({ trail: Object.freeze(["v1"]) });
    const out = await MigrationRegistry.apply(reg.resolve("v1", "v3"), input);
    expect(out).to.deep.equal({ trail: ["v1", "v2", "v3"] });
    expect(input).to.deep.equal({ trail: ["v1"] });
    expect(await MigrationRegistry.apply([], input)).to.equal(input);
  });

  it("apply wraps a raising migration as migration_failed (cause kept, chain abandoned) and rejects non-mapping output", async () => {
    let second = 0;
    const boom = new Error("boom");
    const reg = new MigrationRegistry()
      .register("v1", "v2", () => {
        throw boom;
      })
      .register("v2", "v3", (s) => (second++, s));
    const e = await MigrationRegistry.apply(reg.resolve("v1", "v3"), {}).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).to.be.instanceOf(CheckpointStateMigrationFailedError);
    expect(e).to.include({ fromVersion: "v1", toVersion: "v2", cause: boom });
    expect(second).to.equal(0);
    const bad = new MigrationRegistry().register("v1", "v2", () => [1] as unknown as SerializedState);
    const e2 = await MigrationRegistry.apply(bad.resolve("v1", "v2"), {}).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e2).to.be.instanceOf(CheckpointRecordInvalidError);
  });
});
