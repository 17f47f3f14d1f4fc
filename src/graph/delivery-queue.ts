/**
 * The per-invocation observer delivery queue (graph-engine §6 *Event delivery*).
 *
 * One {@link DeliveryWorker} per outermost invocation that has observers. The engine enqueues
 * synchronously (dispatch never awaits observers); the worker delivers asynchronously and strictly
 * serially: each event goes to its recipients one at a time, in order, and event e+1 is not
 * delivered to anyone until every recipient has finished with event e. Observer errors are caught
 * and reported, never propagated.
 */
import type { ObserverEvent } from "./events.ts";
import type { DeliveryContext, ObserverErrorHandler, ObserverRegistration } from "./observers.ts";

const RESOLVED: Promise<void> = Promise.resolve();

interface QueuedEvent {
  readonly event: ObserverEvent;
  readonly recipients: readonly ObserverRegistration[];
}

interface Waiter {
  readonly target: number;
  readonly resolve: () => void;
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
}

/** The delivery worker of one invocation. */
export class DeliveryWorker {
  readonly invocationId: string;
  /** The outermost compiled graph of the invocation (scopes `CompiledGraph.drain`). */
  readonly root: object;
  /** Events accepted onto the queue. */
  enqueued = 0;
  /** Events fully delivered to every recipient. */
  delivered = 0;
  /** Events discarded because the worker was cancelled. */
  dropped = 0;
  /** Observer errors caught so far. */
  observerErrors = 0;

  #queue: (QueuedEvent | undefined)[] = [];
  #head = 0;
  #running = false;
  #scheduled = false;
  #ended = false;
  #cancelled = false;
  #finished = false;
  #done: Promise<void> | undefined;
  #resolveDone: (() => void) | undefined;
  #waiters: Waiter[] = [];
  /** The recipient whose promise {@link #resume} awaits. */
  #at = 0;
  #controller: AbortController | undefined;
  #ctx: DeliveryContext;
  #onError: ObserverErrorHandler;
  #onFinish: (w: DeliveryWorker) => void;

  constructor(
    invocationId: string,
    root: object,
    onError: ObserverErrorHandler,
    onFinish: (w: DeliveryWorker) => void,
  ) {
    this.invocationId = invocationId;
    this.root = root;
    this.#onError = onError;
    this.#onFinish = onFinish;
    const self = this;
    this.#ctx = {
      invocationId,
      get signal(): AbortSignal {
        self.#controller ??= new AbortController();
        return self.#controller.signal;
      },
    };
  }

  /** True once the invocation ended and every event was delivered, or the worker was cancelled. */
  get finished(): boolean {
    return this.#finished;
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** Events queued or in flight. */
  get pending(): number {
    return this.enqueued - this.delivered - this.dropped;
  }

  /** Accept an event (synchronous; never runs an observer inline). */
  enqueue(event: ObserverEvent, recipients: readonly ObserverRegistration[]): void {
    if (this.#cancelled || this.#finished) {
      this.dropped++;
      this.enqueued++;
      return;
    }
    this.#queue.push({ event, recipients });
    this.enqueued++;
    if (!this.#running && !this.#scheduled) {
      this.#scheduled = true;
      // A continuation of an already-resolved promise, not `queueMicrotask`: in Node 20, with
      // async hooks on (AsyncLocalStorage is), each `queueMicrotask` call builds an AsyncResource.
      void RESOLVED.then(this.#kick);
    }
  }

  /** The invocation produced its last event; the worker finishes once the queue is empty. */
  end(): void {
    this.#ended = true;
    if (!this.#running && !this.#scheduled && this.#head >= this.#queue.length) this.#finish();
  }

  /** Resolves when the worker is finished (see {@link finished}). */
  whenDone(): Promise<void> {
    if (this.#finished) return Promise.resolve();
    this.#done ??= new Promise<void>((r) => (this.#resolveDone = r));
    return this.#done;
  }

  /** Resolves once `delivered >= target` (or the worker finished / was cancelled). */
  whenDelivered(target: number): Promise<void> {
    if (this.delivered >= target || this.#finished) return Promise.resolve();
    return new Promise<void>((resolve) => this.#waiters.push({ target, resolve }));
  }

  /**
   * Cancel (process-wide drain timeout): queued and in-flight events become undelivered, the
   * observers' `signal` aborts, later events are dropped. Returns the undelivered count.
   */
  cancel(): number {
    if (this.#finished) return 0;
    const undelivered = this.pending;
    this.#cancelled = true;
    this.dropped += undelivered;
    this.#queue = [];
    this.#head = 0;
    this.#controller?.abort(new Error("observer delivery cancelled by drain timeout"));
    this.#finish();
    return undelivered;
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#resolveDone?.();
    const ws = this.#waiters;
    this.#waiters = [];
    for (const w of ws) w.resolve();
    this.#onFinish(this);
  }

  #notify(): void {
    const d = this.delivered;
    let keep: Waiter[] | undefined;
    for (const w of this.#waiters) {
      if (w.target <= d) w.resolve();
      else (keep ??= []).push(w);
    }
    this.#waiters = keep ?? [];
  }

  readonly #kick = (): void => {
    this.#scheduled = false;
    this.#pump();
  };

  /**
   * Deliver queued events, synchronously, until the queue is empty or an observer returns a promise
   * ({@link #resume} then awaits it and pumps on). Observers that return nothing — the common case —
   * cost no promise per batch (an `async` loop allocated one each time the queue was kicked).
   */
  #pump(): void {
    if (this.#running || this.#finished) return;
    this.#running = true;
    while (this.#head < this.#queue.length) {
      const item = this.#queue[this.#head]!;
      this.#queue[this.#head] = undefined;
      this.#head++;
      const pending = this.#deliver(item, 0);
      if (pending !== undefined) {
        void this.#resume(item, pending);
        return;
      }
      if (this.#cancelled) {
        this.#running = false;
        return;
      }
      this.#delivered();
    }
    this.#queue = [];
    this.#head = 0;
    this.#running = false;
    if (this.#ended && !this.#cancelled) this.#finish();
  }

  /**
   * Hand `item` to its recipients from index `from` on, one at a time. Returns what an observer
   * returned when it is a promise (its index in `#at`), to be awaited before the next recipient.
   */
  #deliver(item: QueuedEvent, from: number): PromiseLike<unknown> | undefined {
    const event = item.event;
    const phase = (event as { phase?: string }).phase;
    const recipients = item.recipients;
    // An index loop: the recipient list is frozen, and for-of over a frozen array is slow on Node 20.
    for (let i = from; i < recipients.length; i++) {
      const reg = recipients[i]!;
      if (phase !== undefined && reg.phases !== null && !reg.phases.has(phase as never)) continue;
      try {
        const r = reg.observer(event, this.#ctx);
        if (isThenable(r)) {
          this.#at = i;
          return r;
        }
      } catch (error) {
        this.#report(error, event, reg);
      }
      if (this.#cancelled) return undefined;
    }
    return undefined;
  }

  /** An observer of `item` returned `pending`: await it, deliver `item` to the rest, then pump on. */
  async #resume(item: QueuedEvent, pending: PromiseLike<unknown>): Promise<void> {
    let p: PromiseLike<unknown> | undefined = pending;
    while (p !== undefined) {
      try {
        await p;
      } catch (error) {
        this.#report(error, item.event, item.recipients[this.#at]!);
      }
      if (this.#cancelled) {
        this.#running = false;
        return;
      }
      p = this.#deliver(item, this.#at + 1);
    }
    if (this.#cancelled) {
      this.#running = false;
      return;
    }
    this.#delivered();
    this.#running = false;
    this.#pump();
  }

  /** The event at the head was delivered to every recipient. */
  #delivered(): void {
    this.delivered++;
    if (this.#waiters.length) this.#notify();
    if (this.#head >= 1024 && this.#head * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
  }

  #report(error: unknown, event: ObserverEvent, reg: ObserverRegistration): void {
    this.observerErrors++;
    try {
      this.#onError({ error, event, observerName: reg.name, invocationId: this.invocationId });
    } catch {
      // An error handler that throws must not break delivery either.
    }
  }
}
