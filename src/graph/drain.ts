/**
 * Drain (graph-engine §6 *Drain*, *Per-invocation drain*).
 *
 * - {@link drain}: process-wide (and, via `CompiledGraph.drain`, per graph) — waits for every
 *   delivery worker active at call time (snapshot) to finish. On timeout the unfinished workers are
 *   **cancelled**: their queued / in-flight events count as undelivered and nothing leaks into later
 *   invocations (each invocation has its own worker).
 * - {@link drainEventsFor}: waits until the events of one invocation emitted up to the call have
 *   been delivered. On timeout it reports, and **never cancels** the worker.
 *
 * Worst case without a timeout: as long as the slowest observer chain takes; set `timeoutMs` in
 * short-lived processes (CLIs, scripts, serverless functions).
 */
import type { DeliveryWorker } from "./delivery-queue.ts";

/** Drain options. */
export interface DrainOptions {
  /**
   * Upper bound in milliseconds (non-negative; `Infinity`, `null` or omitted = wait indefinitely).
   * Negative or NaN values are rejected with a `RangeError` before any drain work.
   */
  readonly timeoutMs?: number | null;
}

/** The §6 drain summary (same shape for both drains, with or without timeout). */
export interface DrainSummary {
  /** Whether the timeout elapsed before delivery completed. */
  readonly timeoutReached: boolean;
  /** Events still queued or in flight when the drain returned (0 unless the timeout was reached). */
  readonly undeliveredCount: number;
  /** Events delivered while the drain waited. */
  readonly deliveredCount: number;
  /** Number of invocations (delivery workers) the drain covered. */
  readonly invocationCount: number;
}

const active = new Set<DeliveryWorker>();
const byInvocation = new Map<string, Set<DeliveryWorker>>();

/** @internal engine-side registration of a new worker. */
export function registerWorker(w: DeliveryWorker): void {
  active.add(w);
  let s = byInvocation.get(w.invocationId);
  if (!s) byInvocation.set(w.invocationId, (s = new Set()));
  s.add(w);
}

/** @internal called by a worker when it finishes or is cancelled. */
export function unregisterWorker(w: DeliveryWorker): void {
  active.delete(w);
  const s = byInvocation.get(w.invocationId);
  if (s) {
    s.delete(w);
    if (s.size === 0) byInvocation.delete(w.invocationId);
  }
}

/** Number of delivery workers currently active (introspection / tests). */
export function activeWorkerCount(): number {
  return active.size;
}

function checkTimeout(options: DrainOptions | undefined): number | undefined {
  const t = options?.timeoutMs;
  if (t === undefined || t === null) return undefined;
  if (typeof t !== "number") throw new TypeError(`drain timeoutMs must be a number, got ${typeof t}`);
  if (Number.isNaN(t) || t < 0) throw new RangeError(`drain timeoutMs must be a non-negative number, got ${t}`);
  return t === Infinity ? undefined : t;
}

const EMPTY: DrainSummary = Object.freeze({ timeoutReached: false, undeliveredCount: 0, deliveredCount: 0, invocationCount: 0 });

async function waitWithTimeout(work: Promise<unknown>, timeoutMs: number | undefined): Promise<boolean> {
  if (timeoutMs === undefined) {
    await work;
    return false;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs)));
  try {
    return (await Promise.race([work.then(() => false as const), timedOut])) === true;
  } finally {
    clearTimeout(timer);
  }
}

/** @internal process-wide / per-graph drain over a worker snapshot. */
export async function drainWorkers(snapshot: readonly DeliveryWorker[], options?: DrainOptions): Promise<DrainSummary> {
  const timeoutMs = checkTimeout(options);
  const workers = snapshot.filter((w) => !w.finished);
  if (workers.length === 0) return { ...EMPTY, invocationCount: 0 };
  const before = workers.reduce((n, w) => n + w.delivered, 0);
  const reached = await waitWithTimeout(Promise.all(workers.map((w) => w.whenDone())), timeoutMs);
  let undelivered = 0;
  if (reached) for (const w of workers) undelivered += w.cancel();
  const after = workers.reduce((n, w) => n + w.delivered, 0);
  return { timeoutReached: reached, undeliveredCount: undelivered, deliveredCount: after - before, invocationCount: workers.length };
}

/**
 * Process-wide drain: wait until every observer event of every invocation active at call time has
 * been delivered, or until `timeoutMs` elapses (then those workers are cancelled).
 */
export function drain(options?: DrainOptions): Promise<DrainSummary> {
  return drainWorkers([...active], options);
}

/** @internal drain a subset (e.g. one compiled graph's invocations). */
export function activeWorkers(filter: (w: DeliveryWorker) => boolean): DeliveryWorker[] {
  const out: DeliveryWorker[] = [];
  for (const w of active) if (filter(w)) out.push(w);
  return out;
}

/**
 * Per-invocation drain: wait until every event tagged `invocationId` and emitted before this call
 * has been delivered to every observer, or until `timeoutMs` elapses. Never cancels the worker.
 * Returns immediately (`undeliveredCount: 0`) when nothing is pending. Safe to call from inside a
 * node of that same invocation (the node's own later events are not covered).
 */
export async function drainEventsFor(invocationId: string, options?: DrainOptions): Promise<DrainSummary> {
  const timeoutMs = checkTimeout(options);
  if (typeof invocationId !== "string") throw new TypeError("invocationId must be a string");
  const set = byInvocation.get(invocationId);
  if (!set || set.size === 0) return EMPTY;
  const targets = [...set].map((w) => ({ w, target: w.enqueued, start: w.delivered }));
  const pending = targets.filter(({ w, target }) => w.delivered < target && !w.finished);
  if (pending.length === 0) return { ...EMPTY, invocationCount: targets.length };
  const reached = await waitWithTimeout(Promise.all(pending.map(({ w, target }) => w.whenDelivered(target))), timeoutMs);
  let undelivered = 0;
  let delivered = 0;
  for (const { w, target, start } of targets) {
    const d = Math.min(w.delivered, target);
    delivered += Math.max(0, d - start);
    undelivered += Math.max(0, target - w.delivered);
  }
  return { timeoutReached: reached, undeliveredCount: undelivered, deliveredCount: delivered, invocationCount: targets.length };
}
