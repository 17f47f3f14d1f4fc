/**
 * Suspendable invocations (suspension §3, §5, §7, §8): {@link withSuspension} wraps a compiled
 * graph — or a session-bound one (`withSessions`, §8.6) — so that
 *
 * - `invoke(initial, options)` runs it; a node calling {@link suspend} ends the run with a
 *   {@link SuspendedOutcome} (§5) once its paused-invocation record is persisted through the
 *   configured Checkpointer (§8.5; see `store.ts`). A failing write is
 *   `suspension_persistence_failed` and the outcome is errored (§9);
 * - `invoke({}, { resumeInvocation, signalPayload })` (or `resume(id, payload)`) loads the paused
 *   record (`suspension_record_invalid` unless it is `suspended`), merges the payload (§6;
 *   `suspension_resume_payload_invalid`), and continues — after the suspending node, or re-running
 *   it under `markNodeCompleted: false` — under the SAME invocation id and correlation id (a
 *   caller-supplied `invocationId` is ignored, graph-engine §3), step numbers continuing. The
 *   initial state of a resume is ignored (§7 skeleton).
 *
 * ```ts
 * const runner = withSuspension(graph, { checkpointer: new SqliteCheckpointer("runs.db", { table: "paused" }) });
 * const r = await runner.invoke({ ticket: 7 });
 * if (r.outcome === "suspended") await notify(r.descriptor.signalId, r.invocationId);
 * // …later, any worker:
 * const done = await runner.invoke({}, { resumeInvocation: id, signalPayload: { approved: true } });
 * ```
 *
 * Composition: subgraphs (§8.1 — the outer invocation suspends, resume re-enters the subgraph),
 * `fail_fast` fan-out / parallel branches (§8.2 / §8.3 — the composite node suspends as a whole,
 * siblings cancelled, the descriptor annotated with `fan_out_index` / `branch_name`), middleware
 * (§8.4 — pre-`next()` runs, post-`next()` does not), sessions (§8.6 — wrap the session-bound graph:
 * the session is saved at suspend before the paused record, so a failing session save writes no
 * paused record; resume binds the same session).
 */
import { randomUUID } from "node:crypto";
import { InMemoryCheckpointer, type Checkpointer } from "../checkpoint/index.ts";
import { declaredSchemaVersion } from "../checkpoint/resume.ts";
import type { NodePosition } from "../checkpoint/record.ts";
import {
  CompiledGraph,
  GraphRuntimeError,
  type CompletedInvocation,
  type GraphInterrupt,
  type InvocationHooks,
  type InvocationOutcomeBase,
  type InvocationResult,
  type InvokeOptions,
  type StateRecord,
  type StateSchema,
  type SuspendedInvocation,
} from "../graph/index.ts";
import { SessionBoundGraph, type SessionInvocationInfo, type SessionInvokeOptions } from "../sessions/lifecycle.ts";
import { annotateDescriptor, isSignalDescriptor, normalizeDescriptor, type SignalDescriptor } from "./descriptor.ts";
import { SuspensionPersistenceFailedError, SuspensionRecordInvalidError } from "./errors.ts";
import type { PausedInvocationRecord } from "./record.ts";
import { checkSignalPayload, planPauseResume } from "./resume.ts";
import { scopeStorage, SuspensionScope } from "./scope.ts";
import { SuspensionSignal } from "./signal.ts";
import { PausedInvocationStore } from "./store.ts";

type State = Readonly<StateRecord>;

/** §5 the suspended outcome of a suspendable invocation. */
export interface SuspendedOutcome<S extends StateRecord = StateRecord> extends InvocationOutcomeBase {
  readonly outcome: "suspended";
  /** The invocation (outermost) state at the suspension point — not a final state. */
  readonly state: Readonly<S>;
  /** The descriptor as persisted: annotated with `fan_out_index` / `branch_name` when it bubbled up (§8.2 / §8.3). */
  readonly descriptor: SignalDescriptor;
  /** The outermost-graph node that suspended (the subgraph / fan-out / branches node for a nested call). */
  readonly nodeName: string;
  /** Path from the outermost graph down to the node whose body called `suspend()`. */
  readonly namespace: readonly string[];
  /** §3 `mark_node_completed` of the suspension. */
  readonly markNodeCompleted: boolean;
  /** The persisted paused-invocation record. */
  readonly record: PausedInvocationRecord;
  /** The engine's interrupt (raw descriptor, innermost node). */
  readonly interrupt: GraphInterrupt;
}

/** A completed or suspended outcome (errors reject); `X` is what the wrapped target adds (e.g. session info). */
export type SuspendableResult<S extends StateRecord = StateRecord, X = unknown> = (CompletedInvocation<S> | SuspendedOutcome<S>) & X;

/** What {@link withSuspension} can wrap: anything exposing its compiled graph and an engine-style invoke. */
export interface InvokeTarget<S extends StateRecord, O extends InvokeOptions, X> {
  readonly graph: CompiledGraph<S, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  invoke(initial: Readonly<Partial<S>>, options: O): Promise<InvocationResult<S> & X>;
}

/** Options of {@link withSuspension}. */
export interface SuspensionOptions {
  /**
   * Where paused-invocation records persist (§8.5): any Checkpointer — its own (a separate SQLite
   * table, a separate in-memory instance), or the one checkpointing uses (see `store.ts`). Default:
   * a new `InMemoryCheckpointer` (not durable).
   */
  readonly checkpointer?: Checkpointer;
  /** Delete the paused record once its resumed run completes. Default `false`: kept with status `completed`. */
  readonly deleteOnCompletion?: boolean;
}

/** Per-call options: the target's, minus the engine's resume internals, plus §7 resume. */
export type SuspendInvokeOptions<O extends InvokeOptions = InvokeOptions, S extends StateRecord = StateRecord> = Omit<O, "startAt" | "startStep"> & {
  /** §7 `resume_invocation`: resume this suspended invocation (`initial` is ignored). */
  readonly resumeInvocation?: string;
  /**
   * §7 `signal_payload`: merged into the paused state (§6). Default `{}`. Typed from the state: a
   * field the (closed) schema does not declare is a type error, and at run time
   * `suspension_resume_payload_invalid` before the paused record is touched.
   */
  readonly signalPayload?: Readonly<Partial<S>>;
};

/** The suspension scope's hooks, then the caller's (every one of them: an OTel observer's spans too). */
function combineHooks(first: InvocationHooks, second: InvokeOptions["hooks"]): readonly InvocationHooks[] {
  return [first].concat(second ?? []);
}

function causeChainHas(e: unknown, target: unknown): boolean {
  let x: unknown = e;
  for (let i = 0; i < 64 && x !== undefined && x !== null; i++) {
    if (x === target) return true;
    x = x instanceof Error ? x.cause : undefined;
  }
  return false;
}

interface Carried {
  readonly record: PausedInvocationRecord;
  readonly startAt: InvokeOptions["startAt"];
  readonly startStep: number;
}

/** A graph whose invocations can suspend and resume (see the module comment). */
export class SuspendableGraph<S extends StateRecord = StateRecord, O extends InvokeOptions = InvokeOptions, X = unknown> {
  readonly graph: CompiledGraph<S, unknown>;
  readonly target: InvokeTarget<S, O, X>;
  readonly store: PausedInvocationStore;
  readonly deleteOnCompletion: boolean;

  constructor(target: InvokeTarget<S, O, X>, options: SuspensionOptions = {}) {
    if (typeof target !== "object" || target === null || !(target.graph instanceof CompiledGraph) || typeof target.invoke !== "function") {
      throw new TypeError("withSuspension expects a CompiledGraph or a wrapper exposing { graph, invoke }");
    }
    this.target = target;
    this.graph = target.graph as unknown as CompiledGraph<S, unknown>;
    this.store = new PausedInvocationStore(options.checkpointer ?? new InMemoryCheckpointer());
    this.deleteOnCompletion = options.deleteOnCompletion === true;
  }

  /** The Checkpointer paused records persist through. */
  get checkpointer(): Checkpointer {
    return this.store.checkpointer;
  }

  /**
   * Run the graph (or, with `resumeInvocation`, resume a suspended invocation). Resolves with a
   * completed or suspended outcome; rejects with the engine's §4 errors, the target's, or a
   * suspension §9 error.
   */
  async invoke(initial: Readonly<Partial<S>> = {} as Readonly<Partial<S>>, options: SuspendInvokeOptions<O, S> = {} as SuspendInvokeOptions<O, S>): Promise<SuspendableResult<S, X>> {
    const { resumeInvocation, signalPayload, ...rest } = options as SuspendInvokeOptions<O, S> & Record<string, unknown>;
    if (resumeInvocation !== undefined) return this.resume(resumeInvocation as string, (signalPayload ?? {}) as Readonly<Partial<S>>, rest as unknown as SuspendInvokeOptions<O, S>);
    if (signalPayload !== undefined) throw new TypeError("signalPayload is only meaningful with resumeInvocation");
    const engine = rest as unknown as O;
    const invocationId = engine.invocationId ?? randomUUID();
    return this.#run(initial, { ...engine, invocationId }, undefined);
  }

  /**
   * §7: resume suspended invocation `invocationId` with `signalPayload`. `options.invocationId` and
   * `options.correlationId` are ignored (the paused record's are reused). A session-bound target
   * binds the record's session when `options` names none.
   */
  async resume(
    invocationId: string,
    signalPayload: Readonly<Partial<S>> = {} as Readonly<Partial<S>>,
    options: SuspendInvokeOptions<O, S> = {} as SuspendInvokeOptions<O, S>,
  ): Promise<SuspendableResult<S, X>> {
    if (typeof invocationId !== "string" || invocationId.length === 0) throw new SuspensionRecordInvalidError(invocationId as unknown, "invalid_id");
    // First: a refused payload must leave the paused record untouched (not loaded, not claimed).
    checkSignalPayload(this.graph.schema as unknown as StateSchema<StateRecord, unknown>, signalPayload, invocationId);
    const record = await this.store.loadForResume(invocationId);
    const { resumeInvocation: _r, signalPayload: _p, invocationId: _i, correlationId: _c, ...rest } = options as SuspendInvokeOptions<O, S> &
      Record<string, unknown>;
    const engine: Record<string, unknown> = { ...rest, invocationId: record.invocationId, correlationId: record.correlationId };
    if (record.sessionId !== undefined) {
      const given = engine["sessionId"];
      if (given === undefined) engine["sessionId"] = record.sessionId;
      else if (given !== record.sessionId) {
        throw new SuspensionRecordInvalidError(invocationId, "incompatible", `it is bound to session "${record.sessionId}", not "${String(given)}"`);
      }
    }
    const plan = await planPauseResume(this.graph as unknown as CompiledGraph<StateRecord, unknown>, record, signalPayload, {
      metadata: (engine["metadata"] as Readonly<Record<string, unknown>> | undefined) ?? {},
    });
    // Everything above validates; the claim is the one step that consumes the suspension (resume once).
    const consumed = await this.store.claim(record);
    if (plan.kind === "complete") return await this.#completeWithoutRunning(consumed, plan.state, plan.startStep, engine);
    return await this.#run({} as Readonly<Partial<S>>, engine as unknown as O, { record: consumed, startAt: plan.startAt, startStep: plan.startStep });
  }

  /** The paused record of `invocationId` (any status), or `undefined`. */
  load(invocationId: string): Promise<PausedInvocationRecord | undefined> {
    return this.store.load(invocationId);
  }

  /** Cancel a suspended invocation by deleting its paused record (§1); `false` when there was none. */
  cancel(invocationId: string): Promise<boolean> {
    return this.store.delete(invocationId);
  }

  async #run(initial: Readonly<Partial<S>>, options: O, carried: Carried | undefined): Promise<SuspendableResult<S, X>> {
    const invocationId = options.invocationId as string;
    const scope = new SuspensionScope(invocationId, this.graph as unknown as CompiledGraph<StateRecord, unknown>, carried?.record.completedPositions ?? []);
    const call = {
      ...options,
      hooks: combineHooks(scope.hooks, options.hooks),
      ...(carried ? { startAt: carried.startAt, startStep: carried.startStep } : {}),
    } as O;
    let result: InvocationResult<S> & X;
    try {
      result = await scopeStorage.run(scope, () => this.target.invoke(initial, call));
    } catch (e) {
      const fatal = scope.fatal;
      const raised = fatal !== undefined && !causeChainHas(e, fatal) ? this.#escaped(fatal, e) : e;
      if (carried) await this.#settle(carried.record, "errored");
      throw raised;
    }
    if (scope.fatal !== undefined) {
      // Swallowed on the way out (a collect-mode composite, a catching middleware): still fatal.
      if (carried) await this.#settle(carried.record, "errored");
      throw this.#escaped(scope.fatal, result);
    }
    if (result.outcome === "suspended") return this.#persist(result, scope.positions, options, carried?.record);
    if (carried) await this.#settle(carried.record, "completed");
    return result as SuspendableResult<S, X>;
  }

  #escaped(fatal: GraphRuntimeError, from: unknown): GraphRuntimeError {
    const f = fatal as GraphRuntimeError;
    const source = from as { invocationId?: string; executionOrder?: readonly string[] };
    f.invocationId ??= source.invocationId;
    if (Array.isArray(source.executionOrder)) f.executionOrder = source.executionOrder;
    return f;
  }

  async #settle(record: PausedInvocationRecord, status: "completed" | "errored"): Promise<void> {
    // Best effort: the outcome stands whatever the status write does. A shared checkpointer may
    // already hold the resumed run's checkpoint records under the id; leave those alone.
    try {
      if ((await this.store.recordType(record.invocationId)) !== "suspended") return;
      const current = await this.store.load(record.invocationId);
      if (current === undefined || current.status !== "resumed" || current.suspendedAt !== record.suspendedAt) return;
      if (status === "completed" && this.deleteOnCompletion) await this.store.delete(record.invocationId);
      else await this.store.setStatus(current, status);
    } catch {
      /* the record keeps status "resumed": it cannot be resumed again either way */
    }
  }

  /** §3 step 2, §5: build and persist the paused record, then return the suspended outcome. */
  async #persist(
    result: SuspendedInvocation<S> & X,
    positions: readonly NodePosition[],
    options: O,
    previous: PausedInvocationRecord | undefined,
  ): Promise<SuspendableResult<S, X>> {
    const interrupt = result.interrupt;
    const signal = interrupt instanceof SuspensionSignal ? interrupt : undefined;
    let descriptor: SignalDescriptor;
    try {
      descriptor = signal?.descriptor ?? normalizeDescriptor(isSignalDescriptor(interrupt.descriptor) ? interrupt.descriptor : { signalId: String(interrupt.descriptor ?? "") });
    } catch (cause) {
      throw new SuspensionPersistenceFailedError(cause, { suspended: result });
    }
    const namespace = interrupt.namespace ?? signal?.origin.namespace ?? [result.nodeName];
    const fanChain = signal?.origin.fanOutIndexChain ?? namespace.slice(1).map(() => null);
    const branchChain = signal?.origin.branchNameChain ?? namespace.slice(1).map(() => null);
    // The resume point: the first level whose child is a fan-out instance / branch, else the innermost node.
    let k = namespace.length - 1;
    for (let i = 0; i < namespace.length - 1; i++) {
      if ((fanChain[i] ?? null) !== null || (branchChain[i] ?? null) !== null) {
        k = i;
        descriptor = annotateDescriptor(descriptor, {
          ...(fanChain[i] !== null && fanChain[i] !== undefined ? { fanOutIndex: fanChain[i] as number } : {}),
          ...(branchChain[i] !== null && branchChain[i] !== undefined ? { branchName: branchChain[i] as string } : {}),
        });
        break;
      }
    }
    const levels: State[] = [...(interrupt.parentStates ?? []), (interrupt.state ?? result.state) as State];
    const states = levels.slice(0, k + 1);
    const mark = signal?.markNodeCompleted ?? true;
    const step = interrupt.step ?? signal?.origin.step ?? 0;
    const resumePoint: NodePosition = Object.freeze({
      namespace: Object.freeze(namespace.slice(0, k)),
      nodeName: namespace[k]!,
      step,
      attemptIndex: signal?.origin.attemptIndex ?? 0,
    });
    const sessionId = (options as { sessionId?: unknown }).sessionId;
    const record: PausedInvocationRecord = Object.freeze({
      recordType: "suspended",
      status: "suspended",
      invocationId: result.invocationId,
      correlationId: result.correlationId,
      descriptor,
      nodeName: namespace[0]!,
      namespace: Object.freeze([...namespace]),
      resumePoint,
      markNodeCompleted: mark,
      state: states[k]!,
      parentStates: Object.freeze(states.slice(0, k)),
      completedPositions: Object.freeze(mark ? [...positions, resumePoint] : [...positions]),
      schemaVersion: declaredSchemaVersion(this.graph as unknown as CompiledGraph<StateRecord, unknown>),
      suspendedAt: Date.now(),
      nextStep: result.stepCount,
      attemptIndex: signal?.origin.attemptIndex ?? 0,
      graphName: this.graph.name,
      ...(typeof sessionId === "string" ? { sessionId } : {}),
      resumeCount: previous ? previous.resumeCount + 1 : 0,
    });
    try {
      await this.store.save(record);
    } catch (cause) {
      throw new SuspensionPersistenceFailedError(cause, { suspended: result, ...(typeof sessionId === "string" ? { sessionId } : {}) });
    }
    const outcome = {
      ...result,
      outcome: "suspended" as const,
      state: result.state,
      descriptor,
      nodeName: record.nodeName,
      namespace: record.namespace,
      markNodeCompleted: mark,
      record,
      interrupt,
    };
    return Object.freeze(outcome) as unknown as SuspendableResult<S, X>;
  }

  /**
   * The resume point was the last node (its exit edge reaches END): the merged state is final and
   * nothing runs. A session-bound target still saves the session at END (sessions §6.1).
   */
  async #completeWithoutRunning(record: PausedInvocationRecord, state: State, stepCount: number, engine: Record<string, unknown>): Promise<SuspendableResult<S, X>> {
    const done: CompletedInvocation<S> = {
      outcome: "completed",
      state: state as Readonly<S>,
      invocationId: record.invocationId,
      correlationId: record.correlationId,
      executionOrder: Object.freeze([]),
      stepCount,
    };
    let extra: Record<string, unknown> = {};
    const target = this.target as unknown;
    const sessionId = engine["sessionId"];
    if (target instanceof SessionBoundGraph && typeof sessionId === "string" && target.store !== null && target.autoSave) {
      const saved = await target.save(sessionId, state as Readonly<Partial<StateRecord>>);
      extra = { sessionId, loadedSessionState: null, loadedRecord: null, migrationsRun: [], savedSession: { ...saved, savePoint: "completed" } };
    }
    await this.#settle(record, "completed");
    return Object.freeze({ ...extra, ...done }) as unknown as SuspendableResult<S, X>;
  }
}

/**
 * Make `target` suspendable (see the module comment): a `CompiledGraph`, or a wrapper such as a
 * `withSessions(...)` graph (§8.6) whose invoke passes engine options through.
 */
export function withSuspension<S extends StateRecord, U, SS>(
  target: SessionBoundGraph<S, U, SS>,
  options?: SuspensionOptions,
): SuspendableGraph<S, SessionInvokeOptions, SessionInvocationInfo<SS>>;
export function withSuspension<S extends StateRecord, U>(target: CompiledGraph<S, U>, options?: SuspensionOptions): SuspendableGraph<S, InvokeOptions, unknown>;
export function withSuspension<S extends StateRecord, O extends InvokeOptions, X>(target: InvokeTarget<S, O, X>, options?: SuspensionOptions): SuspendableGraph<S, O, X>;
export function withSuspension(target: unknown, options?: SuspensionOptions): SuspendableGraph<StateRecord, InvokeOptions, unknown> {
  if (target instanceof CompiledGraph) {
    const graph = target as CompiledGraph<StateRecord, unknown>;
    return new SuspendableGraph({ graph, invoke: (initial, o) => graph.invoke(initial, o) }, options);
  }
  return new SuspendableGraph(target as InvokeTarget<StateRecord, InvokeOptions, unknown>, options);
}
