/**
 * The Postgres server the tests and the conformance harness use: its URL comes from the
 * environment variable {@link PG_URL_ENV} (`.ci/run` starts a throwaway cluster with
 * `scripts/pg-test-cluster.sh` and exports it). Without it: under CI (`CI=true`) this throws — the
 * Postgres tests fail rather than silently skip; locally it starts that same throwaway cluster
 * once (it stays up for later runs; `scripts/pg-test-cluster.sh stop` removes it) and exports the
 * URL to this process and its children.
 *
 * Each case gets fresh tables ({@link freshTable}) in one shared pool ({@link sharedPool}) that does
 * not keep the process alive.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import type { PostgresPool } from "../src/postgres/index.ts";

/** The environment variable holding the server's URL. */
export const PG_URL_ENV = "OA_PG_URL";

const script = fileURLToPath(new URL("../scripts/pg-test-cluster.sh", import.meta.url));

/** The server's URL (see the module comment). */
export function pgUrl(): string {
  const given = process.env[PG_URL_ENV];
  if (given !== undefined && given !== "") return given;
  if (process.env["CI"] === "true") {
    throw new Error(`${PG_URL_ENV} is not set: CI must start the test cluster (scripts/pg-test-cluster.sh start, as .ci/run does) and export its URL`);
  }
  const out = execFileSync(script, ["start"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const url = /OA_PG_URL=(\S+)/.exec(out)?.[1];
  if (url === undefined) throw new Error(`scripts/pg-test-cluster.sh start printed no URL: ${out}`);
  process.env[PG_URL_ENV] = url;
  return url;
}

type Pool = PostgresPool & { on(event: "error", listener: (e: Error) => void): unknown };
let pool: Pool | undefined;

/** One pool for this process (idle connections do not keep it alive). node-postgres is loaded here, on first use. */
export function sharedPool(): PostgresPool {
  if (pool === undefined) {
    const pg = createRequire(import.meta.url)("pg") as { Pool: new (config: object) => Pool };
    pool = new pg.Pool({ connectionString: pgUrl(), max: 8, allowExitOnIdle: true, idleTimeoutMillis: 1000 });
    pool.on("error", () => {});
  }
  return pool;
}

let n = 0;

/** A table name no other case (or process) uses. */
export function freshTable(prefix = "oa"): string {
  return `${prefix}_${process.pid}_${Date.now().toString(36)}_${n++}`;
}
