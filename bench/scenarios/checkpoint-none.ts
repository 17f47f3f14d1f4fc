/**
 * (f) Baseline of the checkpoint scenarios: the 50-node, small-state chain of
 * `bench/lib/checkpoint-chain.ts` with no checkpointer. `checkpoint-memory` / `checkpoint-sqlite`
 * subtract it (per implementation) to give the cost of one save.
 */
import { CP_INVOCATIONS_PER_UNIT, CP_NODES, expectedCpUnit, floorCpChain, langgraphCpChain, oursCpChain } from "../lib/checkpoint-chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "checkpoint-none",
  order: 50,
  description: `chain of ${CP_NODES} nodes, small state (count+1, set a field), no checkpointer — baseline of the checkpoint rows`,
  notes: [
    `checkpoint-*: a ${CP_NODES}-node chain over { count, last } (fixed size), ${CP_INVOCATIONS_PER_UNIT} fresh invocations per unit; checkpoint-none is the same chain without a checkpointer, the baseline of the "+µs per save" table.`,
  ],
  plan: ({ quick }) => ({
    stepsPerUnit: CP_INVOCATIONS_PER_UNIT * CP_NODES,
    unitLabel: `${CP_INVOCATIONS_PER_UNIT} invocations × ${CP_NODES} nodes`,
    rounds: quick ? 1 : 10,
    minRounds: quick ? 1 : 5,
    timeBudgetMs: quick ? 2_000 : 8_000,
    warmupCalls: quick ? 2 : 5, // LangGraph's checkpoint paths need ~500 steps to warm up
    expected: expectedCpUnit("none"),
  }),
  runners: {
    ours: () => oursCpChain("none"),
    langgraph: () => langgraphCpChain("none"),
    floor: () => floorCpChain("none"),
  },
});
