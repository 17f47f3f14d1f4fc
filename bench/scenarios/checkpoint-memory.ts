/**
 * (g) Checkpoint save cost, in memory: the `checkpoint-none` chain saving after every node —
 * ours `withCheckpointer(compiled, new InMemoryCheckpointer())`, LangGraph
 * `compile({ checkpointer: new MemorySaver() })` with `durability: "sync"`, the floor a `Map`
 * upsert. Workload: `bench/lib/checkpoint-chain.ts`.
 */
import { CP_INVOCATIONS_PER_UNIT, CP_NODES, expectedCpUnit, floorCpChain, langgraphCpChain, oursCpChain } from "../lib/checkpoint-chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "checkpoint-memory",
  order: 51,
  baseline: "checkpoint-none",
  description: `checkpoint-none + an in-memory checkpointer saving after every node (ours InMemoryCheckpointer, LangGraph MemorySaver)`,
  notes: [
    `checkpoint-memory: ours' InMemoryCheckpointer stores each (frozen) record by reference — an O(1) save of a snapshot record built per node; LangGraph's MemorySaver serializes every checkpoint and every node's pending writes (serde) into nested objects; the floor stores { state, completedNodes } in a Map (by reference). ` +
      `LangGraph runs with durability: "sync" (its default "async" overlaps the write with the next step; ours always awaits the save). Verified per unit: final states, node-save counts (${CP_INVOCATIONS_PER_UNIT * CP_NODES}), and the last invocation's saved state read back from the store.`,
  ],
  plan: ({ quick }) => ({
    stepsPerUnit: CP_INVOCATIONS_PER_UNIT * CP_NODES,
    unitLabel: `${CP_INVOCATIONS_PER_UNIT} invocations × ${CP_NODES} nodes, 1 save per node`,
    rounds: quick ? 1 : 10,
    minRounds: quick ? 1 : 5,
    timeBudgetMs: quick ? 2_000 : 10_000,
    warmupCalls: quick ? 2 : 5, // LangGraph's checkpoint paths need ~500 steps to warm up
    expected: expectedCpUnit("memory"),
  }),
  runners: {
    ours: () => oursCpChain("memory"),
    langgraph: () => langgraphCpChain("memory"),
    floor: () => floorCpChain("memory"),
  },
});
