/**
 * Timing middleware (pipeline-utilities §6.2).
 *
 * Measures the wall-clock duration of the wrapped chain — including any inner middleware such as
 * retries and their backoff sleeps — on a monotonic clock, and hands a {@link TimingRecord} to
 * `onComplete` once per dispatch, after the chain returns or raises and before the result (or the
 * error, unchanged) goes back to the caller.
 *
 * - `[timing, retry]`: one record covering every attempt (end-to-end latency).
 * - `[retry, timing]`: one record per attempt.
 *
 * `onComplete` runs inline (a slow callback adds to the node's apparent duration) and an error it
 * raises propagates like any middleware error (`node_exception`); wrap its body to isolate it.
 * Control signals (cancellation, suspension) propagate without a record.
 */
import type { MaybePromise, Middleware, NodeContext, StateRecord } from "../../graph/index.ts";
import { categoryOf, surfaceError } from "./cause-chain.ts";
import { isControlSignal } from "./errors.ts";

/** §6.2 `TimingRecord`. */
export interface TimingRecord {
  /** The node the middleware is attached to (given at registration, or bound per node by {@link timingForGraph}). */
  readonly nodeName: string;
  /** Milliseconds from middleware entry to chain return-or-raise, on the monotonic clock. */
  readonly durationMs: number;
  readonly outcome: "success" | "exception";
  /** On `exception`: the raised error's `category` when it has one, else `null`; `null` on success. */
  readonly exceptionCategory: string | null;
}

/** A monotonic clock in milliseconds (default `performance.now`). */
export type MonotonicClock = () => number;

/** Options shared by {@link timing} and {@link timingForGraph}. */
export interface TimingCommonOptions {
  /** Receives each record; awaited inline. */
  readonly onComplete: (record: TimingRecord) => MaybePromise<void>;
  /**
   * Monotonic time source in milliseconds (§6.2 *Monotonic clock requirement*). Default
   * `performance.now`. Read exactly twice per dispatch (entry, return-or-raise).
   */
  readonly clock?: MonotonicClock;
}

/** Options for per-node {@link timing}. */
export interface TimingOptions extends TimingCommonOptions {
  /** The node's name (the `addNode` name), captured at registration. */
  readonly nodeName: string;
}

/** A timing middleware, tagged for introspection. */
export type TimingMiddleware<S extends StateRecord = StateRecord, U = Partial<S>> = Middleware<S, U> & {
  readonly middlewareKind: "timing";
  /** The registered node name, or `undefined` for the per-graph form (bound per node at dispatch). */
  readonly nodeName: string | undefined;
};

const defaultClock: MonotonicClock = () => performance.now();

function record(nodeName: string, durationMs: number, outcome: TimingRecord["outcome"], exceptionCategory: string | null): TimingRecord {
  return Object.freeze({ nodeName, durationMs, outcome, exceptionCategory });
}

function build<S extends StateRecord, U>(nodeName: string | undefined, options: TimingCommonOptions): TimingMiddleware<S, U> {
  const { onComplete } = options;
  if (typeof onComplete !== "function") throw new TypeError("timing: onComplete must be a function");
  const clock = options.clock ?? defaultClock;
  if (typeof clock !== "function") throw new TypeError("timing: clock must be a function");
  const nameFor = (ctx: NodeContext): string => nodeName ?? ctx.nodeName;

  const middleware: Middleware<S, U> = async (state, next, ctx) => {
    const startedAt = clock();
    let update: U;
    try {
      update = await next(state);
    } catch (caught) {
      const error = surfaceError(caught, ctx);
      if (isControlSignal(error)) throw caught;
      await onComplete(record(nameFor(ctx), clock() - startedAt, "exception", categoryOf(error)));
      throw caught;
    }
    await onComplete(record(nameFor(ctx), clock() - startedAt, "success", null));
    return update;
  };
  return Object.freeze(Object.assign(middleware, { middlewareKind: "timing" as const, nodeName }));
}

/**
 * Per-node timing (§6.2 *Per-node use*): `node_name` supplied at registration.
 *
 * ```ts
 * builder.addNode("worker", work, { middleware: [timing({ nodeName: "worker", onComplete: (r) => metrics.push(r) })] });
 * ```
 */
export function timing<S extends StateRecord = StateRecord, U = Partial<S>>(options: TimingOptions): TimingMiddleware<S, U> {
  if (typeof options.nodeName !== "string" || options.nodeName.length === 0) {
    throw new TypeError("timing: nodeName is required for per-node use (use timingForGraph() with GraphBuilder.use())");
  }
  return build<S, U>(options.nodeName, options);
}

/**
 * Per-graph timing (§6.2 *Per-graph use*): register once with `GraphBuilder.use()`; each record
 * carries the name of the node it wrapped (bound by the engine's dispatch context per node).
 *
 * ```ts
 * builder.use(timingForGraph({ onComplete: (r) => console.log(r.nodeName, r.durationMs) }));
 * ```
 */
export function timingForGraph<S extends StateRecord = StateRecord, U = Partial<S>>(options: TimingCommonOptions): TimingMiddleware<S, U> {
  return build<S, U>(undefined, options);
}
