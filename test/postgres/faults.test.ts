/**
 * The Postgres backends against a real server's faults and foreign schemas:
 *
 * - a connection lost mid-save (the server terminates the saving backend while it waits for the
 *   lock of the invocation's record row) is `postgres_store_unavailable` (transient); the save
 *   rolled back, so the last committed record stays, later saves work, and a run whose save failed
 *   so resumes from its last committed record; its message quotes a long id truncated;
 * - the schema is versioned and created once by workers starting together; a schema written by a
 *   newer library, or a foreign table of the store's name, is refused with
 *   `postgres_schema_unsupported`, changing nothing.
 */
import { expect } from "chai";
import pg from "pg";
import { withCheckpointer } from "../../src/checkpoint/index.ts";
import { PostgresCheckpointer, PostgresSessionStore, schemaVersionOf, SCHEMA_TABLE } from "../../src/postgres/index.ts";
import { freshTable, pgUrl, sharedPool } from "../../harness/postgres-server.ts";
import { chain, rejection } from "../checkpoint/helpers.ts";
import { record } from "../checkpoint/shared/protocol.ts";

/** A connection of the test's own that can hold the lock of an invocation's record row, and kill the backend waiting for it. */
async function locker(): Promise<{ hold(table: string, id: string): Promise<void>; killWaiter(table: string): Promise<void>; end(): Promise<void> }> {
  const c = new pg.Client({ connectionString: pgUrl() });
  await c.connect();
  return {
    hold: async (table, id) => {
      await c.query("BEGIN");
      const r = await c.query(`SELECT 1 FROM "${table}" WHERE invocation_id = $1 FOR UPDATE`, [id]);
      if (r.rows.length !== 1) throw new Error(`no record row of ${id} to lock`);
    },
    killWaiter: async (table) => {
      for (let i = 0; i < 400; i++) {
        const r = await c.query(
          `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
           WHERE pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query LIKE '%' || $1 || '%'`,
          [`"${table}"`],
        );
        if (r.rows.length > 0) return;
        await new Promise((res) => setTimeout(res, 25));
      }
      throw new Error("no save waited for the lock");
    },
    end: () => c.end(),
  };
}

describe("postgres: faults and schema versions (real server)", function () {
  this.timeout(60_000);

  it("a connection lost mid-save is postgres_store_unavailable; the last committed record stays and the store keeps working", async () => {
    const table = freshTable("fault");
    const own = new PostgresCheckpointer(pgUrl(), { table }); // its own pool: the terminated connection is its own
    const l = await locker();
    try {
      const first = record("inv", { lastSavedAt: 1000 });
      await own.save("inv", first);
      await l.hold(table, "inv");
      const saving = own.save("inv", record("inv", { lastSavedAt: 2000 }));
      saving.catch(() => {}); // observed below, after the kill (no unhandled-rejection warning meanwhile)
      await l.killWaiter(table);
      const e = await rejection(saving);
      expect(e.category).to.equal("postgres_store_unavailable");
      expect(e["transient"]).to.equal(true);
      expect(e.message).to.contain(`saving "inv"`).and.to.contain("rolled back");
      await l.end();
      expect((await own.load("inv"))!.lastSavedAt).to.equal(1000);
      await own.save("inv", record("inv", { lastSavedAt: 3000 }));
      expect((await own.load("inv"))!.lastSavedAt).to.equal(3000);
    } finally {
      await own.close();
    }
  });

  it("a connection lost while saving a long id quotes it truncated to 64 characters + …", async () => {
    const table = freshTable("fault_long");
    const id = "k".repeat(64) + "TAIL".repeat(200); // 864 bytes: within the limit
    const own = new PostgresCheckpointer(pgUrl(), { table });
    const l = await locker();
    try {
      await own.save(id, record(id, { correlationId: "c" }));
      await l.hold(table, id);
      const saving = own.save(id, record(id, { correlationId: "c", lastSavedAt: 2000 }));
      saving.catch(() => {});
      await l.killWaiter(table);
      const e = await rejection(saving);
      expect(e.category).to.equal("postgres_store_unavailable");
      expect(e.message).to.contain(`saving "${"k".repeat(64)}…"`).and.not.to.contain("TAIL");
    } finally {
      await l.end();
      await own.close();
    }
  });

  it("a run whose save loses its connection fails with checkpoint_save_failed (cause postgres_store_unavailable) and resumes from its last committed record", async () => {
    const table = freshTable("fault_run");
    const cp = new PostgresCheckpointer(pgUrl(), { table });
    const l = await locker();
    const ran: string[] = [];
    const trail = { trail: { type: "list<string>", default: [], reducer: "append" } } as const;
    let holdAt: string | undefined = "n2";
    const body = (name: string) => async () => {
      ran.push(name);
      if (name === holdAt) await l.hold(table, "run-1"); // n2's save will wait for this lock
      return { trail: [name] };
    };
    const graph = chain(trail, [["n1", body("n1")], ["n2", body("n2")], ["n3", body("n3")]], "faulty");
    try {
      const running = withCheckpointer(graph, cp).invoke({}, { invocationId: "run-1" });
      running.catch(() => {});
      await l.killWaiter(table);
      const e = await rejection(running);
      expect(e.category).to.equal("checkpoint_save_failed");
      expect((e.cause as { category?: string }).category).to.equal("postgres_store_unavailable");
      await l.end();
      holdAt = undefined;
      const saved = (await cp.load("run-1"))!;
      expect(saved.completedPositions.map((p) => p.nodeName)).to.deep.equal(["n1"]);
      const resumed = await withCheckpointer(graph, cp).resume("run-1");
      expect(resumed.outcome).to.equal("completed");
      expect(resumed.state["trail"]).to.deep.equal(["n1", "n2", "n3"]);
      expect(ran).to.deep.equal(["n1", "n2", "n2", "n3"]); // n1's save held: not re-run; n2's was lost: re-run
    } finally {
      await cp.close();
    }
  });

  it("workers opening one fresh store at once create its schema once, at version 1 (idempotent)", async () => {
    const table = freshTable("schema");
    const stores = [0, 1, 2, 3, 4].map(() => new PostgresCheckpointer(pgUrl(), { table }));
    try {
      await Promise.all(stores.map((s) => s.ready()));
      await Promise.all(stores.map((s, i) => s.save(`i${i}`, record(`i${i}`))));
      expect(await schemaVersionOf(sharedPool(), table)).to.equal(1);
      expect((await stores[0]!.list()).length).to.equal(5);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it("a schema written by a newer library is refused (postgres_schema_unsupported) and left as it is", async () => {
    const table = freshTable("newer");
    const cp = new PostgresCheckpointer(sharedPool(), { table });
    await cp.save("kept", record("kept"));
    await sharedPool().query(`UPDATE ${SCHEMA_TABLE} SET version = 7 WHERE store_table = $1`, [table]);
    const later = new PostgresCheckpointer(sharedPool(), { table });
    const e = await rejection(later.load("kept"));
    expect(e.category).to.equal("postgres_schema_unsupported");
    expect(e.message).to.contain(`"${table}"`).and.to.contain("version 7").and.to.contain("newer version of openarmature").and.to.contain("up to 1");
    expect(await schemaVersionOf(sharedPool(), table)).to.equal(7);
    const sessions = new PostgresSessionStore(sharedPool(), { table });
    expect((await rejection(sessions.load("s"))).category).to.equal("postgres_schema_unsupported"); // holds checkpoints, not sessions
  });

  it("a foreign table of the store's name is refused (postgres_schema_unsupported), not written into", async () => {
    const table = freshTable("foreign");
    await sharedPool().query(`CREATE TABLE "${table}" (a integer)`);
    const e = await rejection(new PostgresSessionStore(sharedPool(), { table }).save("s", { state: {} }));
    expect(e.category).to.equal("postgres_schema_unsupported");
    expect(e.message).to.contain("foreign table");
    expect(((await sharedPool().query(`SELECT count(*)::int AS n FROM "${table}"`)) as { rows: { n: number }[] }).rows[0]!.n).to.equal(0);
  });

  it("an unreachable server is postgres_store_unavailable naming the store's table", async () => {
    const cp = new PostgresCheckpointer({ connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 2000 }, { table: "t_unreachable" });
    try {
      const e = await rejection(cp.load("x"));
      expect(e.category).to.equal("postgres_store_unavailable");
      expect(e.message).to.contain(`"t_unreachable"`);
    } finally {
      await cp.close();
    }
  });
});
