/**
 * (k) Checkpointed fan-out over 1,000 items, SQLite: `fan-out-1k` (concurrency 16, `result = x * 2`,
 * results gathered in item order) run durably checkpointed — ours
 * `withCheckpointer(graph, new SqliteCheckpointer(file, { synchronous: "full" }))`, LangGraph's `Send`
 * fan-out compiled with `new SqliteSaver(db)` and invoked with `durability: "sync"`, the floor's
 * promise pool inserting one row per completed item. Every database: WAL, `synchronous = FULL`, a
 * temp file under `os.tmpdir()`. µs/step = µs per item. Workload: `bench/lib/fan-out.ts`.
 */
import { tmpdirFilesystem } from "../lib/checkpoint-common.ts";
import { expectedFanOut, FAN_OUT_CONCURRENCY, floorFanOut, langgraphFanOut, oursFanOut } from "../lib/fan-out.ts";
import { defineScenario } from "../lib/types.ts";

const ITEMS = 1_000;
const options = { checkpoint: "sqlite", scenario: "checkpoint-fan-out-1k" } as const;

export default defineScenario({
  name: "checkpoint-fan-out-1k",
  order: 55,
  description: `fan-out-1k checkpointed to SQLite (ours SqliteCheckpointer, LangGraph Send + SqliteSaver; WAL, synchronous=FULL)`,
  notes: [
    `checkpoint-fan-out-1k / -10k: the fan-out of fan-out-1k / -10k (concurrency ${FAN_OUT_CONCURRENCY}) durably checkpointed; WAL + synchronous=FULL on all three connections, checked before timing, temp files under os.tmpdir() (${tmpdirFilesystem()}). ` +
      `Ours saves on every completed event and every instance contribution (§10.3, §10.11: ~2 transactions per item), each writing only what changed — the instance's progress row and the record row; the state and the other instances are not rewritten (sqlite-parts.ts). ` +
      `LangGraph (durability "sync", a fresh thread_id per invocation) writes each Send task's writes as it completes (one transaction per item) and a checkpoint per superstep. ` +
      `The floor inserts (run, index, result) per completed item (one transaction per item). µs/step = µs per item. ` +
      `Verified per unit: the ordered results, and the results read back from the backend after the invocation (load() / getTuple() / SELECT count(*)).`,
  ],
  plan: ({ quick }) => ({
    stepsPerUnit: ITEMS,
    unitLabel: `1 invocation × ${ITEMS.toLocaleString("en-US")} items, checkpointed`,
    rounds: quick ? 1 : 4,
    minRounds: quick ? 1 : 2,
    timeBudgetMs: quick ? 3_000 : 15_000,
    warmupCalls: quick ? 1 : 2,
    expected: expectedFanOut(ITEMS, options),
  }),
  runners: {
    ours: () => oursFanOut(ITEMS, undefined, options),
    langgraph: () => langgraphFanOut(ITEMS, undefined, options),
    floor: () => floorFanOut(ITEMS, undefined, options),
  },
});
