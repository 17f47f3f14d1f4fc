/**
 * (e) Fan-out over 10,000 items, concurrency 16 — `fan-out-1k` at ten times the width (same
 * workload, `bench/lib/fan-out.ts`). One LangGraph unit takes ~10 s, so it takes few rounds
 * (1 with `--quick`) and warms up on 1,000-item invocations.
 */
import { expectedFanOut, FAN_OUT_CONCURRENCY, floorFanOut, langgraphFanOut, oursFanOut } from "../lib/fan-out.ts";
import { defineScenario } from "../lib/types.ts";

const ITEMS = 10_000;
const WARMUP_ITEMS = 1_000;

export default defineScenario({
  name: "fan-out-10k",
  order: 41,
  description: `fan-out over ${ITEMS.toLocaleString("en-US")} items, concurrency ${FAN_OUT_CONCURRENCY} (as fan-out-1k)`,
  notes: [`fan-out-10k: as fan-out-1k; warm-up uses ${WARMUP_ITEMS.toLocaleString("en-US")}-item invocations; LangGraph takes one unit per round (3 rounds, 1 with --quick).`],
  plan: ({ quick }) => ({
    stepsPerUnit: ITEMS,
    unitLabel: `1 invocation × ${ITEMS.toLocaleString("en-US")} items`,
    rounds: quick ? 1 : 3,
    minRounds: quick ? 1 : 2,
    timeBudgetMs: quick ? 1 : 20_000,
    warmupSteps: WARMUP_ITEMS,
    warmupCalls: quick ? 1 : 2,
    expected: expectedFanOut(ITEMS),
  }),
  runners: {
    ours: () => oursFanOut(ITEMS, WARMUP_ITEMS),
    langgraph: () => langgraphFanOut(ITEMS, WARMUP_ITEMS),
    floor: () => floorFanOut(ITEMS, WARMUP_ITEMS),
  },
});
