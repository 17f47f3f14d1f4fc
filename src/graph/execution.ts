/**
 * The execution model (graph-engine §3) and error semantics (§4), with §6 event dispatch.
 *
 * One loop per graph run ({@link runGraph}): dispatch the node (middleware chain → attempt → body),
 * merge its partial update through the field reducers, validate the changed fields, resolve the
 * outgoing edge against the post-update state, then dispatch the node's `completed` event — before
 * the next node starts. Iterative (no recursion), so loops of any length run; §3 defines no step
 * limit, the opt-in `maxSteps` is checked before each node starts, beside the run's cancellation
 * signal (both in one comparison on the hot path). When nothing observes the invocation, no event
 * objects are built.
 */
import { setMaxListeners } from "node:events";
import { drainEventsFor, type DrainOptions, type DrainSummary } from "./drain.ts";
import { END, type RouteTarget } from "./end.ts";
import {
  EdgeException,
  GraphRuntimeError,
  InvocationCancelledError,
  NodeException,
  StateValidationError,
  StepLimitExceededError,
  type ErrorLocation,
} from "./errors.ts";
import type { FanOutConfig, NodeAttempt, NodeEvent, NodeEventExtras, NodePhase, ObserverEvent, ParallelBranchesConfig } from "./events.ts";
import {
  GraphInterrupt,
  preciseNow,
  type ChildRunInfo,
  type InvocationHooks,
  type NodeExecutionContext,
  type StartPosition,
  type SubgraphRunOptions,
} from "./extension.ts";
import { INTERNALS, type CompiledNode, type GraphRuntime } from "./internals.ts";
import { childPrefix, currentAttemptIndex, EMPTY, engineStorage, Frame, takesAttempts, type ChildPrefix, type Invocation } from "./invocation.ts";
import { mergeInto } from "./merge.ts";
import { MetadataCell } from "./invocation-metadata.ts";
import { resolveEdge } from "./routing.ts";
import type { StateSchema } from "./state-schema.ts";
import type { StateRecord } from "./state-types.ts";
import type { CompiledGraph } from "./compiled-graph.ts";

type State = Readonly<StateRecord>;

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
}

/** Errors the engine raised inside an invocation pass through outer nodes unchanged. */
const owners = new WeakMap<object, Invocation>();

/** @internal mark an engine-raised error as belonging to `inv`. */
export function own<E extends Error>(err: E, inv: Invocation): E {
  owners.set(err, inv);
  return err;
}

const FROZEN_EMPTY: State = Object.freeze({});

/** `ctx.signal` of a run nothing can cancel (concurrent dispatch scopes all listen to it). */
const NEVER_ABORTED: AbortSignal = new AbortController().signal;
setMaxListeners(0, NEVER_ABORTED);

/** @internal the per-dispatch context: public {@link NodeExecutionContext} plus engine bookkeeping. */
export class DispatchContext implements NodeExecutionContext<StateRecord> {
  readonly frame: Frame;
  readonly node: CompiledNode;
  readonly state: State;
  step: number | undefined = undefined;
  /** The first attempt started (execution order recorded, step assigned). */
  begun = false;
  /** An attempt's started event was dispatched and its terminal event was not. */
  open = false;
  suppressed = false;
  attemptPre: State = FROZEN_EMPTY;
  attemptIdx = 0;
  /** The last failed attempt: the error its node raised and the carrier its completed event held. */
  failedAttempt: { readonly raw: unknown; readonly carrier: GraphRuntimeError } | undefined = undefined;
  /**
   * A failed attempt still open: middleware may yet recover it (its completed event then carries
   * the merged post_state, pipeline-utilities §2), else it closes with the error when the error
   * leaves the attempt's scope (a retry's `withAttemptIndex`, a next attempt, or the whole chain).
   */
  pendingFailure: { readonly raw: unknown } | undefined = undefined;
  extras: NodeEventExtras | undefined = undefined;
  resumeInner: StartPosition | undefined = undefined;
  hookEvent: NodeEvent | undefined = undefined;
  /** Shared by every child frame this dispatch runs (fan-out instances, branches). */
  childPrefix: ChildPrefix | undefined = undefined;
  private ns: readonly string[] | undefined = undefined;

  constructor(frame: Frame, node: CompiledNode, state: State) {
    this.frame = frame;
    this.node = node;
    this.state = state;
  }

  /** Close a pending failed attempt with its error (event dispatched, hooks awaited). */
  settleFailedAttempt(): Promise<void> | undefined {
    const pending = this.pendingFailure;
    if (pending === undefined) return undefined;
    this.pendingFailure = undefined;
    closeWithError(this, pending.raw);
    const ev = this.hookEvent;
    if (!ev) return undefined;
    this.hookEvent = undefined;
    return runHooks(this.frame.inv, ev);
  }

  get invocationId(): string {
    return this.frame.inv.id;
  }
  get correlationId(): string {
    return this.frame.inv.correlationId;
  }
  get metadata(): Readonly<Record<string, unknown>> {
    return this.frame.inv.metadata;
  }
  get graphName(): string {
    return this.frame.rt.name;
  }
  get nodeName(): string {
    return this.node.name;
  }
  get namespace(): readonly string[] {
    return (this.ns ??= this.frame.depth === 0 ? this.node.rootNamespace : this.frame.namespaceOf(this.node.name));
  }
  get attemptIndex(): number {
    return currentAttemptIndex();
  }
  get fanOutIndex(): number | undefined {
    return this.frame.fanOutIndex;
  }
  get branchName(): string | undefined {
    return this.frame.branchName;
  }
  get fanOutIndexChain(): readonly (number | null)[] {
    return this.frame.fanOutChain;
  }
  get branchNameChain(): readonly (string | null)[] {
    return this.frame.branchChain;
  }
  get parentStates(): readonly State[] {
    return this.frame.parentStates;
  }
  get schema(): StateSchema<StateRecord, unknown> {
    return this.frame.rt.schema;
  }
  get signal(): AbortSignal {
    return this.frame.signal ?? NEVER_ABORTED;
  }

  emit(event: ObserverEvent): void {
    this.frame.emitTyped(event);
  }

  drainEventsFor(options?: DrainOptions): Promise<DrainSummary> {
    return drainEventsFor(this.frame.inv.id, options);
  }

  suppressCompletedEvent(): void {
    this.suppressed = true;
  }

  /** @internal where an error about `state` raised at this dispatch is located. */
  locate(state: State): ErrorLocation {
    return loc(this, state);
  }

  runSubgraph<T extends StateRecord>(
    graph: CompiledGraph<T, unknown>,
    input: Readonly<Record<string, unknown>>,
    options: SubgraphRunOptions = {},
  ): Promise<Readonly<T>> {
    const rt = (graph as unknown as { [INTERNALS]?: GraphRuntime })[INTERNALS];
    if (!rt) return Promise.reject(new TypeError("runSubgraph expects a CompiledGraph"));
    const parent = this.frame;
    const prefix = (this.childPrefix ??= childPrefix(parent, this.node.name, this.state));
    const child = new Frame(parent.inv, rt, parent, { prefix, lineage: options, signal: options.signal });
    const start = options.startAt ?? this.resumeInner;
    this.resumeInner = undefined;
    let entry = rt.entry;
    let initial: State;
    try {
      if (start) {
        if (!rt.nodes.has(start.node)) throw new RangeError(`startAt: graph "${rt.name}" has no node "${start.node}"`);
        entry = start.node;
        initial = rt.schema.create(start.state ?? input, `subgraph resume of "${this.node.name}"`);
      } else {
        initial = rt.schema.create(input, `subgraph entry of "${this.node.name}"`);
      }
    } catch (e) {
      if (e instanceof StateValidationError) {
        e.nodeName = this.node.name;
        e.namespace = this.namespace;
        e.state = this.state;
        e.parentStates = parent.parentStates;
        own(e, parent.inv);
      }
      return Promise.reject(e);
    }
    const store = engineStorage.getStore();
    const attemptIndex = store?.attemptIndex ?? 0;
    // A fan-out instance / branch writes its own copy of the metadata (observability §3.4); a serial
    // subgraph shares its parent's.
    const dispatch = options.fanOutIndex !== undefined || options.branchName !== undefined;
    const meta = store ? (dispatch ? store.meta.fork() : store.meta) : new MetadataCell(parent.inv.metadata);
    // The run's arguments go through `engineStorage.run` itself: no closure per child run (a fan-out makes one per item).
    const childStore = { frame: child, attemptIndex, meta };
    const hooks = parent.inv.syncHooks;
    if (hooks.length === 0) return engineStorage.run(childStore, runGraph, child, entry, initial, start?.inner) as Promise<Readonly<T>>;
    const info = childRunInfo(this, child, entry, attemptIndex, meta, options);
    for (const h of hooks) h.onChildRunStart?.(info);
    return engineStorage.run(childStore, runGraph, child, entry, initial, start?.inner).then(
      (s) => {
        endChildRun(hooks, info, undefined);
        return s as Readonly<T>;
      },
      (e: unknown) => {
        endChildRun(hooks, info, e);
        throw e;
      },
    );
  }
}

/** Tell the attempt hooks a child run ended (`error`: how it failed, if it did). */
function endChildRun(hooks: readonly InvocationHooks[], info: ChildRunInfo, error: unknown): void {
  const e = error === undefined ? { timestamp: preciseNow() } : { error, timestamp: preciseNow() };
  for (const h of hooks) h.onChildRunEnd?.(info, e);
}

function childRunInfo(
  ctx: DispatchContext,
  child: Frame,
  entry: string,
  attemptIndex: number,
  meta: MetadataCell,
  options: SubgraphRunOptions,
): ChildRunInfo {
  const f = ctx.frame;
  const info: Record<string, unknown> = {
    invocationId: f.inv.id,
    correlationId: f.inv.correlationId,
    nodeName: ctx.node.name,
    namespace: ctx.namespace,
    attemptIndex,
    fanOutIndexChain: f.fanOutChain,
    branchNameChain: f.branchChain,
    childFanOutIndexChain: child.fanOutChain,
    childBranchNameChain: child.branchChain,
    nodeEmitsEvents: ctx.node.emitsEvents,
    // A node that takes no step of its own (a subgraph node) is at the step its run starts at.
    step: ctx.step ?? f.inv.nextStep,
    graphName: child.rt.name,
    entryNode: entry,
    metadata: meta.values,
    timestamp: preciseNow(),
  };
  if (options.fanOutIndex !== undefined) info["fanOutIndex"] = options.fanOutIndex;
  if (options.branchName !== undefined) {
    info["branchName"] = options.branchName;
    if (options.callableBranch === true) info["callableBranch"] = true;
  }
  return Object.freeze(info) as unknown as ChildRunInfo;
}

function loc(ctx: DispatchContext, state: State): ErrorLocation {
  return {
    nodeName: ctx.node.name,
    namespace: ctx.namespace,
    state,
    parentStates: ctx.frame.parentStates,
    ...(ctx.step !== undefined ? { step: ctx.step } : {}),
  };
}

/** The frozen §6 node event of `ctx`'s current attempt, at `phase` (its pre-state: the attempt's). */
function nodeEvent(
  ctx: DispatchContext,
  phase: NodePhase,
  timestamp: number,
  postState: State | undefined,
  error: GraphRuntimeError | undefined,
  descriptor: unknown,
): NodeEvent {
  const f = ctx.frame;
  const inv = f.inv;
  const ev: Record<string, unknown> = {
    kind: "node",
    phase,
    nodeName: ctx.node.name,
    namespace: ctx.namespace,
    step: ctx.step,
    preState: ctx.attemptPre,
    parentStates: f.parentStates,
    attemptIndex: ctx.attemptIdx,
    fanOutIndexChain: f.fanOutChain,
    branchNameChain: f.branchChain,
    invocationId: inv.id,
    correlationId: inv.correlationId,
    graphName: f.rt.name,
    timestamp,
  };
  if (f.fanOutIndex !== undefined) ev["fanOutIndex"] = f.fanOutIndex;
  if (f.branchName !== undefined) ev["branchName"] = f.branchName;
  if (postState !== undefined) ev["postState"] = postState;
  if (error !== undefined) ev["error"] = error;
  if (descriptor !== undefined) ev["descriptor"] = descriptor;
  const x = ctx.extras;
  if (x !== undefined) {
    if (x.fanOutConfig !== undefined) ev["fanOutConfig"] = Object.freeze({ ...x.fanOutConfig });
    if (x.parallelBranchesConfig !== undefined) ev["parallelBranchesConfig"] = Object.freeze({ ...x.parallelBranchesConfig });
  }
  return Object.freeze(ev) as unknown as NodeEvent;
}

/**
 * @internal A dispatch's current attempt as attempt hooks see it ({@link NodeAttempt}): the fields
 * its node event would carry, copied from the dispatch into plain fields right before each call
 * (hooks read it during the call only; plain fields, not getters through the dispatch, stay cheap
 * to read inside a hook too large to inline them). One per invocation.
 */
export class AttemptView implements NodeAttempt {
  phase: NodePhase = "started";
  timestamp = 0;
  postState: State | undefined = undefined;
  error: GraphRuntimeError | undefined = undefined;
  descriptor: unknown = undefined;
  nodeName = "";
  namespace: readonly string[] = EMPTY;
  step = 0;
  preState: State = FROZEN_EMPTY;
  attemptIndex = 0;
  parentStates: readonly State[] = EMPTY;
  fanOutIndexChain: readonly (number | null)[] = EMPTY;
  branchNameChain: readonly (string | null)[] = EMPTY;
  fanOutIndex: number | undefined = undefined;
  branchName: string | undefined = undefined;
  invocationId = "";
  correlationId = "";
  graphName = "";
  fanOutConfig: FanOutConfig | undefined = undefined;
  parallelBranchesConfig: ParallelBranchesConfig | undefined = undefined;
  /** Describe `ctx`'s current attempt at `phase`. */
  set(ctx: DispatchContext, phase: NodePhase, timestamp: number, postState: State | undefined, error: GraphRuntimeError | undefined, descriptor: unknown): this {
    const f = ctx.frame;
    const x = ctx.extras;
    this.phase = phase;
    this.timestamp = timestamp;
    this.postState = postState;
    this.error = error;
    this.descriptor = descriptor;
    this.nodeName = ctx.node.name;
    this.namespace = ctx.namespace;
    this.step = ctx.step!;
    this.preState = ctx.attemptPre;
    this.attemptIndex = ctx.attemptIdx;
    this.parentStates = f.parentStates;
    this.fanOutIndexChain = f.fanOutChain;
    this.branchNameChain = f.branchChain;
    this.fanOutIndex = f.fanOutIndex;
    this.branchName = f.branchName;
    this.invocationId = f.inv.id;
    this.correlationId = f.inv.correlationId;
    this.graphName = f.rt.name;
    this.fanOutConfig = x?.fanOutConfig;
    this.parallelBranchesConfig = x?.parallelBranchesConfig;
    return this;
  }
}

/**
 * Dispatch a node event of `ctx`'s current attempt (§6), now: attempt hooks get the attempt itself;
 * event hooks and the observer queue get a frozen {@link NodeEvent}, built only when one of them —
 * or the caller (`needEvent`: `onNodeCompleted` hooks) — will read it. Returns that event, if built.
 */
function emitNode(
  ctx: DispatchContext,
  phase: NodePhase,
  postState: State | undefined,
  error: GraphRuntimeError | undefined,
  descriptor: unknown,
  needEvent: boolean,
): NodeEvent | undefined {
  const f = ctx.frame;
  const inv = f.inv;
  const queued = f.recipients.length !== 0 && inv.worker !== null;
  // Hooks that read no node event (invocation-level ones only): no event, no clock read.
  if (!needEvent && !queued && inv.attemptHookCount === 0 && inv.eventHookCount === 0) return undefined;
  const timestamp = preciseNow();
  const ev = needEvent || queued || inv.eventHookCount !== 0 ? nodeEvent(ctx, phase, timestamp, postState, error, descriptor) : undefined;
  if (inv.attemptHookCount !== 0) {
    const view = (inv.attemptView ??= new AttemptView()).set(ctx, phase, timestamp, postState, error, descriptor);
    for (const h of inv.syncHooks) {
      if (!takesAttempts(h)) h.onNodeEvent?.(ev!);
      else if (phase === "started") h.onNodeAttemptStart?.(view);
      else h.onNodeAttemptEnd?.(view);
    }
  } else if (ev !== undefined && inv.eventHookCount !== 0) {
    for (const h of inv.syncHooks) h.onNodeEvent?.(ev);
  }
  if (queued) inv.worker!.enqueue(ev!, f.recipients);
  return ev;
}

async function runHooks(inv: Invocation, ev: NodeEvent): Promise<void> {
  for (const h of inv.completedHooks) {
    const r = h.onNodeCompleted!(ev);
    if (isThenable(r)) await r;
  }
}

/** Map any raised value to the §4 error to propagate, closing an open attempt with its event. */
function closeWithError(ctx: DispatchContext, e: unknown): unknown {
  const f = ctx.frame;
  const eventful = f.emits && ctx.node.emitsEvents;
  if (e instanceof GraphInterrupt) {
    if (e.nodeName === undefined) {
      e.nodeName = ctx.node.name;
      e.namespace = ctx.namespace;
      e.state = ctx.state;
      e.parentStates = f.parentStates;
      e.step = ctx.step;
    }
    if (ctx.open && eventful) emitNode(ctx, "suspended", undefined, undefined, e.descriptor, false);
    ctx.open = false;
    return e;
  }
  let err: GraphRuntimeError;
  if (e instanceof GraphRuntimeError && owners.get(e) === f.inv) err = e;
  else if (e instanceof GraphRuntimeError && e.isCarrier && e.nodeName === ctx.node.name && !owners.has(e)) {
    // A composite node kind raising its own carrier (e.g. parallel_branches_branch_failed) for this
    // node: adopt it rather than wrapping it in a second node_exception.
    err = own(e, f.inv);
  }
  else if (ctx.failedAttempt !== undefined && ctx.failedAttempt.raw === e) err = ctx.failedAttempt.carrier;
  else if (f.inv.signal?.aborted) {
    // Whatever a node raised once the caller cancelled (an AbortError from `fetch(…, { signal })`,
    // a composite's cancelled children) is the cancellation, located at this node.
    err = own(new InvocationCancelledError(f.inv.signal.reason, loc(ctx, ctx.state), true), f.inv);
    ctx.failedAttempt = { raw: e, carrier: err };
  } else {
    err = own(new NodeException(e, loc(ctx, ctx.state)), f.inv);
    ctx.failedAttempt = { raw: e, carrier: err };
  }
  if (ctx.pendingFailure !== undefined && ctx.pendingFailure.raw === e) ctx.pendingFailure = undefined;
  if (ctx.open && eventful && !ctx.suppressed) {
    const ev = emitNode(ctx, "completed", undefined, err, undefined, f.inv.completedHooks.length !== 0);
    if (f.inv.completedHooks.length) ctx.hookEvent = ev;
  }
  ctx.open = false;
  return err;
}

async function closeAndFlush(ctx: DispatchContext, e: unknown): Promise<unknown> {
  const err = closeWithError(ctx, e);
  const ev = ctx.hookEvent;
  if (ev) {
    ctx.hookEvent = undefined;
    await runHooks(ctx.frame.inv, ev);
  }
  return err;
}

/**
 * A failed attempt under middleware: hand the middleware the error the node raised, unwrapped
 * (pipeline-utilities §2, §6.3: middleware sees the node's own exception), and keep the attempt
 * open — a middleware may recover it. It closes with the error when the error leaves the attempt's
 * scope; if it escapes the chain, the dispatch loop raises the carrier its completed event held.
 * A suspension closes the attempt at once.
 */
function attemptFailed(ctx: DispatchContext, e: unknown): never {
  if (e instanceof GraphInterrupt || !ctx.open) throw closeWithError(ctx, e);
  ctx.pendingFailure = { raw: e };
  throw e;
}

/** One attempt: the innermost call of the middleware chain (§6: one started/terminal pair). */
function runAttempt(ctx: DispatchContext, s: State): unknown {
  if (ctx.pendingFailure !== undefined) {
    // A middleware re-attempts without a retry scope: the earlier attempt failed for good.
    const settling = ctx.settleFailedAttempt();
    if (settling) return settling.then(() => runAttempt(ctx, s));
  }
  const node = ctx.node;
  const f = ctx.frame;
  const eventful = f.emits && node.emitsEvents;
  try {
    if (!ctx.begun) {
      ctx.begun = true;
      if (f.depth === 0) f.inv.executionOrder.push(node.name);
      if (node.emitsEvents) {
        ctx.step = f.inv.nextStep++;
        if (eventful && node.kind.eventFields) ctx.extras = node.kind.eventFields(s);
      }
    }
    ctx.attemptPre = s;
    ctx.open = true;
    if (eventful) {
      // Without middleware the attempt runs in its graph run's own context, whose attempt index
      // `runGraph` read once (one AsyncLocalStorage lookup per run, not per node: bench otel-chain).
      if (node.middleware.length) ctx.attemptIdx = currentAttemptIndex();
      emitNode(ctx, "started", undefined, undefined, undefined, false);
    }
    const r = node.middleware.length ? runBodyMarked(ctx, s) : node.body(s, ctx);
    // Without middleware the dispatch loop closes a failed attempt itself; with middleware (which may
    // re-attempt) the attempt must be closed — event dispatched, hooks awaited — before `next` rejects.
    if (node.middleware.length && isThenable(r)) return Promise.resolve(r).then(undefined, (e: unknown) => attemptFailed(ctx, e));
    return r;
  } catch (e) {
    return attemptFailed(ctx, e);
  }
}

/**
 * A middleware-wrapped node's body, run in an async context marked as this dispatch's body (one
 * `AsyncLocalStorage.run`, paid only by nodes with middleware): `inNodeBody()` then tells the body —
 * and work it starts — from the middleware around it, whose calls observability §5.5 parents under
 * the nearest wrapper even while the node's span is open (a post-phase call).
 */
function runBodyMarked(ctx: DispatchContext, s: State): unknown {
  const store = engineStorage.getStore();
  return store ? engineStorage.run({ frame: store.frame, attemptIndex: store.attemptIndex, meta: store.meta, body: ctx }, () => ctx.node.body(s, ctx)) : ctx.node.body(s, ctx);
}

function normalizeUpdate(u: unknown): unknown {
  return u === undefined || u === null ? {} : u;
}

function runChain(ctx: DispatchContext, i: number, s: State): unknown {
  const mws = ctx.node.middleware;
  if (i === mws.length) return runAttempt(ctx, s);
  // An inner middleware's post-phase may raise after the node body succeeded: the attempt is still
  // open, so close it here (with the real error) before an outer layer can re-attempt.
  const fail = (e: unknown): never | Promise<never> => {
    if (ctx.open) return attemptFailed(ctx, e);
    throw e;
  };
  const next = (s2?: State): Promise<StateRecord> => {
    try {
      const r = runChain(ctx, i + 1, s2 ?? s);
      return isThenable(r)
        ? (Promise.resolve(r).then(normalizeUpdate, fail) as Promise<StateRecord>)
        : Promise.resolve(normalizeUpdate(r) as StateRecord);
    } catch (e) {
      try {
        return Promise.resolve(fail(e));
      } catch (err) {
        return Promise.reject(err);
      }
    }
  };
  return mws[i]!(s, next, ctx);
}

/** `e`, marked as raised inside `inv` when it is a §4 error. */
function ownIf(e: unknown, inv: Invocation): unknown {
  return e instanceof GraphRuntimeError ? own(e, inv) : e;
}

/** Merge a partial update through the field reducers, then validate the changed fields (§2, §4). */
function applyUpdate(ctx: DispatchContext, prior: State, update: unknown): State {
  try {
    return mergeInto(ctx.frame.rt, prior, update, ctx.node.name, ctx, true);
  } catch (e) {
    throw ownIf(e, ctx.frame.inv);
  }
}

/** Resolve the outgoing edge against the post-update state (§3), owning any §4 error it raises. */
function route(ctx: DispatchContext, post: State): RouteTarget | PromiseLike<RouteTarget> {
  const edge = ctx.node.edge;
  if (edge.kind === "static") return edge.to;
  try {
    const r = resolveEdge(ctx.frame.rt, ctx.node, post, ctx, ctx);
    if (!isThenable(r)) return r;
    return Promise.resolve(r).then(undefined, (e: unknown) => {
      throw routeFailure(ctx, post, e);
    });
  } catch (e) {
    throw routeFailure(ctx, post, e);
  }
}

/** An edge function raising once the caller cancelled (e.g. its `fetch` aborted) is the cancellation. */
function routeFailure(ctx: DispatchContext, post: State, e: unknown): unknown {
  const inv = ctx.frame.inv;
  if (e instanceof EdgeException && inv.signal?.aborted) return own(new InvocationCancelledError(inv.signal.reason, loc(ctx, post), true), inv);
  return ownIf(e, inv);
}

/** Node executions between event-loop turns in one graph run. */
const YIELD_EVERY = 256;

/**
 * Why node `node` must not start, if it must not: the caller cancelled (`invocation_cancelled`), the
 * run's own signal aborted (a sibling instance / branch failed: its reason), or the step limit is
 * reached (`step_limit_exceeded`; only nodes that take a step count).
 */
function stopBefore(frame: Frame, node: CompiledNode): unknown {
  const inv = frame.inv;
  const at = (): ErrorLocation => ({
    nodeName: node.name,
    namespace: frame.namespaceOf(node.name),
    state: frame.state,
    parentStates: frame.parentStates,
  });
  if (inv.signal?.aborted) return own(new InvocationCancelledError(inv.signal.reason, at(), false), inv);
  if (frame.signal?.aborted) return frame.signal.reason ?? new Error("cancelled");
  if (inv.nextStep >= inv.stepCeiling && node.emitsEvents) return own(new StepLimitExceededError(inv.maxSteps!, at()), inv);
  return undefined;
}

/** @internal Run one graph (outermost or subgraph frame) from `start` until END. */
export async function runGraph(frame: Frame, start: string, initial: State, resumeInner?: StartPosition): Promise<State> {
  const rt = frame.rt;
  const inv = frame.inv;
  frame.state = initial;
  let node = rt.nodes.get(start)!;
  let pendingResume = resumeInner;
  let sinceYield = 0;
  const signal = frame.signal;
  const ceiling = inv.stepCeiling;
  // The attempt index of this run's context (`engineStorage.run` around every `runGraph`): what a
  // middleware-less node's events carry; a node with middleware reads its own attempt's.
  const attemptIdx = frame.emits ? currentAttemptIndex() : 0;
  for (;;) {
    if (signal?.aborted || inv.nextStep >= ceiling) {
      const stop = stopBefore(frame, node);
      if (stop !== undefined) {
        frame.currentCtx = undefined;
        throw stop;
      }
    }
    // Give the event loop a turn now and then: a long (or endless) loop of nodes whose awaits all
    // resolve immediately would otherwise starve timers, I/O, observer delivery and drains.
    if (++sinceYield === YIELD_EVERY) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    const state = frame.state;
    const ctx = new DispatchContext(frame, node, state);
    ctx.attemptIdx = attemptIdx;
    if (pendingResume !== undefined) {
      ctx.resumeInner = pendingResume;
      pendingResume = undefined;
    }
    frame.currentCtx = ctx;

    let update: unknown;
    try {
      update = node.middleware.length ? runChain(ctx, 0, state) : runAttempt(ctx, state);
      if (isThenable(update)) update = await update;
    } catch (e) {
      throw await closeAndFlush(ctx, e);
    }

    let post: State;
    let next: RouteTarget;
    try {
      post = applyUpdate(ctx, state, update);
      frame.state = post;
      const r = route(ctx, post);
      next = isThenable(r) ? await r : r;
    } catch (e) {
      throw await closeAndFlush(ctx, e);
    }

    if (ctx.open) {
      ctx.open = false;
      if (frame.emits && node.emitsEvents) {
        const hooked = inv.completedHooks.length !== 0;
        const ev = emitNode(ctx, "completed", post, undefined, undefined, hooked);
        // Only hooks with `onNodeCompleted` are awaited: lifecycle-only hooks (the OTel observer) cost no await.
        if (hooked) await runHooks(inv, ev!);
      }
    }
    if (next === END) {
      frame.currentCtx = undefined;
      return post;
    }
    node = rt.nodes.get(next)!;
  }
}
