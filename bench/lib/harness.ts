/**
 * The measurement loop: build every implementation (untimed), warm each up, calibrate how many units
 * make one sample, then take interleaved timed samples (rotating the implementation order every
 * round) and verify every sample's result against the others.
 */
import { summarize, type Summary } from "./stats.ts";
import { IMPLEMENTATIONS, type ImplId, type RunContext, type Scenario, type ScenarioPlan, type Workload } from "./types.ts";
import { assertSame, canonical, VerificationError } from "./verify.ts";

/** Tuning of the harness itself (not of a scenario). */
export interface HarnessOptions {
  /** A sample repeats the unit until it lasts at least this long (fast implementations). */
  readonly minSampleMs: number;
  /** Fast implementations take several samples per round, up to this many samples in total. */
  readonly targetSamples: number;
  /** Warm-up lasts at least this long per implementation (and at least `plan.warmupCalls` calls). */
  readonly minWarmupMs: number;
  /** Upper bound on warm-up calls. */
  readonly maxWarmupCalls: number;
  /** Progress output (stderr). */
  readonly log: (text: string) => void;
}

export function harnessOptions(ctx: RunContext, log: (text: string) => void): HarnessOptions {
  return ctx.quick
    ? { minSampleMs: 10, targetSamples: 10, minWarmupMs: 100, maxWarmupCalls: 50, log }
    : { minSampleMs: 25, targetSamples: 30, minWarmupMs: 400, maxWarmupCalls: 200, log };
}

export interface ImplResult {
  /** µs per node execution, over the samples. */
  readonly usPerStep: Summary;
  /** Every sample, µs per node execution, in the order taken. */
  readonly samplesUsPerStep: readonly number[];
  /**
   * Process CPU time (user + system, all threads — GC helpers included) per node execution. Unlike
   * the wall clock it does not grow when other processes take the CPU away, so it is the sanity
   * check on a busy machine.
   */
  readonly cpuUsPerStep: Summary;
  readonly samplesCpuUsPerStep: readonly number[];
  /** Units per sample. */
  readonly unitsPerSample: number;
  readonly samplesPerRound: number;
  readonly warmupCalls: number;
  /** Node executions timed in total. */
  readonly timedSteps: number;
  /** Measured in several processes (`bench/lib/forks.ts`): each one's median µs/step; `usPerStep.median` is their median. */
  readonly forkMedians?: readonly number[];
  readonly cpuForkMedians?: readonly number[];
}

export interface ScenarioResult {
  readonly name: string;
  readonly description: string;
  readonly notes: readonly string[];
  /** {@link Scenario.baseline}. */
  readonly baseline?: string;
  readonly stepsPerUnit: number;
  readonly unitLabel: string;
  readonly roundsPlanned: number;
  readonly roundsRun: number;
  readonly wallMs: number;
  /** Every timed sample matched every other one (and `plan.expected` when given). */
  readonly verified: true;
  readonly impls: { readonly [K in ImplId]: ImplResult };
  /** Ratios of medians (µs/step): < 1 means ours is faster. */
  readonly ratios: { readonly oursOverLanggraph: number; readonly oursOverFloor: number };
  /** The same ratios over CPU time. */
  readonly cpuRatios: { readonly oursOverLanggraph: number; readonly oursOverFloor: number };
  /** How many processes measured it (absent: one). */
  readonly forks?: number;
}

function nowNs(): bigint {
  return process.hrtime.bigint();
}

function msSince(t0: bigint): number {
  return Number(nowNs() - t0) / 1e6;
}

class Verifier {
  readonly #scenario: string;
  #reference: string | undefined;
  #from = "the scenario's expected value";
  constructor(scenario: string, plan: ScenarioPlan) {
    this.#scenario = scenario;
    if (plan.expected !== undefined) this.#reference = canonical(plan.expected);
  }
  check(who: ImplId, value: unknown): void {
    const c = canonical(value);
    if (this.#reference === undefined) {
      this.#reference = c;
      this.#from = who;
      return;
    }
    assertSame(this.#scenario, who, c, this.#from, this.#reference);
  }
}

/** Run one scenario end to end. Throws {@link VerificationError} when implementations disagree. */
export async function runScenario(s: Scenario, ctx: RunContext, opt: HarnessOptions): Promise<ScenarioResult> {
  const started = nowNs();
  const plan = s.plan(ctx);
  if (!(plan.stepsPerUnit > 0) || !(plan.rounds > 0)) throw new RangeError(`scenario "${s.name}": stepsPerUnit and rounds must be > 0`);
  const verifier = new Verifier(s.name, plan);
  // warm-up() results are compared among themselves (they are smaller units than run()).
  const warmupVerifier = new Verifier(`${s.name} (warm-up)`, { ...plan, expected: undefined });
  const workloads = new Map<ImplId, Workload>();
  try {
    for (const impl of IMPLEMENTATIONS) workloads.set(impl, await s.runners[impl](ctx));

    // Warm-up; estimate each implementation's cost of one unit.
    const estUnitMs = new Map<ImplId, number>();
    const warmupCalls = new Map<ImplId, number>();
    for (const impl of IMPLEMENTATIONS) {
      const w = workloads.get(impl)!;
      const custom = typeof w.warmup === "function";
      const steps = custom ? plan.warmupSteps : plan.stepsPerUnit;
      if (!steps || steps <= 0) throw new RangeError(`scenario "${s.name}": a warmup() needs plan.warmupSteps`);
      const minCalls = Math.max(1, plan.warmupCalls ?? 2);
      const times: number[] = [];
      const t0 = nowNs();
      while (times.length < minCalls || (msSince(t0) < opt.minWarmupMs && times.length < opt.maxWarmupCalls)) {
        const t = nowNs();
        const r = custom ? await w.warmup!() : await w.run();
        times.push(msSince(t));
        (custom ? warmupVerifier : verifier).check(impl, r); // fail before spending time on samples
      }
      const tail = times.slice(Math.floor(times.length / 2));
      const perStep = tail.reduce((a, b) => a + b, 0) / tail.length / steps;
      estUnitMs.set(impl, perStep * plan.stepsPerUnit);
      warmupCalls.set(impl, times.length);
      opt.log(`  warm-up ${impl}: ${times.length} call(s), ~${(perStep * 1000).toFixed(2)} µs/step\n`);
    }

    // Calibrate: units per sample, samples per round.
    const unitsPerSample = new Map<ImplId, number>();
    const estSampleMs = new Map<ImplId, number>();
    for (const impl of IMPLEMENTATIONS) {
      const u = estUnitMs.get(impl)!;
      const reps = Math.min(10_000, Math.max(1, Math.ceil(opt.minSampleMs / Math.max(u, 1e-6))));
      unitsPerSample.set(impl, reps);
      estSampleMs.set(impl, reps * u);
    }
    const slowest = Math.max(...estSampleMs.values());
    const maxPerRound = Math.max(1, Math.ceil(opt.targetSamples / plan.rounds));
    const perRound = new Map<ImplId, number>();
    for (const impl of IMPLEMENTATIONS) {
      perRound.set(impl, Math.min(maxPerRound, Math.max(1, Math.floor(slowest / estSampleMs.get(impl)!))));
    }

    // Timed, interleaved rounds.
    const samples = new Map<ImplId, number[]>(IMPLEMENTATIONS.map((i) => [i, []]));
    const cpuSamples = new Map<ImplId, number[]>(IMPLEMENTATIONS.map((i) => [i, []]));
    const minRounds = Math.min(plan.rounds, Math.max(1, plan.minRounds ?? plan.rounds));
    const budget = plan.timeBudgetMs ?? Infinity;
    const timedStart = nowNs();
    let round = 0;
    while (round < plan.rounds) {
      const order = IMPLEMENTATIONS.map((_, i) => IMPLEMENTATIONS[(i + round) % IMPLEMENTATIONS.length]!);
      for (const impl of order) {
        const w = workloads.get(impl)!;
        const reps = unitsPerSample.get(impl)!;
        for (let j = 0; j < perRound.get(impl)!; j++) {
          let last: unknown;
          const cpu0 = process.cpuUsage();
          const t = nowNs();
          for (let k = 0; k < reps; k++) last = await w.run();
          const ns = Number(nowNs() - t);
          const cpu = process.cpuUsage(cpu0);
          verifier.check(impl, last);
          const steps = reps * plan.stepsPerUnit;
          samples.get(impl)!.push(ns / 1000 / steps);
          cpuSamples.get(impl)!.push((cpu.user + cpu.system) / steps);
        }
      }
      round++;
      opt.log(`  round ${round}/${plan.rounds} (${(msSince(timedStart) / 1000).toFixed(1)} s)\n`);
      if (round >= minRounds && msSince(timedStart) > budget) break;
    }

    const impls = {} as Record<ImplId, ImplResult>;
    for (const impl of IMPLEMENTATIONS) {
      const xs = samples.get(impl)!;
      const cs = cpuSamples.get(impl)!;
      impls[impl] = {
        usPerStep: summarize(xs),
        samplesUsPerStep: xs,
        cpuUsPerStep: summarize(cs),
        samplesCpuUsPerStep: cs,
        unitsPerSample: unitsPerSample.get(impl)!,
        samplesPerRound: perRound.get(impl)!,
        warmupCalls: warmupCalls.get(impl)!,
        timedSteps: xs.length * unitsPerSample.get(impl)! * plan.stepsPerUnit,
      };
    }
    return {
      name: s.name,
      description: s.description,
      notes: s.notes ?? [],
      ...(s.baseline !== undefined ? { baseline: s.baseline } : {}),
      stepsPerUnit: plan.stepsPerUnit,
      unitLabel: plan.unitLabel,
      roundsPlanned: plan.rounds,
      roundsRun: round,
      wallMs: msSince(started),
      verified: true,
      impls,
      ratios: {
        oursOverLanggraph: impls.ours.usPerStep.median / impls.langgraph.usPerStep.median,
        oursOverFloor: impls.ours.usPerStep.median / impls.floor.usPerStep.median,
      },
      cpuRatios: {
        oursOverLanggraph: impls.ours.cpuUsPerStep.median / impls.langgraph.cpuUsPerStep.median,
        oursOverFloor: impls.ours.cpuUsPerStep.median / impls.floor.cpuUsPerStep.median,
      },
    };
  } finally {
    for (const w of workloads.values()) await w.dispose?.();
  }
}

/**
 * No timing: build every implementation, run one unit of each, and compare the results (a cheap
 * correctness check of the scenarios, e.g. after the engine changed). Resolves with the wall time.
 */
export async function verifyScenario(s: Scenario, ctx: RunContext): Promise<number> {
  const started = nowNs();
  const plan = s.plan(ctx);
  const verifier = new Verifier(s.name, plan);
  const workloads: Workload[] = [];
  try {
    for (const impl of IMPLEMENTATIONS) {
      const w = await s.runners[impl](ctx);
      workloads.push(w);
      verifier.check(impl, await w.run());
    }
  } finally {
    for (const w of workloads) await w.dispose?.();
  }
  return msSince(started);
}

export { VerificationError };
