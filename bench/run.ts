/**
 * `npm run bench` — runs every scenario in `bench/scenarios/` on openarmature, LangGraph.js and the
 * plain-function floor, prints the table and writes `bench/results.json`.
 *
 *   node --import tsx bench/run.ts [--quick] [--scenario NAME ...] [--out FILE] [--list] [--forks N] [--in-process]
 *
 * Each scenario runs in processes of its own, three by default (the three implementations of a
 * scenario share each, in interleaved rounds): what one scenario leaves behind in the JIT and the
 * heap would otherwise change the next one's numbers, and one process's median is one draw of the
 * state its JIT / heap settled into — a row's median is the median of the processes' medians.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { harnessOptions, runScenario, VerificationError, verifyScenario, type ScenarioResult } from "./lib/harness.ts";
import { machineInfo, versionInfo } from "./lib/machine.ts";
import { mergeForks } from "./lib/forks.ts";
import { details, overheadTable, table, writeResults } from "./lib/report.ts";
import { IMPLEMENTATIONS, type Scenario } from "./lib/types.ts";

const BENCH_DIR = new URL("./", import.meta.url);
const ROOT = new URL("../", import.meta.url);

const USAGE = `usage: npm run bench -- [--quick] [--scenario NAME]... [--out FILE] [--list] [--forks N] [--in-process]

  --quick           smaller plan (smoke run, < 30 s); writes bench/results.quick.json
  --scenario NAME   run only NAME (repeatable, or comma-separated)
  --out FILE        results file (default bench/results.json, or bench/results.quick.json with --quick)
  --no-write        do not write a results file
  --verify-only     no timing: run one unit per implementation and compare the results
  --forks N         processes per scenario (default 3; 1 with --quick); a row's median is the median
                    of theirs, so one process whose JIT / heap settled unusually does not set it
  --in-process      run the scenarios one after another in this process (one fork; numbers then
                    depend on which scenarios ran before)
  --list            list the scenarios and exit`;

interface Args {
  quick: boolean;
  scenarios: string[];
  out: string | undefined;
  write: boolean;
  list: boolean;
  verifyOnly: boolean;
  inProcess: boolean;
  forks: number | undefined;
  /** Internal: this process is the child running the one `--scenario`; its result goes to this file. */
  childResult: string | undefined;
}

function parseArgs(argv: readonly string[]): Args {
  const a: Args = { quick: false, scenarios: [], out: undefined, write: true, list: false, verifyOnly: false, inProcess: false, forks: undefined, childResult: undefined };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    const value = (): string => {
      const v = x.includes("=") ? x.slice(x.indexOf("=") + 1) : argv[++i];
      if (v === undefined || v === "") throw new UsageError(`${x} needs a value`);
      return v;
    };
    if (x === "--quick") a.quick = true;
    else if (x === "--scenario" || x.startsWith("--scenario=")) a.scenarios.push(...value().split(",").filter(Boolean));
    else if (x === "--out" || x.startsWith("--out=")) a.out = value();
    else if (x === "--no-write") a.write = false;
    else if (x === "--list") a.list = true;
    else if (x === "--verify-only") a.verifyOnly = true;
    else if (x === "--in-process") a.inProcess = true;
    else if (x === "--forks" || x.startsWith("--forks=")) {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`--forks needs a positive integer, got ${v}`);
      a.forks = n;
    }
    else if (x === "--child-result" || x.startsWith("--child-result=")) a.childResult = value();
    else if (x === "--help" || x === "-h") {
      console.log(USAGE);
      process.exit(0);
    } else throw new UsageError(`unknown argument ${x}`);
  }
  return a;
}

class UsageError extends Error {}

function isScenario(x: unknown): x is Scenario {
  if (typeof x !== "object" || x === null) return false;
  const s = x as Partial<Scenario>;
  return (
    typeof s.name === "string" &&
    typeof s.description === "string" &&
    typeof s.plan === "function" &&
    typeof s.runners === "object" &&
    s.runners !== null &&
    IMPLEMENTATIONS.every((i) => typeof s.runners![i] === "function")
  );
}

/** Every `bench/scenarios/*.ts` (not starting with `_`) whose default export is a scenario. */
async function discover(): Promise<Scenario[]> {
  const dir = new URL("scenarios/", BENCH_DIR);
  const files = readdirSync(fileURLToPath(dir))
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.startsWith("_"))
    .sort();
  const out: Scenario[] = [];
  const seen = new Map<string, string>();
  for (const f of files) {
    const mod = (await import(pathToFileURL(fileURLToPath(new URL(f, dir))).href)) as { default?: unknown };
    if (!isScenario(mod.default)) {
      throw new Error(`bench/scenarios/${f}: the default export must be a scenario ({ name, description, plan, runners: { ${IMPLEMENTATIONS.join(", ")} } })`);
    }
    const prev = seen.get(mod.default.name);
    if (prev) throw new Error(`scenario name "${mod.default.name}" is used by both ${prev} and ${f}`);
    seen.set(mod.default.name, f);
    out.push(mod.default);
  }
  return out.sort((x, y) => (x.order ?? 1000) - (y.order ?? 1000) || x.name.localeCompare(y.name));
}

function reportInvalid(e: VerificationError): void {
  console.error(`\nBENCHMARK INVALID — implementations disagree, nothing was written.\n${e.message}`);
}

/** Exit code of a child whose implementations disagreed (it has printed why). */
const EXIT_INVALID = 3;

/** Run scenario `name` in a child process of this script; its result, or `undefined` if the benchmark was invalid. */
async function runInChild(name: string, quick: boolean): Promise<ScenarioResult | undefined> {
  const dir = mkdtempSync(join(tmpdir(), "oa-bench-"));
  const file = join(dir, "result.json");
  try {
    const argv = [...process.execArgv, fileURLToPath(import.meta.url), "--scenario", name, "--child-result", file, ...(quick ? ["--quick"] : [])];
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(process.execPath, argv, { stdio: ["ignore", "inherit", "inherit"] });
      child.on("error", reject);
      child.on("exit", (c, signal) => resolve(signal ? null : c));
    });
    if (code === EXIT_INVALID) return undefined;
    if (code !== 0) throw new Error(`bench: the process running scenario "${name}" exited with ${code === null ? "a signal" : `code ${code}`}`);
    return JSON.parse(readFileSync(file, "utf8")) as ScenarioResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The child: run the one selected scenario and write its result to `file`. */
async function child(s: Scenario, ctx: { quick: boolean }, file: string): Promise<number> {
  const log = (t: string): void => void process.stderr.write(t);
  try {
    writeFileSync(file, JSON.stringify(await runScenario(s, ctx, harnessOptions(ctx, log))));
    return 0;
  } catch (e) {
    if (e instanceof VerificationError) {
      reportInvalid(e);
      return EXIT_INVALID;
    }
    throw e;
  }
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`bench: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  const all = await discover();
  if (args.list) {
    const width = Math.max(20, ...all.map((s) => s.name.length));
    for (const s of all) console.log(`${s.name.padEnd(width)} ${s.description}`);
    return 0;
  }
  const unknown = args.scenarios.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) {
    console.error(`bench: unknown scenario(s) ${unknown.join(", ")}; available: ${all.map((s) => s.name).join(", ")}`);
    return 2;
  }
  const selected = args.scenarios.length ? all.filter((s) => args.scenarios.includes(s.name)) : all;
  const ctx = { quick: args.quick };
  if (args.inProcess && args.forks !== undefined && args.forks !== 1) {
    console.error("bench: --in-process runs one fork; drop --forks or --in-process");
    return 2;
  }
  const forks = args.inProcess ? 1 : (args.forks ?? (args.quick ? 1 : 3));
  if (args.childResult !== undefined) {
    if (selected.length !== 1) {
      console.error("bench: --child-result runs exactly one --scenario");
      return 2;
    }
    return child(selected[0]!, ctx, args.childResult);
  }
  const log = (t: string): void => void process.stderr.write(t);
  const opts = harnessOptions(ctx, log);
  const machine = machineInfo();
  const versions = versionInfo(ROOT);
  log(
    `bench (${args.quick ? "quick" : "full"}): ${selected.map((s) => s.name).join(", ")}\n` +
      `node ${machine.node}, ${machine.cpuModel} × ${machine.cpuCount}, load ${machine.loadAverage.join(" ")}` +
      Object.entries(versions.srcDirty)
        .filter(([, d]) => d)
        .map(([dir]) => `, ${dir} has uncommitted changes`)
        .join("") +
      "\n",
  );

  if (args.verifyOnly) {
    for (const s of selected) {
      try {
        const ms = await verifyScenario(s, ctx);
        console.log(`ok  ${s.name} (${(ms / 1000).toFixed(1)} s)`);
      } catch (e) {
        if (e instanceof VerificationError) {
          console.error(`FAIL ${e.message}`);
          return 1;
        }
        throw e;
      }
    }
    return 0;
  }

  const started = process.hrtime.bigint();
  const results: ScenarioResult[] = [];
  for (const s of selected) {
    log(`${s.name}: ${s.description}\n`);
    if (!args.inProcess) {
      const runs: ScenarioResult[] = [];
      for (let k = 0; k < forks; k++) {
        if (forks > 1) log(`  process ${k + 1}/${forks}\n`);
        const r = await runInChild(s.name, args.quick);
        if (r === undefined) return 1;
        runs.push(r);
      }
      results.push(mergeForks(runs));
      continue;
    }
    try {
      results.push(await runScenario(s, ctx, opts));
    } catch (e) {
      if (e instanceof VerificationError) {
        reportInvalid(e);
        return 1;
      }
      throw e;
    }
  }
  const totalS = Number(process.hrtime.bigint() - started) / 1e9;

  console.log(`\n${table(results)}\n`);
  console.log(`Process CPU time (user + system) over the same samples — unaffected by other processes' load:\n\n${table(results, true)}\n`);
  const over = overheadTable(results);
  if (over) {
    console.log(
      `Added cost vs the baseline scenario (median µs/step minus the baseline's median, same implementation; one checkpoint save per step in checkpoint-*):\n\n${over}\n\n` +
        `Same, process CPU time:\n\n${overheadTable(results, true)}\n`,
    );
  }
  console.log(details(results));
  const endLoad = machineInfo().loadAverage;
  if (Math.max(machine.loadAverage[0] ?? 0, endLoad[0] ?? 0) > machine.cpuCount) {
    console.log(
      `\nwarning: the machine was busy (1-min load ${machine.loadAverage[0]} → ${endLoad[0]} on ${machine.cpuCount} CPUs); ` +
        "wall-clock numbers are inflated and noisy — compare with the CPU-time table.",
    );
  }
  console.log(`\nall implementations produced identical results in every sample; total ${totalS.toFixed(1)} s`);

  if (args.write) {
    const file = args.out ?? fileURLToPath(new URL(args.quick ? "results.quick.json" : "results.json", BENCH_DIR));
    const { log: _log, ...harness } = opts;
    writeResults(file, args.quick ? "quick" : "full", results, { ...machine, loadAverageEnd: endLoad } as typeof machine, versions, {
      ...harness,
      processes: args.inProcess ? "one for all scenarios" : `${forks} per scenario (a row's median: the median of theirs)`,
      totalSeconds: Math.round(totalS * 10) / 10,
    });
    console.log(`wrote ${file}`);
  }
  return 0;
}

process.exitCode = await main();
