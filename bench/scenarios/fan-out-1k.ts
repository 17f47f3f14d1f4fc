/**
 * (d) Fan-out over 1,000 items, concurrency 16: one parent invocation runs a one-node worker
 * (`result = x * 2`) per item and gathers the results in item order. µs/step = µs per item.
 * Workload: `bench/lib/fan-out.ts`.
 */
import { expectedFanOut, FAN_OUT_CONCURRENCY, floorFanOut, langgraphFanOut, oursFanOut } from "../lib/fan-out.ts";
import { defineScenario } from "../lib/types.ts";

const ITEMS = 1_000;

export default defineScenario({
  name: "fan-out-1k",
  order: 40,
  description: `fan-out over ${ITEMS.toLocaleString("en-US")} items, concurrency ${FAN_OUT_CONCURRENCY} (worker: result = x * 2), results gathered in item order`,
  notes: [
    `fan-out-1k / fan-out-10k: a step is one item (one worker run), so µs/step = µs per item; the parent invocation and the fan-out / routing node are included in that cost. ` +
      `ours: fanOut({ itemsField, itemField, collectField, targetField, concurrency: ${FAN_OUT_CONCURRENCY} }) over a one-node compiled worker graph; ` +
      `LangGraph: a conditional edge from START returning items.map(x => new Send("worker", { x })), an append reducer gathering the results, invoke({ maxConcurrency: ${FAN_OUT_CONCURRENCY} }); ` +
      `floor: a ${FAN_OUT_CONCURRENCY}-loop promise pool. Results are compared as ORDERED lists (the items are a scrambled permutation): LangGraph applies a superstep's writes in Send order, so its list comes out in item order. ` +
      `Before timing, each implementation runs its graph over 64 items with a worker parked on setImmediate and must reach exactly ${FAN_OUT_CONCURRENCY} workers in flight.`,
  ],
  plan: ({ quick }) => ({
    stepsPerUnit: ITEMS,
    unitLabel: `1 invocation × ${ITEMS.toLocaleString("en-US")} items`,
    rounds: quick ? 1 : 8,
    minRounds: quick ? 1 : 4,
    timeBudgetMs: quick ? 3_000 : 12_000,
    warmupCalls: quick ? 1 : 2,
    expected: expectedFanOut(ITEMS),
  }),
  runners: {
    ours: () => oursFanOut(ITEMS),
    langgraph: () => langgraphFanOut(ITEMS),
    floor: () => floorFanOut(ITEMS),
  },
});
