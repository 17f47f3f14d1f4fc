/**
 * What the turn-harness conformance runner records per call (harness / harness-chat fixtures), as
 * typed facets on the call's observation.
 */
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import type { SessionRecord, SessionStoreStats } from "../../src/sessions/index.ts";
import type { PausedInvocationRecord } from "../../src/suspension/index.ts";
import type { SignalSubscription, Transmission, TurnResult } from "../../src/harness/index.ts";
import type { ChatMessage, ChatTurnOutcome } from "../../src/harness/chat/index.ts";

/** Shared by transmissions, chat turns and signal arrivals. */
export interface TurnCall {
  /** The earlier calls of the case (for input placeholders read at check time). */
  readonly previous: readonly Observation[];
  /** Every completed node event of the call, in order (engine hook). */
  readonly events: readonly NodeEvent[];
  /** The session id the engine had bound while each node ran (`currentSessionId()`), per completed event. */
  readonly engineSessionIds: ReadonlyArray<string | undefined>;
  /** The SessionStore's calls during the call (`null`: no store registered). */
  readonly storeCalls: SessionStoreStats | null;
  /** The store's records before / after the call. */
  readonly storeBefore: ReadonlyMap<string, SessionRecord>;
  readonly storeAfter: ReadonlyMap<string, SessionRecord>;
  /** The coordinator's subscriptions once the call returned. */
  readonly subscriptionsAfter: readonly SignalSubscription[];
  /** The paused record of the call's invocation as it stood when the call returned (suspended calls). */
  readonly pausedAtReturn: PausedInvocationRecord | undefined;
  /** Signals delivered to the harness while the call ran (a blocking harness would have waited for one). */
  readonly signalsDuringCall: number;
}
export const TurnCallFacet = new Facet<TurnCall>("harness turn call");

/** harness fixtures: the transmission and the harness's turn result. */
export interface TransmissionCall {
  readonly transmission: Transmission;
  readonly turn: TurnResult;
}
export const TransmissionFacet = new Facet<TransmissionCall>("harness transmission");

/** harness-chat fixtures: a `send()` or a signal arrival, and what came back. */
export interface ChatCall {
  readonly kind: "send" | "signal";
  readonly sessionId: string | undefined;
  readonly userMessage: unknown;
  readonly outcome: ChatTurnOutcome;
  /** The session's history before the call (`null`: unreadable, e.g. a failing store). */
  readonly historyBefore: readonly ChatMessage[] | null;
  /** Listener callbacks received during the call, by listener name. */
  readonly listenerCalls: ReadonlyMap<string, readonly ChatTurnOutcome[]>;
}
export const ChatCallFacet = new Facet<ChatCall>("chat harness call");
