/**
 * PostgresCheckpointer's saves on a real server: one parameterized statement per save when the
 * checkpointer continues its own record (the row's writer token gates the parts' writes), a
 * locked transaction otherwise — and either way the record loads back exactly as saved, whatever
 * the plan wrote (entries added, changed, reordered, removed; positions rewound), whichever
 * checkpointer wrote last, and with saves of several checkpointers racing on one invocation.
 */
import { expect } from "chai";
import { PostgresCheckpointer, type PostgresPool } from "../../src/postgres/index.ts";
import type { CheckpointRecord, FanOutInstanceProgress, FanOutProgressEntry, NodePosition } from "../../src/checkpoint/index.ts";
import { freshTable, sharedPool } from "../../harness/postgres-server.ts";
import { record } from "../checkpoint/shared/protocol.ts";

function instance(state: FanOutInstanceProgress["state"], result?: number): FanOutInstanceProgress {
  return Object.freeze(state === "completed" ? { state, result, resultIsError: false } : { state, resultIsError: false });
}

function entry(node: string, instances: FanOutInstanceProgress[]): FanOutProgressEntry {
  return Object.freeze({ namespace: Object.freeze([]), fanOutNodeName: node, instanceCount: instances.length, instances: Object.freeze(instances) });
}

function positions(n: number, tag = "p"): NodePosition[] {
  return Array.from({ length: n }, (_, i) => Object.freeze({ namespace: [], nodeName: `${tag}${i}`, step: i, attemptIndex: 0 }));
}

/** The real shared pool, counting what a store asks of it. */
function counting(): PostgresPool & { queries: number; connects: number } {
  const pool = sharedPool();
  const c = {
    queries: 0,
    connects: 0,
    query: (text: string, values?: unknown[]) => {
      c.queries++;
      return pool.query(text, values);
    },
    connect: () => {
      c.connects++;
      return pool.connect();
    },
    end: async () => {},
  };
  return c;
}

function same(loaded: CheckpointRecord | undefined, r: CheckpointRecord): void {
  expect(loaded).not.to.equal(undefined);
  expect(loaded!.state).to.deep.equal(r.state);
  expect(loaded!.lastSavedAt).to.equal(r.lastSavedAt);
  expect(loaded!.completedPositions).to.deep.equal(r.completedPositions);
  expect(loaded!.fanOutProgress ?? []).to.deep.equal(r.fanOutProgress ?? []);
}

describe("postgres: one statement per save, and what it writes (real server)", function () {
  this.timeout(60_000);

  it("a save continuing this checkpointer's record is one statement (one round trip, no transaction)", async () => {
    const pool = counting();
    const cp = new PostgresCheckpointer(pool, { table: freshTable("cp_rt") });
    await cp.ready(); // creating the tables: a transaction of its own
    pool.queries = pool.connects = 0;
    const state = Object.freeze({ n: 1 });
    await cp.save("i", record("i", { state, completedPositions: positions(1) }));
    const afterFirst = { queries: pool.queries, connects: pool.connects };
    expect(afterFirst).to.deep.equal({ queries: 1, connects: 0 }); // a first save: one insert
    for (let k = 2; k <= 6; k++) await cp.save("i", record("i", { state, completedPositions: positions(k), lastSavedAt: 1000 + k }));
    expect(pool.queries - afterFirst.queries).to.equal(5);
    expect(pool.connects).to.equal(0);
    expect(await cp.compareAndSave("i", 1006, record("i", { state, completedPositions: positions(7), lastSavedAt: 2000 }))).to.equal(true);
    expect(pool.queries - afterFirst.queries).to.equal(6);
    same(await cp.load("i"), record("i", { state, completedPositions: positions(7), lastSavedAt: 2000 }));
  });

  it("a record built by hand round-trips through delta saves: entries added, changed, reordered, removed; positions rewound", async () => {
    const cp = new PostgresCheckpointer(sharedPool(), { table: freshTable("cp_delta") });
    const a0 = entry("a", [instance("not_started"), instance("not_started")]);
    const b0 = entry("b", [instance("in_flight")]);
    const a1 = entry("a", [instance("completed", 1), instance("not_started")]);
    const state = Object.freeze({ n: 1 });
    const p = positions(5);
    const steps: CheckpointRecord[] = [
      record("i", { state, completedPositions: p.slice(0, 1), fanOutProgress: Object.freeze([a0]) }),
      record("i", { state, completedPositions: p.slice(0, 2), fanOutProgress: Object.freeze([a0, b0]) }),
      record("i", { state, completedPositions: p.slice(0, 3), fanOutProgress: Object.freeze([a1, b0]) }),
      record("i", { state, completedPositions: p.slice(0, 3), fanOutProgress: Object.freeze([b0, a1]) }),
      record("i", { state: Object.freeze({ n: 2 }), completedPositions: positions(2, "q"), fanOutProgress: Object.freeze([a1]) }),
      record("i", { state: { n: 3 }, completedPositions: positions(4, "q") }),
      record("i", { state: { n: 4 }, completedPositions: [] }),
    ];
    for (const [k, r] of steps.entries()) {
      const step = { ...r, lastSavedAt: 1000 + k };
      await cp.save("i", step);
      same(await cp.load("i"), step);
    }
  });

  it("a save after another checkpointer wrote the same invocation rewrites every part (the locked path)", async () => {
    const table = freshTable("cp_two");
    const cp = new PostgresCheckpointer(sharedPool(), { table });
    const other = new PostgresCheckpointer(sharedPool(), { table });
    const state = Object.freeze({ n: 1 });
    const e = entry("a", [instance("completed", 1), instance("in_flight")]);
    await cp.save("i", record("i", { state, fanOutProgress: Object.freeze([e]), completedPositions: positions(3) }));
    await other.save("i", record("i", { state: { n: 9 }, completedPositions: positions(1, "z"), lastSavedAt: 1500 }));
    // cp's cache says state, entry and positions are stored; the row says another writer replaced them.
    const back = record("i", { state, fanOutProgress: Object.freeze([e]), completedPositions: positions(3), lastSavedAt: 2000 });
    await cp.save("i", back);
    same(await cp.load("i"), back);
    same(await other.load("i"), back);
    expect(await other.compareAndSave("i", 1500, record("i", { lastSavedAt: 3000 }))).to.equal(false);
    expect(await other.compareAndSave("i", 2000, record("i", { lastSavedAt: 3000 }))).to.equal(true);
    expect(await cp.compareAndSave("i", null, record("i", { lastSavedAt: 4000 }))).to.equal(false);
    expect((await cp.load("i"))!.lastSavedAt).to.equal(3000);
    await cp.delete("i");
    expect(await cp.compareAndSave("i", 3000, record("i", { lastSavedAt: 5000 }))).to.equal(false);
    expect(await cp.compareAndSave("i", null, record("i", { lastSavedAt: 5000 }))).to.equal(true);
    expect((await other.load("i"))!.lastSavedAt).to.equal(5000);
  });

  it("saves of three checkpointers racing on one invocation leave exactly one of their records, never a mix", async () => {
    const table = freshTable("cp_race");
    const cps = [0, 1, 2].map(() => new PostgresCheckpointer(sharedPool(), { table }));
    const made: CheckpointRecord[] = [];
    let t = 1000;
    const recordOf = (w: number, round: number): CheckpointRecord => {
      const n = 1 + ((w + round) % 4);
      const r = record("i", {
        state: Object.freeze({ w, round }),
        completedPositions: positions(n + round, `w${w}_`),
        fanOutProgress: Object.freeze(Array.from({ length: (w + round) % 3 }, (_, k) => entry(`f${w}_${k}`, [instance("completed", round), instance("in_flight")]))),
        lastSavedAt: t++,
      });
      made.push(r);
      return r;
    };
    for (let round = 0; round < 12; round++) {
      await Promise.all(cps.map((cp, w) => cp.save("i", recordOf(w, round))));
      const loaded = (await cps[round % 3]!.load("i"))!;
      const match = made.find((r) => r.lastSavedAt === loaded.lastSavedAt)!;
      same(loaded, match);
    }
  });
});
