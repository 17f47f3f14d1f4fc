/**
 * The long checkpointed run shared by `checkpoint-loop-memory` and `checkpoint-loop-sqlite`: ONE
 * invocation of a loop whose node `tick` returns `{ count: count + 1, history: [count] }` — `history`
 * is an append (concat) list, like an agent's growing message history — with a conditional edge back
 * to `tick` while `count < limit`. A checkpointer saves after every step and each save is awaited
 * before the next step, so a unit of `n` iterations makes `n` node saves over a state whose history
 * grows from 1 to `n` entries. The 50-node chain of `checkpoint-chain.ts` is too short to show a
 * per-step cost that grows with the length of the run; this is the workload that does.
 *
 * | backend | ours | LangGraph | floor |
 * |---|---|---|---|
 * | `memory` | `withCheckpointer(compiled, new InMemoryCheckpointer())` | `compile({ checkpointer: new MemorySaver() })` | a `Map` set of `{ state, completedNodes }` per step |
 * | `sqlite` | `withCheckpointer(compiled, new SqliteCheckpointer(file, { synchronous: "full" }))` | `compile({ checkpointer: new SqliteSaver(db) })` | a prepared `better-sqlite3` upsert of `JSON.stringify(state)` per step |
 * | `postgres` | `withCheckpointer(compiled, new PostgresCheckpointer(pool))` | `compile({ checkpointer: new PostgresSaver(pool) })` | a parameterized upsert of `JSON.stringify(state)` per step (`checkpoint-postgres.ts`) |
 *
 * LangGraph runs with `durability: "sync"`, a fresh `thread_id` per invocation and
 * `recursionLimit: n + 10`. SQLite: WAL + `synchronous = FULL` for all three, checked before timing
 * (the helpers of `checkpoint-common.ts`, as in `checkpoint-sqlite`).
 *
 * What a unit returns (verified across implementations): the final `count`, `history.length` and
 * last history entry; the number of node saves, counted at the checkpointer interface exactly as in
 * `checkpoint-chain.ts` (ours `save()` calls, LangGraph `put()` calls with `metadata.step >= 1`, the
 * floor its own saves); and the saved state read back from the backend after the invocation
 * (`load()` / `getTuple()` / `SELECT`): its `count`, its `history.length` and the number of completed
 * nodes (ours `completedPositions.length`, LangGraph `metadata.step`, the floor's stored counter).
 * The in-memory stores are emptied at the end of every unit (ours `clear()`, LangGraph
 * `deleteThread()`, the floor `Map.clear()`); the SQLite files keep growing.
 */
import { Annotation } from "@langchain/langgraph";
import { withCheckpointer, type Checkpointer } from "../../src/checkpoint/index.ts";
import { append, defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import {
  checkDurability,
  CP_SQLITE_SYNCHRONOUS,
  CountingInMemory,
  CountingMemorySaver,
  CountingSqlite,
  floorMemoryStore,
  floorSqliteStore,
  langgraphSaver,
  tempDb,
  type FloorStore,
} from "./checkpoint-common.ts";
import { floorAppend, floorMerge } from "./floor.ts";
import { floorPostgresStore, langgraphPostgres, oursPostgres } from "./checkpoint-postgres.ts";
import { LG_END, LG_START, looseStateGraph } from "./langgraph.ts";
import type { RunContext, Workload } from "./types.ts";

export type LoopBackend = "memory" | "sqlite" | "postgres";

/** Iterations (= node executions = saves) of the one invocation a unit runs. */
export function loopIterations(backend: LoopBackend, { quick }: RunContext): number {
  return backend === "memory" ? (quick ? 1_000 : 5_000) : quick ? 200 : 1_000;
}

/** Iterations of one (untimed) warm-up invocation. */
export function loopWarmupIterations(backend: LoopBackend, { quick }: RunContext): number {
  return backend === "memory" ? (quick ? 100 : 200) : quick ? 20 : 100;
}

export interface LoopState {
  readonly count: number;
  readonly limit: number;
  readonly history: readonly number[];
}

export interface LoopUnitResult {
  readonly count: number;
  readonly historyLength: number;
  readonly lastHistory: number;
  /** Node-completed saves of the invocation. */
  readonly nodeSaves: number;
  /** The invocation's latest saved state, read back from the backend after it finished. */
  readonly saved: { readonly count: number; readonly historyLength: number; readonly completedNodes: number };
}

/** What a unit of `n` iterations returns, for every implementation. */
export function expectedLoopUnit(n: number): LoopUnitResult {
  return { count: n, historyLength: n, lastHistory: n - 1, nodeSaves: n, saved: { count: n, historyLength: n, completedNodes: n } };
}

const tick = (s: LoopState): Partial<LoopState> => ({ count: s.count + 1, history: [s.count] });
const again = (s: LoopState): boolean => s.count < s.limit;

function unitResult(final: LoopState, nodeSaves: number, saved: Partial<LoopState> | undefined, completedNodes: number): LoopUnitResult {
  return {
    count: final.count,
    historyLength: final.history.length,
    lastHistory: final.history[final.history.length - 1] ?? -1,
    nodeSaves,
    saved: { count: saved?.count ?? -1, historyLength: saved?.history?.length ?? -1, completedNodes },
  };
}

/** The scenario name used in setup-check errors. */
const scenarioName = (backend: LoopBackend): string => `checkpoint-loop-${backend}`;

// ---------------------------------------------------------------------------------------- ours

export function oursCpLoop(backend: LoopBackend, ctx: RunContext): Workload {
  const State = defineState({
    count: field.int().default(0),
    limit: field.int().default(0),
    history: field.list(field.int()).reducer(append).default([]),
  });
  const graph = new GraphBuilder(State)
    .addNode("tick", async (s) => tick(s))
    .addConditionalEdge("tick", (s) => (again(s) ? "tick" : END))
    .setEntry("tick")
    .compile({ name: "checkpoint-loop" });

  if (backend === "postgres") {
    const pg = oursPostgres(scenarioName(backend));
    const runner = withCheckpointer(graph, pg.cp);
    let ready: Promise<void> | undefined;
    const unit = async (n: number): Promise<LoopUnitResult> => {
      await (ready ??= pg.ready()); // first (untimed warm-up) call
      const saves0 = pg.cp.saves;
      const r = await runner.invoke({ limit: n });
      const rec = await pg.cp.load(r.invocationId);
      return unitResult(r.state, pg.cp.saves - saves0, rec?.state as Partial<LoopState> | undefined, rec?.completedPositions.length ?? -1);
    };
    return { run: () => unit(loopIterations(backend, ctx)), warmup: () => unit(loopWarmupIterations(backend, ctx)), dispose: () => void pg.dispose() };
  }
  const db = backend === "sqlite" ? tempDb("ours") : undefined;
  const cp: (CountingInMemory | CountingSqlite) & Checkpointer =
    backend === "memory" ? new CountingInMemory() : new CountingSqlite(db!.file, { synchronous: CP_SQLITE_SYNCHRONOUS });
  if (cp instanceof CountingSqlite) {
    try {
      checkDurability("ours", cp.database, scenarioName(backend));
    } catch (e) {
      cp.close();
      db!.remove();
      throw e;
    }
  }
  const runner = withCheckpointer(graph, cp);
  const unit = async (n: number): Promise<LoopUnitResult> => {
    const saves0 = cp.saves;
    const r = await runner.invoke({ limit: n });
    const rec = await cp.load(r.invocationId);
    const completedNodes = rec?.completedPositions.length ?? -1;
    if (cp instanceof CountingInMemory) cp.clear();
    return unitResult(r.state, cp.saves - saves0, rec?.state as Partial<LoopState> | undefined, completedNodes);
  };
  const n = loopIterations(backend, ctx);
  const w = loopWarmupIterations(backend, ctx);
  return {
    run: () => unit(n),
    warmup: () => unit(w),
    dispose: () => {
      if (cp instanceof CountingSqlite) cp.close();
      db?.remove();
    },
  };
}

// ----------------------------------------------------------------------------------- LangGraph

let lgThreads = 0;

export function langgraphCpLoop(backend: LoopBackend, ctx: RunContext): Workload {
  const A = Annotation.Root({
    count: Annotation<number>({ reducer: (_prior, next) => next, default: () => 0 }),
    limit: Annotation<number>({ reducer: (_prior, next) => next, default: () => 0 }),
    history: Annotation<readonly number[]>({ reducer: (prior, next) => prior.concat(next), default: () => [] }),
  });
  const pg = backend === "postgres" ? langgraphPostgres(scenarioName(backend)) : undefined;
  const { saver, dispose } = pg !== undefined ? { saver: pg.saver, dispose: () => void pg.dispose() } : langgraphSaver(backend as "memory" | "sqlite", scenarioName(backend));
  let ready: Promise<void> | undefined;
  const graph = looseStateGraph<LoopState, typeof A.spec>(A)
    .addNode("tick", async (s) => tick(s))
    .addEdge(LG_START, "tick")
    .addConditionalEdges("tick", (s) => (again(s) ? "tick" : LG_END))
    .compile({ checkpointer: saver });
  const unit = async (n: number): Promise<LoopUnitResult> => {
    if (pg !== undefined) await (ready ??= pg.ready()); // first (untimed warm-up) call
    const saves0 = saver.nodeSaves;
    const thread_id = `bench-loop-${lgThreads++}`;
    const final = await graph.invoke({ limit: n }, { recursionLimit: n + 10, durability: "sync", configurable: { thread_id } });
    const tuple = await saver.getTuple({ configurable: { thread_id } });
    const values = tuple?.checkpoint.channel_values as Partial<LoopState> | undefined;
    const completedNodes = tuple?.metadata?.step ?? -1;
    if (saver instanceof CountingMemorySaver) await saver.deleteThread(thread_id);
    return unitResult(final, saver.nodeSaves - saves0, values, completedNodes);
  };
  const n = loopIterations(backend, ctx);
  const w = loopWarmupIterations(backend, ctx);
  return {
    run: () => unit(n),
    warmup: () => unit(w),
    dispose,
  };
}

// --------------------------------------------------------------------------------------- floor

let floorIds = 0;

export function floorCpLoop(backend: LoopBackend, ctx: RunContext): Workload {
  const reducers = { history: floorAppend };
  const node = async (s: LoopState): Promise<Partial<LoopState>> => tick(s);
  const db = backend === "sqlite" ? tempDb("floor") : undefined;
  let store: FloorStore<LoopState>;
  try {
    store =
      backend === "memory"
        ? floorMemoryStore<LoopState>()
        : backend === "postgres"
          ? floorPostgresStore<LoopState>(scenarioName(backend))
          : floorSqliteStore<LoopState>(db!.file, scenarioName(backend));
  } catch (e) {
    db?.remove();
    throw e;
  }
  let ready: Promise<void> | undefined;
  const unit = async (n: number): Promise<LoopUnitResult> => {
    if ("ready" in store && typeof store.ready === "function") await (ready ??= (store.ready as () => Promise<void>)());
    const id = `floor-loop-${floorIds++}`;
    let s: LoopState = { count: 0, limit: n, history: [] };
    let saves = 0;
    do {
      s = floorMerge(s, await node(s), reducers);
      await store.save(id, s, ++saves);
    } while (again(s));
    const rec = await store.load(id);
    store.endUnit();
    return unitResult(s, saves, rec?.state, rec?.completedNodes ?? -1);
  };
  const n = loopIterations(backend, ctx);
  const w = loopWarmupIterations(backend, ctx);
  return {
    run: () => unit(n),
    warmup: () => unit(w),
    dispose: () => {
      store.close();
      db?.remove();
    },
  };
}
