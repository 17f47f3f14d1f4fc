/**
 * The fan-out workload shared by `fan-out-1k` and `fan-out-10k`: one parent invocation whose
 * `items` list (a permutation of `0 … n-1`, so order matters) is fanned out to a worker that
 * computes `result = x * 2`, at most {@link FAN_OUT_CONCURRENCY} workers in flight, the results
 * gathered into `results` in item order.
 *
 * - **ours**: a one-node parent graph `fan → END` whose node is
 *   `fanOut({ subgraph: worker, itemsField: "items", itemField: "x", collectField: "result",
 *   targetField: "results", concurrency: 16 })`; `worker` is a one-node compiled graph
 *   (`double → END`). `results` has the `append` reducer.
 * - **LangGraph**: a conditional edge from `START` returning `items.map(x => new Send("worker", { x }))`;
 *   `worker → END` returns `{ results: [x * 2] }` into an append (concat) reducer; invoked with
 *   `maxConcurrency: 16`. LangGraph applies a superstep's writes in task order (the `Send` index),
 *   so the gathered list comes out in item order — compared as ordered, not sorted.
 * - **floor**: a plain concurrency-16 promise pool (16 loops pulling the next index) over the same
 *   async worker function, writing `results[i]`.
 *
 * A step is one item (one worker run). Before anything is timed, each factory runs the same graph
 * once over 64 items with a worker that parks on `setImmediate`, and checks that exactly 16 workers
 * were in flight at the peak (the cap is honored and reached) — a {@link VerificationError} otherwise.
 *
 * With `{ checkpoint: "sqlite" }` (the `checkpoint-fan-out-*` scenarios) the same fan-out runs
 * durably checkpointed to a SQLite file (WAL + `synchronous = FULL`, checked before timing, as in
 * `checkpoint-sqlite`): ours `withCheckpointer(graph, new SqliteCheckpointer(file))` (a save per
 * completed event and per instance contribution, §10.11 — ~2 per item); LangGraph
 * `compile({ checkpointer: new SqliteSaver(db) })` invoked with `durability: "sync"` and a fresh
 * `thread_id` (its task writes per `Send` task, a checkpoint per superstep); the floor inserts
 * `(run, index, result)` per completed item with a prepared statement (one transaction each). A
 * unit then also returns `saved`: the length of `results` read back from the backend after the
 * invocation (`load()` / `getTuple()` / `SELECT count(*)`).
 */
import { setMaxListeners } from "node:events";
import { Annotation, END as LG_END, Send, START as LG_START, StateGraph } from "@langchain/langgraph";
import { SqliteCheckpointer, withCheckpointer } from "../../src/checkpoint/index.ts";
import { append, defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { fanOut } from "../../src/pipeline/index.ts";
import { checkDurability, CP_SQLITE_SYNCHRONOUS, langgraphSaver, openDb, tempDb } from "./checkpoint-common.ts";
import type { Workload } from "./types.ts";
import { VerificationError } from "./verify.ts";

export const FAN_OUT_CONCURRENCY = 16;
const PROBE_ITEMS = 64;

/** `n` distinct items in a scrambled order (7919 is prime, coprime with 1,000 and 10,000). */
export function fanOutItems(n: number): number[] {
  return Array.from({ length: n }, (_, i) => (i * 7919) % n);
}

export interface FanOutUnitResult {
  readonly items: number;
  readonly results: readonly number[];
  /** Checkpointed runs: `results.length` in the state read back from the backend. */
  readonly saved?: number;
}

/** How the fan-out is run: plain, or durably checkpointed to SQLite. */
export interface FanOutOptions {
  readonly checkpoint?: "sqlite";
  /** The scenario name used in setup-check errors. */
  readonly scenario?: string;
}

export function expectedFanOut(n: number, options: FanOutOptions = {}): FanOutUnitResult {
  return { items: n, results: fanOutItems(n).map((x) => x * 2), ...(options.checkpoint ? { saved: n } : {}) };
}

/**
 * Optional in-flight probe, set only during the untimed concurrency check. Normal runs pay one
 * `undefined` check per item.
 */
interface Probe {
  inFlight: number;
  peak: number;
}

async function park(p: Probe): Promise<void> {
  p.inFlight++;
  if (p.inFlight > p.peak) p.peak = p.inFlight;
  await new Promise<void>((resolve) => setImmediate(resolve));
  p.inFlight--;
}

async function checkConcurrency(impl: string, probeRef: { current: Probe | undefined }, run: (items: number[]) => Promise<unknown>): Promise<void> {
  const p: Probe = { inFlight: 0, peak: 0 };
  probeRef.current = p;
  try {
    await run(fanOutItems(PROBE_ITEMS));
  } finally {
    probeRef.current = undefined;
  }
  if (p.peak !== FAN_OUT_CONCURRENCY) {
    throw new VerificationError(
      `fan-out: ${impl} had ${p.peak} workers in flight at the peak over ${PROBE_ITEMS} items, expected exactly ${FAN_OUT_CONCURRENCY}`,
    );
  }
}

/** `items` for the timed unit and (optionally) the smaller warm-up unit. */
function workload(run: (items: number[]) => Promise<FanOutUnitResult>, n: number, warmupN: number | undefined, dispose?: () => void): Workload {
  const items = fanOutItems(n);
  const warmupItems = warmupN === undefined ? undefined : fanOutItems(warmupN);
  return {
    run: () => run(items),
    ...(warmupItems ? { warmup: () => run(warmupItems) } : {}),
    ...(dispose ? { dispose } : {}),
  };
}

/** Run `setup` (which may throw); on a throw, release what was opened and rethrow. */
function guarded<T>(setup: () => T, release: () => void): T {
  try {
    return setup();
  } catch (e) {
    release();
    throw e;
  }
}

// ---------------------------------------------------------------------------------------- ours

export async function oursFanOut(n: number, warmupN?: number, options: FanOutOptions = {}): Promise<Workload> {
  const probe: { current: Probe | undefined } = { current: undefined };
  const Item = defineState({ x: field.int().default(0), result: field.int().default(0) });
  const worker = new GraphBuilder(Item)
    .addNode("double", async (s) => {
      if (probe.current) await park(probe.current);
      return { result: s.x * 2 };
    })
    .addEdge("double", END)
    .setEntry("double")
    .compile({ name: "worker" });
  const Parent = defineState({
    items: field.list(field.int()).default([]),
    results: field.list(field.int()).reducer(append).default([]),
  });
  const graph = new GraphBuilder(Parent)
    .addNode(
      "fan",
      fanOut({ subgraph: worker, itemsField: "items", itemField: "x", collectField: "result", targetField: "results", concurrency: FAN_OUT_CONCURRENCY }),
    )
    .addEdge("fan", END)
    .setEntry("fan")
    .compile({ name: "fan-out" });
  if (options.checkpoint === "sqlite") {
    const db = tempDb("ours");
    const cp = guarded(() => new SqliteCheckpointer(db.file, { synchronous: CP_SQLITE_SYNCHRONOUS }), db.remove);
    const dispose = (): void => (cp.close(), db.remove());
    guarded(() => checkDurability("ours", cp.database, options.scenario), dispose);
    const runner = withCheckpointer(graph, cp);
    const run = async (items: number[]): Promise<FanOutUnitResult> => {
      const { state, invocationId } = await runner.invoke({ items });
      const saved = (await cp.load(invocationId))?.state["results"] as readonly number[] | undefined;
      return { items: state.items.length, results: state.results, saved: saved?.length ?? -1 };
    };
    await checkConcurrency("ours", probe, run).catch((e: unknown) => (dispose(), Promise.reject(e)));
    return workload(run, n, warmupN, dispose);
  }
  const run = async (items: number[]): Promise<FanOutUnitResult> => {
    const { state } = await graph.invoke({ items });
    return { items: state.items.length, results: state.results };
  };
  await checkConcurrency("ours", probe, run);
  return workload(run, n, warmupN);
}

// ----------------------------------------------------------------------------------- LangGraph

let lgThreads = 0;

export async function langgraphFanOut(n: number, warmupN?: number, options: FanOutOptions = {}): Promise<Workload> {
  // LangGraph adds one abort listener per running task to the run's shared AbortSignal; with 16
  // tasks in flight Node warns about a possible leak (> 10 listeners). Raise the default for
  // EventTargets so the warning does not clutter the output (it changes nothing else).
  setMaxListeners(4 * FAN_OUT_CONCURRENCY);
  const probe: { current: Probe | undefined } = { current: undefined };
  const A = Annotation.Root({
    items: Annotation<number[]>({ reducer: (_prior, next) => next, default: () => [] }),
    results: Annotation<number[]>({ reducer: (prior, next) => prior.concat(next), default: () => [] }),
  });
  const graph = new StateGraph(A)
    // The node receives the Send payload `{ x }`, not the graph state.
    .addNode("worker", async (input: typeof A.State) => {
      const { x } = input as unknown as { x: number };
      if (probe.current) await park(probe.current);
      return { results: [x * 2] };
    })
    .addConditionalEdges(LG_START, (s) => s.items.map((x) => new Send("worker", { x })))
    .addEdge("worker", LG_END);
  if (options.checkpoint === "sqlite") {
    const { saver, dispose } = langgraphSaver("sqlite", options.scenario);
    const compiled = graph.compile({ checkpointer: saver });
    const run = async (items: number[]): Promise<FanOutUnitResult> => {
      const configurable = { thread_id: `bench-fan-out-${lgThreads++}` };
      const state = await compiled.invoke({ items }, { maxConcurrency: FAN_OUT_CONCURRENCY, durability: "sync", configurable });
      const saved = (await saver.getTuple({ configurable }))?.checkpoint.channel_values["results"] as readonly number[] | undefined;
      return { items: state.items.length, results: state.results, saved: saved?.length ?? -1 };
    };
    await checkConcurrency("LangGraph", probe, run).catch((e: unknown) => (dispose(), Promise.reject(e)));
    return workload(run, n, warmupN, dispose);
  }
  const compiled = graph.compile();
  const config = { maxConcurrency: FAN_OUT_CONCURRENCY };
  const run = async (items: number[]): Promise<FanOutUnitResult> => {
    const state = await compiled.invoke({ items }, config);
    return { items: state.items.length, results: state.results };
  };
  await checkConcurrency("LangGraph", probe, run);
  return workload(run, n, warmupN);
}

// --------------------------------------------------------------------------------------- floor

let floorRuns = 0;

export async function floorFanOut(n: number, warmupN?: number, options: FanOutOptions = {}): Promise<Workload> {
  const probe: { current: Probe | undefined } = { current: undefined };
  const work = async (x: number): Promise<number> => {
    if (probe.current) await park(probe.current);
    return x * 2;
  };
  /** The pool; `done(i, result)` runs per completed item (where the checkpointed floor saves it). */
  const pool = async (items: number[], done?: (i: number, result: number) => void): Promise<number[]> => {
    const count = items.length;
    const results = new Array<number>(count);
    let next = 0;
    const loop = async (): Promise<void> => {
      while (next < count) {
        const i = next++;
        results[i] = await work(items[i]!);
        done?.(i, results[i]!);
      }
    };
    const loops: Promise<void>[] = [];
    for (let k = 0; k < Math.min(FAN_OUT_CONCURRENCY, count); k++) loops.push(loop());
    await Promise.all(loops);
    return results;
  };
  if (options.checkpoint === "sqlite") {
    const file = tempDb("floor");
    const db = guarded(() => openDb(file.file), file.remove);
    const dispose = (): void => (db.close(), file.remove());
    guarded(() => {
      checkDurability("floor", db, options.scenario);
      db.exec("CREATE TABLE IF NOT EXISTS results (run TEXT NOT NULL, idx INTEGER NOT NULL, result INTEGER NOT NULL, PRIMARY KEY (run, idx))");
    }, dispose);
    const insert = db.prepare("INSERT INTO results (run, idx, result) VALUES (?, ?, ?)");
    const count = db.prepare("SELECT count(*) FROM results WHERE run = ?").pluck();
    const run = async (items: number[]): Promise<FanOutUnitResult> => {
      const id = `floor-fan-out-${floorRuns++}`;
      const results = await pool(items, (i, result) => void insert.run(id, i, result));
      return { items: items.length, results, saved: count.get(id) as number };
    };
    await checkConcurrency("floor", probe, run).catch((e: unknown) => (dispose(), Promise.reject(e)));
    return workload(run, n, warmupN, dispose);
  }
  const run = async (items: number[]): Promise<FanOutUnitResult> => ({ items: items.length, results: await pool(items) });
  await checkConcurrency("floor", probe, run);
  return workload(run, n, warmupN);
}
