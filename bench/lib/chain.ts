/**
 * The linear-chain workload shared by `linear-chain` and `observed-chain`: `n0 → n1 → … → n99 → END`,
 * each node returning a small partial update (`count + 1`, append its name to `log`, set `last`).
 * One unit = {@link CHAIN_INVOCATIONS_PER_UNIT} invocations from the default state (a warm-up call,
 * {@link CHAIN_WARMUP_INVOCATIONS}). With a
 * recorder, every node start / end is recorded as `"started:<node>:<count>"` /
 * `"completed:<node>:<count>"` (pre-state count on start, post-update count on completion).
 */
import { Annotation } from "@langchain/langgraph";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { append, defineState, END, field, GraphBuilder, type CompileOptions } from "../../src/graph/index.ts";
import { floorAppend, floorMerge } from "./floor.ts";
import { LG_END, LG_START, looseStateGraph } from "./langgraph.ts";
import type { ScenarioPlan, Workload } from "./types.ts";

export const CHAIN_NODES = 100;
export const CHAIN_INVOCATIONS_PER_UNIT = 10;
/** Invocations in one (untimed) warm-up call. */
export const CHAIN_WARMUP_INVOCATIONS = 2;

/**
 * The plan every 100-node-chain scenario shares (`linear-chain`, `observed-chain`, `otel-chain*`):
 * 10 invocations a unit, 20 rounds, 2 warm-up invocations; `unitExtra` names what else a unit
 * includes (" + drain", " + span flush").
 */
export function chainPlan(quick: boolean, unitExtra: string, expected: unknown): ScenarioPlan {
  return {
    stepsPerUnit: CHAIN_INVOCATIONS_PER_UNIT * CHAIN_NODES,
    unitLabel: `${CHAIN_INVOCATIONS_PER_UNIT} invocations × ${CHAIN_NODES} nodes${unitExtra}`,
    rounds: quick ? 2 : 20,
    minRounds: quick ? 1 : 8,
    timeBudgetMs: quick ? 3_000 : 50_000,
    warmupSteps: CHAIN_WARMUP_INVOCATIONS * CHAIN_NODES,
    warmupCalls: 2,
    expected,
  };
}

export interface ChainState {
  readonly count: number;
  readonly log: readonly string[];
  readonly last: string;
}

export const NAMES: readonly string[] = Array.from({ length: CHAIN_NODES }, (_, i) => `n${i}`);

/** The node body every implementation runs for node `name`. */
export function chainUpdate(name: string, s: ChainState): Partial<ChainState> {
  return { count: s.count + 1, log: [name], last: name };
}

/** What one unit must return, for every implementation. */
export interface ChainUnitResult {
  readonly invocations: number;
  readonly totalCount: number;
  readonly final: ChainState;
  readonly events?: readonly string[];
}

export function expectedChainUnit(recorded: boolean): ChainUnitResult {
  const events: string[] = [];
  for (let k = 0; k < CHAIN_INVOCATIONS_PER_UNIT; k++) {
    NAMES.forEach((n, i) => events.push(`started:${n}:${i}`, `completed:${n}:${i + 1}`));
  }
  return {
    invocations: CHAIN_INVOCATIONS_PER_UNIT,
    totalCount: CHAIN_INVOCATIONS_PER_UNIT * CHAIN_NODES,
    final: { count: CHAIN_NODES, log: NAMES, last: NAMES[CHAIN_NODES - 1]! },
    ...(recorded ? { events } : {}),
  };
}

function result(invocations: number, total: number, final: ChainState | undefined, events: readonly string[] | undefined): ChainUnitResult {
  return { invocations, totalCount: total, final: final!, ...(events ? { events } : {}) };
}

// ---------------------------------------------------------------------------------------- ours

/** The chain as an openarmature compiled graph, with `options` (e.g. hooks) given to `compile()`. */
export function oursChainGraph(options: Omit<CompileOptions, "name"> = {}) {
  const State = defineState({
    count: field.int().default(0),
    log: field.list(field.string()).reducer(append).default([]),
    last: field.string().default(""),
  });
  const b = new GraphBuilder(State);
  for (const n of NAMES) b.addNode(n, async (s) => chainUpdate(n, s));
  NAMES.forEach((n, i) => b.addEdge(n, i + 1 < NAMES.length ? NAMES[i + 1]! : END));
  return b.setEntry(NAMES[0]!).compile({ ...options, name: "chain" });
}

export function oursChain(recorded: boolean): Workload {
  const graph = oursChainGraph();
  let events: string[] = [];
  if (recorded) {
    graph.attachObserver((e) => {
      if (e.kind !== "node") return;
      if (e.phase === "started") events.push(`started:${e.nodeName}:${String(e.preState["count"])}`);
      else if (e.phase === "completed") events.push(`completed:${e.nodeName}:${String(e.postState?.["count"])}`);
    });
  }
  const unit = async (invocations: number): Promise<ChainUnitResult> => {
    events = [];
    let total = 0;
    let final: ChainState | undefined;
    for (let k = 0; k < invocations; k++) {
      const r = await graph.invoke({});
      final = r.state;
      total += final.count;
    }
    if (recorded) await graph.drain();
    return result(invocations, total, final, recorded ? events : undefined);
  };
  return { run: () => unit(CHAIN_INVOCATIONS_PER_UNIT), warmup: () => unit(CHAIN_WARMUP_INVOCATIONS) };
}

// ----------------------------------------------------------------------------------- LangGraph

/**
 * LangGraph's observer equivalent: a callback handler (LangChain's push-style observer, the
 * mechanism LangSmith tracing uses), bound to the compiled graph with `withConfig({ callbacks })`
 * like an attached observer. Node runs are the chain runs whose `metadata.langgraph_node` equals the
 * run name; LangGraph's hidden `__start__` run is skipped. Handlers run in the background
 * (LangChain's default), so the unit ends with `awaitAllCallbacks()` — the drain equivalent.
 */
class RecordingHandler extends BaseCallbackHandler {
  override name = "bench-recorder";
  events: string[] = [];
  readonly #running = new Map<string, string>();

  override handleChainStart(
    _chain: unknown,
    inputs: Record<string, unknown>,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    if (runName === undefined || runName === LG_START || metadata?.["langgraph_node"] !== runName) return;
    this.#running.set(runId, runName);
    this.events.push(`started:${runName}:${(inputs as unknown as ChainState).count}`);
  }

  override handleChainEnd(outputs: Record<string, unknown>, runId: string): void {
    const name = this.#running.get(runId);
    if (name === undefined) return;
    this.#running.delete(runId);
    this.events.push(`completed:${name}:${(outputs as unknown as Partial<ChainState>).count}`);
  }
}

/** The chain as a compiled LangGraph graph (no callbacks bound). */
export function langgraphChainGraph() {
  const A = Annotation.Root({
    count: Annotation<number>({ reducer: (_prior, next) => next, default: () => 0 }),
    log: Annotation<readonly string[]>({ reducer: (prior, next) => prior.concat(next), default: () => [] }),
    last: Annotation<string>({ reducer: (_prior, next) => next, default: () => "" }),
  });
  const g = looseStateGraph<ChainState, typeof A.spec>(A);
  for (const n of NAMES) g.addNode(n, async (s) => chainUpdate(n, s));
  g.addEdge(LG_START, NAMES[0]!);
  NAMES.forEach((n, i) => g.addEdge(n, i + 1 < NAMES.length ? NAMES[i + 1]! : LG_END));
  return g.compile();
}

export function langgraphChain(recorded: boolean): Workload {
  const compiled = langgraphChainGraph();
  const handler = new RecordingHandler();
  const graph = recorded ? compiled.withConfig({ callbacks: [handler] }) : compiled;
  const config = { recursionLimit: CHAIN_NODES + 10 };
  const unit = async (invocations: number): Promise<ChainUnitResult> => {
    handler.events = [];
    let total = 0;
    let final: ChainState | undefined;
    for (let k = 0; k < invocations; k++) {
      final = await graph.invoke({}, config);
      total += final.count;
    }
    if (recorded) await awaitAllCallbacks();
    return result(invocations, total, final, recorded ? handler.events : undefined);
  };
  return { run: () => unit(CHAIN_INVOCATIONS_PER_UNIT), warmup: () => unit(CHAIN_WARMUP_INVOCATIONS) };
}

// --------------------------------------------------------------------------------------- floor

export function floorChain(recorded: boolean): Workload {
  const reducers = { log: floorAppend };
  const nodes = NAMES.map((n) => [n, async (s: ChainState) => chainUpdate(n, s)] as const);
  let events: string[] = [];
  const record = (phase: string, node: string, s: ChainState): void => {
    events.push(`${phase}:${node}:${s.count}`);
  };
  const unit = async (invocations: number): Promise<ChainUnitResult> => {
    events = [];
    let total = 0;
    let final: ChainState | undefined;
    for (let k = 0; k < invocations; k++) {
      let s: ChainState = { count: 0, log: [], last: "" };
      for (const [name, fn] of nodes) {
        if (recorded) record("started", name, s);
        s = floorMerge(s, await fn(s), reducers);
        if (recorded) record("completed", name, s);
      }
      final = s;
      total += s.count;
    }
    return result(invocations, total, final, recorded ? events : undefined);
  };
  return { run: () => unit(CHAIN_INVOCATIONS_PER_UNIT), warmup: () => unit(CHAIN_WARMUP_INVOCATIONS) };
}
