/**
 * Every upstream checkpoint fixture case (a pipeline-utilities case with a `checkpointer:`) runs
 * against the three Checkpointer backends with the same result: once as written (the backend the
 * fixture names), then with the explicit `OA_CHECKPOINT_BACKEND` switch mapping every named
 * backend's store to SQLite, to Postgres (a real server: `harness/postgres-server.ts`) and to the
 * in-memory store. Every suspension and sessions case likewise runs as written and with the
 * paused-record store (`OA_CHECKPOINT_BACKEND`) and the session store (`OA_SESSION_BACKEND`) on
 * SQLite and on Postgres. The per-case status and category must be identical across the runs.
 * Skipped when `../shared/openarmature-spec` is absent.
 */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadConformance } from "../../src/conformance/setup.ts";
import { discoverFixtures } from "../../src/conformance/discovery.ts";
import { prepareFixture, runCaseToResult, type CaseResult } from "../../src/conformance/run.ts";
import type { CaseSpec } from "../../src/conformance/fixture-model.ts";
import { BACKEND_OVERRIDE_ENV } from "../../harness/checkpoint/backends.ts";
import { SqliteFile } from "../../harness/checkpoint/sqlite-file.ts";
import { openedPostgres } from "../../harness/checkpoint/backends.ts";
import { openedSessionStores, SESSION_BACKEND_ENV } from "../../harness/sessions/backends.ts";
import { pgUrl } from "../../harness/postgres-server.ts";

const upstream = fileURLToPath(new URL("../../../shared/openarmature-spec/spec", import.meta.url));

/** The checkpoint cases of the upstream pipeline-utilities corpus. */
function checkpointCases(): CaseSpec[] {
  const out: CaseSpec[] = [];
  for (const f of discoverFixtures([upstream], { capabilities: ["pipeline-utilities"] }).map(prepareFixture)) {
    if (f.error !== null) continue;
    for (const c of f.cases) if (c.entries.some((e) => e.key === "checkpointer")) out.push(c);
  }
  return out;
}

/** The cases of `capabilities` in the upstream corpus. */
function casesOf(capabilities: string[]): CaseSpec[] {
  const out: CaseSpec[] = [];
  for (const f of discoverFixtures([upstream], { capabilities }).map(prepareFixture)) if (f.error === null) out.push(...f.cases);
  return out;
}

async function runAll(cases: readonly CaseSpec[], backend: string | undefined, sessions?: string): Promise<Map<string, CaseResult>> {
  const registry = await loadConformance();
  const saved = [process.env[BACKEND_OVERRIDE_ENV], process.env[SESSION_BACKEND_ENV]] as const;
  const set = (k: string, v: string | undefined): void => {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  };
  set(BACKEND_OVERRIDE_ENV, backend);
  set(SESSION_BACKEND_ENV, sessions);
  try {
    const out = new Map<string, CaseResult>();
    for (const c of cases) out.set(`${c.fixture.id} › ${c.name}`, await runCaseToResult(c, registry, { caseTimeoutMs: 30_000 }));
    return out;
  } finally {
    set(BACKEND_OVERRIDE_ENV, saved[0]);
    set(SESSION_BACKEND_ENV, saved[1]);
  }
}

/** The cases whose outcome differs between `named` and `other`. */
function differences(named: Map<string, CaseResult>, other: Map<string, CaseResult>, label: string): string[] {
  return [...named].filter(([k, r]) => outcome(r) !== outcome(other.get(k))).map(([k, r]) => `${k}: named ${outcome(r)}, ${label} ${outcome(other.get(k))}\n  ${other.get(k)?.message ?? ""}`);
}

const outcome = (r: CaseResult | undefined): string => (r === undefined ? "missing" : `${r.status}${r.category ? ` (${r.category})` : ""}`);

(existsSync(upstream) ? describe : describe.skip)("checkpoint fixtures: identical results on both backends", function () {
  this.timeout(180_000);
  const cases = existsSync(upstream) ? checkpointCases() : [];
  let named: Map<string, CaseResult>;
  let sqlite: Map<string, CaseResult>;
  let memory: Map<string, CaseResult>;
  let postgres: Map<string, CaseResult>;
  let sqliteFiles = 0;
  let postgresStores = 0;

  before(async function () {
    pgUrl(); // a real server, or (under CI) a failure — never a silent skip
    named = await runAll(cases, undefined);
    const opened = SqliteFile.opened;
    sqlite = await runAll(cases, "sqlite");
    sqliteFiles = SqliteFile.opened - opened;
    memory = await runAll(cases, "in_memory");
    const pg = openedPostgres.count;
    postgres = await runAll(cases, "postgres");
    postgresStores = openedPostgres.count - pg;
  });

  it("finds the checkpoint cases (024–057, 067, 069, 076, ...)", () => {
    const ids = new Set(cases.map((c) => c.fixture.id.split("/")[1]!.slice(0, 3)));
    for (const n of ["024", "025", "029", "030", "031", "039", "043", "048", "054", "056", "057", "067", "069", "076"]) expect(ids, n).to.include(n);
  });

  it("the SQLite run really opens a SQLite database (at least one per passing case)", () => {
    const passing = [...named.values()].filter((r) => r.status === "passed").length;
    expect(passing).to.be.greaterThan(0);
    expect(sqliteFiles).to.be.at.least(passing);
  });

  it("every case has the same status and category with the SQLite store as with the named backend", () => {
    const diff = [...named].filter(([k, r]) => outcome(r) !== outcome(sqlite.get(k))).map(([k, r]) => `${k}: named ${outcome(r)}, sqlite ${outcome(sqlite.get(k))}\n  ${sqlite.get(k)?.message ?? ""}`);
    expect(diff, diff.join("\n")).to.deep.equal([]);
  });

  it("the Postgres run really opens a Postgres checkpointer (at least one per passing case)", () => {
    const passing = [...named.values()].filter((r) => r.status === "passed").length;
    expect(postgresStores).to.be.at.least(passing);
  });

  it("every case has the same status and category with the Postgres store as with the named backend", () => {
    const diff = differences(named, postgres, "postgres");
    expect(diff, diff.join("\n")).to.deep.equal([]);
  });

  it("every case has the same status and category with the in-memory store as with the named backend", () => {
    const diff = [...named].filter(([k, r]) => outcome(r) !== outcome(memory.get(k))).map(([k, r]) => `${k}: named ${outcome(r)}, in_memory ${outcome(memory.get(k))}\n  ${memory.get(k)?.message ?? ""}`);
    expect(diff, diff.join("\n")).to.deep.equal([]);
  });
});

(existsSync(upstream) ? describe : describe.skip)("suspension and sessions fixtures: identical results on the three backends", function () {
  this.timeout(180_000);
  const cases = existsSync(upstream) ? casesOf(["suspension", "sessions"]) : [];
  let named: Map<string, CaseResult>;
  let sqlite: Map<string, CaseResult>;
  let postgres: Map<string, CaseResult>;
  let opened = { checkpointers: 0, sessionStores: 0 };

  before(async function () {
    pgUrl();
    named = await runAll(cases, undefined);
    sqlite = await runAll(cases, "sqlite", "sqlite");
    const cp = openedPostgres.count;
    const ss = openedSessionStores.postgres;
    postgres = await runAll(cases, "postgres", "postgres");
    opened = { checkpointers: openedPostgres.count - cp, sessionStores: openedSessionStores.postgres - ss };
  });

  it("finds the suspension and sessions cases, and the Postgres run opens Postgres stores for them", () => {
    expect(cases.filter((c) => c.fixture.id.startsWith("suspension/")).length).to.be.greaterThan(5);
    expect(cases.filter((c) => c.fixture.id.startsWith("sessions/")).length).to.be.greaterThan(5);
    expect(opened.checkpointers, "paused-record stores").to.be.at.least(cases.filter((c) => c.fixture.id.startsWith("suspension/")).length / 2);
    expect(opened.sessionStores, "session stores").to.be.greaterThan(0);
  });

  it("every case has the same status and category with SQLite stores as as written", () => {
    const diff = differences(named, sqlite, "sqlite");
    expect(diff, diff.join("\n")).to.deep.equal([]);
  });

  it("every case has the same status and category with Postgres stores as as written", () => {
    const diff = differences(named, postgres, "postgres");
    expect(diff, diff.join("\n")).to.deep.equal([]);
  });
});
