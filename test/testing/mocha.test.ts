/** The mocha root-hooks plugin, loaded as a user loads it (`mocha --require openarmature/testing/mocha`; here by its source path, since a bare self-reference resolves from mocha's own folder). */
import { expect } from "chai";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));

function runFixture(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const args = ["node_modules/mocha/bin/mocha.js", "--no-config", "--node-option", "import=tsx", "--node-option", "conditions=openarmature-source", "--reporter", "json", "--require", "./src/testing/mocha.ts", "test/testing/fixtures/plugin.fixture.ts"];
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd: PROJECT, env: { ...process.env, ...env }, timeout: 60_000 }, (err, stdout) => {
      done({ code: err === null ? 0 : typeof err.code === "number" ? err.code : -1, out: stdout });
    });
  });
}
interface Report {
  stats: { passes: number; failures: number };
  failures: Array<{ title: string; err: { message: string } }>;
}
const report = (out: string): Report => JSON.parse(out.slice(out.indexOf("{"))) as Report;

describe("testing: the mocha plugin", function () {
  this.timeout(60_000);
  it("gives each test a fresh scripted provider; unconsumed when_only scripts pass when not asked", async () => {
    const { code, out } = await runFixture({ OPENARMATURE_STRICT_SCRIPTS: "0", FIXTURE_ASK: "0" });
    const r = report(out);
    expect(r.failures.map((f) => f.err.message)).to.deep.equal([]);
    expect([code, r.stats.passes]).to.deep.equal([0, 4]);
  });
  it("fails exactly the test that leaves a when_only script unconsumed when asked (per test, or by environment)", async () => {
    for (const env of [{ FIXTURE_ASK: "1", OPENARMATURE_STRICT_SCRIPTS: "0" }, { FIXTURE_ASK: "0", OPENARMATURE_STRICT_SCRIPTS: "1" }]) {
      const { code, out } = await runFixture(env);
      const r = report(out);
      expect(code, JSON.stringify(env)).to.equal(1);
      expect(r.failures.map((f) => f.title)).to.deep.equal(["leaves a when_only entry unserved (fails only when strict)"]);
      expect(r.failures[0]!.err.message).to.match(/1 unserved 'when' entry/);
      expect(r.stats.passes).to.equal(4); // the hook failure marks the test failed; the rest still run
    }
  });
});
