/** Order statistics over timing samples. */

/** Linear-interpolated quantile `q` ∈ [0, 1] of `sorted` (ascending). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo]!;
  const b = sorted[hi]!;
  return a + (b - a) * (pos - lo);
}

export interface Summary {
  readonly n: number;
  readonly median: number;
  readonly p10: number;
  readonly p90: number;
  /** Median absolute deviation from the median (unscaled). */
  readonly mad: number;
  readonly min: number;
  readonly max: number;
}

export function summarize(values: readonly number[]): Summary {
  const s = [...values].sort((x, y) => x - y);
  const median = quantile(s, 0.5);
  const dev = s.map((v) => Math.abs(v - median)).sort((x, y) => x - y);
  return {
    n: s.length,
    median,
    p10: quantile(s, 0.1),
    p90: quantile(s, 0.9),
    mad: quantile(dev, 0.5),
    min: s[0] ?? Number.NaN,
    max: s[s.length - 1] ?? Number.NaN,
  };
}
