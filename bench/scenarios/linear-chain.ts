/** (a) A linear chain of 100 nodes, invoked 200 times (20 samples × 10 invocations for LangGraph). */
import { CHAIN_INVOCATIONS_PER_UNIT, CHAIN_NODES, CHAIN_WARMUP_INVOCATIONS, expectedChainUnit, floorChain, langgraphChain, oursChain } from "../lib/chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "linear-chain",
  order: 10,
  description: `chain of ${CHAIN_NODES} nodes (count+1, append to a list, set a field), invoked repeatedly`,
  notes: [
    `linear-chain: 200 invocations = 20 rounds × ${CHAIN_INVOCATIONS_PER_UNIT} invocations (LangGraph); faster implementations repeat the unit per sample.`,
  ],
  plan: ({ quick }) => ({
    stepsPerUnit: CHAIN_INVOCATIONS_PER_UNIT * CHAIN_NODES,
    unitLabel: `${CHAIN_INVOCATIONS_PER_UNIT} invocations × ${CHAIN_NODES} nodes`,
    rounds: quick ? 2 : 20,
    minRounds: quick ? 1 : 8,
    timeBudgetMs: quick ? 3_000 : 50_000,
    warmupSteps: CHAIN_WARMUP_INVOCATIONS * CHAIN_NODES,
    warmupCalls: 2,
    expected: expectedChainUnit(false),
  }),
  runners: {
    ours: () => oursChain(false),
    langgraph: () => langgraphChain(false),
    floor: () => floorChain(false),
  },
});
