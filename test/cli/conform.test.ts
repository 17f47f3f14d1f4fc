/**
 * The `openarmature conform` command as a user runs it: the real `node bin/openarmature.mjs` in a
 * child process, on the small fixture roots in test/cli/fixtures (pass/, mismatch/, typo/).
 */
import { expect } from "chai";
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../support/temp-dir.ts";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURES = "test/cli/fixtures";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function spawnConform(args: ReadonlyArray<string>): Promise<Run> {
  return new Promise((done) => {
    const env = { ...process.env };
    delete env.OA_SPEC_ROOTS;
    execFile(process.execPath, ["bin/openarmature.mjs", "conform", ...args], { cwd: PROJECT, env, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err === null ? 0 : typeof err.code === "number" ? err.code : -1;
      done({ code, stdout, stderr });
    });
  });
}

/** Runs are started ahead (a few at a time) and memoized by their arguments, to keep the suite fast. */
const runs = new Map<string, Promise<Run>>();
let slots = 3;
const waiting: Array<() => void> = [];
function conform(...args: string[]): Promise<Run> {
  const key = JSON.stringify(args);
  let run = runs.get(key);
  if (run === undefined) {
    run = (async () => {
      if (slots === 0) await new Promise<void>((go) => waiting.push(go));
      else slots--;
      try {
        return await spawnConform(args);
      } finally {
        const next = waiting.shift();
        if (next) next();
        else slots++;
      }
    })();
    runs.set(key, run);
  }
  return run;
}

const TMP = tempDir("oa-cli-");
writeFileSync(join(TMP, "file"), "");
const REPORT = join(TMP, "report.json");
/** A root with a passing fixture and a 200 MB one (sparse: no disk, no bytes to read). */
const BIG_ROOT = join(TMP, "big");
mkdirSync(join(BIG_ROOT, "graph-engine", "conformance"), { recursive: true });
copyFileSync(`${FIXTURES}/pass/graph-engine/conformance/001-one-node.yaml`, join(BIG_ROOT, "graph-engine", "conformance", "001-one-node.yaml"));
writeFileSync(join(BIG_ROOT, "graph-engine", "conformance", "002-huge.yaml"), "description: huge\n");
truncateSync(join(BIG_ROOT, "graph-engine", "conformance", "002-huge.yaml"), 200 * 1024 * 1024);
const BAD_COUNTS = ["abc", "-1", "1.5", ""];
/** The shipped fixture whose paced observer receives more than 10 events on one delivery signal. */
const PACED_ROOT = join(TMP, "paced");
const PACED = "103-drain-events-for-fan-out-coverage.yaml";
mkdirSync(join(PACED_ROOT, "graph-engine", "conformance"), { recursive: true });
copyFileSync(join(PROJECT, "spec", "graph-engine", "conformance", PACED), join(PACED_ROOT, "graph-engine", "conformance", PACED));

/** Every command line the tests below run; all are started in `before`, a few at a time. */
const RUNS = {
  pass: ["--spec", `${FIXTURES}/pass`],
  tooHigh: ["--spec", FIXTURES],
  capabilityFolder: ["--spec", `${FIXTURES}/pass/graph-engine`],
  missingRoot: ["--spec", `${FIXTURES}/nope`],
  misspelledCapability: ["--spec", `${FIXTURES}/pass`, "--capability", "graph-engin"],
  grepNothing: ["--spec", `${FIXTURES}/pass`, "--grep", "zzz"],
  unknownFlag: ["--spec", `${FIXTURES}/pass`, "--max-failure", "3"],
  jsonNoFolder: ["--spec", `${FIXTURES}/pass`, "--json", "no-such-folder/out.json"],
  jsonUnderFile: ["--spec", `${FIXTURES}/pass`, "--json", join(TMP, "file", "out.json")],
  mismatch: ["--spec", `${FIXTURES}/mismatch`, "--json", REPORT],
  typo: ["--spec", `${FIXTURES}/typo`],
  retired: ["--spec", `${FIXTURES}/retired`, "--json", join(TMP, "retired.json")],
  retiredStrict: ["--spec", `${FIXTURES}/retired`, "--strict-vocabulary", "--json", join(TMP, "retired-strict.json")],
  huge: ["--spec", BIG_ROOT, "--json", join(TMP, "huge.json")],
  tinyLimit: ["--spec", `${FIXTURES}/pass`, "--max-fixture-bytes", "10"],
  badLimit: ["--spec", `${FIXTURES}/pass`, "--max-fixture-bytes", "8MB"],
  control: ["--spec", `${FIXTURES}/control`],
  paced: ["--spec", PACED_ROOT],
} as const satisfies Record<string, ReadonlyArray<string>>;
/** The mocha conformance entry (test/conformance.test.ts) in a child process, with extra environment. */
function mochaEntry(extra: Record<string, string>, reporter: string): Promise<Run> {
  return new Promise<Run>((done) => {
    const env = { ...process.env, ...extra };
    const args = ["node_modules/mocha/bin/mocha.js", "--no-config", "--node-option", "import=tsx", "--node-option", "no-experimental-require-module",
      "--node-option", "conditions=openarmature-source", "--extension", "ts", "--reporter", reporter, "test/conformance.test.ts"];
    execFile(process.execPath, args, { cwd: PROJECT, env, timeout: 60_000 }, (err, stdout, stderr) => {
      done({ code: err === null ? 0 : typeof err.code === "number" ? err.code : -1, stdout, stderr });
    });
  });
}

const COUNT_RUNS = new Map(BAD_COUNTS.map((bad) => [bad, ["--spec", `${FIXTURES}/mismatch`, `--max-failures=${bad}`]]));

describe("openarmature conform (the CLI, as a child process)", function () {
  this.timeout(120_000);
  before(() => {
    for (const args of [...Object.values(RUNS), ...COUNT_RUNS.values()]) void conform(...args);
  });

  it("runs a folder of passing fixtures and exits 0", async () => {
    const r = await conform(...RUNS.pass);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/graph-engine\s+1\s+0\s+0/);
  });

  it("prints no process warning (MaxListenersExceededWarning) over a fixture with a paced observer", async () => {
    const r = await conform(...RUNS.paced);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/graph-engine\s+1\s+0\s+0/);
    expect(r.stderr).to.not.match(/MaxListenersExceededWarning|Warning:/);
  });

  describe("a command line that selects no fixture exits 2 and says what it looked for", () => {
    it("--spec one folder too high names the root and the folder it probably meant", async () => {
      const r = await conform(...RUNS.tooHigh);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain(`fixture root '${FIXTURES}' holds no <capability>/conformance/ folder`);
      expect(r.stderr).to.contain(`--spec ${FIXTURES}/pass`);
      expect(r.stdout).to.not.contain("passed");
    });

    it("--spec pointing at a capability folder suggests its parent and --capability", async () => {
      const r = await conform(...RUNS.capabilityFolder);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain(`did you mean --spec ${FIXTURES}/pass --capability graph-engine?`);
    });

    it("a missing --spec folder", async () => {
      const r = await conform(...RUNS.missingRoot);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain(`fixture root '${FIXTURES}/nope' is not a directory (it does not exist)`);
    });

    it("a misspelled --capability lists the known names and the nearest one", async () => {
      const r = await conform(...RUNS.misspelledCapability);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain("--capability 'graph-engin' names no capability folder (did you mean 'graph-engine'?)");
      expect(r.stderr).to.contain(`known under ${FIXTURES}/pass: graph-engine`);
    });

    it("a --grep that matches nothing names the grep, the roots and what ids look like", async () => {
      const r = await conform(...RUNS.grepNothing);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain(`--grep /zzz/ matched none of the 1 fixture ids under ${FIXTURES}/pass (capabilities: graph-engine)`);
      expect(r.stderr).to.contain("'graph-engine/001-one-node'");
    });
  });

  it("the mocha conformance entry fails, not passes, when its roots hold no fixture", async () => {
    const r = await mochaEntry({ OA_SPEC_ROOTS: FIXTURES }, "dot");
    expect(r.code, r.stdout + r.stderr).to.equal(1);
    expect(r.stdout).to.contain("discovers at least one fixture");
    expect(r.stdout).to.contain(`fixture root '${FIXTURES}' (from $OA_SPEC_ROOTS) holds no <capability>/conformance/ folder`);
  });

  describe("malformed flags are refused with a usage error before anything runs", () => {
    for (const bad of BAD_COUNTS) {
      it(`--max-failures '${bad}'`, async () => {
        const r = await conform(...(COUNT_RUNS.get(bad) ?? []));
        expect(r.code).to.equal(2);
        expect(r.stderr).to.contain(`--max-failures must be a whole number >= 0, got '${bad}'`);
        expect(r.stdout).to.equal("");
      });
    }

    it("an unknown flag", async () => {
      const r = await conform(...RUNS.unknownFlag);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain("Unknown option '--max-failure'");
      expect(r.stderr).to.contain("usage: openarmature conform");
    });

    it("--json into a folder that does not exist fails before the run, without a stack trace", async () => {
      const r = await conform(...RUNS.jsonNoFolder);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.match(/--json 'no-such-folder\/out.json': folder '.*no-such-folder' does not exist/);
      expect(r.stderr).to.not.contain("    at ");
      expect(r.stdout).to.equal(""); // nothing ran
    });

    it("--json naming a path under a file fails the same way", async () => {
      const r = await conform(...RUNS.jsonUnderFile);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.contain("does not exist");
      expect(r.stdout).to.equal("");
    });
  });

  it("each assertion mismatch points at the line and column of the key that asserted it", async () => {
    const r = await conform(...RUNS.mismatch);
    expect(r.code).to.equal(1);
    const file = `${FIXTURES}/mismatch/graph-engine/conformance/001-wrong-expectations.yaml`;
    for (const text of [r.stdout + r.stderr, (JSON.parse(readFileSync(REPORT, "utf8")) as { results: Array<{ message: string }> }).results[0]!.message]) {
      expect(text).to.contain(`expected.final_state.v: expected 2, got 1 (${file}:13:5)`); // the nested key `v:`
      expect(text).to.contain(`expected.execution_order: expected 2 items, got 1 (entry [1] "a" has no observed item) (${file}:14:3)`);
      expect(text).to.contain(`expected.observer_events.obs[1].post_state.v: expected 7, got 1 (${file}:18:55)`); // inside a flow mapping
      expect(text).to.contain(`expected.observer_event_invariants.a_node_events_count: expected 3, got 2 (${file}:20:5)`);
      expect(text).to.contain(`at ${file}:13:5 (expected.final_state.v)`); // the error's own location: the first mismatch
      expect(text).to.not.contain(`${file}:1:1`);
    }
  });

  it("an unknown key suggests the nearest directive at that position, pattern families included", async () => {
    const r = await conform(...RUNS.typo);
    expect(r.code).to.equal(1);
    expect(r.stderr + r.stdout).to.contain("no directive 'final_stat' is recognized at position 'expected' (did you mean 'final_state'?)");
    expect(r.stderr + r.stdout).to.contain("also 'a_node_event_count' at position 'invariant' (did you mean 'a_node_events_count'?)");
  });

  describe("a fixture too large to load (fixture_too_large)", () => {
    it("a 200 MB fixture fails from its size in seconds; the run goes on with the others", async () => {
      const started = performance.now();
      const r = await conform(...RUNS.huge);
      expect(performance.now() - started, "the whole run, child process included").to.be.below(30_000);
      expect(r.code, r.stderr + r.stdout).to.equal(1);
      expect(r.stdout).to.contain("graph-engine/002-huge").and.contain("fixture_too_large: the fixture file is 209715200 bytes, over the 4194304-byte limit");
      expect(r.stdout).to.match(/graph-engine\s+1\s+1\s+0/);
      const report = JSON.parse(readFileSync(join(TMP, "huge.json"), "utf8")) as { results: Array<{ fixture: string; status: string; category: string | null; durationMs: number }> };
      expect(report.results.map((x) => [x.fixture, x.status, x.category])).to.deep.equal([
        ["graph-engine/001-one-node", "passed", null],
        ["graph-engine/002-huge", "failed", "fixture_too_large"],
      ]);
    });

    it("--max-fixture-bytes sets the limit; a malformed value is a usage error", async () => {
      const tiny = await conform(...RUNS.tinyLimit);
      expect(tiny.code).to.equal(1);
      expect(tiny.stdout).to.contain("over the 10-byte limit; split it, or raise the limit with --max-fixture-bytes");
      const bad = await conform(...RUNS.badLimit);
      expect(bad.code).to.equal(2);
      expect(bad.stderr).to.contain("--max-fixture-bytes must be a whole number >= 0, got '8MB'");
      expect(bad.stdout).to.equal("");
    });
  });

  it("control characters from a fixture are escaped before they reach the terminal", async () => {
    const r = await conform(...RUNS.control);
    expect(r.code).to.equal(1);
    const printed = r.stdout + r.stderr;
    // No raw C0 (other than newline), DEL, C1 or bidi control anywhere in what was printed.
    expect(printed).to.not.match(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(printed).to.contain("evil\\x1b[2J\\rname\\x9b31m\\u202e"); // the case name, on its title line
    expect(printed).to.contain("red\\r\\x85"); // a value the failure echoes
  });

  describe("retired vocabulary (the legacy bundle)", () => {
    const file = `${FIXTURES}/retired/graph-engine/conformance/001-retired-collector.yaml`;
    it("is checked and counted: the table's deprecated column, the block naming where, and --json", async () => {
      const r = await conform(...RUNS.retired);
      expect(r.code, r.stderr + r.stdout).to.equal(0);
      expect(r.stdout).to.match(/capability\s+passed\s+failed\s+skipped\s+deprecated\s+seconds/);
      expect(r.stdout).to.match(/graph-engine\s+1\s+0\s+0\s+1\s/);
      expect(r.stdout).to.contain("deprecated vocabulary: 1 use of vocabulary the 0.120.1 seed retires or never defined");
      expect(r.stdout).to.contain("does_not_contain_event_of_type ×1 → event_count: {event_type: <T>, count: 0} (conformance-adapter 0.120.1 §5.5)");
      expect(r.stdout).to.contain(`at ${file}:17:7 (expected.observers.all.does_not_contain_event_of_type)`);
      const report = JSON.parse(readFileSync(join(TMP, "retired.json"), "utf8")) as {
        strictVocabulary: boolean;
        deprecations: Array<{ directive: string; count: number }>;
        results: Array<{ status: string; deprecations: Array<{ directive: string; location: string }> }>;
      };
      expect(report.strictVocabulary).to.equal(false);
      expect(report.deprecations.map((d) => [d.directive, d.count])).to.deep.equal([["does_not_contain_event_of_type", 1]]);
      expect(report.results[0]!.deprecations[0]!.location).to.equal(`${file}:17:7 (expected.observers.all.does_not_contain_event_of_type)`);
    });

    it("--strict-vocabulary refuses it as fixture_directive_unknown naming the replacement", async () => {
      const r = await conform(...RUNS.retiredStrict);
      expect(r.code).to.equal(1);
      expect(r.stdout + r.stderr).to.contain(
        "fixture_directive_unknown: no directive 'does_not_contain_event_of_type' is recognized at position 'collector': retired by conformance-adapter 0.120.1 §5.5, refused under --strict-vocabulary; write event_count: {event_type: <T>, count: 0} instead",
      );
      expect(r.stdout).to.not.contain("deprecated");
      const report = JSON.parse(readFileSync(join(TMP, "retired-strict.json"), "utf8")) as { strictVocabulary: boolean; results: Array<{ category: string }> };
      expect(report.strictVocabulary).to.equal(true);
      expect(report.results[0]!.category).to.equal("fixture_directive_unknown");
    });

    it("the mocha entry names each use in the test title and counts them at the end; $OA_STRICT_VOCABULARY refuses them", async () => {
      const [lax, strict] = await Promise.all([
        mochaEntry({ OA_SPEC_ROOTS: `${FIXTURES}/retired` }, "spec"),
        mochaEntry({ OA_SPEC_ROOTS: `${FIXTURES}/retired`, OA_STRICT_VOCABULARY: "1" }, "spec"),
      ]);
      expect(lax.code, lax.stdout + lax.stderr).to.equal(0);
      expect(lax.stdout).to.contain("001-retired-collector (deprecated: does_not_contain_event_of_type → event_count: {event_type: <T>, count: 0})");
      expect(lax.stdout).to.contain("deprecated vocabulary: 1 use of vocabulary the 0.120.1 seed retires or never defined");
      expect(lax.stdout).to.contain(`at ${file}:17:7`);
      expect(strict.code).to.equal(1);
      expect(strict.stdout).to.contain("[fixture_directive_unknown] fixture_directive_unknown: no directive 'does_not_contain_event_of_type' is recognized at position 'collector': retired by");
    });
  });
});
