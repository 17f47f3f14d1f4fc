/**
 * Queryable observers (observability §9): concrete observers that, besides receiving events, expose
 * read methods a pipeline node may call while the invocation runs.
 *
 * - §9.1 read methods are query-only: they return frozen values, never touch graph state, never
 *   emit events and never block (local, synchronous reads).
 * - §9.2 a read may race with delivery but never sees a torn view: each event replaces the whole
 *   accumulated value in one synchronous assignment, so a read sees the value before or after an
 *   event, never half of one. A read is not guaranteed to include every event emitted so far.
 * - §9.4 an accumulating observer keeps one bucket per invocation id and never drops it on
 *   completion (an end-of-invocation node still reads it); the consumer calls
 *   {@link InvocationAccumulator.drop} after reading. Events arriving after a drop start a fresh
 *   bucket.
 *
 * Attach one through its {@link QueryableObserver.observer} function: `graph.attachObserver(c.observer)`
 * or `graph.invoke(state, { observers: [c.observer] })`, and keep the instance to read it.
 */
import type { DeliveryContext, Observer, ObserverEvent } from "../graph/index.ts";

/** An observer instance with read methods; `observer` is what the engine is given. */
export interface QueryableObserver {
  readonly observer: Observer;
}

function freezeDeep<T>(v: T): T {
  if (typeof v === "object" && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v as object)) freezeDeep(x);
  }
  return v;
}

/** Counts every event it receives. */
export class EventCounter implements QueryableObserver {
  #count = 0;
  readonly observer: Observer = () => {
    this.#count += 1;
  };
  /** The number of events delivered so far. */
  get count(): number {
    return this.#count;
  }
}

/** A {@link TypedEventCounter} snapshot: the total and the per-event-kind breakdown, consistent with each other. */
export interface TypedCountSnapshot {
  readonly total: number;
  readonly byKind: Readonly<Record<string, number>>;
}

/** Counts events per kind (`node`, `metadata_augmentation`, the typed provider events, ...). */
export class TypedEventCounter implements QueryableObserver {
  #snapshot: TypedCountSnapshot = Object.freeze({ total: 0, byKind: Object.freeze({}) });
  readonly observer: Observer = (event) => {
    const prev = this.#snapshot;
    // One assignment replaces total and breakdown together (§9.2: no torn view).
    this.#snapshot = freezeDeep({ total: prev.total + 1, byKind: { ...prev.byKind, [event.kind]: (prev.byKind[event.kind] ?? 0) + 1 } });
  };
  /** The current counts; `total` always equals the sum of `byKind`. */
  snapshot(): TypedCountSnapshot {
    return this.#snapshot;
  }
}

/** Options of {@link InvocationAccumulator}. */
export interface InvocationAccumulatorOptions<B> {
  /** The empty bucket of an invocation's first event. */
  readonly init: (invocationId: string) => B;
  /**
   * The bucket after `event`: return a new value (do not mutate `bucket`, which readers may hold).
   * It is frozen before it is stored.
   */
  readonly fold: (bucket: B, event: ObserverEvent, ctx: DeliveryContext) => B;
}

/** An accumulating queryable observer (§9.4): one bucket per invocation id, dropped explicitly. */
export class InvocationAccumulator<B> implements QueryableObserver {
  readonly #buckets = new Map<string, B>();
  readonly #options: InvocationAccumulatorOptions<B>;
  constructor(options: InvocationAccumulatorOptions<B>) {
    this.#options = options;
  }
  readonly observer: Observer = (event, ctx) => {
    const id = ctx.invocationId;
    const prev = this.#buckets.has(id) ? (this.#buckets.get(id) as B) : this.#options.init(id);
    this.#buckets.set(id, freezeDeep(this.#options.fold(prev, event, ctx)));
  };
  /** The invocation's bucket (frozen), or `undefined` when it has none (never created, or dropped). */
  get(invocationId: string): B | undefined {
    return this.#buckets.get(invocationId);
  }
  has(invocationId: string): boolean {
    return this.#buckets.has(invocationId);
  }
  /** Release the invocation's bucket; `true` when there was one. Call it after the last read. */
  drop(invocationId: string): boolean {
    return this.#buckets.delete(invocationId);
  }
  /** The invocation ids holding a bucket now. */
  invocationIds(): string[] {
    return [...this.#buckets.keys()];
  }
}

/** One node event as {@link NodeEventAccumulator} keeps it. */
export interface AccumulatedNodeEvent {
  readonly nodeName: string;
  readonly phase: string;
  readonly step: number;
  readonly namespace: readonly string[];
}

/** A bucket of {@link NodeEventAccumulator}. */
export interface NodeEventBucket {
  readonly invocationId: string;
  readonly events: readonly AccumulatedNodeEvent[];
}

/** An {@link InvocationAccumulator} of the node events of each invocation, in delivery order. */
export class NodeEventAccumulator extends InvocationAccumulator<NodeEventBucket> {
  constructor() {
    super({
      init: (invocationId) => ({ invocationId, events: [] }),
      fold: (b, e) =>
        e.kind !== "node" ? b : { invocationId: b.invocationId, events: [...b.events, { nodeName: e.nodeName, phase: e.phase, step: e.step, namespace: e.namespace }] },
    });
  }
}
