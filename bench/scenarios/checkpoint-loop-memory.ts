/**
 * (i) Checkpointing over a long run, in memory: ONE invocation of a loop (`tick` → `tick` while
 * `count < limit`, 5,000 iterations; 1,000 with `--quick`) whose state carries a growing append
 * list (`history`, one entry per step), saving after every step — ours
 * `withCheckpointer(compiled, new InMemoryCheckpointer())`, LangGraph
 * `compile({ checkpointer: new MemorySaver() })` with `durability: "sync"`, the floor a `Map` set.
 * Workload: `bench/lib/checkpoint-loop.ts`.
 */
import { expectedLoopUnit, floorCpLoop, langgraphCpLoop, loopIterations, loopWarmupIterations, oursCpLoop } from "../lib/checkpoint-loop.ts";
import { defineScenario } from "../lib/types.ts";

const fmt = (n: number): string => n.toLocaleString("en-US");

export default defineScenario({
  name: "checkpoint-loop-memory",
  order: 53,
  description: `one invocation of a ${fmt(5_000)}-iteration loop appending to a history list, an in-memory checkpointer saving after every step (ours InMemoryCheckpointer, LangGraph MemorySaver)`,
  notes: [
    `checkpoint-loop-memory: how a checkpointed step's cost scales with the length of ONE run — the checkpoint chains have 50 nodes, too few to show a save that costs O(history so far). ` +
      `One invocation of tick → tick while count < limit (${fmt(5_000)} iterations, ${fmt(1_000)} with --quick), each step appending its count to history (an agent's growing message history) and saving; the save is awaited before the next step. ` +
      `Ours' InMemoryCheckpointer stores each frozen record by reference and the record shares the run's append-only completed-positions list (a prefix view), so a save stays O(1) however long the run; ` +
      `LangGraph's MemorySaver serializes the full channel values (history included) into every checkpoint and keeps all of them, so its save is O(history) and its store O(n²); the floor stores { state, completedNodes } in a Map by reference. ` +
      `The append itself builds a new list per step in all three (ours copies and freezes it; the floor and LangGraph's reducer concat), so part of every step's cost grows with the history with or without a checkpointer. LangGraph: durability "sync", a fresh thread_id, recursionLimit n + 10. Warm-up: short invocations (${fmt(200)} iterations; ${fmt(100)} quick). ` +
      `Verified per unit: final count, history length and last entry, node saves (= iterations), and the saved state's count, history length and completed-node count read back from the store.`,
  ],
  plan: (ctx) => {
    const n = loopIterations("memory", ctx);
    return {
      stepsPerUnit: n,
      unitLabel: `1 invocation × ${fmt(n)} iterations, 1 save per step`,
      rounds: ctx.quick ? 1 : 3,
      minRounds: ctx.quick ? 1 : 2,
      timeBudgetMs: ctx.quick ? 3_000 : 20_000,
      warmupSteps: loopWarmupIterations("memory", ctx),
      warmupCalls: ctx.quick ? 2 : 3, // 600 steps: LangGraph's checkpoint paths need ~500 to warm up
      expected: expectedLoopUnit(n),
    };
  },
  runners: {
    ours: (ctx) => oursCpLoop("memory", ctx),
    langgraph: (ctx) => langgraphCpLoop("memory", ctx),
    floor: (ctx) => floorCpLoop("memory", ctx),
  },
});
