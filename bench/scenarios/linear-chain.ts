/** (a) A linear chain of 100 nodes, invoked 200 times (20 samples × 10 invocations for LangGraph). */
import { CHAIN_INVOCATIONS_PER_UNIT, CHAIN_NODES, chainPlan, expectedChainUnit, floorChain, langgraphChain, oursChain } from "../lib/chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "linear-chain",
  order: 10,
  description: `chain of ${CHAIN_NODES} nodes (count+1, append to a list, set a field), invoked repeatedly`,
  notes: [
    `linear-chain: 200 invocations = 20 rounds × ${CHAIN_INVOCATIONS_PER_UNIT} invocations (LangGraph); faster implementations repeat the unit per sample.`,
  ],
  plan: ({ quick }) => chainPlan(quick, "", expectedChainUnit(false)),
  runners: {
    ours: () => oursChain(false),
    langgraph: () => langgraphChain(false),
    floor: () => floorChain(false),
  },
});
