/**
 * The signal coordinator (harness §6): at suspend time it turns the suspended outcome's descriptor
 * into a subscription that can route the awaited signal back; at signal arrival it maps the signal
 * to the paused invocation id. The mechanism is the runtime's (a REST callback URL, an event-bus
 * correlation key, a scheduled wakeup); {@link InMemorySignalCoordinator} keeps the map in the
 * process (signal id → paused invocation), which is what a single-process runtime needs.
 *
 * Completeness (§6): every suspended invocation gets a subscription, or the turn errors with
 * `harness_signal_subscription_failed` (a `subscribe` that throws).
 */
import type { SignalDescriptor } from "../suspension/index.ts";

/** What the harness registers when a turn suspends (§5.3 step 2). */
export interface SignalSubscription {
  readonly invocationId: string;
  readonly descriptor: SignalDescriptor;
  /** The paused invocation's session (sessioned mode); absent in stateless mode (§3.0). */
  readonly sessionId?: string;
}

/** An arriving signal, as the runtime hands it to the signal-resume path (§3.3). */
export interface ArrivingSignal {
  /** The paused invocation, when the transport carries it (e.g. `POST /callback/<invocation_id>`). */
  readonly invocationId?: string;
  /** The correlation key: the descriptor's `signalId` the subscription registered. */
  readonly signalId?: string;
}

export interface SignalCoordinator {
  /** Register a subscription (throwing → `harness_signal_subscription_failed`). */
  subscribe(subscription: SignalSubscription): void | Promise<void>;
  /** The subscription an arriving signal correlates to, or `undefined` (→ `harness_signal_correlation_failed`). */
  correlate(signal: ArrivingSignal): SignalSubscription | undefined | Promise<SignalSubscription | undefined>;
  /** The resume of `invocationId` ran (completed, errored or suspended again): drop its subscription. */
  release(invocationId: string): void | Promise<void>;
}

/** The in-process coordinator: subscriptions keyed by invocation id, correlated by id or by signal id. */
export class InMemorySignalCoordinator implements SignalCoordinator {
  readonly #byInvocation = new Map<string, SignalSubscription>();

  subscribe(subscription: SignalSubscription): void {
    this.#byInvocation.set(subscription.invocationId, subscription);
  }

  correlate(signal: ArrivingSignal): SignalSubscription | undefined {
    if (signal.invocationId !== undefined) return this.#byInvocation.get(signal.invocationId);
    if (signal.signalId === undefined) return undefined;
    const hits = [...this.#byInvocation.values()].filter((s) => s.descriptor.signalId === signal.signalId);
    // Two paused invocations awaiting one signal id cannot be told apart by it: no correlation.
    return hits.length === 1 ? hits[0] : undefined;
  }

  release(invocationId: string): void {
    this.#byInvocation.delete(invocationId);
  }

  /** The live subscriptions (for inspection and tests). */
  subscriptions(): SignalSubscription[] {
    return [...this.#byInvocation.values()];
  }
}

/** What {@link PausedRecordSignalCoordinator} reads of a paused-invocation record. */
export interface PausedRecordView {
  readonly status: string;
  readonly descriptor: SignalDescriptor;
  readonly sessionId?: string;
}

/**
 * In-process subscriptions that fall back, for a signal naming its invocation id, to the paused
 * record itself (`load`, e.g. `withSuspension(...).load`): a paused turn stays resumable after the
 * process restarts, when the in-memory map is gone but the record (in SQLite, Postgres) is not. Only
 * a record still `suspended` correlates; a signal id alone needs the live subscription.
 */
export class PausedRecordSignalCoordinator implements SignalCoordinator {
  /** The live subscriptions. */
  readonly live = new InMemorySignalCoordinator();
  readonly #load: (invocationId: string) => Promise<PausedRecordView | undefined>;

  constructor(load: (invocationId: string) => Promise<PausedRecordView | undefined>) {
    this.#load = load;
  }

  subscribe(subscription: SignalSubscription): void {
    this.live.subscribe(subscription);
  }

  async correlate(signal: ArrivingSignal): Promise<SignalSubscription | undefined> {
    const live = this.live.correlate(signal);
    if (live !== undefined || signal.invocationId === undefined) return live;
    const invocationId = signal.invocationId;
    const r = await this.#load(invocationId);
    return r === undefined || r.status !== "suspended" ? undefined : { invocationId, descriptor: r.descriptor, ...(r.sessionId !== undefined ? { sessionId: r.sessionId } : {}) };
  }

  release(invocationId: string): void {
    this.live.release(invocationId);
  }
}
