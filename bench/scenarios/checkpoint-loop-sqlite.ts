/**
 * (j) Checkpointing over a long run, SQLite: the loop of `checkpoint-loop-memory` (1,000 iterations;
 * 200 with `--quick`) saving after every step to a SQLite file — ours
 * `new SqliteCheckpointer(file, { synchronous: "full" })`, LangGraph `new SqliteSaver(db)` with
 * `durability: "sync"`, the floor a prepared `better-sqlite3` upsert of `JSON.stringify(state)`.
 * Every database: WAL, `synchronous = FULL`, a temp file under `os.tmpdir()`, as in
 * `checkpoint-sqlite`. Workload: `bench/lib/checkpoint-loop.ts`.
 */
import { tmpdirFilesystem } from "../lib/checkpoint-common.ts";
import { expectedLoopUnit, floorCpLoop, langgraphCpLoop, loopIterations, loopWarmupIterations, oursCpLoop } from "../lib/checkpoint-loop.ts";
import { defineScenario } from "../lib/types.ts";

const fmt = (n: number): string => n.toLocaleString("en-US");

export default defineScenario({
  name: "checkpoint-loop-sqlite",
  order: 54,
  description: `one invocation of a ${fmt(1_000)}-iteration loop appending to a history list, a SQLite checkpointer saving after every step (ours SqliteCheckpointer, LangGraph SqliteSaver; WAL, synchronous=FULL)`,
  notes: [
    `checkpoint-loop-sqlite: the checkpoint-loop-memory loop (${fmt(1_000)} iterations, ${fmt(200)} with --quick) saving durably after every step; WAL + synchronous=FULL on all three connections, checked before timing, temp files under os.tmpdir() (${tmpdirFilesystem()}). ` +
      `Ours updates the record row, rewrites the state row and appends only the step's new completed position to its <table>_positions side table (one transaction), instead of rewriting the whole positions list, which grows by one per step; ` +
      `LangGraph's SqliteSaver inserts the step's pending writes and a new checkpoint row holding the full serialized channel values (history included), keeping every checkpoint; the floor upserts JSON.stringify(state). ` +
      `The state — history included — is re-encoded on every save by all three (ours' state row, LangGraph's checkpoint, the floor's JSON), so that part grows with the history everywhere; the fsync per transaction dominates at this length. ` +
      `Warm-up: short invocations (${fmt(100)} iterations; ${fmt(20)} quick). Verified per unit as in checkpoint-loop-memory (the saved state read back with load() / getTuple() / SELECT).`,
  ],
  plan: (ctx) => {
    const n = loopIterations("sqlite", ctx);
    return {
      stepsPerUnit: n,
      unitLabel: `1 invocation × ${fmt(n)} iterations, 1 save per step`,
      rounds: ctx.quick ? 1 : 5,
      minRounds: ctx.quick ? 1 : 3,
      timeBudgetMs: ctx.quick ? 3_000 : 18_000,
      warmupSteps: loopWarmupIterations("sqlite", ctx),
      warmupCalls: ctx.quick ? 2 : 5, // LangGraph's checkpoint paths need ~500 steps to warm up
      expected: expectedLoopUnit(n),
    };
  },
  runners: {
    ours: (ctx) => oursCpLoop("sqlite", ctx),
    langgraph: (ctx) => langgraphCpLoop("sqlite", ctx),
    floor: (ctx) => floorCpLoop("sqlite", ctx),
  },
});
