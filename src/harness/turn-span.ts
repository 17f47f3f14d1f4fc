/**
 * The turn-level wrapper span (harness §8.4, observability §4.6): a span around one turn's
 * `invoke()` whose child the invocation's root span becomes. The harness opens it through a
 * {@link TurnSpans} — `OTelObserver` (openarmature/observability) is one — when one is attached:
 * passed as `turnSpans`, or attached to the graph (`compile({ hooks })`) or to the turn
 * (`handle(tx, { hooks })`). The harness itself never imports OpenTelemetry.
 *
 * The span carries `openarmature.session_id` in sessioned mode only (observability §5.6) and, on a
 * signal-resume turn, the paused invocation's descriptor (`openarmature.suspension.signal_id` and
 * the flattened `openarmature.suspension.metadata.*`, §5.8); its name and the other attributes are
 * the implementation's (see `OTelObserver.runInTurnSpan`).
 */
import type { ErrorBucket } from "./errors.ts";
import type { DispatchPath, HarnessMode } from "./transmission.ts";

/** What the wrapper span opens with. */
export interface TurnSpanStart {
  readonly mode: HarnessMode;
  readonly path: DispatchPath;
  /** Sessioned mode only. */
  readonly sessionId?: string;
  /** §3.3: the paused invocation's signal descriptor. */
  readonly signal?: { readonly signalId: string; readonly metadata?: Readonly<Record<string, unknown>> };
  /** §3.3: the paused invocation the signal resumes. */
  readonly resumedInvocationId?: string;
}

/** How the turn ended (recorded on the span before it closes). */
export interface TurnSpanEnd {
  readonly outcome: "completed" | "errored" | "suspended";
  readonly invocationId?: string;
  readonly errorCategory?: string | null;
  readonly errorBucket?: ErrorBucket;
}

/** Opens turn-level wrapper spans (observability §4.6). */
export interface TurnSpans {
  /** Run `body` inside a turn span: an invocation started in it is the span's child; `end` describes the result. */
  runInTurnSpan<T>(start: TurnSpanStart, body: () => Promise<T>, end: (result: T) => TurnSpanEnd): Promise<T>;
}

/** Does `x` open turn spans? */
export function isTurnSpans(x: unknown): x is TurnSpans {
  return typeof x === "object" && x !== null && typeof (x as { runInTurnSpan?: unknown }).runInTurnSpan === "function";
}
