/**
 * The Postgres side of the checkpoint workloads (`checkpoint-postgres`, `checkpoint-loop-postgres`):
 * all three implementations on the same server — `OA_PG_URL`, or the throwaway cluster of
 * `scripts/pg-test-cluster.sh` started on demand (harness/postgres-server.ts) — each with its own
 * connection pool, fresh tables / schema per workload, and the server's durable defaults
 * (`fsync = on`, `synchronous_commit = on`, checked before timing).
 *
 * - ours: `PostgresCheckpointer` (one parameterized statement per save, one round trip; only what changed).
 * - LangGraph: `PostgresSaver` (`@langchain/langgraph-checkpoint-postgres`), `durability: "sync"`.
 * - floor: one parameterized upsert of `JSON.stringify(state)` per save (one round trip, autocommit).
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import pg from "pg";
import type { CheckpointRecord } from "../../src/checkpoint/index.ts";
import { PostgresCheckpointer } from "../../src/postgres/index.ts";
import { freshTable, pgUrl } from "../../harness/postgres-server.ts";
import type { FloorStore } from "./checkpoint-common.ts";

/** Throws unless the server commits durably (fsync and synchronous_commit on). */
async function checkServerDurability(pool: pg.Pool, impl: string, scenario: string): Promise<void> {
  const r = await pool.query<{ fsync: string; sc: string }>("SELECT current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sc");
  const { fsync, sc } = r.rows[0]!;
  if (fsync !== "on" || sc !== "on") throw new Error(`${scenario}: ${impl}'s server has fsync=${fsync}, synchronous_commit=${sc} (expected on/on)`);
}

function newPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: pgUrl(), max: 4 });
  pool.on("error", () => {});
  return pool;
}

/** Counts `save()` calls. */
export class CountingPostgres extends PostgresCheckpointer {
  saves = 0;
  override save(invocationId: string, record: CheckpointRecord): Promise<void> {
    this.saves++;
    return super.save(invocationId, record);
  }
}

/** Ours on fresh tables, its own pool; `ready()` (untimed) creates the tables and checks durability. */
export function oursPostgres(scenario: string): { cp: CountingPostgres; ready(): Promise<void>; dispose(): Promise<void> } {
  const pool = newPool();
  const cp = new CountingPostgres(pool, { table: freshTable("bench_ours") });
  return {
    cp,
    ready: async () => {
      await checkServerDurability(pool, "ours", scenario);
      await cp.ready();
    },
    dispose: () => pool.end(),
  };
}

type PutArgs = Parameters<PostgresSaver["put"]>;

/** Counts `put()` calls of node checkpoints (`metadata.step >= 1`). */
export class CountingPostgresSaver extends PostgresSaver {
  nodeSaves = 0;
  override put(config: PutArgs[0], checkpoint: PutArgs[1], metadata: PutArgs[2], newVersions: PutArgs[3]): ReturnType<PostgresSaver["put"]> {
    if ((metadata.step ?? -1) >= 1) this.nodeSaves++;
    return super.put(config, checkpoint, metadata, newVersions);
  }
}

/** LangGraph's saver in a fresh schema, its own pool; `ready()` (untimed) runs its `setup()`. */
export function langgraphPostgres(scenario: string): { saver: CountingPostgresSaver; ready(): Promise<void>; dispose(): Promise<void> } {
  const pool = newPool();
  const saver = new CountingPostgresSaver(pool, undefined, { schema: freshTable("bench_lg") });
  return {
    saver,
    ready: async () => {
      await checkServerDurability(pool, "LangGraph", scenario);
      await saver.setup();
    },
    dispose: () => pool.end(),
  };
}

/** The floor: a parameterized upsert of `JSON.stringify(state)` per save, in a fresh table. */
export function floorPostgresStore<S>(scenario: string): FloorStore<S> & { ready(): Promise<void> } {
  const pool = newPool();
  const table = freshTable("bench_floor");
  return {
    ready: async () => {
      await checkServerDurability(pool, "floor", scenario);
      await pool.query(`CREATE TABLE "${table}" (id text PRIMARY KEY, completed integer NOT NULL, record text NOT NULL)`);
    },
    save: async (id, state, completedNodes) =>
      void (await pool.query(
        `INSERT INTO "${table}" (id, completed, record) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET completed = excluded.completed, record = excluded.record`,
        [id, completedNodes, JSON.stringify(state)],
      )),
    load: async (id) => {
      const row = (await pool.query<{ completed: number; record: string }>(`SELECT completed, record FROM "${table}" WHERE id = $1`, [id])).rows[0];
      return row && { state: JSON.parse(row.record) as S, completedNodes: row.completed };
    },
    endUnit: () => undefined,
    close: () => void pool.end(),
  };
}
