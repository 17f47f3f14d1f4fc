/**
 * Median cost of async units, for the provider benches (bench/llm.ts, bench/retrieval.ts): each
 * implementation is warmed up, then timed in three interleaved rounds (so machine drift hits
 * every implementation alike), each round the median of `samples` runs; the result is the median
 * round, in µs per unit — of the wall clock, and of process CPU time (user + system) over the same
 * runs. On a shared machine a long unit (a 5,000-chunk stream lasts tens of ms) is preempted by
 * other processes in most of its samples, a short one (a 30 µs call) in few, so the wall-clock
 * median grows with the unit's length under load where the CPU time does not.
 */
export interface UnitCost {
  readonly wall: number;
  readonly cpu: number;
}

async function medianCost(run: () => Promise<unknown>, samples: number): Promise<UnitCost> {
  for (let i = 0; i < 20; i++) await run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < samples; i++) {
    const c = process.cpuUsage();
    const t = process.hrtime.bigint();
    await run();
    wall.push(Number(process.hrtime.bigint() - t) / 1000);
    const d = process.cpuUsage(c);
    cpu.push(d.user + d.system);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Wall-clock and CPU medians (µs per unit) per implementation. */
export async function measureCost(impls: Record<string, () => Promise<unknown>>, samples: number, rounds = 3): Promise<Record<string, UnitCost>> {
  const all: Record<string, UnitCost[]> = Object.fromEntries(Object.keys(impls).map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(impls)) all[name]!.push(await medianCost(run, samples));
  }
  return Object.fromEntries(Object.entries(all).map(([n, xs]) => [n, { wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) }]));
}

/** Wall-clock medians (µs per unit) per implementation. */
export async function measure(impls: Record<string, () => Promise<unknown>>, samples: number, rounds = 3): Promise<Record<string, number>> {
  const cost = await measureCost(impls, samples, rounds);
  return Object.fromEntries(Object.entries(cost).map(([n, c]) => [n, c.wall]));
}
