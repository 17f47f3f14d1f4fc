/**
 * Save on every completed event (pipeline-utilities §10.3): the per-invocation recorder behind
 * `withCheckpointer`.
 *
 * Wired to the engine's `InvocationHooks.onNodeCompleted`, which the engine awaits after every §6
 * completed event (success or failure) before it continues — so a save has returned before the
 * next node starts, and a crash right after a completed event cannot lose its save. Each save is a
 * full snapshot ({@link CheckpointRecord}); saves of one invocation are written strictly in
 * order, even when fan-out instances complete concurrently.
 *
 * What each event contributes:
 *
 * - **Success outside fan-out instances** — appended to `completedPositions`; when also outside
 *   parallel branches it moves the save point: `state` := the post-merge state of the node's own
 *   graph, `parentStates` := the event's containing states (outermost-graph and
 *   subgraph-internal saves).
 * - **Inside a fan-out instance** — marks the instance `in_flight` and records the inner position
 *   in `fanOutProgress` (§10.11); the save point stays at the fan-out node's dispatch.
 * - **Failure** — no position (nothing merged); the save still happens (§10.3 "failure captured"),
 *   recording which fan-out instances were in flight.
 * - The fan-out node's own successful completion drops its `fanOutProgress` entry.
 *
 * `schemaVersion` always comes from the declared outermost state schema (§10.2), never from a
 * state value.
 */
import {
  emitEvent,
  type EventLineage,
  type InvocationHooks,
  type NodeEvent,
  type NodeExecutionContext,
  type StateRecord,
} from "../graph/index.ts";
import type { Checkpointer, SaveContext } from "./checkpointer.ts";
import { CheckpointError, CheckpointSaveFailedError } from "./errors.ts";
import { activeHosts, FanOutProgressTracker, type ProgressHost } from "./fan-out-progress.ts";
import type { CheckpointRecord, FanOutProgressEntry, NodePosition } from "./record.ts";

/** §10.8 a checkpoint save, as an observer event (only with `saveEvents: true`). */
export interface CheckpointSaveEvent extends EventLineage {
  readonly kind: "checkpoint_save";
  /** Milliseconds since the epoch: the saved record's `lastSavedAt`. */
  readonly lastSavedAt: number;
  /** The backend's `backendName` (or `"custom"`). */
  readonly backend: string;
  readonly trigger: SaveContext["trigger"];
  readonly scope: SaveContext["scope"];
}

declare module "../graph/events.ts" {
  interface ObserverEventMap {
    checkpoint_save: CheckpointSaveEvent;
  }
}

/** The resumable save point: a graph's state and its containing graphs' states. */
export interface SavePoint {
  readonly state: Readonly<StateRecord>;
  readonly parentStates: readonly Readonly<StateRecord>[];
}

/** @internal */
export interface RecorderInit {
  readonly checkpointer: Checkpointer;
  readonly invocationId: string;
  readonly correlationId: string;
  readonly schemaVersion: string;
  readonly graphName: string;
  readonly saveEvents: boolean;
  /** Resume: what the loaded record carried forward. */
  readonly resumedFrom?: string;
  readonly positions?: readonly NodePosition[];
  readonly savePoint?: SavePoint;
  readonly fanOutProgress?: readonly FanOutProgressEntry[];
  readonly nextStep?: number;
}

function positionOf(ev: NodeEvent): NodePosition {
  const p: { -readonly [K in keyof NodePosition]: NodePosition[K] } = {
    namespace: Object.freeze(ev.namespace.slice(0, -1)),
    nodeName: ev.nodeName,
    step: ev.step,
    attemptIndex: ev.attemptIndex,
  };
  if (ev.fanOutIndex !== undefined) p.fanOutIndex = ev.fanOutIndex;
  if (ev.branchName !== undefined) p.branchName = ev.branchName;
  return Object.freeze(p);
}

/**
 * A frozen copy of `list`'s current prefix, made on first read. `list` only grows, so the prefix
 * never changes: records share it instead of each copying every position so far — a save stays
 * O(1) for a backend that keeps the record (in memory) rather than O(positions), which made a
 * long loop's checkpointing quadratic.
 */
function prefixView<T>(list: readonly T[]): () => readonly T[] {
  const n = list.length;
  let copy: readonly T[] | undefined;
  return () => (copy ??= Object.freeze(list.slice(0, n)));
}

/** `run()` as a promise: a backend that throws instead of rejecting rejects it. */
function startNow(run: () => Promise<void>): Promise<void> {
  try {
    return Promise.resolve(run());
  } catch (e) {
    return Promise.reject(e);
  }
}

function hasNonNull(chain: readonly unknown[]): boolean {
  // An index loop: lineage chains are frozen, and for-of over a frozen array is slow on Node 20.
  for (let i = 0; i < chain.length; i++) if (chain[i] !== null && chain[i] !== undefined) return true;
  return false;
}

/** @internal one checkpointed invocation (fresh or resumed). */
export class CheckpointRecorder implements ProgressHost {
  readonly invocationId: string;
  readonly progress: FanOutProgressTracker;
  /** The first checkpoint failure; once set, every later save point rethrows it. */
  failure: CheckpointError | undefined;
  readonly hooks: InvocationHooks;
  readonly #init: RecorderInit;
  /** Append-only: a record's `completedPositions` is a prefix of it. */
  readonly #positions: NodePosition[];
  /** The prefix view handed to the records saved since the last new position. */
  #positionsView: (() => readonly NodePosition[]) | undefined;
  #savePoint: SavePoint | undefined;
  #nextStep: number;
  #lastSavedAt = 0;
  /** The last save's write: a save issued while one is in flight waits for it to settle. */
  #lastWrite: Promise<void> | undefined;
  /** Saves whose write has not settled (more than one only under concurrent fan-out instances). */
  #inFlight = 0;
  #saves = 0;

  constructor(init: RecorderInit) {
    this.#init = init;
    this.invocationId = init.invocationId;
    this.#positions = [...(init.positions ?? [])];
    this.#savePoint = init.savePoint;
    this.#nextStep = init.nextStep ?? 0;
    this.progress = new FanOutProgressTracker(init.fanOutProgress);
    this.failure = undefined;
    this.hooks = Object.freeze({ onNodeCompleted: (ev: NodeEvent) => this.#onCompleted(ev) });
  }

  /** Number of saves that returned. */
  get saveCount(): number {
    return this.#saves;
  }

  /** Make the run visible to {@link beginFanOutCheckpoint}. */
  activate(): void {
    if (activeHosts.has(this.invocationId)) {
      throw new RangeError(`invocation "${this.invocationId}" is already running with a checkpointer`);
    }
    activeHosts.set(this.invocationId, this);
  }

  deactivate(): void {
    if (activeHosts.get(this.invocationId) === this) activeHosts.delete(this.invocationId);
  }

  fail(error: CheckpointError): CheckpointError {
    this.failure ??= error;
    return this.failure;
  }

  ensureSavePoint(ctx: NodeExecutionContext<StateRecord>): void {
    if (this.#savePoint === undefined) {
      this.#savePoint = { state: ctx.namespace.length === 1 ? ctx.state : ctx.parentStates[0]!, parentStates: [] };
    }
  }

  async #onCompleted(ev: NodeEvent): Promise<void> {
    if (this.failure) throw this.failure;
    if (ev.step + 1 > this.#nextStep) this.#nextStep = ev.step + 1;
    // Nothing resumable happened yet: the save point is the outermost state at entry.
    this.#savePoint ??= { state: ev.namespace.length === 1 ? ev.preState : ev.parentStates[0]!, parentStates: [] };
    const inFanOut = hasNonNull(ev.fanOutIndexChain);
    if (ev.error === undefined) {
      const pos = positionOf(ev);
      if (inFanOut) this.progress.onInnerEvent(ev, pos);
      else {
        this.#positions.push(pos);
        this.#positionsView = undefined;
        if (!hasNonNull(ev.branchNameChain)) this.#savePoint = { state: ev.postState!, parentStates: ev.parentStates };
      }
      this.progress.onNodeSucceeded(ev);
    } else if (inFanOut) {
      this.progress.onInnerEvent(ev, undefined);
    }
    await this.#save({ trigger: "node_completed", scope: inFanOut ? "fan_out_internal" : "graph", namespace: ev.namespace }, ev);
  }

  async saveForInstance(ctx: NodeExecutionContext<StateRecord>): Promise<void> {
    if (this.failure) throw this.failure;
    await this.#save({ trigger: "fan_out_instance_completed", scope: "fan_out_internal", namespace: ctx.namespace }, ctx);
  }

  /** The record as of now. */
  snapshot(): CheckpointRecord {
    const now = performance.timeOrigin + performance.now();
    this.#lastSavedAt = now > this.#lastSavedAt ? now : this.#lastSavedAt + 0.001;
    const sp = this.#savePoint ?? { state: {}, parentStates: [] };
    const init = this.#init;
    const fan = this.progress.snapshot();
    const positions = (this.#positionsView ??= prefixView(this.#positions));
    const r: { -readonly [K in keyof CheckpointRecord]: CheckpointRecord[K] } = {
      invocationId: init.invocationId,
      correlationId: init.correlationId,
      state: sp.state,
      get completedPositions() {
        return positions();
      },
      parentStates: sp.parentStates,
      schemaVersion: init.schemaVersion,
      lastSavedAt: this.#lastSavedAt,
      nextStep: this.#nextStep,
      graphName: init.graphName,
    };
    // Assigned, not spread in: a save builds one record per node.
    if (fan !== undefined) r.fanOutProgress = fan;
    if (init.resumedFrom !== undefined) r.resumedFrom = init.resumedFrom;
    return Object.freeze(r);
  }

  async #save(context: SaveContext, source: EventLineage): Promise<void> {
    const record = this.snapshot();
    const cp = this.#init.checkpointer;
    const frozen = Object.freeze(context);
    const run = (): Promise<void> => cp.save(this.invocationId, record, frozen);
    // Saves of one invocation are written in order: with none in flight (a serial run, always) the
    // write starts now; otherwise after the previous one settles, whatever its outcome.
    const write = this.#inFlight === 0 ? startNow(run) : this.#lastWrite!.then(run, run);
    this.#lastWrite = write;
    this.#inFlight++;
    try {
      await write;
    } catch (cause) {
      this.failure ??= new CheckpointSaveFailedError(this.invocationId, cause, {
        nodeName: source.nodeName,
        namespace: source.namespace,
        ...("step" in source && typeof source.step === "number" ? { step: source.step } : {}),
      });
      throw this.failure;
    } finally {
      this.#inFlight--;
    }
    this.#saves++;
    if (this.#init.saveEvents) {
      const ev: CheckpointSaveEvent = {
        kind: "checkpoint_save",
        invocationId: source.invocationId,
        correlationId: source.correlationId,
        nodeName: source.nodeName,
        namespace: source.namespace,
        attemptIndex: source.attemptIndex,
        fanOutIndexChain: source.fanOutIndexChain,
        branchNameChain: source.branchNameChain,
        ...(source.fanOutIndex !== undefined ? { fanOutIndex: source.fanOutIndex } : {}),
        ...(source.branchName !== undefined ? { branchName: source.branchName } : {}),
        lastSavedAt: record.lastSavedAt,
        backend: cp.backendName ?? "custom",
        trigger: context.trigger,
        scope: context.scope,
      };
      emitEvent(Object.freeze(ev));
    }
  }
}
