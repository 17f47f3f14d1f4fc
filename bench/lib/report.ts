/** The printed table and the `results.json` document. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { ScenarioResult } from "./harness.ts";
import type { MachineInfo, VersionInfo } from "./machine.ts";
import type { Summary } from "./stats.ts";
import { IMPLEMENTATIONS, type ImplId } from "./types.ts";

function num(x: number): string {
  if (!Number.isFinite(x)) return "n/a";
  if (x >= 100) return x.toFixed(0);
  if (x >= 10) return x.toFixed(1);
  if (x >= 1) return x.toFixed(2);
  return x.toFixed(3);
}

function cell(s: Summary): string {
  return s.n > 1 ? `${num(s.median)} (${num(s.p10)}–${num(s.p90)})` : num(s.median);
}

function ratio(r: number): string {
  if (!Number.isFinite(r)) return "n/a";
  const digits = r >= 1 ? r.toFixed(2) : r.toPrecision(2);
  return r < 1 ? `${digits} (1/${(1 / r).toFixed(r < 0.1 ? 0 : 1)})` : digits;
}

/** The results table (Markdown): wall-clock µs/step, or process CPU µs/step with `cpu`. */
export function table(results: readonly ScenarioResult[], cpu = false): string {
  const unit = cpu ? "CPU µs/step" : "µs/step";
  const head = ["scenario", `ours ${unit}`, `LangGraph ${unit}`, `floor ${unit}`, "ours/LangGraph", "ours/floor"];
  const rows = results.map((r) => {
    const pick = (i: (typeof IMPLEMENTATIONS)[number]): Summary => (cpu ? r.impls[i].cpuUsPerStep : r.impls[i].usPerStep);
    const rt = cpu ? r.cpuRatios : r.ratios;
    return [r.name, cell(pick("ours")), cell(pick("langgraph")), cell(pick("floor")), ratio(rt.oursOverLanggraph), ratio(rt.oursOverFloor)];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  const sep = `| ${widths.map((w, i) => (i === 0 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`;
  return [line(head), sep, ...rows.map(line)].join("\n");
}

/** A scenario's added cost over its {@link ScenarioResult.baseline}, per implementation. */
export interface Overhead {
  readonly scenario: string;
  readonly baseline: string;
  /** Median µs/step of the scenario minus the baseline's (wall clock). */
  readonly usPerStep: { readonly [K in ImplId]: number };
  /** The same over process CPU time. */
  readonly cpuUsPerStep: { readonly [K in ImplId]: number };
  /** Ratios of the added costs (NaN when one of them is ≤ 0, i.e. lost in the noise). */
  readonly ratios: { readonly oursOverLanggraph: number; readonly oursOverFloor: number };
  readonly cpuRatios: { readonly oursOverLanggraph: number; readonly oursOverFloor: number };
}

const overRatio = (a: number, b: number): number => (a > 0 && b > 0 ? a / b : Number.NaN);

/** Added cost of every scenario whose baseline ran in the same run. */
export function overheads(results: readonly ScenarioResult[]): Overhead[] {
  const out: Overhead[] = [];
  for (const r of results) {
    const base = r.baseline === undefined ? undefined : results.find((b) => b.name === r.baseline);
    if (!base) continue;
    const diff = (cpu: boolean): Record<ImplId, number> =>
      Object.fromEntries(
        IMPLEMENTATIONS.map((i) => [
          i,
          cpu ? r.impls[i].cpuUsPerStep.median - base.impls[i].cpuUsPerStep.median : r.impls[i].usPerStep.median - base.impls[i].usPerStep.median,
        ]),
      ) as Record<ImplId, number>;
    const wall = diff(false);
    const cpu = diff(true);
    out.push({
      scenario: r.name,
      baseline: base.name,
      usPerStep: wall,
      cpuUsPerStep: cpu,
      ratios: { oursOverLanggraph: overRatio(wall.ours, wall.langgraph), oursOverFloor: overRatio(wall.ours, wall.floor) },
      cpuRatios: { oursOverLanggraph: overRatio(cpu.ours, cpu.langgraph), oursOverFloor: overRatio(cpu.ours, cpu.floor) },
    });
  }
  return out;
}

/**
 * The "added cost vs baseline" table (Markdown), or `""` when no scenario's baseline ran:
 * median µs/step of the scenario minus the baseline's, per implementation.
 */
export function overheadTable(results: readonly ScenarioResult[], cpu = false): string {
  const rows = overheads(results).map((o) => {
    const v = cpu ? o.cpuUsPerStep : o.usPerStep;
    const rt = cpu ? o.cpuRatios : o.ratios;
    return [o.scenario, o.baseline, num(v.ours), num(v.langgraph), num(v.floor), ratio(rt.oursOverLanggraph), ratio(rt.oursOverFloor)];
  });
  if (rows.length === 0) return "";
  const unit = cpu ? "CPU µs/step" : "µs/step";
  const head = ["scenario", "minus baseline", `ours +${unit}`, `LangGraph +${unit}`, `floor +${unit}`, "ours/LangGraph", "ours/floor"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((c, i) => (i <= 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" | ")} |`;
  const sep = `| ${widths.map((w, i) => (i <= 1 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`;
  return [line(head), sep, ...rows.map(line)].join("\n");
}

/** Sample counts and notes printed under the table. */
export function details(results: readonly ScenarioResult[]): string {
  const out: string[] = [
    "µs/step = median over samples of (wall-clock sample time / node executions), (p10–p90) in parentheses; ratios are of medians (< 1: ours is faster).",
  ];
  for (const r of results) {
    const per = IMPLEMENTATIONS.map((i) => {
      const x = r.impls[i];
      return `${i} ${x.usPerStep.n} samples × ${x.unitsPerSample} unit(s)`;
    }).join(", ");
    const forks = r.forks !== undefined && r.forks > 1 ? ` in ${r.forks} processes (µs/step: the median of their medians)` : "";
    out.push(`- ${r.name}: unit = ${r.unitLabel}; ${r.roundsRun}/${r.roundsPlanned} rounds${forks}; ${per}; ${(r.wallMs / 1000).toFixed(1)} s`);
  }
  for (const r of results) for (const n of r.notes) out.push(`- note: ${n}`);
  return out.join("\n");
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

function scenarioRecord(r: ScenarioResult, measuredAt: string, overhead: Overhead | undefined): Record<string, unknown> {
  const impl = (k: (typeof IMPLEMENTATIONS)[number]): Record<string, unknown> => {
    const x = r.impls[k];
    const s = x.usPerStep;
    return {
      medianUsPerStep: round3(s.median),
      p10UsPerStep: round3(s.p10),
      p90UsPerStep: round3(s.p90),
      madUsPerStep: round3(s.mad),
      samples: s.n,
      unitsPerSample: x.unitsPerSample,
      warmupCalls: x.warmupCalls,
      timedSteps: x.timedSteps,
      samplesUsPerStep: x.samplesUsPerStep.map(round3),
      ...(x.forkMedians ? { forkMediansUsPerStep: x.forkMedians.map(round3) } : {}),
      cpu: {
        medianUsPerStep: round3(x.cpuUsPerStep.median),
        ...(x.cpuForkMedians ? { forkMediansUsPerStep: x.cpuForkMedians.map(round3) } : {}),
        p10UsPerStep: round3(x.cpuUsPerStep.p10),
        p90UsPerStep: round3(x.cpuUsPerStep.p90),
        samplesUsPerStep: x.samplesCpuUsPerStep.map(round3),
      },
    };
  };
  return {
    name: r.name,
    description: r.description,
    measuredAt,
    unit: r.unitLabel,
    stepsPerUnit: r.stepsPerUnit,
    rounds: { planned: r.roundsPlanned, run: r.roundsRun },
    processes: r.forks ?? 1,
    wallSeconds: Math.round(r.wallMs / 100) / 10,
    verified: r.verified,
    medianUsPerStep: Object.fromEntries(IMPLEMENTATIONS.map((i) => [i, round3(r.impls[i].usPerStep.median)])),
    ratios: { oursOverLanggraph: r.ratios.oursOverLanggraph, oursOverFloor: r.ratios.oursOverFloor },
    cpuMedianUsPerStep: Object.fromEntries(IMPLEMENTATIONS.map((i) => [i, round3(r.impls[i].cpuUsPerStep.median)])),
    cpuRatios: { oursOverLanggraph: r.cpuRatios.oursOverLanggraph, oursOverFloor: r.cpuRatios.oursOverFloor },
    implementations: Object.fromEntries(IMPLEMENTATIONS.map((i) => [i, impl(i)])),
    ...(overhead
      ? {
          overheadVsBaseline: {
            baseline: overhead.baseline,
            definition: "median µs/step of this scenario minus the baseline's, per implementation (the added cost per step)",
            usPerStep: Object.fromEntries(IMPLEMENTATIONS.map((i) => [i, round3(overhead.usPerStep[i])])),
            ratios: overhead.ratios,
            cpuUsPerStep: Object.fromEntries(IMPLEMENTATIONS.map((i) => [i, round3(overhead.cpuUsPerStep[i])])),
            cpuRatios: overhead.cpuRatios,
          },
        }
      : r.baseline !== undefined
        ? { baseline: r.baseline }
        : {}),
    notes: r.notes,
  };
}

/**
 * Write the results document. Scenarios measured earlier (same file, same mode) but not in this
 * run are kept, so `--scenario X` refreshes one row without dropping the others.
 */
export function writeResults(
  file: string,
  mode: "full" | "quick",
  results: readonly ScenarioResult[],
  machine: MachineInfo,
  versions: VersionInfo,
  harness: Record<string, unknown>,
): void {
  const now = new Date().toISOString();
  const over = overheads(results);
  const fresh = results.map((r) => scenarioRecord(r, now, over.find((o) => o.scenario === r.name)));
  let kept: Record<string, unknown>[] = [];
  if (existsSync(file)) {
    try {
      const old = JSON.parse(readFileSync(file, "utf8")) as { mode?: string; scenarios?: Record<string, unknown>[] };
      if (old.mode === mode && Array.isArray(old.scenarios)) {
        const names = new Set(results.map((r) => r.name));
        kept = old.scenarios.filter((s) => !names.has(String(s["name"])));
      }
    } catch {
      // unreadable: overwrite
    }
  }
  const doc = {
    generatedAt: now,
    mode,
    command: `node --import tsx bench/run.ts ${process.argv.slice(2).join(" ")}`.trim(),
    machine,
    versions,
    harness,
    stepDefinition: "one node execution",
    ratioDefinition: "median µs/step of ours divided by the median µs/step of the other implementation (< 1: ours is faster)",
    cpuDefinition: "cpu* fields: process.cpuUsage() user+system µs (all threads) per node execution, same samples",
    scenarios: [...fresh, ...kept],
  };
  writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
}
