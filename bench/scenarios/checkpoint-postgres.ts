/**
 * (h2) Checkpoint save cost, Postgres: the `checkpoint-none` chain saving after every node to one
 * Postgres server — ours `new PostgresCheckpointer(pool)`, LangGraph `new PostgresSaver(pool)`
 * (`@langchain/langgraph-checkpoint-postgres`) with `durability: "sync"`, the floor a parameterized
 * upsert. Server: `OA_PG_URL` or the throwaway cluster (`scripts/pg-test-cluster.sh`), fsync and
 * synchronous_commit on (checked). Workload: `bench/lib/checkpoint-chain.ts`.
 */
import { CP_INVOCATIONS_PER_UNIT, CP_NODES, expectedCpUnit, floorCpChain, langgraphCpChain, oursCpChain } from "../lib/checkpoint-chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "checkpoint-postgres",
  order: 53,
  baseline: "checkpoint-none",
  description: `checkpoint-none + a Postgres checkpointer saving after every node (ours PostgresCheckpointer, LangGraph PostgresSaver; one local server, fsync + synchronous_commit on)`,
  notes: [
    `checkpoint-postgres: one local PostgreSQL 15 server over TCP (127.0.0.1), each implementation with its own pool and fresh tables, created in the first (untimed) warm-up call. ` +
      `Per node, ours runs one parameterized statement (one round trip, autocommitted: the record row updated where it carries this checkpointer's writer token, and only then the changed state part and one position row); LangGraph's PostgresSaver writes the node's pending writes and a new checkpoint (keeping the full history); the floor upserts JSON.stringify(state) in one autocommitted statement. Each commit waits for the server's WAL flush.`,
  ],
  plan: ({ quick }) => ({
    stepsPerUnit: CP_INVOCATIONS_PER_UNIT * CP_NODES,
    unitLabel: `${CP_INVOCATIONS_PER_UNIT} invocations × ${CP_NODES} nodes, 1 save per node`,
    rounds: quick ? 1 : 8,
    minRounds: quick ? 1 : 4,
    timeBudgetMs: quick ? 3_000 : 12_000,
    warmupCalls: quick ? 1 : 5, // LangGraph's checkpoint paths need ~500 steps to warm up
    expected: expectedCpUnit("postgres"),
  }),
  runners: {
    ours: () => oursCpChain("postgres"),
    langgraph: () => langgraphCpChain("postgres"),
    floor: () => floorCpChain("postgres"),
  },
});
