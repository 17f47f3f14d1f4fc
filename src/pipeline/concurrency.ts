/**
 * Bounded concurrent dispatch (pipeline-utilities §9.2, §11.3): the one place where several subgraph
 * runs of a single invocation overlap in time (graph-engine §3's fan-out / parallel-branches
 * exception).
 *
 * `min(concurrency, count)` worker loops pull the next index from a shared counter, so instances
 * *start* in index order and never more than `concurrency` are in flight; completion order is free.
 * A worker's first task starts synchronously, so the first wave's first events are dispatched in
 * index order too. O(count) time and memory; no per-instance timers or promise chains beyond one
 * `await` per instance.
 */
import { GraphInterrupt } from "../graph/index.ts";
import { CancellationScope, CancelledError, cancellationSignal, runWithSignal } from "./cancellation.ts";
import type { ErrorPolicy } from "./error-policy.ts";

/** What {@link dispatchBounded} hands back. */
export interface DispatchOutcome<T> {
  /** Per-index result; `undefined` where the task failed or never ran. */
  readonly results: (T | undefined)[];
  /** `1` where the task succeeded. */
  readonly succeeded: Uint8Array;
  /** Per-index failure (only under `collect`); holes elsewhere. */
  readonly failures: (unknown | undefined)[];
  /** Number of failed indices recorded in {@link failures}. */
  readonly failureCount: number;
  /**
   * Set when the dispatch must propagate: the first failure under `fail_fast`, a suspension
   * (`GraphInterrupt`) under either policy, or the enclosing scope's cancellation.
   */
  readonly fatal: { readonly index: number; readonly error: unknown } | undefined;
  /** The enclosing instance / branch was cancelled (then {@link fatal} is that cancellation). */
  readonly cancelled: boolean;
}

/** Options of {@link dispatchBounded}. */
export interface DispatchOptions<T> {
  readonly count: number;
  /** Upper bound on tasks in flight; `null` = unbounded. */
  readonly concurrency: number | null;
  readonly errorPolicy: ErrorPolicy;
  /**
   * The enclosing cancellation: the dispatching node's `ctx.signal` (the caller's `invoke({ signal })`,
   * or the enclosing instance's / branch's). Once it aborts no task starts, and the dispatch reports
   * {@link DispatchOutcome.cancelled}. Default: {@link cancellationSignal}.
   */
  readonly signal?: AbortSignal;
  /**
   * Run task `index`. `signal` is the dispatch's cancellation signal (aborts on a sibling's failure
   * under `fail_fast` or on the enclosing cancellation): hand it to the task's child run
   * (`runSubgraph(…, { signal })`). The task's async call tree also sees it as {@link cancellationSignal}.
   */
  readonly task: (index: number, signal: AbortSignal | undefined) => Promise<T>;
}

/**
 * Run `count` tasks, at most `concurrency` at a time, under `errorPolicy`. Never rejects: the caller
 * decides what a {@link DispatchOutcome.fatal} outcome raises. Always waits for every started task
 * to settle (cancelled tasks included), so no work of this dispatch outlives it.
 */
export async function dispatchBounded<T>(options: DispatchOptions<T>): Promise<DispatchOutcome<T>> {
  const { count, errorPolicy, task } = options;
  const results: (T | undefined)[] = new Array<T | undefined>(count);
  const succeeded = new Uint8Array(count);
  const failures: (unknown | undefined)[] = [];
  let failureCount = 0;
  let fatal: { index: number; error: unknown } | undefined;
  if (count === 0) return { results, succeeded, failures, failureCount, fatal, cancelled: false };

  const outer = options.signal ?? cancellationSignal();
  // fail_fast needs its own signal (to cancel siblings); collect only honors the enclosing one.
  const scope = errorPolicy === "fail_fast" ? new CancellationScope(outer) : undefined;
  const signal = scope?.signal ?? outer;
  const width = options.concurrency === null ? count : Math.min(options.concurrency, count);
  let next = 0;
  let stopped = false;

  const stop = (index: number, error: unknown): void => {
    if (fatal === undefined) fatal = { index, error };
    stopped = true;
    scope?.abort(error instanceof CancelledError ? error : new CancelledError(undefined, { cause: error }));
  };

  const worker = async (): Promise<void> => {
    while (!stopped && next < count) {
      if (signal?.aborted) {
        stop(-1, signal.reason instanceof Error ? signal.reason : new CancelledError());
        break;
      }
      const i = next++;
      try {
        results[i] = await task(i, signal);
        succeeded[i] = 1;
      } catch (e) {
        if (stopped) continue; // a sibling's cancellation aftermath: infrastructure, not an error
        if (e instanceof GraphInterrupt || errorPolicy === "fail_fast" || outer?.aborted) stop(i, e);
        else {
          failures[i] = e;
          failureCount++;
        }
      }
    }
  };

  try {
    const workers: Promise<void>[] = [];
    // Each worker runs inside the dispatch's cancellation scope (one async-context entry per
    // worker, inherited by every task it runs, rather than one per task).
    for (let w = 0; w < width; w++) workers.push(signal ? runWithSignal(signal, worker) : worker());
    await Promise.all(workers);
  } finally {
    scope?.dispose();
  }
  const cancelled = outer?.aborted === true;
  if (cancelled) fatal = { index: -1, error: outer!.reason instanceof Error ? outer!.reason : new CancelledError() };
  return { results, succeeded, failures, failureCount, fatal, cancelled };
}
