import { expect } from "chai";
import { SessionInvalidIdError, SessionWriteConflictError } from "../../src/sessions/index.ts";
import { forEachStore, rejection, sleep } from "./helpers.ts";

forEachStore("sessions §5 SessionStore protocol", (kind) => {
  it("§5.1 load returns null when no record exists", async () => {
    const store = kind.make();
    expect(await store.load("nobody")).to.equal(null);
  });

  it("§5.2 save then load round-trips state, schemaVersion and metadata", async () => {
    const store = kind.make();
    const before = Date.now();
    const res = await store.save("s1", { state: { history: ["x"], n: 1, nested: { ok: true, none: null } }, schemaVersion: "v2" });
    const r = await store.load("s1");
    expect(r).to.not.equal(null);
    expect(r!.sessionId).to.equal("s1");
    expect(r!.state).to.deep.equal({ history: ["x"], n: 1, nested: { ok: true, none: null } });
    expect(r!.schemaVersion).to.equal("v2");
    expect(r!.version).to.equal(1);
    expect(res).to.deep.include({ version: 1 });
    expect(r!.createdAt).to.be.instanceOf(Date);
    expect(r!.createdAt.getTime()).to.be.at.least(before);
    expect(r!.updatedAt.getTime()).to.equal(r!.createdAt.getTime());
  });

  it("§5.2 save overwrites (last-write-wins), keeps createdAt, bumps version", async () => {
    const store = kind.make();
    await store.save("s1", { state: { a: 1 } });
    const first = (await store.load("s1"))!;
    await sleep(3);
    await store.save("s1", { state: { b: 2 }, schemaVersion: "v9" });
    const r = (await store.load("s1"))!;
    expect(r.state).to.deep.equal({ b: 2 });
    expect(r.schemaVersion).to.equal("v9");
    expect(r.version).to.equal(2);
    expect(r.createdAt.getTime()).to.equal(first.createdAt.getTime());
    expect(r.updatedAt.getTime()).to.be.greaterThan(first.updatedAt.getTime());
  });

  it("schemaVersion defaults to the empty string (undeclared)", async () => {
    const store = kind.make();
    await store.save("s1", { state: {} });
    expect((await store.load("s1"))!.schemaVersion).to.equal("");
  });

  it("a loaded state is a private copy: mutating it, or the saved object, does not affect the store", async () => {
    const store = kind.make();
    const saved = { list: [1, 2] };
    await store.save("s1", { state: saved });
    saved.list.push(3);
    const a = (await store.load("s1"))!;
    (a.state["list"] as number[]).push(99);
    expect((await store.load("s1"))!.state).to.deep.equal({ list: [1, 2] });
  });

  it("only JSON-native state is accepted (same rule for both stores); undefined members are dropped", async () => {
    const store = kind.make();
    for (const bad of [{ d: new Date() }, { n: Number.NaN }, { f: () => 1 }, { b: 1n }, { m: new Map() }]) {
      const e = await rejection(store.save("bad", { state: bad as Record<string, unknown> }));
      expect(e).to.be.instanceOf(TypeError);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    expect(await rejection(store.save("bad", { state: cyclic }))).to.be.instanceOf(TypeError);
    expect(await store.load("bad")).to.equal(null);
    await store.save("ok", { state: { a: undefined, b: 1 } });
    expect((await store.load("ok"))!.state).to.deep.equal({ b: 1 });
  });

  it("rejects an empty or non-string session id with session_invalid_id", async () => {
    const store = kind.make();
    for (const e of [await rejection(store.load("")), await rejection(store.save(42 as unknown as string, { state: {} })), await rejection(store.delete(null as unknown as string))]) {
      expect(e).to.be.instanceOf(SessionInvalidIdError);
      expect((e as SessionInvalidIdError).category).to.equal("session_invalid_id");
    }
  });

  it("§5.3 delete removes the record and is idempotent", async () => {
    const store = kind.make();
    await store.save("s1", { state: { a: 1 } });
    await store.delete("s1");
    expect(await store.load("s1")).to.equal(null);
    await store.delete("s1");
    await store.delete("never-existed");
    await store.save("s1", { state: { a: 2 } });
    expect((await store.load("s1"))!.version).to.equal(1);
  });

  it("§5.4 list with no filter returns every session (summaries, no state), ordered by id", async () => {
    const store = kind.make();
    expect(await store.list()).to.deep.equal([]);
    for (const id of ["b", "a", "c"]) await store.save(id, { state: { secret: id }, schemaVersion: id === "c" ? "v2" : "v1" });
    const all = await store.list();
    expect(all.map((s) => s.sessionId)).to.deep.equal(["a", "b", "c"]);
    expect(all[0]).to.have.all.keys("sessionId", "schemaVersion", "createdAt", "updatedAt", "version");
    expect(all[2]!.schemaVersion).to.equal("v2");
  });

  it("§5.4 list filters: schemaVersion, updatedAfter, createdAfter, offset/limit", async () => {
    const store = kind.make();
    await store.save("old", { state: {}, schemaVersion: "v1" });
    await sleep(5);
    const mark = new Date();
    await sleep(5);
    await store.save("new", { state: {}, schemaVersion: "v2" });
    await store.save("old", { state: {}, schemaVersion: "v1" }); // updated, but created before mark
    expect((await store.list({ schemaVersion: "v2" })).map((s) => s.sessionId)).to.deep.equal(["new"]);
    expect((await store.list({ updatedAfter: mark })).map((s) => s.sessionId)).to.deep.equal(["new", "old"]);
    expect((await store.list({ createdAfter: mark })).map((s) => s.sessionId)).to.deep.equal(["new"]);
    expect((await store.list({ limit: 1 })).map((s) => s.sessionId)).to.deep.equal(["new"]);
    expect((await store.list({ offset: 1 })).map((s) => s.sessionId)).to.deep.equal(["old"]);
    expect((await store.list({ offset: 1, limit: 5 })).map((s) => s.sessionId)).to.deep.equal(["old"]);
    expect(await rejection(store.list({ limit: -1 }))).to.be.instanceOf(RangeError);
  });

  it("§8.2 expectedVersion: matching saves succeed, a mismatch raises session_write_conflict and writes nothing", async () => {
    const store = kind.make();
    await store.save("s1", { state: { n: 1 } }, { expectedVersion: 0 });
    await store.save("s1", { state: { n: 2 } }, { expectedVersion: 1 });
    const e = await rejection(store.save("s1", { state: { n: 3 } }, { expectedVersion: 1 }));
    expect(e).to.be.instanceOf(SessionWriteConflictError);
    expect(e.category).to.equal("session_write_conflict");
    expect(e).to.include({ sessionId: "s1", expectedVersion: 1, actualVersion: 2 });
    const fresh = await rejection(store.save("s2", { state: {} }, { expectedVersion: 3 }));
    expect(fresh).to.include({ category: "session_write_conflict", actualVersion: 0 });
    expect((await store.load("s1"))!.state).to.deep.equal({ n: 2 });
    expect(await store.load("s2")).to.equal(null);
  });

  it("stats() counts every call received; resetStats() zeroes them", async () => {
    const store = kind.make();
    expect(store.stats()).to.deep.equal({ load: 0, save: 0, delete: 0, list: 0 });
    await store.load("a");
    await store.save("a", { state: {} });
    await store.save("a", { state: {} });
    await store.delete("a");
    await store.list();
    await rejection(store.save("a", { state: { d: new Date() } as Record<string, unknown> }));
    expect(store.stats()).to.deep.equal({ load: 1, save: 3, delete: 1, list: 1 });
    store.resetStats();
    expect(store.stats()).to.deep.equal({ load: 0, save: 0, delete: 0, list: 0 });
  });
});
