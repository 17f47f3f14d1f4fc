/**
 * Failure-isolation middleware (pipeline-utilities §6.3).
 *
 * Catches errors escaping the inner chain and returns a configured degraded partial update instead;
 * the engine merges it through the reducers and continues edge resolution as if the node had
 * returned normally. Each catch emits a {@link FailureIsolationEvent} on the observer queue — the
 * default (and only built-in) emission path; no logging library is involved.
 *
 * **Composition with retry — the three-piece pattern.** For "retry transients, degrade gracefully on
 * exhaustion or on non-transient errors", compose (outer to inner):
 *
 * 1. `failureIsolation(…)` — outer: sees only what escapes retry;
 * 2. `retry(…)` — inner: sees raw transients first and retries them;
 * 3. the node body — re-raises transients, degrades in place on errors it knows how to recover from.
 *
 * The order is load-bearing: with isolation inside retry it would swallow transients before retry
 * saw them.
 *
 * ```ts
 * builder.addNode("extract", extract, {
 *   middleware: [
 *     failureIsolation({ eventName: "extraction_failed", degradedUpdate: { segments: [] } }),
 *     retry({ maxAttempts: 3 }),
 *   ],
 * });
 * ```
 */
import { emitEvent, type MaybePromise, type Middleware, type StateRecord } from "../../graph/index.ts";
import { classifyCause, surfaceError } from "./cause-chain.ts";
import { isControlSignal } from "./errors.ts";
import type { FailureIsolationEvent } from "./events.ts";
import { terminalAttemptIndex } from "./retry.ts";

/** §6.3 `degraded_update`: a static partial update, or a function of the pre-merge state. */
export type DegradedUpdate<S extends StateRecord, U> = U | ((state: Readonly<S>) => MaybePromise<U>);

/** §6.3 failure-isolation configuration record. */
export interface FailureIsolationOptions<S extends StateRecord = StateRecord, U = Partial<S>> {
  /**
   * Required. Returned on a caught error: a static mapping, or `(state) => update` resolved at catch
   * time with the middleware's own `state` (the pre-merge state of the failed inner chain).
   */
  readonly degradedUpdate: DegradedUpdate<S, U>;
  /** Required, no default: a stable identifier for this catch site (e.g. `"segment_extraction_failed"`). */
  readonly eventName: string;
  /**
   * Error categories to degrade on. When given, an error is caught only if the §6.4 **derived
   * category** of its cause chain (resolved through `node_exception` carriers — the same value the
   * event reports as `caughtException.category`) is in the set; an uncategorized error (derived
   * `null`) then propagates. Unset: any category.
   */
  readonly catch?: Iterable<string>;
  /**
   * `(error) => boolean` on the **surface** error (the one the wrapped chain raised). Unset: always
   * true. Combined with `catch` as a conjunction. A predicate inspecting the error directly sees a
   * carrier at fan-out instance / branch / composite-node placements — use `catch`, or
   * `classifyCause(error)`, for cause-aware gating.
   */
  readonly predicate?: (error: unknown) => MaybePromise<boolean>;
  /** Called after the event is emitted, with the caught error (custom telemetry). */
  readonly onCaught?: (error: unknown) => MaybePromise<void>;
}

/** A failure-isolation middleware, tagged for introspection (e.g. §9.8 slot-coverage checks). */
export type FailureIsolationMiddleware<S extends StateRecord = StateRecord, U = Partial<S>> = Middleware<S, U> & {
  readonly middlewareKind: "failure_isolation";
  readonly eventName: string;
  /** The static `degradedUpdate`, or `undefined` when it is the callable form. */
  readonly staticDegradedUpdate: Readonly<U> | undefined;
  /** The `catch` category set, or `undefined` when unset. */
  readonly catchCategories: ReadonlySet<string> | undefined;
};

/** Is `middleware` a {@link failureIsolation} middleware? */
export function isFailureIsolationMiddleware(middleware: unknown): middleware is FailureIsolationMiddleware<StateRecord, unknown> {
  return typeof middleware === "function" && (middleware as { middlewareKind?: unknown }).middlewareKind === "failure_isolation";
}

/** Create a §6.3 failure-isolation middleware. */
export function failureIsolation<S extends StateRecord = StateRecord, U = Partial<S>>(
  options: FailureIsolationOptions<NoInfer<S>, NoInfer<U>>,
): FailureIsolationMiddleware<S, U> {
  const { eventName, degradedUpdate, predicate, onCaught } = options;
  if (typeof eventName !== "string" || eventName.length === 0) throw new TypeError("failureIsolation: eventName is required (a non-empty string)");
  const isCallable = typeof degradedUpdate === "function";
  if (!isCallable && (typeof degradedUpdate !== "object" || degradedUpdate === null || Array.isArray(degradedUpdate))) {
    throw new TypeError("failureIsolation: degradedUpdate is required (a mapping of field updates, or a function of state)");
  }
  if (predicate !== undefined && typeof predicate !== "function") throw new TypeError("failureIsolation: predicate must be a function");
  if (onCaught !== undefined && typeof onCaught !== "function") throw new TypeError("failureIsolation: onCaught must be a function");
  let catchSet: ReadonlySet<string> | undefined;
  if (options.catch !== undefined) {
    const cats = [...options.catch];
    if (cats.some((c) => typeof c !== "string" || c.length === 0)) throw new TypeError("failureIsolation: catch must be a collection of category strings");
    catchSet = Object.freeze(new Set(cats));
  }

  const middleware: Middleware<S, U> = async (state, next, ctx) => {
    try {
      return await next(state);
    } catch (caught) {
      const error = surfaceError(caught, ctx);
      // Once the node's signal aborted (caller cancelled, sibling failed), whatever escapes — even an
      // abort reason that is a plain Error — is the cancellation: never degraded.
      if (isControlSignal(error) || ctx.signal.aborted) throw caught;
      const classification = classifyCause(error);
      if (catchSet !== undefined && (classification.category === null || !catchSet.has(classification.category))) throw caught;
      if (predicate !== undefined && !(await predicate(error))) throw caught;
      const resolved: U = isCallable
        ? await (degradedUpdate as (state: Readonly<S>) => MaybePromise<U>)(state)
        : (degradedUpdate as U);
      const event: FailureIsolationEvent = {
        kind: "failure_isolation",
        eventName,
        invocationId: ctx.invocationId,
        correlationId: ctx.correlationId,
        nodeName: ctx.nodeName,
        namespace: ctx.namespace,
        attemptIndex: terminalAttemptIndex(caught, ctx) ?? ctx.attemptIndex,
        ...(ctx.fanOutIndex !== undefined ? { fanOutIndex: ctx.fanOutIndex } : {}),
        ...(ctx.branchName !== undefined ? { branchName: ctx.branchName } : {}),
        fanOutIndexChain: ctx.fanOutIndexChain,
        branchNameChain: ctx.branchNameChain,
        graphName: ctx.graphName,
        preState: state as Readonly<StateRecord>,
        postState: Object.freeze({ ...(resolved as Record<string, unknown> | null | undefined) }),
        caughtException: classification,
        exception: error,
        timestamp: Date.now(),
      };
      emitEvent(Object.freeze(event));
      if (onCaught !== undefined) await onCaught(error);
      return resolved;
    }
  };
  return Object.freeze(
    Object.assign(middleware, {
      middlewareKind: "failure_isolation" as const,
      eventName,
      staticDegradedUpdate: isCallable ? undefined : (Object.freeze({ ...(degradedUpdate as object) }) as Readonly<U>),
      catchCategories: catchSet,
    }),
  );
}
