/** (m) The linear chain traced to OpenTelemetry: one span per invocation and per node, batch processor, null exporter. */
import { CHAIN_INVOCATIONS_PER_UNIT, CHAIN_NODES, CHAIN_WARMUP_INVOCATIONS } from "../lib/chain.ts";
import { expectedTracedUnit, floorTracedChain, langgraphTracedChain, oursTracedChain } from "../lib/otel-chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "otel-chain",
  order: 35,
  baseline: "linear-chain",
  description: "linear-chain with one OTel span per invocation and per node (BatchSpanProcessor, null exporter), flushed per unit",
  notes: [
    "otel-chain: ours = OTelObserver as the graph's hooks; floor = the plain loop starting / ending the same spans with the same SDK " +
      "and processor (the floor of tracing itself); LangGraph has no OpenTelemetry export of its own — its equivalent here is a " +
      "callback handler mapping graph / node runs to spans on the same SDK, awaited with awaitAllCallbacks(). " +
      "The overhead rows against linear-chain are the per-step cost of tracing for each implementation.",
  ],
  plan: ({ quick }) => ({
    stepsPerUnit: CHAIN_INVOCATIONS_PER_UNIT * CHAIN_NODES,
    unitLabel: `${CHAIN_INVOCATIONS_PER_UNIT} invocations × ${CHAIN_NODES} nodes + span flush`,
    rounds: quick ? 2 : 20,
    minRounds: quick ? 1 : 8,
    timeBudgetMs: quick ? 3_000 : 50_000,
    warmupSteps: CHAIN_WARMUP_INVOCATIONS * CHAIN_NODES,
    warmupCalls: 2,
    expected: expectedTracedUnit(),
  }),
  runners: {
    ours: () => oursTracedChain(),
    langgraph: () => langgraphTracedChain(),
    floor: () => floorTracedChain(),
  },
});
