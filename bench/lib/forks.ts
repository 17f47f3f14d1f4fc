/**
 * A scenario measured in several processes ("forks", as JMH calls them), merged into one result.
 *
 * A process's JIT and heap settle into a state of their own: the same code can run a few percent
 * apart — occasionally 15 % — from one process to the next (the bench README's sixth round). One
 * process's median is then one draw of that state. The merged median is the median of the forks'
 * medians, so one process in an unusual state does not set the row; p10 / p90 and the sample
 * arrays pool every fork's samples.
 */
import type { ImplResult, ScenarioResult } from "./harness.ts";
import { quantile, summarize } from "./stats.ts";
import { IMPLEMENTATIONS, type ImplId } from "./types.ts";

function medianOf(values: readonly number[]): number {
  return quantile([...values].sort((x, y) => x - y), 0.5);
}

function mergeImpl(xs: readonly ImplResult[]): ImplResult {
  const samples = xs.flatMap((x) => x.samplesUsPerStep);
  const cpuSamples = xs.flatMap((x) => x.samplesCpuUsPerStep);
  const forkMedians = xs.map((x) => x.usPerStep.median);
  const cpuForkMedians = xs.map((x) => x.cpuUsPerStep.median);
  return {
    usPerStep: { ...summarize(samples), median: medianOf(forkMedians) },
    samplesUsPerStep: samples,
    cpuUsPerStep: { ...summarize(cpuSamples), median: medianOf(cpuForkMedians) },
    samplesCpuUsPerStep: cpuSamples,
    unitsPerSample: Math.round(medianOf(xs.map((x) => x.unitsPerSample))),
    samplesPerRound: xs[0]!.samplesPerRound,
    warmupCalls: xs.reduce((n, x) => n + x.warmupCalls, 0),
    timedSteps: xs.reduce((n, x) => n + x.timedSteps, 0),
    forkMedians,
    cpuForkMedians,
  };
}

/** Merge one scenario's results from `forks.length` processes (one result: returned as is). */
export function mergeForks(forks: readonly ScenarioResult[]): ScenarioResult {
  if (forks.length === 0) throw new RangeError("mergeForks: no results");
  if (forks.length === 1) return forks[0]!;
  const first = forks[0]!;
  if (forks.some((f) => f.name !== first.name)) throw new RangeError("mergeForks: results of different scenarios");
  const impls = Object.fromEntries(IMPLEMENTATIONS.map((i) => [i, mergeImpl(forks.map((f) => f.impls[i]))])) as Record<ImplId, ImplResult>;
  const ratio = (a: ImplId, b: ImplId, cpu: boolean): number =>
    cpu ? impls[a].cpuUsPerStep.median / impls[b].cpuUsPerStep.median : impls[a].usPerStep.median / impls[b].usPerStep.median;
  return {
    ...first,
    roundsPlanned: forks.reduce((n, f) => n + f.roundsPlanned, 0),
    roundsRun: forks.reduce((n, f) => n + f.roundsRun, 0),
    wallMs: forks.reduce((n, f) => n + f.wallMs, 0),
    impls,
    ratios: { oursOverLanggraph: ratio("ours", "langgraph", false), oursOverFloor: ratio("ours", "floor", false) },
    cpuRatios: { oursOverLanggraph: ratio("ours", "langgraph", true), oursOverFloor: ratio("ours", "floor", true) },
    forks: forks.length,
  };
}
