/**
 * The compiled graph (graph-engine §2 *Compiled graph*): immutable and executable. Exposes
 * `invoke()` (§3), graph-attached observer registration (§6), `drain()` and `drainEventsFor()`
 * (§6), and the compile `warnings`.
 */
import type { CompileWarning } from "./compile-errors.ts";
import { activeWorkers, drainEventsFor, drainWorkers, type DrainOptions, type DrainSummary } from "./drain.ts";
import type { RouteTarget } from "./end.ts";
import { GraphRuntimeError, type ErrorLocation } from "./errors.ts";
import {
  GraphInterrupt,
  preciseNow,
  type InvocationEnd,
  type InvocationHooks,
  type InvocationInfo,
  type NodeContext,
  type NodeKind,
} from "./extension.ts";
import { MetadataCell } from "./invocation-metadata.ts";
import { own, runGraph } from "./execution.ts";
import { INTERNALS, type GraphRuntime } from "./internals.ts";
import { checkId, engineStorage, Frame, Invocation } from "./invocation.ts";
import { mergeInto } from "./merge.ts";
import {
  normalizeObserverInput,
  toRegistration,
  type Observer,
  type ObserverInput,
  type ObserverOptions,
  type ObserverRegistration,
} from "./observers.ts";
import type { CompletedInvocation, InvocationResult, InvokeOptions, SuspendedInvocation } from "./outcomes.ts";
import type { StateSchema } from "./state-schema.ts";
import { resolveEdge } from "./routing.ts";
import type { StateRecord } from "./state-types.ts";

/** @internal `maxSteps` (of `invoke()` or `compile()`) must be a positive integer. */
export function checkMaxSteps(v: unknown, where: string): void {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
    throw new RangeError(`${where}: maxSteps must be a positive integer (got ${String(v)})`);
  }
}

/** What {@link CompiledGraph.node} reports of a declared node. */
export interface GraphNodeInfo {
  readonly name: string;
  /** The node kind object: `kind.kind` is `"function"`, `"subgraph"`, `"fan_out"`, …; composites list `subgraphs`. */
  readonly kind: NodeKind<StateRecord, unknown>;
  /** The outgoing edge: a static target, or a conditional edge with its declared targets (`null`: undeclared). */
  readonly edge:
    | { readonly kind: "static"; readonly to: RouteTarget }
    | { readonly kind: "conditional"; readonly targets: ReadonlySet<RouteTarget> | null };
}

/** An immutable, executable graph over state `S` (partial updates `U`). */
export class CompiledGraph<S extends StateRecord = StateRecord, U = Partial<S>> {
  /** @internal */
  readonly [INTERNALS]: GraphRuntime;
  /** Compile-time warnings (§2 *Reducer round-trip warning*), each with a `category`. */
  readonly warnings: readonly CompileWarning[];

  /** @internal use `GraphBuilder.compile()`. */
  constructor(rt: GraphRuntime, warnings: readonly CompileWarning[]) {
    this[INTERNALS] = rt;
    this.warnings = warnings;
    Object.freeze(this);
  }

  /** The graph's name (`compile({ name })`). */
  get name(): string {
    return this[INTERNALS].name;
  }
  /** The graph's state schema. */
  get schema(): StateSchema<S, U> {
    return this[INTERNALS].schema as unknown as StateSchema<S, U>;
  }
  /** The declared entry node. */
  get entry(): string {
    return this[INTERNALS].entry;
  }
  /** Declared node names, in declaration order. */
  get nodeNames(): readonly string[] {
    return [...this[INTERNALS].nodes.keys()];
  }
  /** The node kind of a node (`"function"`, `"subgraph"`, or a composite kind). */
  nodeKind(name: string): string | undefined {
    return this[INTERNALS].nodes.get(name)?.kind.kind;
  }

  /**
   * Introspect a declared node: its {@link NodeKind} object (a composite's `subgraphs` and options)
   * and its outgoing edge. Undefined when the graph has no such node.
   */
  node(name: string): GraphNodeInfo | undefined {
    const n = this[INTERNALS].nodes.get(name);
    if (n === undefined) return undefined;
    const edge: GraphNodeInfo["edge"] =
      n.edge.kind === "static" ? { kind: "static", to: n.edge.to } : { kind: "conditional", targets: n.edge.targets };
    return Object.freeze({ name: n.name, kind: n.kind, edge: Object.freeze(edge) });
  }

  /**
   * Where the engine goes after node `nodeName` completed with post-update state `state` (§3): its
   * static target, or its conditional edge function evaluated now with `ctx` — exactly the routing
   * a live run does. Rejects with `edge_exception` when the edge function raises and
   * `routing_error` for a destination that is not a declared node, END, or a declared target.
   * Checkpoint resume uses it to continue after a saved completed position (pipeline-utilities §10.4).
   */
  async routeAfter(nodeName: string, state: Readonly<S>, ctx: NodeContext): Promise<RouteTarget> {
    const rt = this[INTERNALS];
    const node = rt.nodes.get(nodeName);
    if (node === undefined) throw new RangeError(`graph "${rt.name}" has no node "${nodeName}"`);
    const where = { locate: (): ErrorLocation => ({ nodeName, namespace: ctx.namespace, state, parentStates: ctx.parentStates }) };
    return resolveEdge(rt, node, state, ctx, where);
  }

  /**
   * Merge a partial update into `prior` through this graph's effective reducers and validate the
   * changed fields — what the engine does with a node's return value (§2 *Reducers*). Returns a new
   * frozen state (or `prior` when nothing was written). Throws `reducer_error` or
   * `state_validation_error` located at `at` (default: no node).
   */
  mergeUpdate(prior: Readonly<S>, update: Readonly<U> | Readonly<Record<string, unknown>>, at: ErrorLocation = {}): Readonly<S> {
    const nodeName = at.nodeName ?? "(merge)";
    return mergeInto(this[INTERNALS], prior, update, nodeName, { locate: () => ({ ...at, state: prior }) }) as Readonly<S>;
  }

  /**
   * Attach a graph-attached observer (§6): it fires on every later invocation of this graph — run
   * directly or as a subgraph — until detached. Registration order is delivery order within this
   * graph. Returns a function that detaches it. Changes never affect in-flight invocations.
   */
  attachObserver(observer: Observer, options?: ObserverOptions): () => void {
    const reg = toRegistration(observer, options);
    const rt = this[INTERNALS];
    rt.observers = Object.freeze([...rt.observers, reg]);
    return () => {
      rt.observers = Object.freeze(rt.observers.filter((r) => r !== reg));
    };
  }

  /** Detach every registration of `observer`; returns whether any was attached. */
  detachObserver(observer: Observer): boolean {
    const rt = this[INTERNALS];
    const before = rt.observers.length;
    rt.observers = Object.freeze(rt.observers.filter((r) => r.observer !== observer));
    return rt.observers.length !== before;
  }

  /** The graph-attached observers, in registration order. */
  get observers(): readonly ObserverRegistration[] {
    return this[INTERNALS].observers;
  }

  /** The engine hooks compiled into the graph (`compile({ hooks })`), in order. */
  get hooks(): readonly InvocationHooks[] {
    return this[INTERNALS].hooks;
  }

  /**
   * Run the graph (§3) from `initial` (merged over the schema defaults, validated). Resolves with a
   * completed (or suspended) outcome as soon as execution ends — observer delivery may continue;
   * rejects with a §4 `GraphRuntimeError` (`category`, `nodeName`, `state`, `cause`,
   * `executionOrder`, `invocationId`).
   */
  async invoke(initial: Readonly<Partial<S>> = {} as Readonly<Partial<S>>, options: InvokeOptions = {}): Promise<InvocationResult<S>> {
    const rt = this[INTERNALS];
    const invocationId = checkId("invocationId", options.invocationId);
    const correlationId = checkId("correlationId", options.correlationId);
    const observers = options.observers === undefined || options.observers.length === 0 ? NO_OBSERVERS : options.observers.map((o) => scoped(rt, o, normalizeObserverInput(o)));
    const hooks: readonly InvocationHooks[] = options.hooks ? rt.hooks.concat(options.hooks) : rt.hooks;
    const start = options.startAt;
    if (start !== undefined && !rt.nodes.has(start.node)) {
      throw new RangeError(`startAt: graph "${rt.name}" has no node "${start.node}"`);
    }
    if (options.startStep !== undefined && (!Number.isInteger(options.startStep) || options.startStep < 0)) {
      throw new RangeError("startStep must be a non-negative integer");
    }
    const maxSteps = options.maxSteps ?? rt.maxSteps;
    if (options.maxSteps !== undefined) checkMaxSteps(options.maxSteps, "invoke");
    const inv = new Invocation(rt, {
      invocationId,
      correlationId,
      metadata: options.metadata,
      observers,
      hooks,
      onObserverError: options.onObserverError,
      startStep: options.startStep,
      signal: options.signal,
      maxSteps,
    });
    const frame = new Frame(inv, rt, null, null);
    const info = inv.syncHooks.length ? invocationInfo(inv, start?.node ?? rt.entry) : undefined;
    if (info) for (const h of inv.syncHooks) h.onInvocationStart?.(info);
    const ended = (end: InvocationEnd): void => {
      if (info) for (const h of inv.syncHooks) h.onInvocationEnd?.(info, end);
    };
    try {
      const state = rt.schema.create((start?.state ?? initial) as Readonly<Record<string, unknown>>);
      const final = await engineStorage.run({ frame, attemptIndex: 0, meta: new MetadataCell(inv.metadata) }, () =>
        runGraph(frame, start?.node ?? rt.entry, state, start?.inner),
      );
      ended({ outcome: "completed", timestamp: preciseNow() });
      const result: CompletedInvocation<S> = {
        outcome: "completed",
        state: final as Readonly<S>,
        invocationId: inv.id,
        correlationId: inv.correlationId,
        executionOrder: Object.freeze(inv.executionOrder),
        stepCount: inv.nextStep,
      };
      return Object.freeze(result);
    } catch (e) {
      if (e instanceof GraphInterrupt) {
        ended({ outcome: "suspended", timestamp: preciseNow() });
        const result: SuspendedInvocation<S> = {
          outcome: "suspended",
          state: frame.state as Readonly<S>,
          interrupt: e,
          nodeName: e.nodeName ?? "",
          namespace: e.namespace ?? [],
          invocationId: inv.id,
          correlationId: inv.correlationId,
          executionOrder: Object.freeze(inv.executionOrder),
          stepCount: inv.nextStep,
        };
        return Object.freeze(result);
      }
      if (e instanceof GraphRuntimeError) {
        own(e, inv);
        if (e.invocationId === undefined) e.invocationId = inv.id;
        e.executionOrder = Object.freeze([...inv.executionOrder]);
      }
      ended({ outcome: "failed", error: e, timestamp: preciseNow() });
      throw e;
    } finally {
      inv.end();
    }
  }

  /**
   * Wait until every observer event of this graph's invocations active at call time has been
   * delivered (§6 *Drain*), or until `timeoutMs` elapses — then those invocations' delivery is
   * cancelled and reported as undelivered. Always resolves with a {@link DrainSummary}.
   */
  drain(options?: DrainOptions): Promise<DrainSummary> {
    try {
      return drainWorkers(activeWorkers((w) => w.root === this), options);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /**
   * Wait until the events of invocation `invocationId` emitted before this call have been delivered
   * (§6 *Per-invocation drain*), or until `timeoutMs` elapses. Never cancels delivery.
   */
  drainEventsFor(invocationId: string, options?: DrainOptions): Promise<DrainSummary> {
    return drainEventsFor(invocationId, options);
  }
}

const NO_OBSERVERS: readonly ObserverRegistration[] = Object.freeze([]);

function invocationInfo(inv: Invocation, entryNode: string): InvocationInfo {
  return Object.freeze({
    invocationId: inv.id,
    correlationId: inv.correlationId,
    graphName: inv.root.name,
    entryNode,
    metadata: inv.metadata,
    timestamp: preciseNow(),
  });
}

/** An invocation observer's `graph` scope resolved to its runtime (must be `rt` or a subgraph of it). */
function scoped(rt: GraphRuntime, input: ObserverInput, reg: ObserverRegistration): ObserverRegistration {
  if (typeof input === "function" || input.graph === undefined) return reg;
  const g = input.graph;
  const target = (g as unknown) instanceof CompiledGraph ? g[INTERNALS] : undefined;
  if (target === undefined || !rt.allGraphs.includes(target)) {
    throw new RangeError(
      `observer "${reg.name}": graph scope "${String(g.name)}" is neither graph "${rt.name}" nor one of its subgraphs — pass the compiled graph that runs inside this invocation`,
    );
  }
  return Object.freeze({ ...reg, scope: target });
}
