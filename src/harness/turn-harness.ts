/**
 * The turn harness (harness §2–§8): the layer between a deployment runtime and `invoke()`.
 *
 * `handle(transmission)` runs ONE turn:
 *
 * 1. classifies the transmission into a dispatch path (§3, `transmission.ts`) — in sessioned mode
 *    resolving the session id (§3.1 mints a fresh one when absent; §3.2 without one is
 *    `harness_session_id_unresolved`); in stateless mode never resolving one (§3.0);
 * 2. builds the initial state from the payload (`initialState`), or, on §3.3, correlates the signal
 *    to the paused invocation through the {@link SignalCoordinator} (§6;
 *    `harness_signal_correlation_failed` when it maps to none);
 * 3. calls `invoke(initial, { sessionId })` or `invoke({}, { resumeInvocation, signalPayload })`
 *    through `withSuspension` (over the `withSessions` graph in sessioned mode; the paused record
 *    carries the session, §3.3) — the harness never touches the SessionStore itself (§8.1);
 * 4. handles the outcome (§5): `completed` → a completion response; `errored` → categorized into a
 *    §7 bucket (`errors.ts`), an error response, never auto-retried; `suspended` → a subscription
 *    registered with the coordinator (a refusal is `harness_signal_subscription_failed`), a
 *    suspended acknowledgment, and the call returns at once (§5.3 step 4: nothing waits for the
 *    signal).
 *
 * Errors are data: `handle` resolves with an errored {@link TurnResult} for every categorized
 * failure; it rejects only for a programming error (a non-object transmission).
 *
 * ```ts
 * const chat = withSessions(graph, { store: new SqliteSessionStore("sessions.db"), projection: "full" });
 * const harness = new TurnHarness({ mode: "sessioned", graph: chat, checkpointer: new SqliteCheckpointer("paused.db") });
 * const turn = await harness.handle({ payload: { text: "hi" }, sessionId: "user-42" });
 * if (turn.outcome === "suspended") notifyApprover(turn.invocationId);
 * // later, when the approval arrives:
 * await harness.handle({ signal: { signalId: "approval-7" }, signalPayload: { approved: true } });
 * ```
 */
import { randomUUID } from "node:crypto";
import type { Checkpointer } from "../checkpoint/index.ts";
import { CompiledGraph, type CompletedInvocation, type InvokeOptions, type StateRecord } from "../graph/index.ts";
import { SessionBoundGraph } from "../sessions/index.ts";
import { withSuspension, type SignalDescriptor, type SuspendableGraph, type SuspendedOutcome } from "../suspension/index.ts";
import {
  categorizeTurnError,
  HarnessSessionIdUnresolvedError,
  HarnessSignalCorrelationFailedError,
  HarnessSignalSubscriptionFailedError,
  type TurnError,
  type TurnErrorClassifier,
} from "./errors.ts";
import { errorResponse, type OutboundResponse } from "./outbound.ts";
import { InMemorySignalCoordinator, type SignalCoordinator, type SignalSubscription } from "./signal-coordinator.ts";
import { classifyTransmission, type DispatchPath, type HarnessMode, type Transmission } from "./transmission.ts";
import { isTurnSpans, type TurnSpanEnd, type TurnSpans, type TurnSpanStart } from "./turn-span.ts";

type State = Readonly<Record<string, unknown>>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCompiled = CompiledGraph<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySessionBound = SessionBoundGraph<any, any, any>;

/** Options of {@link TurnHarness}. */
export interface HarnessOptions {
  /** §2: fixed for the harness's life. */
  readonly mode: HarnessMode;
  /**
   * The graph. Sessioned mode needs a session-bound graph (`withSessions(graph, { store, ... })`);
   * stateless mode takes either and never passes a session id (§8.1: a registered store stays untouched).
   */
  readonly graph: AnyCompiled | AnySessionBound;
  /** Where paused-invocation records persist (suspension §8.5). Default: in memory (not durable). */
  readonly checkpointer?: Checkpointer;
  /** §6. Default: a new {@link InMemorySignalCoordinator}. */
  readonly coordinator?: SignalCoordinator;
  /** §3.1 / §3.2 / §3.0 step "construct the initial state from the inbound payload". Default: `{}`. */
  readonly initialState?: (tx: Transmission, path: DispatchPath) => State;
  /** The session resolver (sessioned mode). Default: `tx.sessionId`, else a string `payload.session_id`. */
  readonly resolveSessionId?: (tx: Transmission) => string | undefined;
  /** §3.1: mints a fresh session id. Default: `randomUUID()`. */
  readonly newSessionId?: () => string;
  /** §5.1: the completion payload derived from the final state. Default: the final state. */
  readonly present?: (state: State) => State;
  /** Refines the §7 bucket of a category. */
  readonly classifyError?: TurnErrorClassifier;
  /**
   * §8.4: opens the turn-level wrapper span (observability §4.6), e.g. an `OTelObserver`. Default:
   * the first of the turn's `hooks` and the graph's compiled hooks that opens turn spans; none, no wrapper.
   */
  readonly turnSpans?: TurnSpans;
}

/** Per-turn engine options (observers, an abort signal, metadata, ...). */
export type TurnInvokeOptions = Omit<InvokeOptions, "invocationId" | "startAt" | "startStep">;

/** The `invoke()` call the harness made (§3 step 3), as data. */
export interface InvokeCall {
  readonly initialState: State;
  /** Present exactly when the harness threaded a session id (sessioned §3.1 / §3.2). */
  readonly sessionId?: string;
  readonly resumeInvocation?: string;
  readonly signalPayload?: State;
}

interface TurnBase {
  readonly mode: HarnessMode;
  /** The path the transmission was classified into; `null` when classification itself failed. */
  readonly path: DispatchPath | null;
  /** The session the turn ran under (the paused record's on §3.3); `undefined` in stateless mode. */
  readonly sessionId: string | undefined;
  /** §3.1: the harness minted the session id (the caller supplied none). */
  readonly sessionIdGenerated: boolean;
  /** The invoke call, or `undefined` when the turn failed before invoking. */
  readonly invocation: InvokeCall | undefined;
  /** invoke() calls the turn made (the harness never auto-retries: 0 or 1). */
  readonly attempts: number;
  /** §3.3: the paused invocation the signal correlated to. */
  readonly resumedInvocationId?: string;
  readonly outbound: OutboundResponse;
}

export interface CompletedTurn extends TurnBase {
  readonly outcome: "completed";
  readonly invocationId: string;
  readonly state: State;
  /** The engine's outcome (execution order, step count, session report, ...). */
  readonly result: CompletedInvocation<StateRecord>;
}

export interface ErroredTurn extends TurnBase {
  readonly outcome: "errored";
  readonly invocationId: string | undefined;
  readonly error: TurnError;
}

export interface SuspendedTurn extends TurnBase {
  readonly outcome: "suspended";
  readonly invocationId: string;
  /** §5.3 step 1: read from the suspended outcome. */
  readonly descriptor: SignalDescriptor;
  /** The state at the suspension point. */
  readonly state: State;
  /** §5.3 step 2: what the coordinator registered. */
  readonly subscription: SignalSubscription;
  /** The suspension library's outcome (suspending node, the persisted paused record, ...). */
  readonly result: SuspendedOutcome;
}

export type TurnResult = CompletedTurn | ErroredTurn | SuspendedTurn;

function defaultResolve(tx: Transmission): string | undefined {
  if (tx.sessionId !== undefined) return tx.sessionId;
  const v = tx.payload?.["session_id"];
  return typeof v === "string" ? v : undefined;
}

/**
 * Why a signal that names an id did not correlate: a coordinator correlates a signal to ONE paused
 * invocation, so none matching and several awaiting the same signal id (the in-memory coordinator
 * refuses to guess) both end here; the message names both rather than claiming "none".
 */
export const NO_SINGLE_SUBSCRIPTION = "no single subscription matches it (none does, or several paused invocations await the same signal id)";

/** A harness over one graph (see the module comment). */
export class TurnHarness {
  readonly mode: HarnessMode;
  readonly coordinator: SignalCoordinator;
  readonly suspendable: SuspendableGraph<StateRecord, InvokeOptions & { sessionId?: string }, unknown>;
  readonly #options: HarnessOptions;

  constructor(options: HarnessOptions) {
    if (options.mode !== "sessioned" && options.mode !== "stateless") throw new TypeError(`TurnHarness: mode must be "sessioned" or "stateless", not ${String(options.mode)}`);
    const g = options.graph;
    if (options.mode === "sessioned" && !(g instanceof SessionBoundGraph)) {
      throw new TypeError("TurnHarness: sessioned mode needs a session-bound graph — pass withSessions(graph, { store, projection })");
    }
    if (!(g instanceof SessionBoundGraph) && !(g instanceof CompiledGraph)) throw new TypeError("TurnHarness: graph must be a CompiledGraph or a withSessions(...) graph");
    this.mode = options.mode;
    this.#options = options;
    this.coordinator = options.coordinator ?? new InMemorySignalCoordinator();
    const checkpointer = options.checkpointer !== undefined ? { checkpointer: options.checkpointer } : {};
    this.suspendable = (g instanceof SessionBoundGraph ? withSuspension(g, checkpointer) : withSuspension(g as AnyCompiled, checkpointer)) as unknown as typeof this.suspendable;
  }

  /** The compiled graph the harness runs. */
  get graph(): AnyCompiled {
    return this.suspendable.graph as AnyCompiled;
  }

  /** Run one turn for `tx` (see the module comment). */
  async handle(tx: Transmission, options: TurnInvokeOptions = {}): Promise<TurnResult> {
    if (typeof tx !== "object" || tx === null) throw new TypeError("TurnHarness.handle: the transmission must be an object");
    let resolved: string | undefined;
    let resolveError: unknown;
    if (this.mode === "sessioned") {
      try {
        resolved = (this.#options.resolveSessionId ?? defaultResolve)(tx);
      } catch (e) {
        resolveError = e;
      }
    }
    let path: DispatchPath;
    try {
      path = classifyTransmission(this.mode, tx, resolved !== undefined);
    } catch (e) {
      return this.#errored(null, undefined, false, undefined, 0, e);
    }
    if (path === "3.3") return this.#resume(tx, options);
    let sessionId: string | undefined;
    let generated = false;
    if (path === "3.1" || path === "3.2") {
      const bad = resolveError !== undefined || (resolved !== undefined && (typeof resolved !== "string" || resolved.length === 0));
      if (bad) {
        const why = resolveError !== undefined ? `the resolver raised: ${resolveError instanceof Error ? resolveError.message : String(resolveError)}` : `the resolver returned ${JSON.stringify(resolved)}`;
        return this.#errored(path, undefined, false, undefined, 0, new HarnessSessionIdUnresolvedError(why, resolveError !== undefined ? { cause: resolveError } : undefined));
      }
      if (resolved === undefined && path === "3.2") {
        return this.#errored(path, undefined, false, undefined, 0, new HarnessSessionIdUnresolvedError("an existing-session transmission carries no session_id (§3.2)"));
      }
      sessionId = resolved ?? (this.#options.newSessionId ?? randomUUID)();
      generated = resolved === undefined;
    }
    const initialState = this.#options.initialState?.(tx, path) ?? {};
    const invocation: InvokeCall = sessionId !== undefined ? { initialState, sessionId } : { initialState };
    const run = async (): Promise<TurnResult> => {
      let result;
      try {
        result = await this.suspendable.invoke(initialState as Partial<StateRecord>, { ...options, ...(sessionId !== undefined ? { sessionId } : {}) } as never);
      } catch (e) {
        return this.#errored(path, sessionId, generated, invocation, 1, e);
      }
      return this.#settle(path, sessionId, generated, invocation, result as never);
    };
    return this.#inTurnSpan(options, { mode: this.mode, path, ...(sessionId !== undefined ? { sessionId } : {}) }, run);
  }

  /** §8.4: run the turn's invoke inside the wrapper span when a {@link TurnSpans} is attached. */
  #inTurnSpan(options: TurnInvokeOptions, start: TurnSpanStart, run: () => Promise<TurnResult>): Promise<TurnResult> {
    const spans = this.#options.turnSpans ?? ([] as unknown[]).concat(options.hooks ?? [], this.graph.hooks).find(isTurnSpans);
    if (spans === undefined) return run();
    return spans.runInTurnSpan(start, run, turnSpanEnd);
  }

  async #resume(tx: Transmission, options: TurnInvokeOptions): Promise<TurnResult> {
    const signal = tx.signal ?? {};
    let sub: SignalSubscription | undefined;
    try {
      sub = await this.coordinator.correlate(signal);
    } catch (e) {
      return this.#errored("3.3", undefined, false, undefined, 0, new HarnessSignalCorrelationFailedError(signal, `the coordinator raised: ${e instanceof Error ? e.message : String(e)}`));
    }
    if (sub === undefined) {
      const why = signal.invocationId === undefined && signal.signalId === undefined ? "it names neither an invocation id nor a signal id" : NO_SINGLE_SUBSCRIPTION;
      return this.#errored("3.3", undefined, false, undefined, 0, new HarnessSignalCorrelationFailedError(signal, why));
    }
    const signalPayload = tx.signalPayload ?? {};
    const invocation: InvokeCall = { initialState: {}, resumeInvocation: sub.invocationId, signalPayload };
    const base = { resumedInvocationId: sub.invocationId };
    const run = async (): Promise<TurnResult> => {
      let result;
      try {
        result = await this.suspendable.invoke({}, { ...options, resumeInvocation: sub.invocationId, signalPayload } as never);
      } catch (e) {
        // A refused payload leaves the paused record (and so the subscription) in place (suspension §7).
        if (!isPayloadRefusal(e)) await this.coordinator.release(sub.invocationId);
        return { ...this.#errored("3.3", sub.sessionId, false, invocation, 1, e, sub.invocationId), ...base };
      }
      await this.coordinator.release(sub.invocationId);
      return { ...(await this.#settle("3.3", sub.sessionId, false, invocation, result as never)), ...base };
    };
    const descriptor = { signalId: sub.descriptor.signalId, ...(sub.descriptor.metadata !== undefined ? { metadata: sub.descriptor.metadata as Readonly<Record<string, unknown>> } : {}) };
    const start: TurnSpanStart = { mode: this.mode, path: "3.3", signal: descriptor, resumedInvocationId: sub.invocationId, ...(this.mode === "sessioned" && sub.sessionId !== undefined ? { sessionId: sub.sessionId } : {}) };
    return this.#inTurnSpan(options, start, run);
  }

  async #settle(
    path: DispatchPath,
    sessionId: string | undefined,
    generated: boolean,
    invocation: InvokeCall,
    result: CompletedInvocation<StateRecord> | SuspendedOutcome,
  ): Promise<TurnResult> {
    const base = { mode: this.mode, path, sessionId, sessionIdGenerated: generated, invocation, attempts: 1 };
    if (result.outcome === "completed") {
      const payload = this.#options.present?.(result.state) ?? result.state;
      return { ...base, outcome: "completed", invocationId: result.invocationId, state: result.state, result, outbound: { kind: "completion_response", payload } };
    }
    const s = result as SuspendedOutcome;
    const subscription: SignalSubscription = { invocationId: s.invocationId, descriptor: s.descriptor, ...(sessionId !== undefined ? { sessionId } : {}) };
    try {
      await this.coordinator.subscribe(subscription);
    } catch (e) {
      return this.#errored(path, sessionId, generated, invocation, 1, new HarnessSignalSubscriptionFailedError(s.invocationId, s.descriptor.signalId, e), s.invocationId);
    }
    return {
      ...base,
      outcome: "suspended",
      invocationId: s.invocationId,
      descriptor: s.descriptor,
      state: s.state as State,
      subscription,
      result: s,
      outbound: {
        kind: "suspended_acknowledgment",
        payload: { invocationId: s.invocationId, signalId: s.descriptor.signalId, metadata: (s.descriptor.metadata ?? {}) as State },
      },
    };
  }

  #errored(
    path: DispatchPath | null,
    sessionId: string | undefined,
    generated: boolean,
    invocation: InvokeCall | undefined,
    attempts: number,
    e: unknown,
    invocationId?: string,
  ): ErroredTurn {
    const error = categorizeTurnError(e, this.#options.classifyError);
    const id = invocationId ?? (e as { invocationId?: unknown } | null)?.invocationId;
    return {
      mode: this.mode,
      path,
      sessionId,
      sessionIdGenerated: generated,
      invocation,
      attempts,
      outcome: "errored",
      invocationId: typeof id === "string" ? id : undefined,
      error,
      outbound: errorResponse(error),
    };
  }
}

function turnSpanEnd(t: TurnResult): TurnSpanEnd {
  const id = t.invocationId !== undefined ? { invocationId: t.invocationId } : {};
  return t.outcome === "errored" ? { outcome: "errored", ...id, errorCategory: t.error.category, errorBucket: t.error.bucket } : { outcome: t.outcome, ...id };
}

function isPayloadRefusal(e: unknown): boolean {
  return (e as { category?: unknown } | null)?.category === "suspension_resume_payload_invalid";
}
