/**
 * Queryable observers in graph cases (observability §9; fixtures 047–049 define the kinds): the
 * library's real {@link EventCounter} / {@link TypedEventCounter} / {@link NodeEventAccumulator}
 * attached to each call through `invoke({ observers })`, the read methods the fixtures name, and
 * the {@link QueryableReads} / {@link QueryableAfterCall} facets their claims read.
 */
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { Facet } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { drainEventsFor } from "../../src/graph/index.ts";
import { EventCounter, NodeEventAccumulator, TypedEventCounter, type NodeEventBucket } from "../../src/observability/index.ts";
import { GraphCaseHooksSlot } from "../graph/extensions.ts";

export const QUERYABLE_KINDS = ["event_counter", "typed_event_counter", "per_invocation_accumulator"] as const;
export type QueryableKind = (typeof QUERYABLE_KINDS)[number];

type Instance = EventCounter | TypedEventCounter | NodeEventAccumulator;

/** The read methods of each kind, by the name a fixture calls them (fixtures 047–049). */
export const READ_METHODS: Readonly<Record<QueryableKind, readonly string[]>> = {
  event_counter: ["get_count"],
  typed_event_counter: ["get_snapshot"],
  per_invocation_accumulator: ["get_bucket_for_current_invocation"],
};

function make(kind: QueryableKind): Instance {
  return kind === "event_counter" ? new EventCounter() : kind === "typed_event_counter" ? new TypedEventCounter() : new NodeEventAccumulator();
}

/** A bucket as a fixture state field holds it (snake_case). */
export function bucketRecord(b: NodeEventBucket): Record<string, unknown> {
  return {
    invocation_id: b.invocationId,
    events: b.events.map((e) => ({ invocation_id: b.invocationId, node_name: e.nodeName, phase: e.phase, step: e.step })),
  };
}

export interface DeclaredQueryable {
  readonly name: string;
  readonly kind: QueryableKind;
  readonly path: KeyPath;
  /** `persists_across_invocations` (default: the case's `sequential_invocations.observer_persists_across`, else false). */
  readonly persists: boolean | undefined;
  instance: Instance;
}

/** One read, drop or absence check a node made. */
export interface QueryableRead {
  readonly node: string;
  readonly observer: string;
  readonly kind: QueryableKind;
  readonly op: "read" | "drop" | "absent_check";
  readonly method?: string;
  /** The state field the node wrote the result into (reads and absence checks). */
  readonly field?: string;
  readonly invocationId: string;
  /** The read's value (a count, a snapshot, a bucket record; `undefined`: no bucket), a drop's result, or whether the bucket was absent. */
  readonly value: unknown;
}
export const QueryableReads = new Facet<QueryableRead[]>("queryable observer reads");

/** What each queryable observer holds once the call returned and delivery completed. */
export interface QueryableAfter {
  readonly name: string;
  readonly kind: QueryableKind;
  readonly invocationId: string | null;
  /** Events the observer received (counters), or the invocation ids holding a bucket (accumulator). */
  readonly count?: number;
  readonly bucketIds?: readonly string[];
  readonly hasDrop: boolean;
  /** The state the call's entry node received (defaults applied), or `{}` when no node ran. */
  readonly initialState: Readonly<Record<string, unknown>>;
}
export const QueryableAfterCall = new Facet<readonly QueryableAfter[]>("queryable observers after the call");

export class QueryableObservers {
  readonly decls = new Map<string, DeclaredQueryable>();
  /** `sequential_invocations.observer_persists_across`. */
  persistAcross = false;
  #installed = false;
  #entryState: Readonly<Record<string, unknown>> | undefined;

  declare(ctx: ConfigureContext, d: Omit<DeclaredQueryable, "instance">): void {
    this.decls.set(d.name, { ...d, instance: make(d.kind) });
    if (this.#installed) return;
    this.#installed = true;
    const hooks = ctx.slot(GraphCaseHooksSlot);
    hooks.invocationHooks.push({
      onNodeEvent: (e) => {
        if (this.#entryState === undefined && e.phase === "started" && e.namespace.length === 1) this.#entryState = e.preState;
      },
    });
    hooks.beforeCall.push(() => {
      this.#entryState = undefined;
    });
    hooks.invokeOptions.push(({ index }) => {
      // Attached at invoke time; a fresh instance per call unless it persists across invocations.
      for (const q of this.decls.values()) if (index > 0 && !(q.persists ?? this.persistAcross)) q.instance = make(q.kind);
      return { observers: [...this.decls.values()].map((q) => ({ observer: q.instance.observer, name: q.name })) };
    });
    hooks.afterCall.push((call, result) => {
      const invocationId = result instanceof Error ? null : result.invocationId;
      call.observation.set(
        QueryableAfterCall,
        [...this.decls.values()].map((q) => ({
          name: q.name,
          kind: q.kind,
          invocationId,
          hasDrop: typeof (q.instance as Partial<NodeEventAccumulator>).drop === "function",
          initialState: this.#entryState ?? {},
          ...(q.instance instanceof EventCounter ? { count: q.instance.count } : {}),
          ...(q.instance instanceof TypedEventCounter ? { count: q.instance.snapshot().total } : {}),
          ...(q.instance instanceof NodeEventAccumulator ? { bucketIds: q.instance.invocationIds() } : {}),
        })),
      );
    });
  }

  get(name: string): DeclaredQueryable | undefined {
    return this.decls.get(name);
  }

  /**
   * Call `method` on the observer for the running invocation. The read is gated on delivery of the
   * events emitted before it (graph-engine §6 `drainEventsFor`): §9.2 lets a read see any
   * consistent point in time, and this makes the point the fixture's "events so far".
   */
  async read(q: DeclaredQueryable, method: string, invocationId: string): Promise<unknown> {
    await drainEventsFor(invocationId);
    const i = q.instance;
    if (i instanceof EventCounter && method === "get_count") return i.count;
    if (i instanceof TypedEventCounter && method === "get_snapshot") {
      const s = i.snapshot();
      return { total: s.total, by_type: { ...s.byKind } };
    }
    if (i instanceof NodeEventAccumulator && method === "get_bucket_for_current_invocation") {
      const b = i.get(invocationId);
      return b === undefined ? undefined : bucketRecord(b);
    }
    throw new Error(`queryable observer '${q.name}' (${q.kind}) has no read method '${method}'`);
  }
}

export const QueryableObserversSlot = new SlotKey<QueryableObservers>("queryable observers (§9)", () => new QueryableObservers());
