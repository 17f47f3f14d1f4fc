/**
 * In-memory observers (conformance-adapter §6.1): record, accumulate and raise, each optionally
 * paced by `sleep_ms_per_event`. They are ordinary engine observers; the harness only adds the
 * read APIs the assertions use.
 */
import type { DeliveryContext, ObserverEvent } from "../src/graph/index.ts";

/** Which call an event belongs to: the harness numbers its invoke() calls. */
export interface CallClock {
  /** Index of the call currently running (or last run). */
  readonly current: number;
}

/** One delivery of an event to a harness observer, in the order deliveries began. */
export interface Delivery {
  readonly observer: string;
  readonly call: number;
  readonly event: ObserverEvent;
}

export type Pace = number | { readonly firstInvocation: number; readonly subsequentInvocations: number };

export type ObserverBehavior = "record" | "accumulate" | "raise";

/** The error a `raise` observer throws on every event. */
export class HarnessObserverError extends Error {
  constructor(observer: string) {
    super(`observer '${observer}' raises on every event (harness raise behavior)`);
    this.name = "HarnessObserverError";
  }
}

/**
 * A harness observer. `record` keeps a FIFO of every event; `accumulate` keeps one bucket per
 * invoke() call; `raise` throws on every event. Every behavior logs the delivery first.
 */
export class HarnessObserver {
  private readonly perCall = new Map<number, ObserverEvent[]>();
  /** Per call: deliveries begun, and deliveries that ran to their end (received or raised; not cancelled). */
  private readonly begun = new Map<number, number>();
  private readonly finished = new Map<number, number>();

  constructor(
    readonly name: string,
    readonly behavior: ObserverBehavior,
    private readonly clock: CallClock,
    private readonly deliveries: Delivery[],
    private readonly pace: Pace = 0,
  ) {}

  /** The engine-facing observer function. */
  readonly observe = async (event: ObserverEvent, ctx: DeliveryContext): Promise<void> => {
    const call = this.clock.current;
    this.deliveries.push({ observer: this.name, call, event });
    this.begun.set(call, (this.begun.get(call) ?? 0) + 1);
    const ms = this.sleepFor(call);
    if (ms > 0) await sleep(ms, ctx.signal);
    if (ctx.signal.aborted) return; // delivery was cancelled by a timed-out drain: not received
    this.finished.set(call, (this.finished.get(call) ?? 0) + 1);
    if (this.behavior === "raise") throw new HarnessObserverError(this.name);
    let bucket = this.perCall.get(call);
    if (!bucket) this.perCall.set(call, (bucket = []));
    bucket.push(event);
  };

  /** `sleep_ms_per_event`; the two-key form paces the case's first call differently (§5.5). */
  private sleepFor(call: number): number {
    if (typeof this.pace === "number") return this.pace;
    return call === 0 ? this.pace.firstInvocation : this.pace.subsequentInvocations;
  }

  /** Events received during call `call` (record: its slice of the FIFO; accumulate: its bucket). */
  eventsOf(call: number): readonly ObserverEvent[] {
    return [...(this.perCall.get(call) ?? [])];
  }

  /** Deliveries of call `call`'s events begun so far, and those that ran to their end (see `drain_waited_for_all_events`). */
  deliveryCounts(call: number): { readonly begun: number; readonly finished: number } {
    return { begun: this.begun.get(call) ?? 0, finished: this.finished.get(call) ?? 0 };
  }

  /** Every event received, across calls, in arrival order. */
  allEvents(): readonly ObserverEvent[] {
    return [...this.perCall.keys()].sort((a, b) => a - b).flatMap((k) => this.perCall.get(k) ?? []);
  }
}

/**
 * Waits `ms`, ending early when `signal` aborts. The signal is the delivery worker's, shared by every
 * delivery: the abort listener is removed when the timer fires, or each paced event would leave one
 * behind (past 10, Node's MaxListenersExceededWarning).
 */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = (): void => {
      clearTimeout(t);
      resolve();
    };
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
