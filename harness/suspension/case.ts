/**
 * The persistence runner of a graph case: every call of a case that uses suspension (a
 * `suspend_with_descriptor` / `conditional_suspend` node, a suspending middleware, a resume with
 * `signal_payload`) or sessions goes through the real libraries — `withSuspension(...)` over
 * `withSessions(graph, ...)` (or over the call runner another bundle installed, e.g. the checkpoint
 * harness's `withCheckpointer` runner) — via the executor's extension slot:
 *
 * - **fresh call**: `suspendable.invoke(initial, { sessionId, ...engine options })`;
 * - **`resume_invocation` + `signal_payload`** (§5.7, §6.5): the placeholder resolves from the
 *   earlier calls' outcomes (`placeholders.ts`), then `suspendable.invoke({}, { resumeInvocation,
 *   signalPayload })` — the library reuses the invocation id;
 * - **`resume_invocation` without a payload**: a checkpoint resume (§6.2) — the id goes to the
 *   checkpoint harness's runner (`RESUME_INVOCATION` plan input), which calls
 *   `withCheckpointer(...).invoke({}, { resumeInvocation })`.
 *
 * Paused records persist through a Checkpointer (suspension §8.5): with a case `checkpointer:`, a
 * separate store of the same backend kind ("separate stores", pipeline-utilities §10.15; the
 * checkpoint harness keeps its own for checkpoint records); without, an `InMemoryCheckpointer`.
 * After each call the harness records the suspended outcome, the backend's record for the call's
 * id, the `wrap_with_middleware` log and the call's completed node events (engine hook).
 */
import { InMemoryCheckpointer, type Checkpointer } from "../../src/checkpoint/index.ts";
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { HarnessPrimitiveMissing, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { CompiledGraph, InvocationHooks, InvocationResult, InvokeOptions, NodeEvent, StateRecord } from "../../src/graph/index.ts";
import { withSuspension, type SuspendableGraph, type SuspendedOutcome } from "../../src/suspension/index.ts";
import { toDescriptorDocument } from "../../src/internal.ts";
import { backendOverride, openBackend, type OpenedBackend } from "../checkpoint/backends.ts";
import { CheckpointCase, RESUME_INVOCATION } from "../checkpoint/case.ts";
import { perCall } from "../pipeline/facets.ts";
import { GraphCaseHooksSlot, type CallContext, type CallRunner, type GraphCaseHooks } from "../graph/extensions.ts";
import { SessionCase, type SessionCaseState } from "../sessions/case.ts";
import { CompletedEvents, MiddlewareLog, NodeEventsOfCall, PausedBackendAfterCall, ResumeCallFacet, SuspendedOutcomeFacet } from "./facets.ts";
import { resolveInvocationPlaceholder } from "./placeholders.ts";

/** Plan inputs (invocation position): `resume_invocation` (raw, maybe a placeholder) and `signal_payload`. */
export const SUSPENSION_RESUME = "suspension.resume_invocation";
export const SIGNAL_PAYLOAD = "signal_payload";

const defaultRunner: CallRunner = (c) => c.graph.invoke(c.initialState, c.options);

type Slot = <T>(key: SlotKey<T>) => T;

/** What the suspension layer wraps: the session-bound graph, or the inner call runner. */
interface Target {
  readonly graph: CompiledGraph;
  invoke(initial: Readonly<Record<string, unknown>>, options: InvokeOptions): Promise<InvocationResult>;
}

export class PersistenceCaseState {
  /** The case uses suspension: calls go through `withSuspension`. */
  suspension = false;
  #installed = false;
  #slot: Slot | undefined;
  #locate: ((p: KeyPath) => FixtureLocation) | undefined;
  #inner: CallRunner | undefined;
  #pausedBackend: OpenedBackend | undefined;
  #checkpointer: Checkpointer | undefined;
  #suspendable: SuspendableGraph<StateRecord, InvokeOptions, unknown> | undefined;
  #current: CallContext | undefined;
  readonly #resolved = new WeakMap<object, string>();

  /** Hook the case's calls (once): from a directive's `configure` or a node directive's `contribute`. */
  install(slot: Slot, locate: (p: KeyPath) => FixtureLocation): this {
    this.#slot ??= slot;
    this.#locate ??= locate;
    if (this.#installed) return this;
    this.#installed = true;
    const hooks = slot(GraphCaseHooksSlot);
    // Wrap whatever runner the case's other bundles installed — once they all configured.
    hooks.beforeCalls.push((graph) => this.#setUp(graph, hooks));
    hooks.beforeCall.push((c) => this.#beforeCall(c));
    hooks.afterCall.push((c, r) => this.#afterCall(c, r));
    hooks.invocationHooks.push(this.#capture);
    return this;
  }

  get #sessions(): SessionCaseState {
    return this.#slot!(SessionCase);
  }

  /** The Checkpointer paused records persist through. */
  get checkpointer(): Checkpointer | undefined {
    return this.#checkpointer;
  }

  /** The case's suspendable graph (after set-up). */
  get suspendable(): SuspendableGraph<StateRecord, InvokeOptions, unknown> | undefined {
    return this.#suspendable;
  }

  async #setUp(root: CompiledGraph, hooks: GraphCaseHooks): Promise<void> {
    this.#inner = hooks.runner;
    hooks.runner = (c) => this.#run(c);
    const backend = this.#slot!(CheckpointCase).backend;
    // OA_CHECKPOINT_BACKEND (backends.ts) picks the paused-record store's backend too.
    const override = backendOverride(this.#locate!([]));
    if (backend !== undefined) {
      this.#pausedBackend = openBackend({ base: backend.spec.base, written: backend.spec.written }, override ?? backend.spec.base);
      this.#checkpointer = this.#pausedBackend.checkpointer;
    } else if (override !== undefined) {
      this.#pausedBackend = openBackend({ base: override, written: override });
      this.#checkpointer = this.#pausedBackend.checkpointer;
    } else this.#checkpointer = new InMemoryCheckpointer();
    const sc = this.#sessions;
    if (sc.active) {
      sc.setLocator(this.#locate!);
      await sc.setUp(root);
    }
  }

  #target(c: CallContext): Target {
    const sc = this.#sessions;
    if (sc.active) {
      if (this.#inner !== undefined) {
        throw new HarnessPrimitiveMissing("sessions over another runner", "this adapter does not compose sessions with another bundle's call runner (e.g. a checkpointer)", this.#locate!(c.plan.path));
      }
      return sc.bound(c.graph) as unknown as Target;
    }
    const inner = this.#inner ?? defaultRunner;
    return { graph: c.graph, invoke: (initial, options) => inner({ ...c, initialState: initial, options }) };
  }

  #suspendableFor(c: CallContext): SuspendableGraph<StateRecord, InvokeOptions, unknown> {
    this.#suspendable ??= withSuspension(this.#target(c) as never, { checkpointer: this.#checkpointer! }) as unknown as SuspendableGraph<StateRecord, InvokeOptions, unknown>;
    return this.#suspendable;
  }

  async #run(c: CallContext): Promise<InvocationResult> {
    const sessionId = this.#sessions.active ? this.#sessions.sessionIdOf(c.plan) : undefined;
    const options = { ...c.options, ...(sessionId !== undefined ? { sessionId } : {}) } as InvokeOptions;
    const written = c.plan.input<string>(SUSPENSION_RESUME);
    if (written !== undefined) {
      const id = this.#resolved.get(c.observation)!;
      const payload = c.plan.input<Readonly<Record<string, unknown>>>(SIGNAL_PAYLOAD);
      if (payload === undefined) {
        // §6.2: resume_invocation alone is a checkpoint resume (pipeline-utilities §10.4).
        c.observation.set(ResumeCallFacet, { written, invocationId: id, payload, kind: "checkpoint", pausedBefore: undefined });
        if (this.#inner === undefined) {
          throw new HarnessPrimitiveMissing("checkpoint resume", "'resume_invocation' without 'signal_payload' is a checkpoint resume: the case needs a 'checkpointer'", this.#locate!(c.plan.path));
        }
        c.plan.setInput(RESUME_INVOCATION, id);
        return this.#inner(c);
      }
      const runner = this.#suspendableFor(c);
      let pausedBefore;
      try {
        pausedBefore = await runner.load(id);
      } catch {
        pausedBefore = undefined;
      }
      c.observation.set(ResumeCallFacet, { written, invocationId: id, payload, kind: "suspension", pausedBefore });
      return (await runner.invoke({}, { ...options, resumeInvocation: id, signalPayload: payload })) as unknown as InvocationResult;
    }
    if (this.suspension) return (await this.#suspendableFor(c).invoke(c.initialState, options)) as unknown as InvocationResult;
    return this.#target(c).invoke(c.initialState, options);
  }

  /** Every completed node event, into the running call's observation (awaited inline by the engine). */
  readonly #capture: InvocationHooks = {
    onNodeCompleted: (ev: NodeEvent) => {
      const obs = this.#current?.observation;
      if (obs) perCall(obs, CompletedEvents, () => []).push(ev);
    },
    onNodeEvent: (ev: NodeEvent) => {
      const obs = this.#current?.observation;
      if (obs) perCall(obs, NodeEventsOfCall, () => []).push(ev);
    },
  };

  async #beforeCall(c: CallContext): Promise<void> {
    // A placeholder that resolves to nothing is a fixture defect: raise it outside the call.
    const written = c.plan.input<string>(SUSPENSION_RESUME);
    if (written !== undefined) this.#resolved.set(c.observation, resolveInvocationPlaceholder(written, c.previous, this.#locate!([...c.plan.path, "resume_invocation"])));
    this.#current = c;
    c.observation.set(CompletedEvents, []).set(NodeEventsOfCall, []).set(MiddlewareLog, c.observation.tryGet(MiddlewareLog) ?? []);
    if (this.#sessions.active) await this.#sessions.beforeCall(c);
  }

  async #afterCall(c: CallContext, result: InvocationResult | Error): Promise<void> {
    const obs = c.observation;
    if (!(result instanceof Error) && result.outcome === "suspended" && "record" in result) {
      const s = result as unknown as SuspendedOutcome;
      const origin = (s.interrupt as { origin?: { fanOutIndexChain?: readonly (number | null)[]; branchNameChain?: readonly (string | null)[] } }).origin;
      const fanOutIndex = origin?.fanOutIndexChain?.find((x) => x !== null && x !== undefined) ?? undefined;
      const branchName = origin?.branchNameChain?.find((x) => x !== null && x !== undefined) ?? undefined;
      obs.set(SuspendedOutcomeFacet, {
        fanOutIndex,
        branchName,
        descriptor: toDescriptorDocument(s.descriptor),
        nodeName: s.nodeName,
        namespace: s.namespace,
        markNodeCompleted: s.markNodeCompleted,
        record: s.record,
      });
    }
    const id = result instanceof Error ? ((result as { invocationId?: string }).invocationId ?? null) : result.invocationId;
    const cp = this.#checkpointer;
    if (cp !== undefined) {
      const raw = id !== null ? await cp.load(id) : undefined;
      const store = this.#suspendable?.store;
      let paused;
      try {
        paused = id !== null && store !== undefined ? await store.load(id) : undefined;
      } catch {
        paused = undefined;
      }
      const recordType = raw === undefined || raw === null ? "none" : paused !== undefined ? "suspended" : "checkpoint";
      obs.set(PausedBackendAfterCall, { invocationId: id, recordType, raw: raw ?? undefined, paused });
    }
    if (this.#sessions.active) await this.#sessions.afterCall(c, result);
    this.#current = undefined;
  }
}

export const PersistenceCase = new SlotKey<PersistenceCaseState>("persistence case", () => new PersistenceCaseState());

/** The case's persistence runner, installed (from a directive's `configure`). */
export function persistenceCase(ctx: ConfigureContext): PersistenceCaseState {
  return ctx.slot(PersistenceCase).install((k) => ctx.slot(k), ctx.locate);
}

/** The same, from a node directive's `contribute` (build time, before the calls). */
export function persistenceCaseAtBuild(env: { slot<T>(key: SlotKey<T>): T; locate(path: KeyPath): FixtureLocation }): PersistenceCaseState {
  return env.slot(PersistenceCase).install((k) => env.slot(k), (p) => env.locate(p));
}
