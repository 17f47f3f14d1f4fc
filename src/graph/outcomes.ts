/**
 * `invoke()` options and outcomes (graph-engine §3 *Invocation entry surface*, *Invocation
 * outcomes*). The errored outcome is a thrown §4 `GraphRuntimeError`; completed and suspended
 * outcomes resolve.
 */
import type { GraphInterrupt, InvocationHooks, StartPosition } from "./extension.ts";
import type { ObserverErrorHandler, ObserverInput } from "./observers.ts";
import type { StateRecord } from "./state-types.ts";

/** Options of one `invoke()` call. */
export interface InvokeOptions {
  /** Use this invocation id verbatim (else a UUIDv4 is minted). Non-empty string. */
  readonly invocationId?: string;
  /** Cross-backend correlation id (else a UUIDv4 is minted). Non-empty string. */
  readonly correlationId?: string;
  /** Caller-supplied invocation metadata (observability §3.4); frozen and readable from nodes. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Invocation-scoped observers (§6), delivered after graph-attached ones, in this order. */
  readonly observers?: readonly ObserverInput[];
  /** Where observer errors are reported for this invocation (default: the graph's, else console.warn). */
  readonly onObserverError?: ObserverErrorHandler;
  /**
   * Cancels the invocation. Every node sees it as `ctx.signal` (pass it on: `fetch(url, { signal:
   * ctx.signal })`); fan-out instances and parallel branches in flight get it too and no new ones
   * start. The engine checks it before every node starts (in subgraphs, instances and branches
   * too) and waits for running nodes to settle; the invocation then rejects with one
   * `InvocationCancelledError` (`category: "invocation_cancelled"`) carrying the recoverable state.
   */
  readonly signal?: AbortSignal;
  /**
   * Opt-in step limit: reject with `StepLimitExceededError` (`category: "step_limit_exceeded"`)
   * instead of starting node execution number `maxSteps + 1` of this call (counted like
   * `stepCount`, subgraph-internal and fan-out instances' included). Overrides
   * `compile({ maxSteps })`. Positive integer; default: no limit.
   */
  readonly maxSteps?: number;
  /**
   * Engine extension: hooks called inline by the engine (see `InvocationHooks`) — one object or
   * several, called in order after the graph's own (`compile({ hooks })`).
   */
  readonly hooks?: InvocationHooks | readonly InvocationHooks[];
  /** Engine extension (resume): start at this node — and, inside subgraphs, at `inner` positions. */
  readonly startAt?: StartPosition;
  /** Engine extension (resume): first §6 step number (default 0). */
  readonly startStep?: number;
}

/** Fields every resolved outcome carries. */
export interface InvocationOutcomeBase {
  readonly invocationId: string;
  readonly correlationId: string;
  /** Outermost-graph nodes in the order their executions began (§5 "observed node-execution order"). */
  readonly executionOrder: readonly string[];
  /** Number of §6 steps (node executions, including subgraph-internal ones) the invocation took. */
  readonly stepCount: number;
}

/** The graph reached END; `state` is the final state. */
export interface CompletedInvocation<S extends StateRecord = StateRecord> extends InvocationOutcomeBase {
  readonly outcome: "completed";
  readonly state: Readonly<S>;
}

/** A node raised a {@link GraphInterrupt} (suspension §3). `state` is the outermost state then. */
export interface SuspendedInvocation<S extends StateRecord = StateRecord> extends InvocationOutcomeBase {
  readonly outcome: "suspended";
  readonly state: Readonly<S>;
  readonly interrupt: GraphInterrupt;
  /** The node that suspended, and its full namespace. */
  readonly nodeName: string;
  readonly namespace: readonly string[];
}

/** What `invoke()` resolves with. */
export type InvocationResult<S extends StateRecord = StateRecord> = CompletedInvocation<S> | SuspendedInvocation<S>;
