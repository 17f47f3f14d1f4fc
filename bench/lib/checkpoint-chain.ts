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
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { Annotation, MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { InMemoryCheckpointer, SqliteCheckpointer, withCheckpointer, type Checkpointer, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { floorMerge } from "./floor.ts";
import { LG_END, LG_START, looseStateGraph, type LooseCompiledGraph } from "./langgraph.ts";
import type { Workload } from "./types.ts";
import { VerificationError } from "./verify.ts";

export const CP_NODES = 50;
export const CP_INVOCATIONS_PER_UNIT = 2;
/** `PRAGMA synchronous` of every SQLite database here (ours' default). */
export const CP_SQLITE_SYNCHRONOUS = "full";

export type CheckpointBackend = "none" | "memory" | "sqlite";

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

// ------------------------------------------------------------------------------------- SQLite

/**
 * The filesystem holding `os.tmpdir()` (Linux: the longest matching mount in `/proc/mounts`), e.g.
 * `"ext4 on /dev/vda"` — fsync on tmpfs is nearly free, so it matters for the SQLite numbers.
 */
export function tmpdirFilesystem(): string {
  try {
    const dir = realpathSync(os.tmpdir());
    let best: { mount: string; text: string } | undefined;
    for (const line of readFileSync("/proc/mounts", "utf8").split("\n")) {
      const [device, mount, type] = line.split(" ");
      if (!device || !mount || !type) continue;
      const inside = dir === mount || dir.startsWith(mount.endsWith("/") ? mount : `${mount}/`);
      if (inside && (!best || mount.length > best.mount.length)) best = { mount, text: `${type} on ${device}` };
    }
    return best ? `${dir}: ${best.text}` : `${dir}: unknown filesystem`;
  } catch {
    return `${os.tmpdir()}: unknown filesystem`;
  }
}

interface TempDb {
  readonly dir: string;
  readonly file: string;
  remove(): void;
}

function tempDb(impl: string): TempDb {
  const dir = mkdtempSync(path.join(os.tmpdir(), `openarmature-bench-${impl}-`));
  return { dir, file: path.join(dir, "checkpoints.db"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Open a connection with the settings every implementation uses. */
function openDb(file: string): Database.Database {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma(`synchronous = ${CP_SQLITE_SYNCHRONOUS.toUpperCase()}`);
  return db;
}

/** Fail before timing unless `db` is WAL + the configured `synchronous` level. */
function checkDurability(impl: string, db: Database.Database): void {
  const journal = String(db.pragma("journal_mode", { simple: true }));
  const sync = Number(db.pragma("synchronous", { simple: true }));
  const want = CP_SQLITE_SYNCHRONOUS === "full" ? 2 : 1;
  if (journal !== "wal" || sync !== want) {
    throw new VerificationError(`checkpoint-sqlite: ${impl}'s database is journal_mode=${journal}, synchronous=${sync}; expected wal, ${want}`);
  }
}

// ---------------------------------------------------------------------------------------- ours

/** Counts `save()` calls; no extra `await` (the base promise is returned as is). */
class CountingInMemory extends InMemoryCheckpointer {
  saves = 0;
  override save(invocationId: string, record: CheckpointRecord): Promise<void> {
    this.saves++;
    return super.save(invocationId, record);
  }
}

class CountingSqlite extends SqliteCheckpointer {
  saves = 0;
  override save(invocationId: string, record: CheckpointRecord): Promise<void> {
    this.saves++;
    return super.save(invocationId, record);
  }
}

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
  const cp: (CountingInMemory | CountingSqlite) & Checkpointer =
    backend === "memory" ? new CountingInMemory() : new CountingSqlite(db!.file, { synchronous: CP_SQLITE_SYNCHRONOUS });
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
      db?.remove();
    },
  };
}

// ----------------------------------------------------------------------------------- LangGraph

type PutArgs = Parameters<MemorySaver["put"]>;

/** Counts `put()` calls of node checkpoints (`metadata.step >= 1`). */
class CountingMemorySaver extends MemorySaver {
  nodeSaves = 0;
  override put(config: PutArgs[0], checkpoint: PutArgs[1], metadata: PutArgs[2]): ReturnType<MemorySaver["put"]> {
    if ((metadata.step ?? -1) >= 1) this.nodeSaves++;
    return super.put(config, checkpoint, metadata);
  }
}

class CountingSqliteSaver extends SqliteSaver {
  nodeSaves = 0;
  /** Create its tables now (untimed; LangGraph otherwise does it on first use). */
  prepare(): void {
    this.setup();
  }
  override put(config: PutArgs[0], checkpoint: PutArgs[1], metadata: PutArgs[2]): ReturnType<SqliteSaver["put"]> {
    if ((metadata.step ?? -1) >= 1) this.nodeSaves++;
    return super.put(config, checkpoint, metadata);
  }
}

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

  const db = backend === "sqlite" ? tempDb("langgraph") : undefined;
  const conn = db ? openDb(db.file) : undefined;
  const saver = backend === "memory" ? new CountingMemorySaver() : new CountingSqliteSaver(conn!);
  if (conn) {
    try {
      (saver as CountingSqliteSaver).prepare(); // sets WAL again; `synchronous` stays FULL
      checkDurability("LangGraph", conn);
    } catch (e) {
      conn.close();
      db!.remove();
      throw e;
    }
  }
  const graph = g.compile({ checkpointer: saver });
  return {
    run: async () => {
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
    dispose: () => {
      conn?.close();
      db?.remove();
    },
  };
}

// --------------------------------------------------------------------------------------- floor

interface FloorStore {
  save(id: string, state: CpState, completedNodes: number): Promise<void>;
  load(id: string): Promise<{ state: CpState; completedNodes: number } | undefined>;
  endUnit(): void;
  close(): void;
}

function floorMemoryStore(): FloorStore {
  const records = new Map<string, { state: CpState; completedNodes: number }>();
  return {
    save: async (id, state, completedNodes) => void records.set(id, { state, completedNodes }),
    load: async (id) => records.get(id),
    endUnit: () => records.clear(),
    close: () => undefined,
  };
}

function floorSqliteStore(file: string): FloorStore {
  const db = openDb(file);
  try {
    checkDurability("floor", db);
  } catch (e) {
    db.close();
    throw e;
  }
  db.exec("CREATE TABLE IF NOT EXISTS checkpoints (id TEXT PRIMARY KEY NOT NULL, completed INTEGER NOT NULL, record TEXT NOT NULL)");
  const upsert = db.prepare(
    "INSERT INTO checkpoints (id, completed, record) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET completed = excluded.completed, record = excluded.record",
  );
  const select = db.prepare("SELECT completed, record FROM checkpoints WHERE id = ?");
  return {
    save: async (id, state, completedNodes) => void upsert.run(id, completedNodes, JSON.stringify(state)),
    load: async (id) => {
      const row = select.get(id) as { completed: number; record: string } | undefined;
      return row && { state: JSON.parse(row.record) as CpState, completedNodes: row.completed };
    },
    endUnit: () => undefined,
    close: () => db.close(),
  };
}

let floorIds = 0;

export function floorCpChain(backend: CheckpointBackend): Workload {
  const nodes = NAMES.map((n) => [n, async (s: CpState) => update(n, s)] as const);
  const db = backend === "sqlite" ? tempDb("floor") : undefined;
  let store: FloorStore | undefined;
  try {
    store = backend === "none" ? undefined : backend === "memory" ? floorMemoryStore() : floorSqliteStore(db!.file);
  } catch (e) {
    db?.remove();
    throw e;
  }
  return {
    run: async () => {
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
