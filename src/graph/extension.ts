/**
 * Node bodies, edge functions, middleware, composite node kinds and the other engine extension
 * seams (graph-engine §2 *Node*, §3, §6; pipeline-utilities §2–§4, §9–§11 build on these).
 *
 * See `README.md` ("Extension seams") for how fan-out, parallel branches, middleware (retry),
 * checkpointing and suspension plug in.
 */
import type { CompileErrorCategory, CompileWarningCategory } from "./compile-errors.ts";
import type { CompiledGraph } from "./compiled-graph.ts";
import type { DrainOptions, DrainSummary } from "./drain.ts";
import type { RouteTarget } from "./end.ts";
import type { EventLineage, NodeAttempt, NodeEvent, NodeEventExtras, ObserverEvent } from "./events.ts";
import { currentAttemptIndex, engineStorage } from "./invocation.ts";
import { validateMetadata, emptyMetadata, type InvocationMetadata } from "./invocation-metadata.ts";
import type { Reducer } from "./reducers.ts";
import type { StateSchema } from "./state-schema.ts";
import type { StateRecord } from "./state-types.ts";

/** A value or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * What a node body (and its edge function and middleware) can read about where it runs. Also
 * available anywhere in the node's async call tree through {@link currentNodeContext}.
 */
export interface NodeContext extends EventLineage {
  /** Caller-supplied invocation metadata (observability §3.4). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Name of the compiled graph that owns the node. */
  readonly graphName: string;
  /** §6 step of this node execution (assigned when the first attempt starts). */
  readonly step: number | undefined;
  /** States of the containing graphs at subgraph entry, outermost first. */
  readonly parentStates: readonly Readonly<StateRecord>[];
  /**
   * Aborts when this node should stop: the caller's `invoke({ signal })` aborted, or (inside a
   * fan-out instance / parallel branch under `fail_fast`) a sibling failed. Pass it to anything
   * cancellable — `fetch(url, { signal: ctx.signal })`, `setTimeout(ms, v, { signal })`. Never
   * aborts when nothing can cancel the invocation.
   */
  readonly signal: AbortSignal;
  /**
   * Put an event of any kind on this invocation's observer delivery queue (§6 typed events), after
   * handing it to the invocation hooks' `onTypedEvent`.
   */
  emit(event: ObserverEvent): void;
  /** `drainEventsFor(this invocation)`: wait for the events emitted so far to be delivered. */
  drainEventsFor(options?: DrainOptions): Promise<DrainSummary>;
}

/** Options for {@link NodeExecutionContext.runSubgraph}. */
export interface SubgraphRunOptions {
  /** Tag the child run as fan-out instance `fanOutIndex` (events carry it; chains extend). */
  readonly fanOutIndex?: number;
  /** Tag the child run as parallel branch `branchName`. */
  readonly branchName?: string;
  /**
   * The child run is an inline-callable branch (pipeline-utilities §11.1.1): a one-node graph whose
   * node's `started` / `completed` pair is the branch's synthetic event pair (graph-engine §6), so
   * observers render the branch as a single unit — its dispatch span, no node span beneath it
   * (observability §5.7, §8.4.8). Requires `branchName`.
   */
  readonly callableBranch?: boolean;
  /** Start the child somewhere other than its entry (checkpoint resume). */
  readonly startAt?: StartPosition;
  /**
   * The child run's cancellation signal (its nodes' `ctx.signal`; checked before each of its nodes
   * starts). Default: this node's `signal`. A composite running several children passes a signal
   * that also aborts when a sibling fails (fan-out / parallel branches under `fail_fast`); it
   * should follow this node's `signal` too.
   */
  readonly signal?: AbortSignal;
}

/**
 * The context a composite {@link NodeKind} receives: a {@link NodeContext} plus the ability to run a
 * compiled graph as a child of this node, inside the same invocation (shared step counter, event
 * queue, observers; namespace / parent_states / lineage extended).
 */
export interface NodeExecutionContext<S extends StateRecord = StateRecord> extends NodeContext {
  /** The engine's state at dispatch (pre-merge; the `parent_states` entry children will carry). */
  readonly state: Readonly<S>;
  /** The owning graph's state schema. */
  readonly schema: StateSchema<S, unknown>;
  /**
   * Run `graph` as a child of this node. `input` is merged over the child's schema defaults and
   * validated (§2 subgraph entry). Resolves with the child's final state; errors raised inside the
   * child propagate unchanged (they are not re-wrapped by this node). Safe to call concurrently
   * (fan-out instances, parallel branches).
   */
  runSubgraph<T extends StateRecord>(
    graph: CompiledGraph<T, unknown>,
    input: Readonly<Record<string, unknown>>,
    options?: SubgraphRunOptions,
  ): Promise<Readonly<T>>;
  /**
   * Do not dispatch the `completed` event of the current attempt if it fails (pipeline-utilities
   * §9.1: an `on_empty: raise` fan-out's propagated error replaces its completed event).
   */
  suppressCompletedEvent(): void;
}

/** A plain node: async function of state returning a partial update (§2 *Node*). */
export type NodeFn<S extends StateRecord = StateRecord, U = Partial<S>> = (
  state: Readonly<S>,
  ctx: NodeContext,
) => MaybePromise<U | void | undefined>;

/** @internal the uniform body signature the engine calls. */
export type NodeBody = (state: Readonly<StateRecord>, ctx: NodeExecutionContext<StateRecord>) => unknown;

/** A conditional edge: returns the destination node name or `END`, from the post-update state. */
export type EdgeFn<S extends StateRecord = StateRecord> = (state: Readonly<S>, ctx: NodeContext) => MaybePromise<RouteTarget>;

/**
 * Middleware around a node's execution (pipeline-utilities §2): `(state, next, ctx) => update`.
 * `next(state?)` runs the rest of the chain and, at the inner end, the node — each call to the node
 * is one *attempt* with its own started/completed event pair. Register per graph with
 * `GraphBuilder.use()` (outer) and per node with `addNode(..., { middleware })` (inner).
 */
export type Middleware<S extends StateRecord = StateRecord, U = Partial<S>> = (
  state: Readonly<S>,
  next: (state?: Readonly<S>) => Promise<U>,
  ctx: NodeContext,
) => MaybePromise<U | void | undefined>;

/** Compile-time context handed to {@link NodeKind.validate}. */
export interface NodeCompileContext {
  readonly nodeName: string;
  readonly graphName: string;
  /** The owning (parent) graph's schema. */
  readonly schema: StateSchema<StateRecord, unknown>;
  /** The parent graph's effective reducer for a field. */
  reducerFor(field: string): Reducer<unknown, unknown>;
  /** Record a compile error (compilation fails after all checks ran). */
  error(category: CompileErrorCategory, message: string, extra?: { field?: string }): void;
  /** Record a compile warning. */
  warn(category: CompileWarningCategory, message: string, extra?: { field?: string }): void;
}

/**
 * A node kind: the extension point for composite nodes (subgraph-as-node is one; pipeline-utilities
 * adds fan-out and parallel branches). Register with `GraphBuilder.addNode(name, kind)`.
 */
export interface NodeKind<S extends StateRecord = StateRecord, U = Partial<S>> {
  /** Discriminator, e.g. `"subgraph"`, `"fan_out"`. */
  readonly kind: string;
  /**
   * Whether the node's own attempts produce §6 started/completed events (default `true`). The plain
   * subgraph wrapper sets `false`: only its inner nodes produce events.
   */
  readonly emitsEvents?: boolean;
  /** Compiled graphs this node may run (observer snapshots, introspection). */
  readonly subgraphs?: readonly CompiledGraph<StateRecord, unknown>[];
  /**
   * The compiled graph a child run tagged `lineage` executes — a fan-out instance's subgraph, a
   * branch's — when the kind runs several children (introspection: suspension, resume). Undefined
   * for a child the kind runs without a compiled graph (an inline-callable branch).
   */
  childGraph?(lineage: { readonly fanOutIndex?: number; readonly branchName?: string }): CompiledGraph<StateRecord, unknown> | undefined;
  /**
   * The error policy the kind runs its children under (pipeline-utilities §9.5 / §11.5:
   * `"fail_fast"` or `"collect"`), for kinds that have one.
   */
  readonly errorPolicy?: string;
  /** Compile-time checks against the parent graph. */
  validate?(ctx: NodeCompileContext): void;
  /** Extra event fields (e.g. `fanOutConfig`) computed from the pre-state at the first attempt. */
  eventFields?(state: Readonly<S>): NodeEventExtras | undefined;
  /** Execute; return the partial update to merge into the parent via the parent's reducers. */
  run(state: Readonly<S>, ctx: NodeExecutionContext<S>): MaybePromise<U | void | undefined>;
}

/** Is `x` a {@link NodeKind}? */
export function isNodeKind(x: unknown): x is NodeKind<StateRecord, unknown> {
  return typeof x === "object" && x !== null && typeof (x as { run?: unknown }).run === "function" &&
    typeof (x as { kind?: unknown }).kind === "string";
}

/** Engine hooks awaited inline by the engine (e.g. a checkpointer's synchronous save). */
export interface InvocationHooks {
  /**
   * Called after every `completed` node event is dispatched (success or failure), before the engine
   * continues; awaited. pipeline-utilities §10.3 saves a checkpoint here. An error thrown here
   * propagates out of `invoke()` unchanged.
   */
  onNodeCompleted?(event: NodeEvent): MaybePromise<void>;
  /**
   * Synchronous lifecycle hooks (observability §4, §6): called inline, in the engine's own call
   * stack and async context, at the moment each thing happens — so a tracer can open a span that
   * exists (and can be made current) while a node body runs. They must not throw: an error thrown
   * here propagates out of `invoke()`. None of them affects the §6 observer events.
   *
   * `onInvocationStart` fires at `invoke()` entry after the options were validated, before the
   * initial state is built; `onInvocationEnd` as `invoke()` settles.
   */
  onInvocationStart?(info: InvocationInfo): void;
  onInvocationEnd?(info: InvocationInfo, end: InvocationEnd): void;
  /** Every node event (`started` before the body runs, `completed`, `suspended`), as it is dispatched. */
  onNodeEvent?(event: NodeEvent): void;
  /**
   * The lighter form of `onNodeEvent` for a hook that brackets each node attempt (a tracer opening
   * and closing a span): called at the same moments — `onNodeAttemptStart` for `started`,
   * `onNodeAttemptEnd` for `completed` / `suspended` — with the running attempt itself rather than a
   * frozen event built for the call. A hook with either is not handed `onNodeEvent`, so an
   * observer may offer both: this form to the engine, the event form to code that forwards events.
   */
  onNodeAttemptStart?(attempt: NodeAttempt): void;
  onNodeAttemptEnd?(attempt: NodeAttempt): void;
  /**
   * A child graph run begins / ends inside a node: a subgraph node's run, a fan-out instance, a
   * parallel branch (`runSubgraph`). `error` is what the run raised (absent on success).
   */
  onChildRunStart?(run: ChildRunInfo): void;
  onChildRunEnd?(run: ChildRunInfo, end: { readonly error?: unknown; readonly timestamp: number }): void;
  /** `setInvocationMetadata` merged `added` into the calling context's metadata (observability §3.4). */
  onMetadataAugmented?(augmentation: MetadataAugmentation): void;
  /**
   * A typed event (§6 typed variants: LLM, embedding, rerank, tool-call, ...) was emitted with
   * `ctx.emit` / {@link emitEvent}: called inline, in the emitter's call stack, before the event is
   * queued for observers — so a tracer renders its span while the emitting code still runs.
   */
  onTypedEvent?(event: ObserverEvent): void;
}

/** What the lifecycle hooks know about an invocation. */
export interface InvocationInfo {
  readonly invocationId: string;
  readonly correlationId: string;
  /** The outermost graph's name and entry node (the node it starts at, on a resume). */
  readonly graphName: string;
  readonly entryNode: string;
  /** The caller-supplied metadata (validated, frozen). */
  readonly metadata: InvocationMetadata;
  /** High-resolution wall-clock time, ms since epoch (fractional). */
  readonly timestamp: number;
}

/** How an invocation ended. */
export interface InvocationEnd {
  readonly outcome: "completed" | "failed" | "suspended";
  /** The error `invoke()` rejects with (on `failed`). */
  readonly error?: unknown;
  readonly timestamp: number;
}

/** A child graph run (see {@link InvocationHooks.onChildRunStart}). */
export interface ChildRunInfo {
  readonly invocationId: string;
  readonly correlationId: string;
  /** The dispatching node: its name, §6 namespace and lineage chains (of the node's own events). */
  readonly nodeName: string;
  readonly namespace: readonly string[];
  readonly attemptIndex: number;
  readonly fanOutIndexChain: readonly (number | null)[];
  readonly branchNameChain: readonly (string | null)[];
  /** The chains the child's node events carry (the node's chains plus this boundary's entry). */
  readonly childFanOutIndexChain: readonly (number | null)[];
  readonly childBranchNameChain: readonly (string | null)[];
  /** This boundary's fan-out index / branch name, when the run is an instance / a branch. */
  readonly fanOutIndex?: number;
  readonly branchName?: string;
  /** The run is an inline-callable branch: its one node's events are the branch's own (§6 synthetic pair). */
  readonly callableBranch?: true;
  /** Whether the dispatching node produces its own node events (fan-out, parallel branches). */
  readonly nodeEmitsEvents: boolean;
  /** The dispatching node's §6 step (a subgraph node, which takes none: the step its run starts at). */
  readonly step: number;
  /** The child graph's name and the node it starts at. */
  readonly graphName: string;
  readonly entryNode: string;
  /** The metadata visible in the child's context when it starts. */
  readonly metadata: InvocationMetadata;
  readonly timestamp: number;
}

/** A mid-invocation metadata augmentation and the lineage of the context that made it. */
export interface MetadataAugmentation {
  readonly invocationId: string;
  readonly correlationId: string;
  readonly added: InvocationMetadata;
  /** The whole mapping of the augmenting context after the merge. */
  readonly metadata: InvocationMetadata;
  /** The calling node's lineage (absent outside a node, e.g. in an observer). */
  readonly nodeName?: string;
  readonly namespace?: readonly string[];
  readonly attemptIndex: number;
  readonly fanOutIndexChain: readonly (number | null)[];
  readonly branchNameChain: readonly (string | null)[];
  readonly timestamp: number;
}

/**
 * Where to start an invocation or a subgraph run (checkpoint resume, pipeline-utilities §10.4).
 * `inner` applies when `node` is a subgraph-as-node (or any composite calling `runSubgraph` once):
 * the child starts at `inner.node` with `inner.state` instead of projecting in.
 */
export interface StartPosition {
  readonly node: string;
  readonly state?: Readonly<StateRecord>;
  readonly inner?: StartPosition;
}

/**
 * Base class for control-flow interrupts (suspension §3). A node body throwing a `GraphInterrupt`
 * is not wrapped as `node_exception`: the engine dispatches a `suspended` event (with
 * `descriptor`) in place of `completed`, unwinds every frame, and `invoke()` resolves with
 * `{ outcome: "suspended" }`.
 */
export class GraphInterrupt extends Error {
  override name = "GraphInterrupt";
  /** The signal descriptor (suspension §4). */
  readonly descriptor: unknown;
  /** Filled by the engine: the node that raised it. */
  nodeName: string | undefined;
  namespace: readonly string[] | undefined;
  /** The state of the graph owning that node, at the node's entry. */
  state: Readonly<StateRecord> | undefined;
  parentStates: readonly Readonly<StateRecord>[] | undefined;
  step: number | undefined;
  constructor(descriptor: unknown, message = "graph interrupted") {
    super(message);
    this.descriptor = descriptor;
    this.nodeName = undefined;
    this.namespace = undefined;
    this.state = undefined;
    this.parentStates = undefined;
    this.step = undefined;
  }
}

/**
 * Run `fn` with `attemptIndex` as the current attempt index: node events dispatched inside carry it
 * (directly, or transitively for the nodes of a subgraph re-run inside). The innermost call wins.
 * Retry middleware calls `withAttemptIndex(attempt, () => next(state))`.
 */
export function withAttemptIndex<T>(attemptIndex: number, fn: () => T): T {
  if (!Number.isInteger(attemptIndex) || attemptIndex < 0) throw new RangeError("attemptIndex must be a non-negative integer");
  const store = engineStorage.getStore();
  if (!store) return fn();
  // An error leaving this attempt's scope settles the attempt as failed (its completed event with
  // the error is dispatched before the caller sees the error).
  const settle = (e: unknown): never | Promise<never> => {
    const ctx = store.frame.currentCtx as { settleFailedAttempt?: () => Promise<void> | undefined } | undefined;
    const p = ctx?.settleFailedAttempt?.();
    if (p) return p.then(() => {
      throw e;
    });
    throw e;
  };
  // Each attempt writes its own copy of the pre-attempt metadata (observability §3.4 per-attempt
  // scoping): a failed attempt's writes are discarded with its copy; the attempt that succeeds
  // commits its copy to the context it runs in, so the nodes after it read its writes.
  const meta = store.meta.fork();
  const commit = <V>(v: V): V => {
    store.meta.values = meta.values;
    return v;
  };
  let r: T;
  try {
    // A body calling this stays the body (inNodeBody()).
    r = engineStorage.run(store.body === undefined ? { frame: store.frame, attemptIndex, meta } : { frame: store.frame, attemptIndex, meta, body: store.body }, fn);
  } catch (e) {
    return settle(e) as T;
  }
  if (typeof r === "object" && r !== null && typeof (r as { then?: unknown }).then === "function") {
    return (r as unknown as Promise<unknown>).then(commit, settle) as T;
  }
  return commit(r);
}

export { currentAttemptIndex };

/** The context of the node currently executing in this async call tree, if any. */
export function currentNodeContext(): NodeExecutionContext<StateRecord> | undefined {
  return engineStorage.getStore()?.frame.currentCtx;
}

/**
 * Whether the code calling this runs in the body of the node currently executing (or in work the
 * body started) — `false` outside a node and in the node's middleware (before or after `next()`).
 * Observability §5.5 parents a provider call made from middleware under the nearest enclosing
 * wrapper, not the node's span, even while that span is open.
 */
export function inNodeBody(): boolean {
  const store = engineStorage.getStore();
  const ctx = store?.frame.currentCtx as { readonly node?: { readonly middleware: readonly unknown[] } } | undefined;
  if (ctx === undefined) return false;
  return ctx.node === undefined || ctx.node.middleware.length === 0 || store!.body === ctx;
}

/**
 * Put an event on the current invocation's observer queue (for typed event kinds defined by later
 * capabilities), after handing it to the hooks' `onTypedEvent`. Returns `false` when called outside
 * an invocation or when nothing observes it.
 */
export function emitEvent(event: ObserverEvent): boolean {
  const frame = engineStorage.getStore()?.frame;
  if (!frame) return false;
  return frame.emitTyped(event);
}

/** `performance.timeOrigin` is fixed for the process; read once (its getter is not free, and this runs twice per node). */
const TIME_ORIGIN = performance.timeOrigin;

/** High-resolution wall-clock time in ms since epoch (fractional: sub-millisecond resolution). */
export function preciseNow(): number {
  return TIME_ORIGIN + performance.now();
}

/**
 * Add entries to the invocation metadata of the current async context (observability §3.4):
 * validated like `invoke({ metadata })` (a `RangeError` at the call site), merged over the
 * context's mapping (same keys overwritten), visible to what runs later in this context and its
 * dispatches — never to sibling fan-out instances / branches, earlier attempts' successors or the
 * parent after a join. Observers hear of it through the `onMetadataAugmented` hook and a
 * `metadata_augmentation` event on the serial delivery queue. Outside an invocation: a no-op.
 */
export function setInvocationMetadata(entries: Readonly<Record<string, unknown>>): void {
  const added = Object.freeze(validateMetadata(entries, "setInvocationMetadata()"));
  const store = engineStorage.getStore();
  if (!store) return;
  const cell = store.meta;
  cell.values = Object.freeze({ ...cell.values, ...added });
  const frame = store.frame;
  const inv = frame.inv;
  const ctx = frame.currentCtx;
  const aug: Record<string, unknown> = {
    invocationId: inv.id,
    correlationId: inv.correlationId,
    added,
    metadata: cell.values,
    attemptIndex: store.attemptIndex,
    fanOutIndexChain: frame.fanOutChain,
    branchNameChain: frame.branchChain,
    timestamp: preciseNow(),
  };
  if (ctx) {
    aug["nodeName"] = ctx.nodeName;
    aug["namespace"] = ctx.namespace;
  }
  Object.freeze(aug);
  for (const h of inv.hooks) h.onMetadataAugmented?.(aug as unknown as MetadataAugmentation);
  if (inv.worker && frame.recipients.length) {
    inv.worker.enqueue(Object.freeze({ kind: "metadata_augmentation", ...aug }) as unknown as ObserverEvent, frame.recipients);
  }
}

/** An immutable snapshot of the current async context's invocation metadata (empty outside one). */
export function getInvocationMetadata(): InvocationMetadata {
  return engineStorage.getStore()?.meta.values ?? emptyMetadata();
}
