/**
 * The Postgres stores against hostile input, on a real server:
 *
 * - **No SQL from data.** Every statement takes its values as parameters. The attack: a connection
 *   whose session runs `SET client_encoding TO 'SJIS'` and `SET backslash_quote = on` (the pool's
 *   `connect` handler, as an application sharing its pool might), and ids crafted for SJIS — a
 *   byte 0x95 (the UTF-8 of U+0095 is C2 95) makes the server read the following backslash as the
 *   second byte of a double-byte character, so hand escaping's `\\'` ends the literal and the rest
 *   runs as SQL. The save must store the id verbatim (a UTF-8 reader sees the same string),
 *   round-trip it through the store, and leave no table `pwned…` behind.
 * - **Input errors are input errors, before any query:** a NUL or a lone surrogate in an id, an id
 *   over 1,024 UTF-8 bytes → `postgres_input_invalid` (not the transient
 *   `postgres_store_unavailable`), checked before the store touches the server (here: an
 *   unreachable one) and in well under a second; every message quotes an id truncated to 64
 *   characters + "…".
 */
import { expect } from "chai";
import pg from "pg";
import { PostgresCheckpointer, PostgresSessionStore, MAX_ID_BYTES } from "../../src/postgres/index.ts";
import { freshTable, pgUrl, sharedPool } from "../../harness/postgres-server.ts";
import { rejection } from "../checkpoint/helpers.ts";
import { record } from "../checkpoint/shared/protocol.ts";

/** A pool whose every connection runs the attacker-friendly settings on connect. */
function sjisPool(): pg.Pool {
  const pool = new pg.Pool({ connectionString: pgUrl(), max: 2 });
  pool.on("connect", (client) => {
    client.query("SET client_encoding TO 'SJIS'; SET backslash_quote = on").catch(() => {});
  });
  pool.on("error", () => {});
  return pool;
}

async function tableExists(name: string): Promise<boolean> {
  const r = (await sharedPool().query("SELECT to_regclass($1) AS t", [`"${name}"`])) as { rows: { t: string | null }[] };
  return r.rows[0]!.t !== null;
}

/** Ids that broke out of hand-escaped literals (each creates `pwned` if it runs as SQL). */
function hostileIds(pwned: string): string[] {
  return [
    `\x95\\'; COMMIT; CREATE TABLE ${pwned}(x int);--`, // leaves the open transaction, so the table outlives the failed save
    `\x95\\'; CREATE TABLE ${pwned}(x int);--`,
    `\u0255\\'; CREATE TABLE ${pwned}(x int);--`, // C9 95: another lead byte before the backslash
    `'; CREATE TABLE ${pwned}(x int);--`,
    `\\'; CREATE TABLE ${pwned}(x int);--`,
    `$1'); CREATE TABLE ${pwned}(x int);-- "quoted" \\\\ E'x' \n newline`,
    `表\\¥'"`, // 表 is SJIS 95 5C; ¥ is SJIS 5C
  ];
}

describe("postgres: hostile ids on a connection set to SJIS with backslash_quote = on (real server)", function () {
  this.timeout(60_000);
  let pool: pg.Pool;
  before(() => {
    pool = sjisPool();
  });
  after(() => pool.end());

  it("the pool's sessions really run SJIS with backslash_quote on", async () => {
    const r = await pool.query<{ e: string; b: string }>("SELECT current_setting('client_encoding') AS e, current_setting('backslash_quote') AS b");
    expect(r.rows[0]).to.deep.equal({ e: "SJIS", b: "on" });
  });

  it("PostgresSessionStore: each id is stored verbatim and round-trips; no SQL runs from it", async () => {
    const pwned = freshTable("pwned");
    const table = freshTable("ss_hostile");
    const store = new PostgresSessionStore(pool, { table });
    const ids = hostileIds(pwned);
    for (const id of ids) {
      const saved = await store.save(id, { state: { id } });
      expect(saved.version).to.equal(1);
      const back = await store.load(id);
      expect(back?.sessionId, JSON.stringify(id)).to.equal(id);
      expect(back?.state).to.deep.equal({ id });
      expect((await store.save(id, { state: { again: true } }, { expectedVersion: 1 })).version).to.equal(2);
    }
    expect((await store.list()).map((s) => s.sessionId).sort()).to.deep.equal([...ids].sort());
    const stored = (await sharedPool().query(`SELECT session_id FROM "${table}"`)) as { rows: { session_id: string }[] };
    expect(stored.rows.map((r) => r.session_id).sort(), "as a UTF-8 reader sees them").to.deep.equal([...ids].sort());
    expect(await tableExists(pwned), `table ${pwned} created`).to.equal(false);
    for (const id of ids) await store.delete(id);
    expect(await store.list()).to.deep.equal([]);
  });

  it("PostgresCheckpointer: each id is stored verbatim and round-trips; no SQL runs from it", async () => {
    const pwned = freshTable("pwned");
    const table = freshTable("cp_hostile");
    const cp = new PostgresCheckpointer(pool, { table });
    const ids = hostileIds(pwned);
    for (const id of ids) {
      await cp.save(id, record(id, { correlationId: id, graphName: id, resumedFrom: id, state: { id } }));
      await cp.save(id, record(id, { correlationId: id, lastSavedAt: 2000, state: { id, n: 2 } })); // the incremental path
      expect(await cp.compareAndSave(id, 2000, record(id, { correlationId: id, lastSavedAt: 3000, state: { id, n: 3 } }))).to.equal(true);
      const back = await cp.load(id);
      expect(back?.invocationId, JSON.stringify(id)).to.equal(id);
      expect(back?.correlationId).to.equal(id);
      expect(back?.lastSavedAt).to.equal(3000);
      expect(back?.state).to.deep.equal({ id, n: 3 });
    }
    expect((await cp.list()).map((s) => s.invocationId).sort()).to.deep.equal([...ids].sort());
    expect((await cp.list({ correlationId: ids[0]! })).map((s) => s.invocationId)).to.deep.equal([ids[0]]);
    const stored = (await sharedPool().query(`SELECT invocation_id, correlation_id FROM "${table}"`)) as { rows: { invocation_id: string; correlation_id: string }[] };
    expect(stored.rows.map((r) => r.invocation_id).sort(), "as a UTF-8 reader sees them").to.deep.equal([...ids].sort());
    expect(stored.rows.every((r) => r.correlation_id === r.invocation_id)).to.equal(true);
    expect(await tableExists(pwned), `table ${pwned} created`).to.equal(false);
    for (const id of ids) await cp.delete(id);
    expect(await cp.list()).to.deep.equal([]);
  });

  it("a UTF-8 worker and an SJIS worker share one record (the same row, not two spellings of the id)", async () => {
    const table = freshTable("cp_mixed");
    const id = `\x95\\'mixed表`;
    const sjis = new PostgresCheckpointer(pool, { table });
    const utf8 = new PostgresCheckpointer(sharedPool(), { table });
    await sjis.save(id, record(id));
    expect((await utf8.load(id))?.invocationId).to.equal(id);
    expect(await utf8.compareAndSave(id, 1000, record(id, { lastSavedAt: 5000 }))).to.equal(true);
    expect((await sjis.load(id))?.lastSavedAt).to.equal(5000);
    expect(await sjis.compareAndSave(id, 1000, record(id, { lastSavedAt: 6000 }))).to.equal(false);
  });
});

describe("postgres: input errors are input errors, before any query", function () {
  this.timeout(30_000);
  // An unreachable server: any query would fail with postgres_store_unavailable (after a connect timeout).
  const nowhere = { connectionString: "postgres://nobody@127.0.0.1:1/none", connectionTimeoutMillis: 5000 };
  const huge = "x".repeat(1024 * 1024);

  const cases: [string, string][] = [
    ["a NUL", "a\u0000b"],
    ["a lone surrogate", "a\ud800b"],
    ["an id over the byte limit", huge],
    ["an id one byte over the limit (multi-byte)", "é".repeat(512) + "x"],
  ];

  for (const [what, id] of cases) {
    it(`${what} in an invocation id is postgres_input_invalid, in well under a second`, async () => {
      const cp = new PostgresCheckpointer(nowhere, { table: "t_input" });
      try {
        for (const op of [() => cp.save(id, record(id)), () => cp.compareAndSave(id, null, record(id)), () => cp.load(id), () => cp.delete(id)]) {
          const t0 = Date.now();
          const e = await rejection(op());
          expect(Date.now() - t0).to.be.below(1000);
          expect(e.category).to.equal("postgres_input_invalid");
          expect(e["transient"]).to.equal(false);
          expect(e.message).to.contain("invocationId").and.to.contain(`"t_input"`);
          expect(e.message.length).to.be.below(400);
        }
      } finally {
        await cp.close();
      }
    });

    it(`${what} in a session id is postgres_input_invalid, in well under a second`, async () => {
      const store = new PostgresSessionStore(nowhere, { table: "t_input" });
      try {
        for (const op of [() => store.save(id, { state: {} }), () => store.load(id), () => store.delete(id)]) {
          const t0 = Date.now();
          const e = await rejection(op());
          expect(Date.now() - t0).to.be.below(1000);
          expect(e.category).to.equal("postgres_input_invalid");
          expect(e.message).to.contain("sessionId");
          expect(e.message.length).to.be.below(400);
        }
      } finally {
        await store.close();
      }
    });
  }

  it("the limit is 1,024 UTF-8 bytes: an id of exactly that many round-trips", async () => {
    expect(MAX_ID_BYTES).to.equal(1024);
    const cp = new PostgresCheckpointer(sharedPool(), { table: freshTable("cp_limit") });
    const id = "é".repeat(511) + "xy"; // 1,024 bytes
    await cp.save(id, record(id, { correlationId: id }));
    expect((await cp.load(id))?.invocationId).to.equal(id);
    const store = new PostgresSessionStore(sharedPool(), { table: freshTable("ss_limit") });
    await store.save(id, { state: { ok: 1 } });
    expect((await store.load(id))?.sessionId).to.equal(id);
  });

  it("a NUL in a record's text field (correlation id, schema version) is postgres_input_invalid naming the field", async () => {
    const cp = new PostgresCheckpointer(nowhere, { table: "t_input" });
    try {
      const e = await rejection(cp.save("ok", record("ok", { correlationId: "c\u0000" })));
      expect(e.category).to.equal("postgres_input_invalid");
      expect(e.message).to.contain("correlationId");
      const store = new PostgresSessionStore(nowhere, { table: "t_input" });
      const s = await rejection(store.save("ok", { state: {}, schemaVersion: "v\u0000" }));
      expect(s.category).to.equal("postgres_input_invalid");
      expect(s.message).to.contain("schemaVersion");
      await store.close();
    } finally {
      await cp.close();
    }
  });

  it("messages quote a long id truncated to 64 characters + …", async () => {
    const cp = new PostgresCheckpointer(nowhere, { table: "t_input" });
    try {
      const e = await rejection(cp.save(huge, record(huge)));
      expect(e.message).to.contain(`"${"x".repeat(64)}…"`).and.not.to.contain("x".repeat(65));
    } finally {
      await cp.close();
    }
    // A stored record that cannot be read names its (long, valid) id truncated too.
    const id = "k".repeat(64) + "TAIL".repeat(200); // 864 bytes: within the limit
    const table = freshTable("cp_trunc");
    const real = new PostgresCheckpointer(sharedPool(), { table });
    await real.save(id, record(id, { correlationId: "c" }));
    await sharedPool().query(`UPDATE "${table}" SET encoding = 'rot13'`);
    const bad = await rejection(real.load(id));
    expect(bad.category).to.equal("checkpoint_record_invalid");
    expect(bad.message).to.contain(`"${"k".repeat(64)}…"`).and.not.to.contain("TAIL");
  });
});
