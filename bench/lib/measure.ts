/**
 * Median wall time of async units, for the provider benches (bench/llm.ts, bench/retrieval.ts):
 * each implementation is warmed up, then timed in three interleaved rounds (so machine drift hits
 * every implementation alike), each round the median of `samples` runs; the result is the median
 * round, in µs per unit.
 */
export async function medianUs(run: () => Promise<unknown>, samples: number): Promise<number> {
  for (let i = 0; i < 20; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - t) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function measure(impls: Record<string, () => Promise<unknown>>, samples: number, rounds = 3): Promise<Record<string, number>> {
  const all: Record<string, number[]> = Object.fromEntries(Object.keys(impls).map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(impls)) all[name]!.push(await medianUs(run, samples));
  }
  return Object.fromEntries(Object.entries(all).map(([n, xs]) => [n, xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!]));
}
