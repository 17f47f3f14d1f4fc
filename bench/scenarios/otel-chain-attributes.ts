/** (n) otel-chain like for like: LangGraph's handler and the floor give their spans the §5 attributes ours' carry. */
import { floorTracedChain, langgraphTracedChain, oursTracedChain, tracedChainPlan } from "../lib/otel-chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "otel-chain-attributes",
  order: 36,
  baseline: "otel-chain",
  description: "otel-chain with the same span attributes on all three (node name, namespace, step, attempt, correlation id; the invocation attributes)",
  notes: [
    "otel-chain-attributes: otel-chain with LangGraph's handler and the floor setting, right after each span starts (one setAttribute each, the cheapest form the SDK offers), the attributes ours' " +
      "spans carry (per node span 5, per invocation span 6, with a random correlation / invocation id per invocation as ours makes); " +
      "the verified result includes the attribute count the exporter received. Ours runs exactly as in otel-chain; the rows against " +
      "otel-chain are what carrying the attributes costs each of the other two.",
  ],
  plan: ({ quick }) => tracedChainPlan(quick, true),
  runners: {
    ours: () => oursTracedChain(true),
    langgraph: () => langgraphTracedChain(true),
    floor: () => floorTracedChain(true),
  },
});
