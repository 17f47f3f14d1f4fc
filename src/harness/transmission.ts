/**
 * Inbound transmissions and their dispatch-path classification (harness §3).
 *
 * A {@link Transmission} is what a runtime hands the harness: a payload, optionally the caller's
 * intent (the transport's route / event type), a session id, or an arriving signal.
 * {@link classifyTransmission} is deterministic in the transmission alone (§3.4):
 *
 * | mode | transmission | path |
 * |---|---|---|
 * | sessioned | `intent: "signal_resume"`, or a `signal` with no intent | `3.3` signal resume |
 * | sessioned | `intent: "new_session"`, or no intent and no session id | `3.1` new session |
 * | sessioned | `intent: "existing_session"`, or no intent and a session id | `3.2` existing session |
 * | stateless | a signal (the §3.0 resume-equivalent) | `3.3` |
 * | stateless | anything else | `3.0` |
 *
 * A sessioned intent together with a signal, or a sessioned intent sent to a stateless harness
 * (mode is fixed at construction, §2), is `harness_path_classification_ambiguous`.
 */
import { HarnessPathClassificationAmbiguousError } from "./errors.ts";
import type { ArrivingSignal } from "./signal-coordinator.ts";

/** harness §2: fixed at construction. */
export type HarnessMode = "sessioned" | "stateless";

/** harness §3: `3.0` stateless, `3.1` new session, `3.2` existing session, `3.3` signal resume. */
export type DispatchPath = "3.0" | "3.1" | "3.2" | "3.3";

/** What the transport says the transmission is (its route, event type, CLI command). */
export type DispatchIntent = "new_session" | "existing_session" | "signal_resume";

/** One inbound transmission (request / event / CLI input). */
export interface Transmission<P extends Readonly<Record<string, unknown>> = Readonly<Record<string, unknown>>> {
  /** The inbound payload the initial state is built from. */
  readonly payload?: P;
  /** The caller's intent, when the transport carries it. */
  readonly intent?: DispatchIntent;
  /** The session id, when the transport carries it outside the payload (a header, a URL segment). */
  readonly sessionId?: string;
  /** An arriving signal (§3.3): which paused invocation it is for, by id or by signal id. */
  readonly signal?: ArrivingSignal;
  /** The signal payload merged into the paused state on resume (suspension §6). */
  readonly signalPayload?: Readonly<Record<string, unknown>>;
}

/** Classify `tx` for a harness in `mode` (see the module comment). Throws `harness_path_classification_ambiguous`. */
export function classifyTransmission(mode: HarnessMode, tx: Transmission, hasSessionId: boolean): DispatchPath {
  const signal = tx.signal !== undefined;
  if (tx.intent === "signal_resume") return "3.3";
  if (mode === "stateless") {
    if (tx.intent !== undefined) throw new HarnessPathClassificationAmbiguousError(`intent "${tx.intent}" names a sessioned path, but this harness is stateless (§3.0)`);
    return signal ? "3.3" : "3.0";
  }
  if (signal && tx.intent !== undefined) throw new HarnessPathClassificationAmbiguousError(`intent "${tx.intent}" but the transmission also carries a signal (§3.3)`);
  if (signal) return "3.3";
  if (tx.intent === "new_session") return "3.1";
  if (tx.intent === "existing_session") return "3.2";
  return hasSessionId ? "3.2" : "3.1";
}
