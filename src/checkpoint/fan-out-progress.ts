/**
 * Per-instance fan-out checkpointing (pipeline-utilities §10.7, §10.11): the `fan_out_progress`
 * tracker, and the seam a fan-out node uses to skip already-completed instances on resume.
 *
 * ## For fan-out implementations (the seam)
 *
 * ```ts
 * // in the fan-out NodeKind's run(state, ctx), after resolving the instance count n and BEFORE
 * // dispatching any instance:
 * const cp = beginFanOutCheckpoint(ctx, n);   // undefined when the invocation is not checkpointed
 * //   throws checkpoint_record_invalid on count drift (§10.11) — let it propagate
 * for each instance i:
 *   const saved = cp?.completed.get(i);
 *   if (saved) { use saved.result (saved.resultIsError routes it to errorsField); do not run i }
 *   else {
 *     cp?.instanceStarted(i);
 *     ...run the instance...
 *     // once its contribution (success value, or under collect the error entry) is known:
 *     await cp?.instanceCompleted(i, { result, resultIsError, extraOutputs });   // saves; let errors propagate
 *   }
 * ```
 *
 * `instanceCompleted` records the contribution in the accumulator and saves before returning, so
 * a crash after it returns resumes with the instance `completed` (skipped; its result rolls
 * forward to fan-in exactly once, §10.11.1) and a crash before it leaves the instance `in_flight`
 * (re-run from its entry, §10.7). A fan-out that does not call the seam still resumes correctly —
 * the whole fan-out re-runs (no accumulator entry is ever recorded for it).
 *
 * ## What the tracker records
 *
 * Entries are keyed by `(namespace, fanOutNodeName, enclosingFanOutLineage)`; a nested fan-out
 * has one entry per enclosing instance. Inner completed events mark their instances `in_flight`
 * and add to the innermost instance's `completedInnerPositions`; the fan-out node's successful
 * completed event removes its entry (and everything nested in it). On resume an entry's skips
 * apply only to a re-entering fan-out whose lineage matches element for element (an absent saved
 * lineage matches only an empty one — §10.11 *No mis-skip across enclosing instances*), and only
 * once: a later attempt of the same fan-out node in the same run starts fresh.
 */
import type { NodeEvent, NodeExecutionContext, StateRecord } from "../graph/index.ts";
import { CheckpointError, CheckpointRecordInvalidError } from "./errors.ts";
import type { FanOutInstanceProgress, FanOutLineageElement, FanOutProgressEntry, NodePosition } from "./record.ts";
import { VersionedList } from "./versioned-list.ts";

/** A completed instance's durable contribution (§10.11 `result` / `result_is_error`). */
export interface InstanceContribution {
  /** The `targetField` value (or, with `resultIsError`, the `errorsField` entry). */
  readonly result: unknown;
  readonly resultIsError: boolean;
  /** Its other contributions (§9.3 `extraOutputs`: parent field → value), rolled forward too. */
  readonly extraOutputs?: Readonly<Record<string, unknown>>;
}

/** What {@link beginFanOutCheckpoint} hands a fan-out node. */
export interface FanOutCheckpoint {
  /** Instances completed in the resumed-from run (lineage-matched): skip them, roll their results forward. */
  readonly completed: ReadonlyMap<number, InstanceContribution>;
  /** Instance `index` was dispatched (`not_started` → `in_flight`; no save). */
  instanceStarted(index: number): void;
  /**
   * Record instance `index`'s contribution into the accumulator and save (awaited). Rejects with
   * `checkpoint_save_failed` when the save fails — propagate it out of the fan-out node.
   */
  instanceCompleted(index: number, contribution: InstanceContribution): Promise<void>;
}

/** @internal what the seam needs from the active checkpointing run. */
export interface ProgressHost {
  readonly progress: FanOutProgressTracker;
  /** Initialize the resumable save point from the fan-out node's dispatch, when nothing set it yet. */
  ensureSavePoint(ctx: NodeExecutionContext<StateRecord>): void;
  /** Save now, for an instance completion of the fan-out at `ctx`. */
  saveForInstance(ctx: NodeExecutionContext<StateRecord>): Promise<void>;
  /** Record a checkpoint failure that must fail the invocation even if a composite swallows it. */
  fail(error: CheckpointError): CheckpointError;
}

/** @internal active checkpointing runs by invocation id. */
export const activeHosts = new Map<string, ProgressHost>();

/**
 * The per-instance checkpoint seam for the fan-out node running in `ctx` (see the module
 * comment). Returns undefined when the invocation is not run with a checkpointer. Throws
 * `checkpoint_record_invalid` when a saved entry for this fan-out (same lineage) has a different
 * instance count than `instanceCount` (§10.11 count drift) — call it before any instance runs.
 */
export function beginFanOutCheckpoint<S extends StateRecord>(
  nodeCtx: NodeExecutionContext<S>,
  instanceCount: number,
): FanOutCheckpoint | undefined {
  const ctx = nodeCtx as unknown as NodeExecutionContext<StateRecord>;
  const host = activeHosts.get(ctx.invocationId);
  if (!host) return undefined;
  if (!Number.isInteger(instanceCount) || instanceCount < 0) throw new RangeError("instanceCount must be a non-negative integer");
  host.ensureSavePoint(ctx);
  const ns = ctx.namespace;
  const prefix = ns.slice(0, -1);
  const lineage = lineageOf(ns, ctx.fanOutIndexChain, ns.length - 1);
  let entry: ProgressEntry;
  try {
    entry = host.progress.begin(prefix, ctx.nodeName, lineage, instanceCount);
  } catch (e) {
    throw e instanceof CheckpointError ? host.fail(e) : e;
  }
  const check = (i: number): void => {
    if (!Number.isInteger(i) || i < 0 || i >= instanceCount) throw new RangeError(`fan-out instance index ${i} is out of range 0..${instanceCount - 1}`);
  };
  return Object.freeze({
    completed: entry.skips,
    instanceStarted(i: number): void {
      check(i);
      entry.markInFlight(i);
    },
    async instanceCompleted(i: number, c: InstanceContribution): Promise<void> {
      check(i);
      host.progress.recordCompleted(entry, i, c);
      await host.saveForInstance(ctx);
    },
  });
}

/** Enclosing fan-out lineage of a node at namespace `ns` with chain `chain`, from boundaries `< upTo`. */
export function lineageOf(ns: readonly string[], chain: readonly (number | null)[], upTo: number): FanOutLineageElement[] {
  const out: FanOutLineageElement[] = [];
  for (let j = 0; j < upTo && j < chain.length; j++) {
    const idx = chain[j];
    if (idx !== null && idx !== undefined) out.push(Object.freeze({ namespace: Object.freeze(ns.slice(0, j)), fanOutNodeName: ns[j]!, fanOutIndex: idx }));
  }
  return out;
}

function keyOf(namespace: readonly string[], node: string, lineage: readonly FanOutLineageElement[] | undefined): string {
  return JSON.stringify([namespace, node, (lineage ?? []).map((l) => [l.namespace, l.fanOutNodeName, l.fanOutIndex])]);
}

function sameLineageElement(a: FanOutLineageElement, b: FanOutLineageElement): boolean {
  return (
    a.fanOutNodeName === b.fanOutNodeName &&
    a.fanOutIndex === b.fanOutIndex &&
    a.namespace.length === b.namespace.length &&
    a.namespace.every((s, i) => s === b.namespace[i])
  );
}

function startsWith<T>(xs: readonly T[], prefix: readonly T[], eq: (a: T, b: T) => boolean = (a, b) => a === b): boolean {
  return prefix.length <= xs.length && prefix.every((p, i) => eq(xs[i]!, p));
}

function completedProgress(c: InstanceContribution): FanOutInstanceProgress {
  return Object.freeze({
    state: "completed",
    result: c.result === undefined ? null : c.result,
    resultIsError: c.resultIsError === true,
    ...(c.extraOutputs !== undefined ? { extraOutputs: Object.freeze({ ...c.extraOutputs }) } : {}),
  });
}

const NOT_STARTED: FanOutInstanceProgress = Object.freeze({ state: "not_started", resultIsError: false });
const IN_FLIGHT_EMPTY: FanOutInstanceProgress = Object.freeze({ state: "in_flight", resultIsError: false, completedInnerPositions: Object.freeze([]) });

/** @internal one tracked fan-out. */
export class ProgressEntry {
  readonly key: string;
  readonly namespace: readonly string[];
  readonly fanOutNodeName: string;
  readonly lineage: readonly FanOutLineageElement[] | undefined;
  readonly instanceCount: number;
  readonly instances: VersionedList<FanOutInstanceProgress>;
  readonly skips: ReadonlyMap<number, InstanceContribution>;
  #snapshot: FanOutProgressEntry | undefined;

  constructor(
    namespace: readonly string[],
    node: string,
    lineage: readonly FanOutLineageElement[] | undefined,
    instances: readonly FanOutInstanceProgress[],
    skips: ReadonlyMap<number, InstanceContribution> = new Map(),
  ) {
    this.namespace = Object.freeze([...namespace]);
    this.fanOutNodeName = node;
    this.lineage = lineage === undefined ? undefined : Object.freeze([...lineage]);
    this.key = keyOf(namespace, node, lineage);
    this.instanceCount = instances.length;
    this.instances = new VersionedList(instances);
    this.skips = skips;
  }

  /** The full path of the fan-out node. */
  get path(): readonly string[] {
    return [...this.namespace, this.fanOutNodeName];
  }

  set(i: number, p: FanOutInstanceProgress): void {
    this.instances.set(i, p);
    this.#snapshot = undefined;
  }

  markInFlight(i: number): boolean {
    if (this.instances.get(i).state !== "not_started") return false;
    this.set(i, IN_FLIGHT_EMPTY);
    return true;
  }

  addInnerPosition(i: number, pos: NodePosition): void {
    const cur = this.instances.get(i);
    if (cur.state !== "in_flight") return;
    this.set(i, Object.freeze({ state: "in_flight", resultIsError: false, completedInnerPositions: Object.freeze([...(cur.completedInnerPositions ?? []), pos]) }));
  }

  /** This entry as of now (its `instances` shared with later saves, see {@link VersionedList}). */
  snapshot(): FanOutProgressEntry {
    if (this.#snapshot !== undefined) return this.#snapshot;
    const instances = this.instances.snapshot();
    const snap: FanOutProgressEntry = Object.freeze({
      namespace: this.namespace,
      fanOutNodeName: this.fanOutNodeName,
      instanceCount: this.instanceCount,
      ...(this.lineage !== undefined ? { enclosingFanOutLineage: this.lineage } : {}),
      get instances() {
        return instances();
      },
    });
    origins.set(snap, Object.freeze({ list: this.instances, version: instances.version }));
    return (this.#snapshot = snap);
  }
}

/**
 * @internal Where a saved entry's `instances` come from: one version of the tracker's list. Two
 * snapshots of one fan-out share `list`; a backend that stores instances apart writes, for a
 * later snapshot, only `list.changedBetween(storedVersion, version)` (O(changes), not O(N)).
 */
export interface InstancesOrigin {
  readonly list: VersionedList<FanOutInstanceProgress>;
  readonly version: number;
}

const origins = new WeakMap<FanOutProgressEntry, InstancesOrigin>();

/** @internal the origin of an entry the recorder saved; undefined for any other entry object. */
export function instancesOrigin(entry: FanOutProgressEntry): InstancesOrigin | undefined {
  return origins.get(entry);
}

/** @internal the `fan_out_progress` of one checkpointing run. */
export class FanOutProgressTracker {
  /** Tracked entries, live and carried over from the loaded record. */
  readonly #entries = new Map<string, ProgressEntry>();
  /** Loaded entries whose fan-out has not re-begun yet (consumed by {@link begin}). */
  readonly #saved = new Map<string, FanOutProgressEntry>();

  constructor(loaded: readonly FanOutProgressEntry[] = []) {
    for (const e of loaded) {
      const entry = new ProgressEntry(e.namespace, e.fanOutNodeName, e.enclosingFanOutLineage, e.instances);
      this.#entries.set(entry.key, entry);
      this.#saved.set(entry.key, e);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  /** A fan-out begins dispatching (see {@link beginFanOutCheckpoint}). */
  begin(namespace: readonly string[], node: string, lineage: readonly FanOutLineageElement[], count: number): ProgressEntry {
    const key = keyOf(namespace, node, lineage);
    const saved = this.#saved.get(key);
    this.#saved.delete(key);
    const instances: FanOutInstanceProgress[] = new Array<FanOutInstanceProgress>(count).fill(NOT_STARTED);
    const skips = new Map<number, InstanceContribution>();
    if (saved !== undefined) {
      if (saved.instanceCount !== count) {
        throw new CheckpointRecordInvalidError(
          `fan-out "${[...namespace, node].join("/")}" resolved ${count} instances on resume, but the saved record has ` +
            `${saved.instanceCount}; an input set that changed between runs must start a fresh invocation (§10.11 count drift)`,
        );
      }
      saved.instances.forEach((inst, i) => {
        if (inst.state !== "completed") return;
        const c: InstanceContribution = Object.freeze({
          result: inst.result ?? null,
          resultIsError: inst.resultIsError,
          ...(inst.extraOutputs !== undefined ? { extraOutputs: inst.extraOutputs } : {}),
        });
        skips.set(i, c);
        instances[i] = completedProgress(c);
      });
    }
    // Replaces this fan-out's previous entry (a re-attempt in this run starts fresh). Entries nested
    // in it stay: saved ones are consumed when the inner fan-outs re-begin.
    const entry = new ProgressEntry(namespace, node, lineage.length ? lineage : undefined, instances, skips);
    this.#entries.set(key, entry);
    return entry;
  }

  recordCompleted(entry: ProgressEntry, i: number, c: InstanceContribution): void {
    if (this.#entries.get(entry.key) !== entry) return; // superseded by a later attempt
    entry.set(i, completedProgress(c));
    // Progress nested in the completed instance is no longer needed.
    const inner: FanOutLineageElement = { namespace: entry.namespace, fanOutNodeName: entry.fanOutNodeName, fanOutIndex: i };
    const within = [...(entry.lineage ?? []), inner];
    for (const [k, e] of this.#entries) {
      if (e !== entry && startsWith(e.lineage ?? [], within, sameLineageElement)) {
        this.#entries.delete(k);
        this.#saved.delete(k);
      }
    }
  }

  /** A completed event inside fan-out instance(s): mark them in flight, record the inner position. */
  onInnerEvent(ev: NodeEvent, pos: NodePosition | undefined): void {
    const ns = ev.namespace;
    const chain = ev.fanOutIndexChain;
    let innermost: { entry: ProgressEntry; index: number } | undefined;
    for (let j = 0; j < chain.length; j++) {
      const idx = chain[j];
      if (idx === null || idx === undefined) continue;
      const lineage = lineageOf(ns, chain, j);
      const entry = this.#entries.get(keyOf(ns.slice(0, j), ns[j]!, lineage));
      if (entry === undefined || this.#saved.has(entry.key) || idx >= entry.instanceCount) {
        innermost = undefined;
        continue;
      }
      entry.markInFlight(idx);
      innermost = { entry, index: idx };
    }
    if (pos !== undefined && innermost !== undefined) innermost.entry.addInnerPosition(innermost.index, pos);
  }

  /** Node at `ev.namespace` completed successfully: drop its own entry and everything nested in it. */
  onNodeSucceeded(ev: NodeEvent): void {
    if (this.#entries.size === 0) return;
    this.#removeWithin(ev.namespace, lineageOf(ev.namespace, ev.fanOutIndexChain, ev.namespace.length - 1));
  }

  #removeWithin(path: readonly string[], lineage: readonly FanOutLineageElement[]): void {
    for (const [k, e] of this.#entries) {
      if (startsWith(e.path, path) && startsWith(e.lineage ?? [], lineage, sameLineageElement)) {
        this.#entries.delete(k);
        this.#saved.delete(k);
      }
    }
  }

  /** The record's `fanOutProgress` (undefined when nothing is in flight). */
  snapshot(): readonly FanOutProgressEntry[] | undefined {
    if (this.#entries.size === 0) return undefined;
    return Object.freeze([...this.#entries.values()].map((e) => e.snapshot()));
  }
}
