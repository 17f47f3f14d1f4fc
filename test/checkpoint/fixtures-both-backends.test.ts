/**
 * Every upstream checkpoint fixture case (a pipeline-utilities case with a `checkpointer:`) runs
 * against both Checkpointer backends with the same result: once as written (the backend the
 * fixture names), then with the explicit `OA_CHECKPOINT_BACKEND` switch mapping every named
 * backend's store to SQLite, and to the in-memory store. The per-case status and category must be
 * identical across the three runs. Skipped when `../shared/openarmature-spec` is absent.
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

async function runAll(cases: readonly CaseSpec[], backend: string | undefined): Promise<Map<string, CaseResult>> {
  const registry = await loadConformance();
  const saved = process.env[BACKEND_OVERRIDE_ENV];
  if (backend === undefined) delete process.env[BACKEND_OVERRIDE_ENV];
  else process.env[BACKEND_OVERRIDE_ENV] = backend;
  try {
    const out = new Map<string, CaseResult>();
    for (const c of cases) out.set(`${c.fixture.id} › ${c.name}`, await runCaseToResult(c, registry, { caseTimeoutMs: 30_000 }));
    return out;
  } finally {
    if (saved === undefined) delete process.env[BACKEND_OVERRIDE_ENV];
    else process.env[BACKEND_OVERRIDE_ENV] = saved;
  }
}

const outcome = (r: CaseResult | undefined): string => (r === undefined ? "missing" : `${r.status}${r.category ? ` (${r.category})` : ""}`);

(existsSync(upstream) ? describe : describe.skip)("checkpoint fixtures: identical results on both backends", function () {
  this.timeout(180_000);
  const cases = existsSync(upstream) ? checkpointCases() : [];
  let named: Map<string, CaseResult>;
  let sqlite: Map<string, CaseResult>;
  let memory: Map<string, CaseResult>;
  let sqliteFiles = 0;

  before(async function () {
    named = await runAll(cases, undefined);
    const opened = SqliteFile.opened;
    sqlite = await runAll(cases, "sqlite");
    sqliteFiles = SqliteFile.opened - opened;
    memory = await runAll(cases, "in_memory");
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

  it("every case has the same status and category with the in-memory store as with the named backend", () => {
    const diff = [...named].filter(([k, r]) => outcome(r) !== outcome(memory.get(k))).map(([k, r]) => `${k}: named ${outcome(r)}, in_memory ${outcome(memory.get(k))}\n  ${memory.get(k)?.message ?? ""}`);
    expect(diff, diff.join("\n")).to.deep.equal([]);
  });
});
