/**
 * Invocations and their async context (graph-engine §3 *Invocation entry surface*; observability
 * §3.1 / §5.1 propagation via `AsyncLocalStorage`).
 *
 * An {@link Invocation} is one outermost `invoke()`: its ids, step counter, execution order,
 * observer snapshot and delivery worker. A {@link Frame} is one graph run inside it (the outermost
 * graph, or a subgraph run with its namespace prefix, parent states and fan-out / branch lineage).
 * The current frame and attempt index live in one `AsyncLocalStorage` store, set once per frame —
 * never per node — so node bodies, middleware and nested helpers can read their context.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { DeliveryWorker } from "./delivery-queue.ts";
import { registerWorker, unregisterWorker } from "./drain.ts";
import type { ObserverEvent } from "./events.ts";
import type { AttemptView } from "./execution.ts";
import type { InvocationHooks, NodeExecutionContext } from "./extension.ts";
import type { GraphRuntime } from "./internals.ts";
import { warnObserverError, type ObserverErrorHandler, type ObserverRegistration } from "./observers.ts";
import type { StateRecord } from "./state-types.ts";
import { emptyMetadata, MetadataCell, validateMetadata, type InvocationMetadata } from "./invocation-metadata.ts";

/** @internal what the engine keeps in async context. */
export interface EngineStore {
  readonly frame: Frame;
  readonly attemptIndex: number;
  /** Invocation metadata of this async context (observability §3.4), copy-on-write per dispatch. */
  readonly meta: MetadataCell;
  /**
   * Set inside the body of a node that has middleware: the dispatch whose body this async context
   * runs (so code can tell the body from its middleware, see `inNodeBody()`). Unset elsewhere.
   */
  readonly body?: object;
}

/** @internal */
export const engineStorage = new AsyncLocalStorage<EngineStore>();

/** The current retry attempt index (innermost `withAttemptIndex` wins; 0 by default). */
export function currentAttemptIndex(): number {
  return engineStorage.getStore()?.attemptIndex ?? 0;
}

/** @internal The shared frozen empty list. */
export const EMPTY: readonly never[] = Object.freeze([]);

/** @internal A hook that takes node attempts — and so no node events (`InvocationHooks.onNodeAttemptStart`). */
export function takesAttempts(h: InvocationHooks): boolean {
  return h.onNodeAttemptStart !== undefined || h.onNodeAttemptEnd !== undefined;
}

/** @internal One outermost invocation. */
export class Invocation {
  readonly id: string;
  readonly correlationId: string;
  readonly metadata: InvocationMetadata;
  readonly root: GraphRuntime;
  nextStep: number;
  readonly executionOrder: string[] = [];
  worker: DeliveryWorker | null = null;
  readonly hooks: readonly InvocationHooks[];
  /** The hooks with any synchronous lifecycle method (called inline by the engine). */
  readonly syncHooks: readonly InvocationHooks[];
  /** How many hooks take node attempts (`onNodeAttemptStart` / `End`), and how many node events instead. */
  readonly attemptHookCount: number;
  readonly eventHookCount: number;
  /** What attempt hooks are handed (`execution.ts`), built on first use. */
  attemptView: AttemptView | undefined = undefined;
  /** The hooks with `onNodeCompleted` (awaited after each completed node; none: nothing awaited). */
  readonly completedHooks: readonly InvocationHooks[];
  readonly invocationObservers: readonly ObserverRegistration[];
  /** Whether any invocation observer carries a `graph` scope (frames then track their graph chain). */
  readonly scoped: boolean;
  readonly onObserverError: ObserverErrorHandler;
  /**
   * Follows the caller's `InvokeOptions.signal` (same `reason`) until the invocation ends: cancels
   * it (`invocation_cancelled`). The engine's own signal, so every concurrent instance / branch scope
   * may listen without a MaxListeners warning and without listeners left on the caller's signal.
   */
  readonly signal: AbortSignal | undefined;
  readonly #detach: (() => void) | undefined;
  /** The step limit in force (`maxSteps`; undefined: none). */
  readonly maxSteps: number | undefined;
  /** No node may start once `nextStep` reaches this (start step + `maxSteps`; `Infinity`: no limit). */
  readonly stepCeiling: number;
  /** Graph-attached observers per graph, fixed when the invocation began (§6). */
  readonly snapshots = new Map<GraphRuntime, readonly ObserverRegistration[]>();

  constructor(
    root: GraphRuntime,
    init: {
      invocationId?: string | undefined;
      correlationId?: string | undefined;
      metadata?: Readonly<Record<string, unknown>> | undefined;
      observers: readonly ObserverRegistration[];
      hooks: readonly InvocationHooks[];
      onObserverError?: ObserverErrorHandler | undefined;
      startStep?: number | undefined;
      signal?: AbortSignal | undefined;
      maxSteps?: number | undefined;
    },
  ) {
    const caller = init.signal;
    if (caller === undefined) this.signal = undefined;
    else {
      const own = new AbortController();
      setMaxListeners(0, own.signal);
      this.signal = own.signal;
      if (caller.aborted) own.abort(caller.reason);
      else {
        const follow = (): void => own.abort(caller.reason);
        caller.addEventListener("abort", follow, { once: true });
        this.#detach = () => caller.removeEventListener("abort", follow);
      }
    }
    this.maxSteps = init.maxSteps;
    this.root = root;
    this.id = init.invocationId ?? randomUUID();
    this.correlationId = init.correlationId ?? randomUUID();
    this.metadata = init.metadata ? Object.freeze(validateMetadata(init.metadata, "invoke()")) : emptyMetadata();
    this.invocationObservers = init.observers;
    this.scoped = init.observers.some((r) => r.scope !== undefined);
    this.hooks = init.hooks;
    // One pass over the hooks (once per invocation): which are called inline, and how.
    const syncHooks: InvocationHooks[] = [];
    const completedHooks: InvocationHooks[] = [];
    let attemptHookCount = 0;
    let eventHookCount = 0;
    for (const h of init.hooks) {
      if (h.onNodeCompleted) completedHooks.push(h);
      if (
        !(h.onNodeEvent || h.onNodeAttemptStart || h.onNodeAttemptEnd || h.onChildRunStart || h.onChildRunEnd ||
          h.onInvocationStart || h.onInvocationEnd || h.onMetadataAugmented || h.onTypedEvent)
      ) continue;
      syncHooks.push(h);
      if (takesAttempts(h)) attemptHookCount++;
      else if (h.onNodeEvent) eventHookCount++;
    }
    this.syncHooks = syncHooks;
    this.completedHooks = completedHooks;
    this.attemptHookCount = attemptHookCount;
    this.eventHookCount = eventHookCount;
    this.onObserverError = init.onObserverError ?? root.onObserverError ?? warnObserverError;
    this.nextStep = init.startStep ?? 0;
    this.stepCeiling = init.maxSteps === undefined ? Infinity : this.nextStep + init.maxSteps;
    let any = init.observers.length > 0;
    for (const g of root.allGraphs) {
      const obs = g.observers;
      this.snapshots.set(g, obs);
      if (obs.length) any = true;
    }
    if (any) this.ensureWorker();
  }

  /** The invocation ended: stop following the caller's signal. */
  end(): void {
    this.#detach?.();
    this.worker?.end();
  }

  /** Observers attached to `g` for this invocation (snapshotting late-discovered graphs). */
  observersOf(g: GraphRuntime): readonly ObserverRegistration[] {
    let obs = this.snapshots.get(g);
    if (obs === undefined) {
      obs = g.observers;
      this.snapshots.set(g, obs);
      if (obs.length) this.ensureWorker();
    }
    return obs;
  }

  ensureWorker(): DeliveryWorker {
    if (!this.worker) {
      this.worker = new DeliveryWorker(this.id, this.root.handle, this.onObserverError, unregisterWorker);
      registerWorker(this.worker);
    }
    return this.worker;
  }
}

/** @internal lineage a child frame adds at its dispatch boundary. */
export interface BoundaryLineage {
  readonly fanOutIndex?: number | undefined;
  readonly branchName?: string | undefined;
}

/**
 * @internal What every child frame of one dispatch shares (fan-out instances, branches): the
 * namespace prefix, the parent states, and each lineage chain extended with `null`.
 */
export interface ChildPrefix {
  readonly nsPrefix: readonly string[];
  readonly parentStates: readonly Readonly<StateRecord>[];
  readonly fanOutChainNull: readonly (number | null)[];
  readonly branchChainNull: readonly (string | null)[];
}

/** @internal the {@link ChildPrefix} of node `nodeName` dispatched in `parent` with state `state`. */
export function childPrefix(parent: Frame, nodeName: string, state: Readonly<StateRecord>): ChildPrefix {
  return {
    nsPrefix: Object.freeze([...parent.nsPrefix, nodeName]),
    parentStates: Object.freeze([...parent.parentStates, state]),
    fanOutChainNull: Object.freeze([...parent.fanOutChain, null]),
    branchChainNull: Object.freeze([...parent.branchChain, null]),
  };
}

/** @internal One graph run (outermost or subgraph) inside an invocation. */
export class Frame {
  readonly inv: Invocation;
  readonly rt: GraphRuntime;
  readonly depth: number;
  /** Namespace of the subgraph-as-node chain leading here (empty for the outermost graph). */
  readonly nsPrefix: readonly string[];
  readonly parentStates: readonly Readonly<StateRecord>[];
  readonly fanOutChain: readonly (number | null)[];
  readonly branchChain: readonly (string | null)[];
  readonly fanOutIndex: number | undefined;
  readonly branchName: string | undefined;
  /** The graphs from the outermost down to this one, tracked only when an invocation observer is scoped. */
  readonly graphs: readonly GraphRuntime[];
  /** Graph-attached observers from the outermost graph down to this one. */
  readonly graphChain: readonly ObserverRegistration[];
  /** graphChain + invocation-scoped observers: the recipients of this frame's events. */
  readonly recipients: readonly ObserverRegistration[];
  /** Whether this frame builds node events (observers to deliver to, or hooks to call). */
  readonly emits: boolean;
  /**
   * This run's cancellation signal (its nodes' `ctx.signal`): the invocation's, or the one the
   * composite that started this run passed (a fan-out instance's / branch's, which follows it).
   */
  readonly signal: AbortSignal | undefined;
  /** The context of the node currently executing (for `currentNodeContext()`). */
  currentCtx: NodeExecutionContext<StateRecord> | undefined;
  /** The graph's current state. */
  state: Readonly<StateRecord>;
  /** Full namespace per node name (built once per frame, shared by every execution of the node). */
  #namespaces: Map<string, readonly string[]> | undefined = undefined;

  /**
   * Hand a typed event to the hooks' `onTypedEvent`, then queue it for this frame's observers.
   * `false` when nobody observes it.
   */
  emitTyped(event: ObserverEvent): boolean {
    const inv = this.inv;
    const frozen = Object.isFrozen(event) ? event : Object.freeze(event);
    let heard = false;
    for (const h of inv.syncHooks) {
      if (h.onTypedEvent) {
        h.onTypedEvent(frozen);
        heard = true;
      }
    }
    if (!inv.worker || this.recipients.length === 0) return heard;
    inv.worker.enqueue(frozen, this.recipients);
    return true;
  }

  /** The §6 `namespace` of node `name` of this frame's graph: `nsPrefix` + the name, frozen. */
  namespaceOf(name: string): readonly string[] {
    if (this.depth === 0) {
      const node = this.rt.nodes.get(name);
      if (node !== undefined) return node.rootNamespace;
    }
    const cache = (this.#namespaces ??= new Map());
    let ns = cache.get(name);
    if (ns === undefined) cache.set(name, (ns = Object.freeze([...this.nsPrefix, name])));
    return ns;
  }

  constructor(
    inv: Invocation,
    rt: GraphRuntime,
    parent: Frame | null,
    boundary: { readonly prefix: ChildPrefix; readonly lineage?: BoundaryLineage; readonly signal?: AbortSignal | undefined } | null,
  ) {
    this.inv = inv;
    this.rt = rt;
    const own = inv.observersOf(rt);
    if (parent === null || boundary === null) {
      this.depth = 0;
      this.nsPrefix = EMPTY;
      this.parentStates = EMPTY;
      this.fanOutChain = EMPTY;
      this.branchChain = EMPTY;
      this.fanOutIndex = undefined;
      this.branchName = undefined;
      this.graphChain = own;
      this.graphs = inv.scoped ? Object.freeze([rt]) : EMPTY;
      this.signal = inv.signal;
    } else {
      const lin = boundary.lineage ?? {};
      const prefix = boundary.prefix;
      this.depth = parent.depth + 1;
      this.nsPrefix = prefix.nsPrefix;
      this.parentStates = prefix.parentStates;
      this.fanOutChain = lin.fanOutIndex === undefined ? prefix.fanOutChainNull : Object.freeze([...parent.fanOutChain, lin.fanOutIndex]);
      this.branchChain = lin.branchName === undefined ? prefix.branchChainNull : Object.freeze([...parent.branchChain, lin.branchName]);
      this.fanOutIndex = lin.fanOutIndex ?? parent.fanOutIndex;
      this.branchName = lin.branchName ?? parent.branchName;
      this.graphChain = own.length ? parent.graphChain.concat(own) : parent.graphChain;
      this.graphs = !inv.scoped || parent.rt === rt ? parent.graphs : Object.freeze([...parent.graphs, rt]);
      this.signal = boundary.signal ?? parent.signal;
    }
    const invObs = inv.scoped
      ? inv.invocationObservers.filter((r) => r.scope === undefined || this.graphs.includes(r.scope as GraphRuntime))
      : inv.invocationObservers;
    this.recipients = invObs.length ? this.graphChain.concat(invObs) : this.graphChain;
    this.emits = this.recipients.length > 0 || inv.hooks.length > 0;
    this.currentCtx = undefined;
    this.state = Object.freeze({});
  }
}

/** @internal validate a caller-supplied id (non-empty string). */
export function checkId(kind: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new TypeError(`${kind} must be a string`);
  if (v.length === 0) throw new RangeError(`${kind} must be a non-empty string`);
  return v;
}
