/**
 * (l) Checkpointed fan-out over 10,000 items, SQLite — `checkpoint-fan-out-1k` at ten times the
 * width, where a save that rewrote the whole record would cost ten times as much per item. One unit
 * takes seconds for every implementation, so it takes few rounds and warms up on 1,000-item
 * invocations. Workload: `bench/lib/fan-out.ts`.
 */
import { expectedFanOut, floorFanOut, langgraphFanOut, oursFanOut } from "../lib/fan-out.ts";
import { defineScenario } from "../lib/types.ts";

const ITEMS = 10_000;
const WARMUP_ITEMS = 1_000;
const options = { checkpoint: "sqlite", scenario: "checkpoint-fan-out-10k" } as const;

export default defineScenario({
  name: "checkpoint-fan-out-10k",
  order: 56,
  description: `fan-out-10k checkpointed to SQLite (as checkpoint-fan-out-1k)`,
  notes: [`checkpoint-fan-out-10k: as checkpoint-fan-out-1k over ${ITEMS.toLocaleString("en-US")} items; warm-up uses ${WARMUP_ITEMS.toLocaleString("en-US")}-item invocations; one unit per round (2 rounds, 1 with --quick).`],
  plan: ({ quick }) => ({
    stepsPerUnit: ITEMS,
    unitLabel: `1 invocation × ${ITEMS.toLocaleString("en-US")} items, checkpointed`,
    rounds: quick ? 1 : 2,
    minRounds: 1,
    timeBudgetMs: quick ? 1 : 30_000,
    warmupSteps: WARMUP_ITEMS,
    warmupCalls: 1,
    expected: expectedFanOut(ITEMS, options),
  }),
  runners: {
    ours: () => oursFanOut(ITEMS, WARMUP_ITEMS, options),
    langgraph: () => langgraphFanOut(ITEMS, WARMUP_ITEMS, options),
    floor: () => floorFanOut(ITEMS, WARMUP_ITEMS, options),
  },
});
