/** (m) The linear chain traced to OpenTelemetry: one span per invocation and per node, batch processor, null exporter. */
import { floorTracedChain, langgraphTracedChain, oursTracedChain, tracedChainPlan } from "../lib/otel-chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "otel-chain",
  order: 35,
  baseline: "linear-chain",
  description: "linear-chain with one OTel span per invocation and per node (BatchSpanProcessor, null exporter), flushed per unit",
  notes: [
    "otel-chain: ours = OTelObserver as the graph's hooks; floor = the plain loop starting / ending the same spans with the same SDK " +
      "and processor (the floor of tracing itself; its spans carry no attributes — otel-chain-attributes gives them ours'); LangGraph has no OpenTelemetry export of its own — its equivalent here is a " +
      "callback handler mapping graph / node runs to spans on the same SDK, awaited with awaitAllCallbacks(). " +
      "The overhead rows against linear-chain are the per-step cost of tracing for each implementation.",
  ],
  plan: ({ quick }) => tracedChainPlan(quick, false),
  runners: {
    ours: () => oursTracedChain(),
    langgraph: () => langgraphTracedChain(),
    floor: () => floorTracedChain(),
  },
});
