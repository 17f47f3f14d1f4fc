/** (c) The linear chain with one recording observer attached, drained at the end of every unit. */
import { CHAIN_INVOCATIONS_PER_UNIT, CHAIN_NODES, CHAIN_WARMUP_INVOCATIONS, expectedChainUnit, floorChain, langgraphChain, oursChain } from "../lib/chain.ts";
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
  plan: ({ quick }) => ({
    stepsPerUnit: CHAIN_INVOCATIONS_PER_UNIT * CHAIN_NODES,
    unitLabel: `${CHAIN_INVOCATIONS_PER_UNIT} invocations × ${CHAIN_NODES} nodes + drain`,
    rounds: quick ? 2 : 20,
    minRounds: quick ? 1 : 8,
    timeBudgetMs: quick ? 3_000 : 50_000,
    warmupSteps: CHAIN_WARMUP_INVOCATIONS * CHAIN_NODES,
    warmupCalls: 2,
    expected: expectedChainUnit(true),
  }),
  runners: {
    ours: () => oursChain(true),
    langgraph: () => langgraphChain(true),
    floor: () => floorChain(true),
  },
});
