/**
 * Retry backoff strategies (pipeline-utilities §6.1 *Backoff with full jitter*, `backoff`).
 *
 * A backoff is `(attemptIndex) => seconds` with a 0-based attempt index: the delay before the
 * attempt after `attemptIndex`. The default is exponential with full jitter,
 * `uniform(0, min(cap, base · 2^attempt))`, base 1 s, cap 30 s — mandatory by default, because fixed
 * exponential delays synchronize concurrent callers into rate-limit storms. The other strategies
 * are the MAY-provide named alternatives (deterministic; useful for tests and fixtures).
 */

/** `(attemptIndex) => seconds` (§6.1 `backoff`). */
export type BackoffFn = (attemptIndex: number) => number;

/** Options for {@link exponentialJitterBackoff} / {@link exponentialBackoff}. */
export interface ExponentialBackoffOptions {
  /** Base delay in seconds. Default `1`. */
  readonly baseSeconds?: number;
  /** Upper bound in seconds. Default `30`. */
  readonly capSeconds?: number;
}

/** Options for {@link exponentialJitterBackoff}. */
export interface JitterBackoffOptions extends ExponentialBackoffOptions {
  /** Uniform random source in `[0, 1)`. Default `Math.random` (inject for reproducible runs). */
  readonly random?: () => number;
}

function nonNegative(name: string, v: number): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a finite non-negative number of seconds, got ${String(v)}`);
  return v;
}

function ceiling(attemptIndex: number, base: number, cap: number): number {
  return Math.min(cap, base * 2 ** attemptIndex);
}

/** §6.1 default: full jitter, `random() · min(cap, base · 2^attempt)` seconds. */
export function exponentialJitterBackoff(options: JitterBackoffOptions = {}): BackoffFn {
  const base = nonNegative("baseSeconds", options.baseSeconds ?? 1);
  const cap = nonNegative("capSeconds", options.capSeconds ?? 30);
  const random = options.random ?? Math.random;
  return (attemptIndex) => random() * ceiling(attemptIndex, base, cap);
}

/** Exponential without jitter: `min(cap, base · 2^attempt)` seconds. */
export function exponentialBackoff(options: ExponentialBackoffOptions = {}): BackoffFn {
  const base = nonNegative("baseSeconds", options.baseSeconds ?? 1);
  const cap = nonNegative("capSeconds", options.capSeconds ?? 30);
  return (attemptIndex) => ceiling(attemptIndex, base, cap);
}

/** The same delay before every re-attempt (`constantBackoff(0)`: no waiting). */
export function constantBackoff(seconds: number): BackoffFn {
  const s = nonNegative("seconds", seconds);
  return () => s;
}

/** `min(cap, step · (attempt + 1))` seconds. */
export function linearBackoff(stepSeconds: number, capSeconds = Infinity): BackoffFn {
  const step = nonNegative("stepSeconds", stepSeconds);
  if (typeof capSeconds !== "number" || Number.isNaN(capSeconds) || capSeconds < 0) throw new RangeError("capSeconds must be non-negative");
  return (attemptIndex) => Math.min(capSeconds, step * (attemptIndex + 1));
}

/** A sleep function: wait `seconds`, rejecting with the signal's reason if `signal` aborts. */
export type SleepFn = (seconds: number, signal?: AbortSignal) => Promise<void>;

/** The default {@link SleepFn}: a timer, abortable through `signal`. */
export const sleepSeconds: SleepFn = (seconds, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, seconds * 1000);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** @internal validate a backoff result before sleeping on it. */
export function checkDelay(seconds: number, attemptIndex: number): number {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
    throw new RangeError(`retry backoff(${attemptIndex}) returned ${String(seconds)}; expected a finite non-negative number of seconds`);
  }
  return seconds;
}
