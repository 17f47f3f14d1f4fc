/**
 * The compiled graph (graph-engine §2 *Compiled graph*): immutable and executable. Exposes
 * `invoke()` (§3), graph-attached observer registration (§6), `drain()` and `drainEventsFor()`
 * (§6), and the compile `warnings`.
 */
import type { CompileWarning } from "./compile-errors.ts";
import { activeWorkers, drainEventsFor, drainWorkers, type DrainOptions, type DrainSummary } from "./drain.ts";
import { GraphRuntimeError } from "./errors.ts";
import { GraphInterrupt, type InvocationHooks } from "./extension.ts";
import { own, runGraph } from "./execution.ts";
import { INTERNALS, type GraphRuntime } from "./internals.ts";
import { checkId, engineStorage, Frame, Invocation } from "./invocation.ts";
import {
  normalizeObserverInput,
  toRegistration,
  type Observer,
  type ObserverOptions,
  type ObserverRegistration,
} from "./observers.ts";
import type { CompletedInvocation, InvocationResult, InvokeOptions, SuspendedInvocation } from "./outcomes.ts";
import type { StateSchema } from "./state-schema.ts";
import type { StateRecord } from "./state-types.ts";

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
    const observers = (options.observers ?? []).map(normalizeObserverInput);
    const hooks: InvocationHooks[] = [...rt.hooks];
    if (options.hooks) hooks.push(options.hooks);
    const start = options.startAt;
    if (start !== undefined && !rt.nodes.has(start.node)) {
      throw new RangeError(`startAt: graph "${rt.name}" has no node "${start.node}"`);
    }
    if (options.startStep !== undefined && (!Number.isInteger(options.startStep) || options.startStep < 0)) {
      throw new RangeError("startStep must be a non-negative integer");
    }
    const inv = new Invocation(rt, {
      invocationId,
      correlationId,
      metadata: options.metadata,
      observers,
      hooks,
      onObserverError: options.onObserverError,
      startStep: options.startStep,
      signal: options.signal,
    });
    const frame = new Frame(inv, rt, null, null);
    try {
      const state = rt.schema.create((start?.state ?? initial) as Readonly<Record<string, unknown>>);
      const final = await engineStorage.run({ frame, attemptIndex: 0 }, () =>
        runGraph(frame, start?.node ?? rt.entry, state, start?.inner),
      );
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
      throw e;
    } finally {
      inv.worker?.end();
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
