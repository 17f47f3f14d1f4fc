/**
 * Running a compiled graph with a Checkpointer (pipeline-utilities §10.1.1 registration, §10.3
 * saves, §10.4 resume).
 *
 * ```ts
 * const checkpointer = new SqliteCheckpointer("runs.db");
 * const runner = withCheckpointer(graph, checkpointer, { migrations });
 *
 * try {
 *   await runner.invoke({ docs }, { correlationId: requestId });   // saves after every completed event
 * } catch (e) {
 *   // later, maybe in another process:
 *   const resumed = await runner.resume((e as GraphRuntimeError).invocationId!);
 * }
 * ```
 *
 * - `invoke(initial, options)` runs the graph like `CompiledGraph.invoke`, saving a record after
 *   every §6 completed event (the engine awaits each save before continuing). `options` are the
 *   engine's `InvokeOptions` (ids, metadata, observers, hooks — yours run after the save) without
 *   the engine-internal `startAt` / `startStep`; `options.resumeInvocation` delegates to `resume`.
 * - `resume(invocationId, options)` loads that invocation's record and continues after its last
 *   completed node: a FRESH invocation id (a caller-supplied `invocationId` is ignored, §10.2), the
 *   original `correlationId` (a caller-supplied one is ignored too, §10.4 step 3), attempt indices
 *   and retry budgets from 0 (§10.6), §6 step numbers continuing the original's. The resumed run
 *   saves under its new id; chain further resumes from that id (`list({ correlationId })` finds all
 *   attempts). Completed fan-out instances are skipped when the fan-out node uses the seam in
 *   `fan-out-progress.ts`.
 * - A record resumes once: the resume claims it (compare-and-set) right before running; a second
 *   resume of the same record — concurrent, in any process, or later — raises
 *   `checkpoint_already_resumed` naming the invocation that resumed it (see `resume.ts`).
 * - Errors: §10.10 categories (see `errors.ts`). A failing `save` fails the invocation with
 *   `checkpoint_save_failed` — immediately, not retried, even when it happens inside a fan-out
 *   instance or under retry middleware.
 * - Without a Checkpointer (`withCheckpointer(graph, null)`), `invoke` never saves and `resume`
 *   raises `checkpoint_not_found` (§10.1.1).
 * - One Checkpointer per runner (§10.1.1); to write to two stores, wrap both in one Checkpointer.
 */
import { randomUUID } from "node:crypto";
import type {
  CompiledGraph,
  CompletedInvocation,
  InvocationHooks,
  InvocationResult,
  InvokeOptions,
  StateRecord,
} from "../graph/index.ts";
import { checkInvocationId, type Checkpointer } from "./checkpointer.ts";
import { CheckpointNotFoundError } from "./errors.ts";
import { toRegistry, type MigrationRegistry, type StateMigration } from "./migrations.ts";
import { CheckpointRecorder, type RecorderInit } from "./recorder.ts";
import { claimForResume, declaredSchemaVersion, loadForResume, planResume } from "./resume.ts";

/** Options of {@link withCheckpointer}. */
export interface CheckpointOptions {
  /** §10.12 state migrations (a registry or a list); checked for ambiguity here. */
  readonly migrations?: MigrationRegistry | Iterable<StateMigration>;
  /** §10.8: emit a `checkpoint_save` observer event after every save. Default `false`. */
  readonly saveEvents?: boolean;
  /** Delete the invocation's record once it completes (END reached). Default `false` (kept). */
  readonly deleteOnCompletion?: boolean;
}

/** `invoke()` options of a checkpointed graph. */
export interface CheckpointInvokeOptions extends Omit<InvokeOptions, "startAt" | "startStep"> {
  /** §10.4 `invoke(resume_invocation=…)`: resume this invocation instead (`initial` is ignored). */
  readonly resumeInvocation?: string;
}

/** `resume()` options: `invocationId` and `correlationId` are ignored (§10.2, §10.4). */
export type ResumeOptions = Omit<InvokeOptions, "startAt" | "startStep">;

/** The recorder's hooks, then the caller's (every one of them: an OTel observer's spans too). */
function combineHooks(first: InvocationHooks, second: InvokeOptions["hooks"]): readonly InvocationHooks[] {
  return [first].concat(second ?? []);
}

/** A compiled graph bound to (at most) one Checkpointer — see the module comment. */
export class CheckpointedGraph<S extends StateRecord = StateRecord, U = Partial<S>> {
  readonly graph: CompiledGraph<S, U>;
  readonly checkpointer: Checkpointer | null;
  readonly migrations: MigrationRegistry;
  readonly options: CheckpointOptions;

  constructor(graph: CompiledGraph<S, U>, checkpointer: Checkpointer | null, options: CheckpointOptions = {}) {
    if (checkpointer !== null && (typeof checkpointer !== "object" || typeof checkpointer.save !== "function" || typeof checkpointer.load !== "function")) {
      throw new TypeError("withCheckpointer expects a Checkpointer (save / load / list / delete) or null");
    }
    this.graph = graph;
    this.checkpointer = checkpointer;
    this.migrations = toRegistry(options.migrations);
    this.migrations.checkUnambiguous(); // §10.12.2: surface ambiguity before any resume
    this.options = Object.freeze({ ...options });
  }

  /** Run from `initial`, saving after every completed event (or resume, with `resumeInvocation`). */
  async invoke(initial: Readonly<Partial<S>> = {} as Readonly<Partial<S>>, options: CheckpointInvokeOptions = {}): Promise<InvocationResult<S>> {
    const { resumeInvocation, ...rest } = options;
    if (resumeInvocation !== undefined) return this.resume(resumeInvocation, rest);
    const cp = this.checkpointer;
    if (cp === null) return this.graph.invoke(initial, rest);
    const invocationId = rest.invocationId ?? randomUUID();
    const correlationId = rest.correlationId ?? randomUUID();
    const recorder = this.#recorder(cp, { invocationId, correlationId });
    return this.#run(recorder, cp, () =>
      this.graph.invoke(initial, { ...rest, invocationId, correlationId, hooks: combineHooks(recorder.hooks, rest.hooks) }),
    );
  }

  /** §10.4: resume invocation `invocationId` from its latest record (see the module comment). */
  async resume(invocationId: string, options: ResumeOptions = {}): Promise<InvocationResult<S>> {
    checkInvocationId(invocationId);
    const cp = this.checkpointer;
    if (cp === null) throw new CheckpointNotFoundError(invocationId, "no Checkpointer is registered for this graph");
    const graph = this.graph as unknown as CompiledGraph<StateRecord, unknown>;
    const { stored, record } = await loadForResume(graph, cp, invocationId, this.migrations);
    const { invocationId: _ignoredId, correlationId: _ignoredCorrelation, ...rest } = options;
    const newId = randomUUID();
    const correlationId = record.correlationId;
    const plan = await planResume(graph, record, { invocationId: newId, correlationId, metadata: rest.metadata ?? {} });
    if (plan.kind === "complete") {
      const done: CompletedInvocation<S> = {
        outcome: "completed",
        state: plan.state as Readonly<S>,
        invocationId: newId,
        correlationId,
        executionOrder: Object.freeze([]),
        stepCount: plan.startStep,
      };
      return Object.freeze(done);
    }
    const recorder = this.#recorder(cp, {
      invocationId: newId,
      correlationId,
      resumedFrom: invocationId,
      positions: record.completedPositions,
      savePoint: plan.savePoint,
      ...(record.fanOutProgress !== undefined ? { fanOutProgress: record.fanOutProgress } : {}),
      nextStep: plan.startStep,
    });
    await claimForResume(cp, invocationId, stored, recorder.snapshot()); // resume once (see resume.ts)
    return this.#run(recorder, cp, () =>
      this.graph.invoke({} as Readonly<Partial<S>>, {
        ...rest,
        invocationId: newId,
        correlationId,
        startAt: plan.startAt,
        startStep: plan.startStep,
        hooks: combineHooks(recorder.hooks, rest.hooks),
      }),
    );
  }

  #recorder(cp: Checkpointer, init: Omit<RecorderInit, "checkpointer" | "schemaVersion" | "graphName" | "saveEvents">): CheckpointRecorder {
    return new CheckpointRecorder({
      ...init,
      checkpointer: cp,
      schemaVersion: declaredSchemaVersion(this.graph as unknown as CompiledGraph<StateRecord, unknown>),
      graphName: this.graph.name,
      saveEvents: this.options.saveEvents === true,
    });
  }

  async #run(recorder: CheckpointRecorder, cp: Checkpointer, run: () => Promise<InvocationResult<S>>): Promise<InvocationResult<S>> {
    recorder.activate();
    let result: InvocationResult<S>;
    try {
      result = await run();
    } catch (e) {
      const f = recorder.failure;
      if (f !== undefined && f !== e) {
        // A checkpoint failure surfaced wrapped (e.g. in a node_exception from a subgraph or fan-out).
        f.invocationId ??= recorder.invocationId;
        if (e instanceof Error && "executionOrder" in e && Array.isArray(e.executionOrder)) f.executionOrder = e.executionOrder;
        throw f;
      }
      throw e;
    } finally {
      recorder.deactivate();
    }
    const f = recorder.failure;
    if (f !== undefined) {
      // The failure was swallowed on the way out (e.g. a fan-out under `collect`): still fatal.
      f.invocationId ??= recorder.invocationId;
      f.executionOrder = result.executionOrder;
      throw f;
    }
    if (this.options.deleteOnCompletion === true && result.outcome === "completed") await cp.delete(recorder.invocationId);
    return result;
  }
}

/**
 * §10.1.1 register a Checkpointer for `graph` (or `null`: checkpointing off, resume raises
 * `checkpoint_not_found`). See {@link CheckpointedGraph}.
 */
export function withCheckpointer<S extends StateRecord, U>(
  graph: CompiledGraph<S, U>,
  checkpointer: Checkpointer | null,
  options?: CheckpointOptions,
): CheckpointedGraph<S, U> {
  return new CheckpointedGraph(graph, checkpointer, options);
}
