/**
 * Retry middleware (pipeline-utilities §6.1).
 *
 * Re-invokes the wrapped chain while the classifier deems the failure retryable and attempts
 * remain, sleeping `backoff(attempt)` seconds between attempts. Each call of `next` runs under
 * `withAttemptIndex(attempt, …)`, so the engine's per-attempt started/completed events carry
 * `attempt_index` 0…N-1 — directly for the wrapped node, transitively for the nodes of a re-run
 * subgraph / fan-out instance / branch (graph-engine §6; the innermost retry wins). Middleware never
 * dispatches node events itself.
 *
 * Terminal failures — classifier says no, or `maxAttempts` reached — re-raise the attempt's error
 * unchanged (the engine reports it as `node_exception` with the cause's category). Cancellation and
 * suspension always propagate, before the classifier is consulted.
 *
 * Place retry *inside* failure isolation: `[failureIsolation(…), retry(…)]` (§6.3 three-piece pattern).
 */
import { withAttemptIndex, type MaybePromise, type Middleware, type NodeContext, type StateRecord } from "../../graph/index.ts";
import { checkDelay, exponentialJitterBackoff, sleepSeconds, type BackoffFn, type SleepFn } from "./backoff.ts";
import { defaultClassifier, type RetryClassifier } from "./classifier.ts";
import { surfaceError } from "./cause-chain.ts";
import { isControlSignal } from "./errors.ts";

/** §6.1 retry configuration record. */
export interface RetryOptions<S extends StateRecord = StateRecord> {
  /** Total attempts including the first (`1` disables retry). Integer ≥ 1, default `3`. */
  readonly maxAttempts?: number;
  /**
   * `(error, state) => boolean`: is this failure retryable? Receives the error as the wrapped chain
   * raised it (see `surfaceError`) and the pre-merge state. Default {@link defaultClassifier}
   * (transient categories, single-level through carriers).
   */
  readonly classifier?: RetryClassifier<S>;
  /** `(attemptIndex) => seconds`, 0-based. Default {@link exponentialJitterBackoff}() (base 1 s, cap 30 s). */
  readonly backoff?: BackoffFn;
  /** Fires before each sleep with the failure and the index of the attempt that failed. */
  readonly onRetry?: (error: unknown, attemptIndex: number) => MaybePromise<void>;
  /** How to wait (inject a fake for tests). Default: an abortable timer. */
  readonly sleep?: SleepFn;
  /**
   * A cancellation signal (or a function returning the current one, e.g. the fan-out's
   * `cancellationSignal`). Once aborted, retry stops: the pending sleep rejects with the abort
   * reason and no further attempt starts. Default: the node's `ctx.signal` (the caller's
   * `invoke({ signal })`, or the enclosing fan-out instance's / branch's); the node's signal is
   * checked between attempts either way.
   */
  readonly signal?: AbortSignal | (() => AbortSignal | undefined);
}

/** A retry middleware, tagged for introspection. */
export type RetryMiddleware<S extends StateRecord = StateRecord, U = Partial<S>> = Middleware<S, U> & {
  readonly middlewareKind: "retry";
  readonly maxAttempts: number;
};

/** Where a retry gave up on an error: its attempt counter, and the dispatch it happened in. */
interface TerminalMark {
  readonly attemptIndex: number;
  readonly invocationId: string;
  readonly step: number | undefined;
}

/** Errors raised terminally by a retry (innermost retry wins within one dispatch). */
const terminalMarks = new WeakMap<object, TerminalMark>();

type DispatchIdentity = Pick<NodeContext, "invocationId" | "step">;

/**
 * The attempt index at which a retry middleware gave up on `error` (the innermost retry's counter)
 * during the dispatch identified by `ctx`, or `undefined` when no retry raised it there. Failure
 * isolation wrapping a retry reports this as its lineage `attempt_index` (the final attempt, §6.3 /
 * fixture 061).
 */
export function terminalAttemptIndex(error: unknown, ctx: DispatchIdentity): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const mark = terminalMarks.get(error);
  return mark !== undefined && mark.invocationId === ctx.invocationId && mark.step === ctx.step ? mark.attemptIndex : undefined;
}

function markTerminal(error: unknown, attemptIndex: number, ctx: DispatchIdentity): void {
  if (typeof error !== "object" || error === null || terminalAttemptIndex(error, ctx) !== undefined) return;
  terminalMarks.set(error, { attemptIndex, invocationId: ctx.invocationId, step: ctx.step });
}

/**
 * Create a §6.1 retry middleware.
 *
 * ```ts
 * new GraphBuilder(State).addNode("call_llm", callLlm, {
 *   middleware: [retry({ maxAttempts: 4, backoff: exponentialJitterBackoff({ capSeconds: 10 }) })],
 * });
 * ```
 */
export function retry<S extends StateRecord = StateRecord, U = Partial<S>>(options: RetryOptions<NoInfer<S>> = {}): RetryMiddleware<S, U> {
  const maxAttempts = options.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`retry: maxAttempts must be an integer >= 1, got ${String(maxAttempts)}`);
  const classifier = (options.classifier ?? defaultClassifier) as RetryClassifier<S>;
  if (typeof classifier !== "function") throw new TypeError("retry: classifier must be a function");
  const backoff = options.backoff ?? exponentialJitterBackoff();
  if (typeof backoff !== "function") throw new TypeError("retry: backoff must be a function");
  const onRetry = options.onRetry;
  if (onRetry !== undefined && typeof onRetry !== "function") throw new TypeError("retry: onRetry must be a function");
  const sleep = options.sleep ?? sleepSeconds;
  const signalOption = options.signal;
  const currentSignal = (): AbortSignal | undefined => (typeof signalOption === "function" ? signalOption() : signalOption);

  const middleware: Middleware<S, U> = async (state, next, ctx) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await withAttemptIndex(attempt, () => next(state));
      } catch (caught) {
        const error = surfaceError(caught, ctx);
        if (isControlSignal(error) || ctx.signal.aborted) throw caught;
        if (!(await classifier(error, state)) || attempt + 1 >= maxAttempts) {
          markTerminal(caught, attempt, ctx);
          throw caught;
        }
        const signal = signalOption === undefined ? ctx.signal : currentSignal();
        if (signal?.aborted) throw signal.reason;
        if (onRetry) await onRetry(error, attempt);
        await sleep(checkDelay(backoff(attempt), attempt), signal);
        if (signal?.aborted) throw signal.reason;
        if (ctx.signal.aborted) throw ctx.signal.reason;
      }
    }
  };
  return Object.freeze(Object.assign(middleware, { middlewareKind: "retry" as const, maxAttempts }));
}
