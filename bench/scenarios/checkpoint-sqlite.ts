/**
 * (h) Checkpoint save cost, SQLite: the `checkpoint-none` chain saving after every node to a
 * SQLite file — ours `new SqliteCheckpointer(file, { synchronous: "full" })`, LangGraph
 * `new SqliteSaver(db)` (`@langchain/langgraph-checkpoint-sqlite`) with `durability: "sync"`, the
 * floor a prepared `better-sqlite3` upsert. Every database: WAL, `synchronous = FULL`, a temp file
 * under `os.tmpdir()`. Workload: `bench/lib/checkpoint-chain.ts`.
 */
import { CP_INVOCATIONS_PER_UNIT, CP_NODES, expectedCpUnit, floorCpChain, langgraphCpChain, oursCpChain, tmpdirFilesystem } from "../lib/checkpoint-chain.ts";
import { defineScenario } from "../lib/types.ts";

export default defineScenario({
  name: "checkpoint-sqlite",
  order: 52,
  baseline: "checkpoint-none",
  description: `checkpoint-none + a SQLite checkpointer saving after every node (ours SqliteCheckpointer, LangGraph SqliteSaver; WAL, synchronous=FULL)`,
  notes: [
    `checkpoint-sqlite: all three databases are journal_mode=WAL, synchronous=FULL (ours' default; LangGraph's SqliteSaver sets only WAL, so its connection is opened here and set to FULL — better-sqlite3's default is FULL as well), checked on the connections before timing; temp files under os.tmpdir() (${tmpdirFilesystem()}). ` +
      `Per node, ours updates the record row, rewrites the state row and appends one position row (JSON-encoded, one transaction = one WAL fsync); LangGraph inserts the node's pending writes (one transaction) and a new checkpoint row (another), keeping the full history — about 2 fsyncs per node, plus the input and __start__ checkpoints once per invocation; the floor upserts JSON.stringify(state) (1 fsync). better-sqlite3 is synchronous, so a save blocks the event loop in all three.`,
  ],
  plan: ({ quick }) => ({
    stepsPerUnit: CP_INVOCATIONS_PER_UNIT * CP_NODES,
    unitLabel: `${CP_INVOCATIONS_PER_UNIT} invocations × ${CP_NODES} nodes, 1 save per node`,
    rounds: quick ? 1 : 8,
    minRounds: quick ? 1 : 4,
    timeBudgetMs: quick ? 3_000 : 12_000,
    warmupCalls: quick ? 1 : 5, // LangGraph's checkpoint paths need ~500 steps to warm up
    expected: expectedCpUnit("sqlite"),
  }),
  runners: {
    ours: () => oursCpChain("sqlite"),
    langgraph: () => langgraphCpChain("sqlite"),
    floor: () => floorCpChain("sqlite"),
  },
});
