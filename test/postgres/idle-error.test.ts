/**
 * A pool's idle client losing its connection must not crash the process. node-postgres emits
 * `'error'` on the pool when the server ends an idle connection; with no listener, Node throws it
 * (README's shared-pool example crashed 3 of 3 worker processes so). The stores listen on every pool
 * they use — the one they open and the one they are given — adding one listener per pool and
 * removing none, and pass the error to `onIdleConnectionError`. Each case runs in a child process
 * (a crash must not take the test runner with it); the server terminates the pool's connections
 * (`pg_terminate_backend`) while the pool is idle, then the next save must work.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { PostgresCheckpointer, PostgresSessionStore } from "../../src/postgres/index.ts";
import { freshTable, pgUrl } from "../../harness/postgres-server.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const child = fileURLToPath(new URL("./fixtures/idle-error-child.ts", import.meta.url));

function runChild(mode: string, table: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", child, mode, table], { cwd: root, env: { ...process.env, OA_PG_URL: pgUrl() }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (d: Buffer) => (out += d.toString()));
    proc.stderr.on("data", (d: Buffer) => (err += d.toString()));
    proc.on("error", reject);
    proc.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("postgres: an idle connection ended by the server does not crash the process (real server)", function () {
  this.timeout(60_000);

  for (const mode of ["shared", "owned", "sessions"] as const) {
    it(`${mode === "owned" ? "a pool the store opens" : `a pg.Pool passed to ${mode === "shared" ? "PostgresCheckpointer" : "PostgresSessionStore"} (no listener of its own)`}: the process survives, the next save works`, async () => {
      const r = await runChild(mode, freshTable(`idle_${mode}`));
      expect(r.err, r.err).not.to.match(/Unhandled 'error' event|terminating connection due to administrator command/);
      expect(r.code, r.err).to.equal(0);
      const m = /survived (\d+) of (\d+)/.exec(r.out);
      expect(m, r.out).not.to.equal(null);
      expect(Number(m![1]), "onIdleConnectionError saw each idle error").to.equal(Number(m![2]));
    });
  }

  it("a passed-in pool gets one listener however many stores share it; the application's listener stays and is called", async () => {
    const pool = new pg.Pool({ connectionString: pgUrl(), max: 1 });
    const mine: Error[] = [];
    pool.on("error", (e) => void mine.push(e));
    const theirs: Error[] = [];
    const a = new PostgresCheckpointer(pool, { table: freshTable("idle_a"), onIdleConnectionError: (e) => void theirs.push(e) });
    const b = new PostgresSessionStore(pool, { table: freshTable("idle_b") });
    const c = new PostgresCheckpointer(pool, { table: freshTable("idle_c") });
    try {
      expect(pool.listenerCount("error")).to.equal(2);
      await Promise.all([a.ready(), b.ready(), c.ready()]);
      const killer = new pg.Client({ connectionString: pgUrl() });
      await killer.connect();
      const pid = ((await pool.query("SELECT pg_backend_pid() AS pid")) as { rows: { pid: number }[] }).rows[0]!.pid;
      await killer.query("SELECT pg_terminate_backend($1)", [pid]);
      await killer.end();
      for (let i = 0; i < 200 && mine.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(mine.length).to.equal(1);
      expect(theirs).to.deep.equal(mine);
      await a.close(); // removes its callback, not the pool's listener
      expect(pool.listenerCount("error")).to.equal(2);
      await b.save("s", { state: {} });
    } finally {
      await pool.end();
    }
  });
});
