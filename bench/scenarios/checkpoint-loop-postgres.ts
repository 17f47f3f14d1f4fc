/**
 * (l) Checkpointing over a long run, Postgres: the loop of `checkpoint-loop-memory` (1,000
 * iterations; 200 with `--quick`) saving after every step to one Postgres server — ours
 * `new PostgresCheckpointer(pool)`, LangGraph `new PostgresSaver(pool)`
 * (`@langchain/langgraph-checkpoint-postgres`) with `durability: "sync"`, the floor a
 * parameterized upsert of `JSON.stringify(state)`. Server: `OA_PG_URL` or the throwaway cluster
 * (`scripts/pg-test-cluster.sh`), fsync and synchronous_commit on (checked). Workload:
 * `bench/lib/checkpoint-loop.ts`, `bench/lib/checkpoint-postgres.ts`.
 */
import { expectedLoopUnit, floorCpLoop, langgraphCpLoop, loopIterations, loopWarmupIterations, oursCpLoop } from "../lib/checkpoint-loop.ts";
import { defineScenario } from "../lib/types.ts";

const fmt = (n: number): string => n.toLocaleString("en-US");

export default defineScenario({
  name: "checkpoint-loop-postgres",
  order: 56,
  description: `one invocation of a ${fmt(1_000)}-iteration loop appending to a history list, a Postgres checkpointer saving after every step (ours PostgresCheckpointer, LangGraph PostgresSaver; one local server, fsync + synchronous_commit on)`,
  notes: [
    `checkpoint-loop-postgres: the checkpoint-loop-memory loop (${fmt(1_000)} iterations, ${fmt(200)} with --quick) saving durably after every step to one local PostgreSQL 15 server over TCP (127.0.0.1), each implementation with its own pool and fresh tables. ` +
      `Ours: one parameterized statement per save (one round trip, autocommitted: the record row updated where it carries this checkpointer's writer token, the changed parts and the new position written only if it was), appending only the step's new completed position; ` +
      `LangGraph's PostgresSaver writes the step's pending writes and a new checkpoint (its channel blobs) per step, keeping every checkpoint; the floor upserts JSON.stringify(state) in one autocommitted statement. ` +
      `Each commit waits for the server's WAL flush. Warm-up: short invocations (${fmt(100)} iterations; ${fmt(20)} quick), which also create the tables (untimed).`,
  ],
  plan: (ctx) => {
    const n = loopIterations("postgres", ctx);
    return {
      stepsPerUnit: n,
      unitLabel: `1 invocation × ${fmt(n)} iterations, 1 save per step`,
      rounds: ctx.quick ? 1 : 5,
      minRounds: ctx.quick ? 1 : 3,
      timeBudgetMs: ctx.quick ? 3_000 : 18_000,
      warmupSteps: loopWarmupIterations("postgres", ctx),
      warmupCalls: ctx.quick ? 2 : 5,
      expected: expectedLoopUnit(n),
    };
  },
  runners: {
    ours: (ctx) => oursCpLoop("postgres", ctx),
    langgraph: (ctx) => langgraphCpLoop("postgres", ctx),
    floor: (ctx) => floorCpLoop("postgres", ctx),
  },
});
