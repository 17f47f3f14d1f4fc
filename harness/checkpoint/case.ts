/**
 * The checkpoint harness of one graph case (conformance-adapter §5.6 persistence directives,
 * pipeline-utilities §10): the case's directives describe it at configure time; at run time it
 * drives the graph executor through its extension slot (`harness/graph/extensions.ts`):
 *
 * - **before the calls**: opens the named backend (`backends.ts`), wraps it in the
 *   {@link RecordingCheckpointer}, registers the real `withCheckpointer(graph, checkpointer,
 *   {migrations})`, seeds a `seeded_record`, runs `populate_checkpointer_via_runs` prior runs, and
 *   attaches a capture observer (the node events each call dispatched);
 * - **the case's own call** (the first run) is `invoke()` of the checkpointed graph — or, with
 *   `invoke_with.resume_invocation`, `invoke(resume_invocation=…)`;
 * - **a `resume:` block** is a follow-up plan whose own runner (`CALL_RUNNER`) calls the library's
 *   real `invoke(resume_invocation=<id>)`; the id is the first run's (read from the previous call's
 *   observation) or the seeded record's;
 * - **crash boundaries** (`crash_injection`) stop the first run right after the named save: that
 *   invocation's persistence dies (nothing more is written, as in a killed process) and the run is
 *   cancelled through `invoke({signal})` / the completed-event hook, so it stops at its next node
 *   boundary and is reported as abandoned;
 * - **after each call**: reads the record the backend holds for the call's invocation id.
 *
 * Everything a call observed lands on its observation as the facets of `./facets.ts`.
 */
import { randomUUID } from "node:crypto";
import { MigrationRegistry, withCheckpointer, type CheckpointedGraph, type CheckpointRecord, type SaveContext, type SerializedState } from "../../src/checkpoint/index.ts";
import { fromRecordDocument, toRecordDocument } from "../../src/internal.ts";
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { ConformanceError, FixtureSchemaInvalid, HarnessPrimitiveMissing, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { isNodeEvent, type CompiledGraph, type InvocationHooks, type InvocationResult, type NodeEvent, type ObserverEvent, type StateRecord } from "../../src/graph/index.ts";
import * as F from "../graph/facets.ts";
import { GraphCaseHooksSlot, type CallContext, type CallRunner } from "../graph/extensions.ts";
import { INITIAL_STATE } from "../graph/executor.ts";
import { perCall } from "../pipeline/facets.ts";
import { backendOverride, openBackend, type BackendSpec, type OpenedBackend } from "./backends.ts";
import { CrashedRun, HarnessCrash } from "./crash.ts";
import {
  CallCorrelationId,
  CallerInvocationId,
  CallNodeEvents,
  CheckpointCallLog,
  CheckpointSaves,
  CrashFired,
  DroppedSaves,
  MigrationsRun,
  RecordAfterCall,
  ResumeSource,
  type CallKind,
  type CallLog,
} from "./facets.ts";
import { MIGRATION_MOCKS } from "./migration-mocks.ts";
import { ModifiedItemsView } from "./modified-items-view.ts";
import { RecordingCheckpointer } from "./recording-checkpointer.ts";
import { runtimeSubclassInstance } from "./runtime-subclass.ts";

/** The invocation id a `seeded_record` is stored under. */
export const SEEDED_INVOCATION_ID = "seeded-record-invocation";
/** Plan input: `invoke_with.resume_invocation` (§5.7) — the call resumes this invocation. */
export const RESUME_INVOCATION = "resume_invocation";
/** Plan input: the call is a `resume:` block's resume ({@link ResumeRequest}). */
export const RESUME_REQUEST = "checkpoint_resume_request";
/** Plan input: `resume_with_modified_items` — fields re-resolved on the resumed run. */
export const MODIFIED_ITEMS = "resume_with_modified_items";

/** A resume's `resume_with_modified_items`: the fields and where they were written. */
export interface ModifiedItems {
  readonly fields: Readonly<Record<string, unknown>>;
  readonly path: KeyPath;
}

/** A `crash_injection` boundary (§5.6). */
export type CrashPoint =
  | { readonly kind: "after_node"; readonly node: string }
  | { readonly kind: "after_fan_out_instance"; readonly node: string; readonly index: number };

/** What a `resume:` block resumes. */
export interface ResumeRequest {
  readonly from: "first_run" | "seeded_record";
  readonly path: KeyPath;
}

/** One declared migration (`migrations:` entry). */
export interface DeclaredMigration {
  readonly from: string;
  readonly to: string;
  readonly mock: string;
  readonly path: KeyPath;
}

function describeCrash(c: CrashPoint): string {
  return c.kind === "after_node" ? `node '${c.node}' completed and saved` : `fan-out '${c.node}' instance ${c.index} completed and saved`;
}

function doc(r: CheckpointRecord): ReturnType<typeof toRecordDocument> {
  return structuredClone(toRecordDocument(r));
}

export class CheckpointCaseState {
  // --- configured by the case's directives -------------------------------------------------
  backend: { readonly spec: BackendSpec; readonly path: KeyPath } | undefined;
  migrations: DeclaredMigration[] | undefined;
  seeded: { readonly doc: Readonly<Record<string, unknown>>; readonly path: KeyPath } | undefined;
  populateRuns = 0;
  crash: CrashPoint | undefined;
  runtimeSubclass: { readonly schemaVersion: string } | undefined;

  // --- run time --------------------------------------------------------------------------
  #installed = false;
  #locate: ((p: KeyPath) => FixtureLocation) | undefined;
  #casePlan: InvocationPlan | undefined;
  #opened: OpenedBackend | undefined;
  #recording: RecordingCheckpointer | undefined;
  #registry: MigrationRegistry | undefined;
  #root: CompiledGraph | undefined;
  #graph: CheckpointedGraph | undefined;
  #current: Observation | undefined;
  #currentKind: CallKind | undefined;
  readonly #log: CallLog = { calls: [] };
  /** The armed crash of the running first run: its controller and, once fired, the invocation id. */
  #armed: { readonly ctl: AbortController; fired: string | undefined } | undefined;

  /** Hook the case's calls (once). */
  install(ctx: ConfigureContext): this {
    if (this.#installed) return this;
    this.#installed = true;
    this.#locate = ctx.locate;
    this.#casePlan = ctx.plan.kind === "case" ? ctx.plan : undefined;
    const hooks = ctx.slot(GraphCaseHooksSlot);
    if (hooks.runner !== undefined) {
      throw new FixtureSchemaInvalid("a checkpoint case cannot also be run by another bundle's runner", ctx.locate(ctx.self.path));
    }
    hooks.runner = (c) => this.#runFirst(c);
    hooks.beforeCalls.push((graph) => this.#setUp(graph));
    hooks.beforeCall.push((c) => this.#beforeCall(c));
    hooks.afterCall.push((c, r) => this.#afterCall(c, r));
    hooks.invocationHooks.push(this.#crashHook);
    return this;
  }

  /** Remember the case plan (the first run's inputs), whichever directive installed first. */
  notePlan(plan: InvocationPlan): void {
    if (plan.kind === "case") this.#casePlan ??= plan;
  }

  /** The runner of a `resume:` block's plan. */
  resumeRunner(req: ResumeRequest): CallRunner {
    return (c) => this.#runResume(c, req);
  }

  /**
   * A process-level abort inside the running call (`abort_after_instance`): the invocation's
   * persistence dies here; what was saved so far is all that survives.
   */
  processAbort(invocationId: string): void {
    this.#recording?.kill(invocationId);
  }

  /**
   * A failure mock raised in the first run. Under a batching backend (`in_memory_batched`,
   * §10.11.4) the harness models that failure as the process aborting: the buffered, not yet
   * flushed saves are lost and nothing more of the run is persisted (fixture 054: "instance 7
   * fails on first run — triggers abort with buffered saves outstanding").
   */
  failureMockRaised(invocationId: string): void {
    const batching = this.#opened?.batching;
    if (batching === undefined || this.#currentKind !== "first_run") return;
    this.#recording?.kill(invocationId);
    batching.discardPending();
  }

  // --- hooks -------------------------------------------------------------------------------

  async #setUp(root: CompiledGraph): Promise<void> {
    this.#root = root;
    root.attachObserver(
      (e: ObserverEvent) => {
        if (isNodeEvent(e) && this.#current !== undefined) perCall(this.#current, CallNodeEvents, () => []).push(e);
      },
      { name: "checkpoint harness capture" },
    );
    if (this.backend !== undefined) {
      const base = backendOverride(this.#where(this.backend.path)) ?? this.backend.spec.base;
      this.#opened = openBackend(this.backend.spec, base);
      this.#recording = new RecordingCheckpointer(this.#opened, (id, r, c) => this.#afterSave(id, r, c));
    }
    // A categorized library error here (e.g. ambiguous migrations, §10.12.1) is raised at
    // registration, before any invoke(): the executor reports it as every call's outcome.
    this.#registry = this.migrations !== undefined ? this.#buildRegistry(this.migrations) : undefined;
    this.#graph = withCheckpointer(root, this.#recording ?? null, this.#registry !== undefined ? { migrations: this.#registry } : {});
    if (this.seeded !== undefined) await this.#seed(this.seeded.doc, this.seeded.path);
    for (let i = 0; i < this.populateRuns; i++) {
      const initial = (this.#casePlan?.input<Record<string, unknown>>(INITIAL_STATE) ?? {}) as Readonly<Partial<StateRecord>>;
      const r = await this.#graph.invoke(initial);
      await root.drainEventsFor(r.invocationId);
    }
  }

  #buildRegistry(list: readonly DeclaredMigration[]): MigrationRegistry {
    const reg = new MigrationRegistry();
    for (const m of list) {
      const fn = migrationMock(m, this.#where(m.path));
      reg.register(m.from, m.to, (s: SerializedState) => {
        // A migration that raises still counts as applied (§5.6 migrations_run).
        if (this.#current !== undefined) perCall(this.#current, MigrationsRun, () => []).push(`${m.from}->${m.to}`);
        return fn(s);
      });
    }
    return reg;
  }

  /** Store a `seeded_record` (the §10.2 record in the spec's field names) under {@link SEEDED_INVOCATION_ID}. */
  async #seed(written: Readonly<Record<string, unknown>>, path: KeyPath): Promise<void> {
    if (this.#opened === undefined) throw new FixtureSchemaInvalid("'seeded_record' needs a 'checkpointer' to hold it", this.#where(path));
    const document = { invocation_id: SEEDED_INVOCATION_ID, correlation_id: randomUUID(), ...structuredClone(written) };
    let record: CheckpointRecord;
    try {
      record = fromRecordDocument(document);
    } catch (e) {
      // A deliberately malformed seed is stored as written (the resume's load must reject it).
      if ((e as { category?: unknown }).category !== "checkpoint_record_invalid") throw e;
      record = document as unknown as CheckpointRecord;
    }
    await this.#opened.checkpointer.save(SEEDED_INVOCATION_ID, record);
  }

  #beforeCall(c: CallContext): void {
    const kind: CallKind = c.plan.input(RESUME_REQUEST) !== undefined ? "resume" : "first_run";
    this.#current = c.observation;
    this.#currentKind = kind;
    this.#log.calls.push({ kind, observation: c.observation });
    c.observation
      .set(CheckpointCallLog, this.#log)
      .set(CallNodeEvents, [])
      .set(CheckpointSaves, [])
      .set(DroppedSaves, [])
      .set(MigrationsRun, [])
      .set(CrashFired, false)
      .set(CallerInvocationId, c.options.invocationId);
    this.#recording?.bind(c.observation);
  }

  async #afterCall(c: CallContext, result: InvocationResult | Error): Promise<void> {
    const obs = c.observation;
    const events = obs.tryGet(CallNodeEvents) ?? [];
    const saves = obs.tryGet(CheckpointSaves) ?? [];
    const correlation = result instanceof Error ? (events[0]?.correlationId ?? saves[0]?.record.correlation_id ?? null) : result.correlationId;
    obs.set(CallCorrelationId, correlation);
    const id = obs.tryGet(F.InvocationId) ?? null;
    if (this.#opened !== undefined) {
      const r = id !== null ? await this.#opened.durableLoad(id) : undefined;
      obs.set(RecordAfterCall, r !== undefined ? doc(r) : null);
    }
    this.#recording?.bind(undefined);
    this.#current = undefined;
    this.#currentKind = undefined;
  }

  /** `crash_injection: {after_node}`: right after the node's completed-event save (hooks run after it). */
  readonly #crashHook: InvocationHooks = {
    onNodeCompleted: (ev: NodeEvent) => {
      const crash = this.crash;
      if (crash?.kind !== "after_node" || this.#armed === undefined || this.#armed.fired !== undefined) return;
      if (ev.nodeName !== crash.node || ev.error !== undefined) return;
      this.#fire(ev.invocationId);
      throw new HarnessCrash(`crash injected after ${describeCrash(crash)}`);
    },
  };

  /** `crash_injection: {after_fan_out_instance}`: right after that instance's completion save. */
  #afterSave(invocationId: string, record: CheckpointRecord, context: SaveContext | undefined): void {
    const crash = this.crash;
    if (crash?.kind !== "after_fan_out_instance" || this.#armed === undefined || this.#armed.fired !== undefined) return;
    if (context?.trigger !== "fan_out_instance_completed" || context.namespace[context.namespace.length - 1] !== crash.node) return;
    const done = record.fanOutProgress?.some((e) => e.fanOutNodeName === crash.node && e.instances[crash.index]?.state === "completed");
    if (done === true) this.#fire(invocationId);
  }

  #fire(invocationId: string): void {
    const armed = this.#armed!;
    armed.fired = invocationId;
    this.#recording?.kill(invocationId);
    if (this.#current !== undefined) this.#current.set(CrashFired, true);
    armed.ctl.abort(new HarnessCrash(`crash injected after ${describeCrash(this.crash!)}`));
  }

  // --- runners ------------------------------------------------------------------------------

  #checkpointed(): CheckpointedGraph {
    return this.#graph!;
  }

  /** The case's own call: the first run (or `invoke(resume_invocation=…)`). */
  async #runFirst(c: CallContext): Promise<InvocationResult> {
    const cg = this.#checkpointed();
    const resumeId = c.plan.input<string>(RESUME_INVOCATION);
    if (resumeId !== undefined) return cg.invoke({}, { ...c.options, resumeInvocation: resumeId });
    let initial: Readonly<Record<string, unknown>> = c.initialState;
    if (this.runtimeSubclass !== undefined) initial = runtimeSubclassInstance(initial, this.#root!.schema.schemaVersion, this.runtimeSubclass.schemaVersion);
    const crash = this.crash;
    if (crash === undefined || c.index !== 0) return cg.invoke(initial, c.options);
    const armed = { ctl: new AbortController(), fired: undefined as string | undefined };
    this.#armed = armed;
    const signal = c.options.signal !== undefined ? AbortSignal.any([c.options.signal, armed.ctl.signal]) : armed.ctl.signal;
    try {
      const r = await cg.invoke(initial, { ...c.options, signal });
      if (armed.fired !== undefined) throw new CrashedRun(armed.fired, describeCrash(crash));
      return r;
    } catch (e) {
      if (armed.fired !== undefined && !(e instanceof CrashedRun)) throw new CrashedRun(armed.fired, describeCrash(crash), { cause: e });
      throw e;
    } finally {
      this.#armed = undefined;
    }
  }

  /** A `resume:` block: the library's real `invoke(resume_invocation=…)`. */
  async #runResume(c: CallContext, req: ResumeRequest): Promise<InvocationResult> {
    const cg = this.#checkpointed();
    const from = req.from === "seeded_record" ? SEEDED_INVOCATION_ID : this.#firstRunId(c, req);
    let stored: CheckpointRecord | undefined;
    try {
      stored = await this.#recording?.load(from);
    } catch {
      stored = undefined; // unreadable: the resume's own load reports it
    }
    let source: ReturnType<typeof doc> | null = null;
    try {
      source = stored !== undefined ? doc(stored) : null;
    } catch {
      source = null;
    }
    c.observation.set(ResumeSource, { invocationId: from, record: source });
    const modified = c.plan.input<ModifiedItems>(MODIFIED_ITEMS);
    if (modified !== undefined) {
      // The fields re-resolve the outermost state: each must be one it declares.
      for (const field of Object.keys(modified.fields)) {
        if (!this.#root!.schema.has(field)) {
          throw new FixtureSchemaInvalid(`'resume_with_modified_items' names '${field}', which the case's state does not declare`, this.#where([...modified.path, field]));
        }
      }
    }
    const graph =
      modified !== undefined && this.#recording !== undefined
        ? withCheckpointer(this.#root!, new ModifiedItemsView(this.#recording, from, modified.fields), this.#registry !== undefined ? { migrations: this.#registry } : {})
        : cg;
    return graph.invoke({}, { ...c.options, resumeInvocation: from });
  }

  #firstRunId(c: CallContext, req: ResumeRequest): string {
    const first = this.#log.calls.find((x) => x.kind === "first_run" && c.previous.includes(x.observation));
    const id = first?.observation.tryGet(F.InvocationId) ?? null;
    if (id === null) {
      throw new FixtureSchemaInvalid("'resume: {from_first_run: true}' but the case made no first run with an invocation id to resume", this.#where(req.path));
    }
    return id;
  }

  #where(path: KeyPath): FixtureLocation {
    return this.#locate!(path);
  }
}

/** The harness mock a declared migration names; an unknown name is `harness_primitive_missing`. */
export function migrationMock(m: Pick<DeclaredMigration, "mock">, where: FixtureLocation): (s: SerializedState) => SerializedState {
  const fn = MIGRATION_MOCKS[m.mock];
  if (fn === undefined) {
    throw new HarnessPrimitiveMissing(`migration mock: ${m.mock}`, `this adapter has no migration mock named '${m.mock}' (it has ${Object.keys(MIGRATION_MOCKS).join(", ")})`, where);
  }
  return fn;
}

export const CheckpointCase = new SlotKey<CheckpointCaseState>("checkpoint case", () => new CheckpointCaseState());

/** The case's checkpoint harness, with its call hooks installed. */
export function checkpointCase(ctx: ConfigureContext): CheckpointCaseState {
  const s = ctx.slot(CheckpointCase).install(ctx);
  s.notePlan(ctx.plan);
  return s;
}
