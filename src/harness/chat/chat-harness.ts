/**
 * The chat harness (harness-chat): a sessioned-only {@link TurnHarness} with the chat surface.
 *
 * - `send(sessionId, message)` (§5): validates the session id and the message first (§3.1, §5.1 —
 *   nothing is loaded for a malformed call), serializes per session id (§5.3: a second `send` on
 *   the same session waits for the first; other sessions run in parallel), refuses the message
 *   while a turn of the session waits for a signal (`chat_turn_pending`, see `pending.ts`: run now,
 *   it would be overwritten when the paused turn resumes), loads the session to
 *   classify the turn (§6: empty history → §3.1 new session, else §3.2; a failing load is the
 *   errored outcome and the graph never runs), then runs the turn with the user message appended
 *   to `messages` through the graph's `append` reducer. The outcome (§5.2) carries the messages
 *   the turn added — extracted by index past the pre-invoke history, all roles, in order (§7) —
 *   as `replies` or, when the graph suspended, `pendingMessages` (§8.1); an error becomes a system
 *   reply by its §7 bucket (§10).
 * - `signal(signal, payload)` (§8.2): the signal-resume path (harness §3.3) — never `send()`. The
 *   resumed turn's outcome goes to every listener `subscribe(sessionId, callback)` registered for
 *   the paused invocation's session, exactly once, and is returned too.
 * - `pending(sessionId)`: the session's turns waiting for a signal (invocation id + descriptor), so
 *   a client that lost the `suspended` answer (a reloaded page, a restarted terminal) can offer
 *   their resume again.
 *
 * ```ts
 * const State = defineState({ messages: messagesField() });
 * const graph = new GraphBuilder(State).addNode("reply", async (s) => ({ messages: [await answer(s.messages)] }))
 *   .addEdge("reply", END).setEntry("reply").compile();
 * const chat = new ChatHarness({ graph: withSessions(graph, { store: new SqliteSessionStore("chat.db"), projection: "full" }) });
 * const turn = await chat.send("conv-1", { role: "user", content: "Hello" });
 * if (turn.outcome === "completed") show(turn.replies);
 * ```
 */
import type { Checkpointer } from "../../checkpoint/index.ts";

import { SessionBoundGraph } from "../../sessions/index.ts";
import type { SignalDescriptor } from "../../suspension/index.ts";
import { categorizeTurnError, HarnessSessionIdUnresolvedError, HarnessSignalCorrelationFailedError, type ErrorBucket, type TurnError, type TurnErrorClassifier } from "../errors.ts";
import type { ArrivingSignal, SignalCoordinator } from "../signal-coordinator.ts";
import type { DispatchPath } from "../transmission.ts";
import { NO_SINGLE_SUBSCRIPTION, TurnHarness, type CompletedTurn, type SuspendedTurn, type TurnInvokeOptions, type TurnResult } from "../turn-harness.ts";
import { historyOf, MESSAGES_FIELD } from "./history.ts";
import { ChatTurnPendingError, PendingTurns, type PendingTurn } from "./pending.ts";
import { validateChatMessage, type ChatMessage, type SystemMessage } from "./message.ts";
import { DEFAULT_ERROR_REPLIES, errorReply, type ErrorReplies } from "./replies.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySessionBound = SessionBoundGraph<any, any, any>;

export interface ChatHarnessOptions {
  /** The chat graph with sessions registered: `withSessions(graph, { store, projection })`; its state has `messages` (§4). */
  readonly graph: AnySessionBound;
  /** Where paused invocations persist (suspension §8.5). Default: in memory. */
  readonly checkpointer?: Checkpointer;
  /** harness §6. Default: in memory. */
  readonly coordinator?: SignalCoordinator;
  /** §10 reply texts by bucket. */
  readonly replies?: ErrorReplies;
  /** Refines the harness §7 bucket of a category. */
  readonly classifyError?: TurnErrorClassifier;
  /** A listener that threw (its error is reported here; the other listeners still run). Default: a process warning. */
  readonly onListenerError?: (error: unknown, sessionId: string) => void;
}

interface ChatTurnBase {
  readonly sessionId: string;
  /** harness §3: the path the turn took (`null` when it failed before classification). */
  readonly path: DispatchPath | null;
}

/** §5.2 `completed`. */
export interface ChatTurnCompleted extends ChatTurnBase {
  readonly outcome: "completed";
  readonly invocationId: string;
  /** The messages the turn added, in graph-execution order (possibly none). */
  readonly replies: readonly ChatMessage[];
  readonly finalState: Readonly<Record<string, unknown>>;
  /** The underlying harness turn (the engine's outcome is `turn.result`). */
  readonly turn: CompletedTurn;
}

/** §5.2 `errored`. */
export interface ChatTurnErrored extends ChatTurnBase {
  readonly outcome: "errored";
  readonly errorBucket: ErrorBucket;
  readonly errorCategory: string | null;
  /** The §10 system reply to show. */
  readonly reply: SystemMessage;
  readonly error: TurnError;
  /** Whether the graph was invoked at all. */
  readonly invoked: boolean;
}

/** §5.2 `suspended`. */
export interface ChatTurnSuspended extends ChatTurnBase {
  readonly outcome: "suspended";
  readonly invocationId: string;
  readonly signalDescriptor: SignalDescriptor;
  /** §8.1: what the graph appended before suspending (always a list). */
  readonly pendingMessages: readonly ChatMessage[];
  /** The underlying harness turn (the suspension library's outcome is `turn.result`). */
  readonly turn: SuspendedTurn;
}

export type ChatTurnOutcome = ChatTurnCompleted | ChatTurnErrored | ChatTurnSuspended;

export type ChatListener = (outcome: ChatTurnOutcome) => void | Promise<void>;

/** The chat harness (see the module comment). */
export class ChatHarness {
  readonly harness: TurnHarness;
  readonly sessions: AnySessionBound;
  readonly #replies: ErrorReplies;
  readonly #classify: TurnErrorClassifier | undefined;
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #listeners = new Map<string, Set<ChatListener>>();
  readonly #onListenerError: (error: unknown, sessionId: string) => void;
  readonly #pending: PendingTurns;

  constructor(options: ChatHarnessOptions) {
    if (!(options.graph instanceof SessionBoundGraph)) throw new TypeError("ChatHarness: the chat harness is sessioned-only — pass withSessions(graph, { store, projection })");
    if (options.graph.store === null) throw new TypeError("ChatHarness: the session-bound graph has no SessionStore; conversation history needs one (harness-chat §4)");
    if (!options.graph.graph.schema.fields.has(MESSAGES_FIELD)) throw new TypeError(`ChatHarness: the graph's state has no '${MESSAGES_FIELD}' field (harness-chat §4; see messagesField())`);
    this.sessions = options.graph;
    this.#replies = options.replies ?? DEFAULT_ERROR_REPLIES;
    this.#classify = options.classifyError;
    this.#onListenerError = options.onListenerError ?? ((e, s) => process.emitWarning(`chat listener for session "${s}" raised: ${e instanceof Error ? e.message : String(e)}`, "ChatListenerWarning"));
    this.harness = new TurnHarness({
      mode: "sessioned",
      graph: options.graph,
      ...(options.checkpointer !== undefined ? { checkpointer: options.checkpointer } : {}),
      ...(options.coordinator !== undefined ? { coordinator: options.coordinator } : {}),
      ...(options.classifyError !== undefined ? { classifyError: options.classifyError } : {}),
      initialState: (tx) => ({ [MESSAGES_FIELD]: [tx.payload?.["message"]] }),
    });
    this.#pending = new PendingTurns(this.harness.suspendable, this.harness.graph.name);
  }

  /**
   * The turns of `sessionId` waiting for a signal (paused records still `suspended`), oldest
   * first — what a client shows Approve / Reject (or Continue) for after it lost the `suspended`
   * answer. Rejects when the paused records cannot be read.
   */
  pending(sessionId: string): Promise<readonly PendingTurn[]> {
    if (typeof sessionId !== "string" || sessionId.length === 0) return Promise.reject(new TypeError("pending: sessionId must be a non-empty string"));
    return this.#pending.of(sessionId);
  }

  /** §5: one user turn (see the module comment). Resolves with an outcome for every failure it can categorize. */
  async send(sessionId: string, message: ChatMessage, options: TurnInvokeOptions = {}): Promise<ChatTurnOutcome> {
    if (typeof sessionId !== "string" || sessionId.length === 0) {
      return this.#failed(String(sessionId ?? ""), null, new HarnessSessionIdUnresolvedError(`send() needs a non-empty session id, got ${JSON.stringify(sessionId)}`), false);
    }
    let valid: ChatMessage;
    try {
      valid = validateChatMessage(message);
    } catch (e) {
      return this.#failed(sessionId, null, e, false);
    }
    return this.#serialized(sessionId, async () => {
      // harness-chat §5.3: "The second call awaits the first's outcome before beginning its own
      // session load + invoke dispatch." A turn that suspended has not ended; the harness "MUST NOT
      // block on suspended turns" (harness §5.3) and a send "MUST NOT be classified as
      // signal-resume" (§6). So a message sent while one waits is refused, never run: run on the
      // session saved at suspend, it would be overwritten when the paused turn resumes (pending.ts).
      let waiting: readonly PendingTurn[];
      let history: readonly ChatMessage[];
      try {
        waiting = await this.#pending.of(sessionId);
      } catch (e) {
        return this.#failed(sessionId, null, e, false);
      }
      if (waiting.length > 0) return this.#failed(sessionId, null, new ChatTurnPendingError(sessionId, waiting), false);
      try {
        history = historyOf((await this.sessions.load(sessionId))?.state as Readonly<Record<string, unknown>> | undefined);
      } catch (e) {
        return this.#failed(sessionId, null, e, false);
      }
      const turn = await this.harness.handle(
        { intent: history.length === 0 ? "new_session" : "existing_session", sessionId, payload: { message: valid } },
        options,
      );
      return this.#outcome(sessionId, turn, history.length + 1);
    });
  }

  /**
   * §8.2: an arriving signal resumes its paused invocation (harness §3.3); the outcome goes to the
   * session's listeners and is returned. A signal that correlates to nothing is an errored
   * outcome (`harness_signal_correlation_failed`) no listener receives.
   */
  async signal(signal: ArrivingSignal, signalPayload: Readonly<Record<string, unknown>> = {}, options: TurnInvokeOptions = {}): Promise<ChatTurnOutcome> {
    const sub = await this.harness.coordinator.correlate(signal);
    if (sub === undefined || sub.sessionId === undefined) {
      return this.#failed("", "3.3", new HarnessSignalCorrelationFailedError(signal, sub === undefined ? NO_SINGLE_SUBSCRIPTION : "the paused invocation has no session"), false);
    }
    const sessionId = sub.sessionId;
    const outcome = await this.#serialized(sessionId, async () => {
      const paused = await this.harness.suspendable.load(sub.invocationId);
      const before = historyOf(paused?.state as Readonly<Record<string, unknown>> | undefined).length;
      const turn = await this.harness.handle({ signal: { invocationId: sub.invocationId }, signalPayload }, options);
      return this.#outcome(sessionId, turn, before);
    });
    await this.#notify(sessionId, outcome);
    return outcome;
  }

  /** §8.2: `callback` receives the outcome of every resumed turn of `sessionId`. Returns the unsubscribe function. */
  subscribe(sessionId: string, callback: ChatListener): () => void {
    if (typeof sessionId !== "string" || sessionId.length === 0) throw new TypeError("subscribe: sessionId must be a non-empty string");
    if (typeof callback !== "function") throw new TypeError("subscribe: callback must be a function");
    let set = this.#listeners.get(sessionId);
    if (!set) this.#listeners.set(sessionId, (set = new Set()));
    set.add(callback);
    return () => {
      set.delete(callback);
      if (set.size === 0 && this.#listeners.get(sessionId) === set) this.#listeners.delete(sessionId);
    };
  }

  async #notify(sessionId: string, outcome: ChatTurnOutcome): Promise<void> {
    for (const l of [...(this.#listeners.get(sessionId) ?? [])]) {
      try {
        await l(outcome);
      } catch (e) {
        this.#onListenerError(e, sessionId);
      }
    }
  }

  /** §5.3: run `body` after every earlier call on `sessionId` settled. */
  async #serialized<T>(sessionId: string, body: () => Promise<T>): Promise<T> {
    const prior = this.#locks.get(sessionId) ?? Promise.resolve();
    const run = prior.then(body, body);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.#locks.set(sessionId, tail);
    try {
      return await run;
    } finally {
      if (this.#locks.get(sessionId) === tail) this.#locks.delete(sessionId);
    }
  }

  #outcome(sessionId: string, turn: TurnResult, from: number): ChatTurnOutcome {
    const base = { sessionId, path: turn.path };
    switch (turn.outcome) {
      case "completed":
        return { ...base, outcome: "completed", invocationId: turn.invocationId, replies: historyOf(turn.state).slice(from), finalState: turn.state, turn };
      case "suspended":
        this.#pending.add(sessionId, turn.invocationId);
        return { ...base, outcome: "suspended", invocationId: turn.invocationId, signalDescriptor: turn.descriptor, pendingMessages: historyOf(turn.state).slice(from), turn };
      case "errored":
        return this.#erroredFrom(sessionId, turn.path, turn.error, turn.attempts > 0);
    }
  }

  #failed(sessionId: string, path: DispatchPath | null, e: unknown, invoked: boolean): ChatTurnErrored {
    return this.#erroredFrom(sessionId, path, categorizeTurnError(e, this.#classify), invoked);
  }

  #erroredFrom(sessionId: string, path: DispatchPath | null, error: TurnError, invoked: boolean): ChatTurnErrored {
    return { sessionId, path, outcome: "errored", errorBucket: error.bucket, errorCategory: error.category, reply: errorReply(error, this.#replies), error, invoked };
  }
}


