/**
 * Profile one implementation of one scenario in-process (V8 sampling profiler via node:inspector)
 * and print where the time goes:
 *
 *   node --import tsx bench/profile.ts SCENARIO [ours|langgraph|floor] [--seconds 5] [--quick]
 *                                     [--top 25] [--filter src/graph/] [--out FILE.cpuprofile]
 *
 * The saved `.cpuprofile` opens in Chrome DevTools / VS Code. (`node --cpu-prof --import tsx ...`
 * works too; this script just skips the warm-up and the other implementations.)
 */
import { writeFileSync } from "node:fs";
import { SourceMap, type SourceMapPayload } from "node:module";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { summarizeProfile, type CpuProfile, type LineResolver } from "./lib/cpuprofile.ts";
import { IMPLEMENTATIONS, type ImplId, type Scenario } from "./lib/types.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

function usage(msg: string): never {
  console.error(`profile: ${msg}\nusage: node --import tsx bench/profile.ts SCENARIO [ours|langgraph|floor] [--seconds N] [--quick] [--top N] [--filter TEXT] [--out FILE]`);
  process.exit(2);
}

const argv = process.argv.slice(2);
const positional: string[] = [];
let seconds = 5;
let quick = false;
let top = 25;
let filter = "src/graph/";
let out: string | undefined;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i]!;
  const next = (): string => argv[++i] ?? usage(`${a} needs a value`);
  if (a === "--seconds") seconds = Number(next());
  else if (a === "--quick") quick = true;
  else if (a === "--top") top = Number(next());
  else if (a === "--filter") filter = next();
  else if (a === "--out") out = next();
  else if (a.startsWith("--")) usage(`unknown option ${a}`);
  else positional.push(a);
}
const [name, implArg = "ours"] = positional;
if (!name) usage("a scenario name is required");
if (!(IMPLEMENTATIONS as readonly string[]).includes(implArg)) usage(`implementation must be one of ${IMPLEMENTATIONS.join(", ")}`);
const impl = implArg as ImplId;

const file = join(fileURLToPath(new URL("scenarios/", import.meta.url)), `${name}.ts`);
const scenario = ((await import(pathToFileURL(file).href)) as { default: Scenario }).default;
const ctx = { quick };
const plan = scenario.plan(ctx);
const w = await scenario.runners[impl](ctx);
try {
  const warmUntil = Date.now() + Math.min(2000, seconds * 200);
  do await (w.warmup ? w.warmup() : w.run());
  while (Date.now() < warmUntil);

  const session = new Session();
  session.connect();
  await session.post("Debugger.enable"); // script sources, for the inline source maps
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 100 });
  await session.post("Profiler.start");
  const t0 = process.hrtime.bigint();
  let units = 0;
  while (Number(process.hrtime.bigint() - t0) / 1e9 < seconds) {
    await w.run();
    units++;
  }
  const elapsedUs = Number(process.hrtime.bigint() - t0) / 1000;
  const { profile } = (await session.post("Profiler.stop")) as { profile: CpuProfile };
  const maps = new Map<string, SourceMap | null>();
  for (const n of profile.nodes) {
    const { scriptId, url } = n.callFrame;
    if (maps.has(scriptId) || !url.startsWith("file://") || url.includes("/node_modules/")) continue;
    maps.set(scriptId, null);
    try {
      const { scriptSource } = (await session.post("Debugger.getScriptSource", { scriptId })) as { scriptSource: string };
      const m = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/.exec(scriptSource);
      if (m) maps.set(scriptId, new SourceMap(JSON.parse(Buffer.from(m[1]!, "base64").toString("utf8")) as SourceMapPayload));
    } catch {
      // no source for this script: keep generated positions
    }
  }
  session.disconnect();
  const resolve: LineResolver = (scriptId, line, column) => {
    const e = maps.get(scriptId)?.findEntry(line, column) as { originalLine?: number } | undefined;
    return e && typeof e.originalLine === "number" ? e.originalLine + 1 : undefined;
  };

  const path = out ?? join(tmpdir(), `bench-${name}-${impl}.cpuprofile`);
  writeFileSync(path, JSON.stringify(profile));
  console.log(`${name} / ${impl}: ${units} unit(s) (${plan.unitLabel}), ${(elapsedUs / (units * plan.stepsPerUnit)).toFixed(2)} µs/step under the profiler`);
  console.log(`profile: ${path}\n`);
  const frames = summarizeProfile(profile, ROOT, resolve);
  const fmt = (x: number): string => x.toFixed(1).padStart(5);
  console.log(" self%  total%  function (top by self time)");
  for (const f of frames.slice(0, top)) console.log(`${fmt(f.selfPct)}  ${fmt(f.totalPct)}   ${f.frame}`);
  if (filter) {
    console.log(`\n self%  total%  functions matching "${filter}" (by total time)`);
    for (const f of frames.filter((x) => x.frame.includes(filter)).sort((a, b) => b.totalPct - a.totalPct).slice(0, top)) {
      console.log(`${fmt(f.selfPct)}  ${fmt(f.totalPct)}   ${f.frame}`);
    }
  }
} finally {
  await w.dispose?.();
}
