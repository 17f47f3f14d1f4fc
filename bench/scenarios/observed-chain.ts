/** (c) The linear chain with one recording observer attached, drained at the end of every unit. */
import { chainPlan, expectedChainUnit, floorChain, langgraphChain, oursChain } from "../lib/chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "observed-chain",
  order: 30,
  description: `linear-chain + one observer recording every node start/end, drained per unit`,
  notes: [
    "observed-chain: ours = graph.attachObserver(recorder) + graph.drain() after each unit; " +
      "LangGraph = a BaseCallbackHandler recording handleChainStart/End of node runs, bound with " +
      "compiled.withConfig({ callbacks }) + awaitAllCallbacks() after each unit (LangChain's push-style, " +
      "background-delivered observer with a drain — the closest match; streamMode \"tasks\" is pull-based " +
      "and consumed inline, so it has no drain); floor = the recorder called inline.",
  ],
  plan: ({ quick }) => chainPlan(quick, " + drain", expectedChainUnit(true)),
  runners: {
    ours: () => oursChain(true),
    langgraph: () => langgraphChain(true),
    floor: () => floorChain(true),
  },
});
