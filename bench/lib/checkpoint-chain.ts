/**
 * The checkpoint workload shared by `checkpoint-none`, `checkpoint-memory` and `checkpoint-sqlite`:
 * a linear chain `n0 → … → n49 → END` over a small, fixed-size state (`count + 1`, `last = name`;
 * both last-write-wins), run with a checkpointer that saves after every completed node and awaits
 * each save before the next node starts. One unit = {@link CP_INVOCATIONS_PER_UNIT} invocations,
 * each a fresh invocation / thread.
 *
 * | backend | ours | LangGraph | floor |
 * |---|---|---|---|
 * | `none` | `compiled.invoke()` | `compile()`, `invoke()` | plain loop |
 * | `memory` | `withCheckpointer(compiled, new InMemoryCheckpointer())` | `compile({ checkpointer: new MemorySaver() })` | a `Map` upsert per node |
 * | `sqlite` | `withCheckpointer(compiled, new SqliteCheckpointer(file, { synchronous: "full" }))` | `compile({ checkpointer: new SqliteSaver(db) })` | a `better-sqlite3` upsert per node |
 * | `postgres` | `withCheckpointer(compiled, new PostgresCheckpointer(pool))` | `compile({ checkpointer: new PostgresSaver(pool) })` | a parameterized upsert per node (`checkpoint-postgres.ts`; one server, tables created in the first, untimed, warm-up call) |
 *
 * LangGraph runs with `durability: "sync"` (each checkpoint written before the next superstep —
 * what ours always does; LangGraph's default `"async"` overlaps the write with the next step) and a
 * fresh `thread_id` per invocation. All three SQLite databases are WAL + `synchronous = FULL`
 * (checked on the connections before timing), one temp directory per implementation under
 * `os.tmpdir()`, removed in `dispose()`.
 *
 * What a unit returns (verified across implementations): the final states, the number of node
 * saves, and the latest saved state of the unit's last invocation *read back from the backend*.
 * Node saves are counted at the checkpointer interface: ours counts `save()` calls (every one is a
 * node-completed save), LangGraph counts `put()` calls whose `metadata.step >= 1` (its extra
 * per-invocation checkpoints — the input at step -1 and `__start__` at step 0 — are written but not
 * counted), the floor counts its own upserts. The in-memory stores are emptied at the end of each
 * unit (ours `clear()`, LangGraph `deleteThread()` per thread, the floor's `Map.clear()`); the SQLite
 * files keep growing (deleting would add a durable transaction per invocation).
 *
 * The SQLite setup, the save-counting subclasses and the floor's stores live in
 * `checkpoint-common.ts` (shared with the long loop of `checkpoint-loop.ts`).
 */
import { Annotation } from "@langchain/langgraph";
import { CountingPostgres, floorPostgresStore, langgraphPostgres, oursPostgres } from "./checkpoint-postgres.ts";
import { withCheckpointer, type Checkpointer } from "../../src/checkpoint/index.ts";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
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
import { floorMerge } from "./floor.ts";
import { LG_END, LG_START, looseStateGraph, type LooseCompiledGraph } from "./langgraph.ts";
import type { Workload } from "./types.ts";

/** Re-exported: the SQLite helpers now live in `checkpoint-common.ts` (shared with `checkpoint-loop.ts`). */
export { CP_SQLITE_SYNCHRONOUS, tmpdirFilesystem } from "./checkpoint-common.ts";

export const CP_NODES = 50;
export const CP_INVOCATIONS_PER_UNIT = 2;

export type CheckpointBackend = "none" | "memory" | "sqlite" | "postgres";

export interface CpState {
  readonly count: number;
  readonly last: string;
}

export interface CpUnitResult {
  readonly invocations: number;
  readonly totalCount: number;
  readonly final: CpState;
  /** Node-completed saves over the unit (absent without a checkpointer). */
  readonly nodeSaves?: number;
  /** The unit's last invocation, as read back from the backend after it finished. */
  readonly saved?: CpState & { readonly completedNodes: number };
}

const NAMES: readonly string[] = Array.from({ length: CP_NODES }, (_, i) => `n${i}`);
const FINAL: CpState = { count: CP_NODES, last: NAMES[CP_NODES - 1]! };

function update(name: string, s: CpState): Partial<CpState> {
  return { count: s.count + 1, last: name };
}

export function expectedCpUnit(backend: CheckpointBackend): CpUnitResult {
  return {
    invocations: CP_INVOCATIONS_PER_UNIT,
    totalCount: CP_INVOCATIONS_PER_UNIT * CP_NODES,
    final: FINAL,
    ...(backend === "none" ? {} : { nodeSaves: CP_INVOCATIONS_PER_UNIT * CP_NODES, saved: { ...FINAL, completedNodes: CP_NODES } }),
  };
}

// ---------------------------------------------------------------------------------------- ours

export function oursCpChain(backend: CheckpointBackend): Workload {
  const State = defineState({ count: field.int().default(0), last: field.string().default("") });
  const b = new GraphBuilder(State);
  for (const n of NAMES) b.addNode(n, async (s) => update(n, s));
  NAMES.forEach((n, i) => b.addEdge(n, i + 1 < NAMES.length ? NAMES[i + 1]! : END));
  const graph = b.setEntry(NAMES[0]!).compile({ name: "checkpoint-chain" });

  if (backend === "none") {
    return {
      run: async () => {
        let total = 0;
        let final: CpState | undefined;
        for (let k = 0; k < CP_INVOCATIONS_PER_UNIT; k++) {
          final = (await graph.invoke({})).state;
          total += final.count;
        }
        return { invocations: CP_INVOCATIONS_PER_UNIT, totalCount: total, final: final! } satisfies CpUnitResult;
      },
    };
  }

  const db = backend === "sqlite" ? tempDb("ours") : undefined;
  const pg = backend === "postgres" ? oursPostgres("checkpoint-postgres") : undefined;
  let ready: Promise<void> | undefined;
  const cp: (CountingInMemory | CountingSqlite | CountingPostgres) & Checkpointer =
    pg !== undefined ? pg.cp : backend === "memory" ? new CountingInMemory() : new CountingSqlite(db!.file, { synchronous: CP_SQLITE_SYNCHRONOUS });
  if (cp instanceof CountingSqlite) {
    try {
      checkDurability("ours", cp.database);
    } catch (e) {
      cp.close();
      db!.remove();
      throw e;
    }
  }
  const runner = withCheckpointer(graph, cp);
  return {
    run: async () => {
      if (pg !== undefined) await (ready ??= pg.ready()); // the first (untimed warm-up) call creates the tables
      const saves0 = cp.saves;
      let total = 0;
      let final: CpState | undefined;
      let lastId = "";
      for (let k = 0; k < CP_INVOCATIONS_PER_UNIT; k++) {
        const r = await runner.invoke({});
        final = r.state;
        lastId = r.invocationId;
        total += final.count;
      }
      const rec = await cp.load(lastId);
      const st = rec?.state as CpState | undefined;
      if (cp instanceof CountingInMemory) cp.clear();
      return {
        invocations: CP_INVOCATIONS_PER_UNIT,
        totalCount: total,
        final: final!,
        nodeSaves: cp.saves - saves0,
        saved: { count: st?.count ?? -1, last: st?.last ?? "", completedNodes: rec?.completedPositions.length ?? -1 },
      } satisfies CpUnitResult;
    },
    dispose: () => {
      if (cp instanceof CountingSqlite) cp.close();
      void pg?.dispose();
      db?.remove();
    },
  };
}

// ----------------------------------------------------------------------------------- LangGraph

let lgThreads = 0;

export function langgraphCpChain(backend: CheckpointBackend): Workload {
  const A = Annotation.Root({
    count: Annotation<number>({ reducer: (_prior, next) => next, default: () => 0 }),
    last: Annotation<string>({ reducer: (_prior, next) => next, default: () => "" }),
  });
  const g = looseStateGraph<CpState, typeof A.spec>(A);
  for (const n of NAMES) g.addNode(n, async (s) => update(n, s));
  g.addEdge(LG_START, NAMES[0]!);
  NAMES.forEach((n, i) => g.addEdge(n, i + 1 < NAMES.length ? NAMES[i + 1]! : LG_END));

  if (backend === "none") {
    const graph: LooseCompiledGraph<CpState> = g.compile();
    const config = { recursionLimit: CP_NODES + 10 };
    return {
      run: async () => {
        let total = 0;
        let final: CpState | undefined;
        for (let k = 0; k < CP_INVOCATIONS_PER_UNIT; k++) {
          final = await graph.invoke({}, config);
          total += final.count;
        }
        return { invocations: CP_INVOCATIONS_PER_UNIT, totalCount: total, final: { count: final!.count, last: final!.last } } satisfies CpUnitResult;
      },
    };
  }

  const pg = backend === "postgres" ? langgraphPostgres("checkpoint-postgres") : undefined;
  const { saver, dispose } = pg !== undefined ? { saver: pg.saver, dispose: () => void pg.dispose() } : langgraphSaver(backend as "memory" | "sqlite");
  let ready: Promise<void> | undefined;
  const graph = g.compile({ checkpointer: saver });
  return {
    run: async () => {
      if (pg !== undefined) await (ready ??= pg.ready()); // the first (untimed warm-up) call runs setup()
      const saves0 = saver.nodeSaves;
      let total = 0;
      let final: CpState | undefined;
      const threads: string[] = [];
      for (let k = 0; k < CP_INVOCATIONS_PER_UNIT; k++) {
        const thread_id = `bench-${lgThreads++}`;
        threads.push(thread_id);
        final = await graph.invoke({}, { recursionLimit: CP_NODES + 10, durability: "sync", configurable: { thread_id } });
        total += final.count;
      }
      const tuple = await saver.getTuple({ configurable: { thread_id: threads[threads.length - 1]! } });
      const values = tuple?.checkpoint.channel_values as Partial<CpState> | undefined;
      const completedNodes = tuple?.metadata?.step ?? -1;
      if (saver instanceof CountingMemorySaver) for (const t of threads) await saver.deleteThread(t);
      return {
        invocations: CP_INVOCATIONS_PER_UNIT,
        totalCount: total,
        final: { count: final!.count, last: final!.last },
        nodeSaves: saver.nodeSaves - saves0,
        saved: { count: values?.count ?? -1, last: values?.last ?? "", completedNodes },
      } satisfies CpUnitResult;
    },
    dispose,
  };
}

// --------------------------------------------------------------------------------------- floor

let floorIds = 0;

export function floorCpChain(backend: CheckpointBackend): Workload {
  let ready: Promise<void> | undefined;
  const nodes = NAMES.map((n) => [n, async (s: CpState) => update(n, s)] as const);
  const db = backend === "sqlite" ? tempDb("floor") : undefined;
  let store: FloorStore<CpState> | undefined;
  try {
    store =
      backend === "none"
        ? undefined
        : backend === "memory"
          ? floorMemoryStore<CpState>()
          : backend === "postgres"
            ? floorPostgresStore<CpState>("checkpoint-postgres")
            : floorSqliteStore<CpState>(db!.file);
  } catch (e) {
    db?.remove();
    throw e;
  }
  return {
    run: async () => {
      if (store !== undefined && "ready" in store && typeof store.ready === "function") await (ready ??= (store.ready as () => Promise<void>)());
      let total = 0;
      let final: CpState | undefined;
      let saves = 0;
      let lastId = "";
      for (let k = 0; k < CP_INVOCATIONS_PER_UNIT; k++) {
        const id = `floor-${floorIds++}`;
        let s: CpState = { count: 0, last: "" };
        for (let i = 0; i < nodes.length; i++) {
          s = floorMerge(s, await nodes[i]![1](s), {});
          if (store) {
            await store.save(id, s, i + 1);
            saves++;
          }
        }
        final = s;
        lastId = id;
        total += s.count;
      }
      if (!store) return { invocations: CP_INVOCATIONS_PER_UNIT, totalCount: total, final: final! } satisfies CpUnitResult;
      const rec = await store.load(lastId);
      store.endUnit();
      return {
        invocations: CP_INVOCATIONS_PER_UNIT,
        totalCount: total,
        final: final!,
        nodeSaves: saves,
        saved: { count: rec?.state.count ?? -1, last: rec?.state.last ?? "", completedNodes: rec?.completedNodes ?? -1 },
      } satisfies CpUnitResult;
    },
    dispose: () => {
      store?.close();
      db?.remove();
    },
  };
}
