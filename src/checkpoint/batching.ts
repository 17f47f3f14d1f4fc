/**
 * Configurable batching of fan-out internal saves (pipeline-utilities §10.11.4), as a wrapper
 * around any {@link Checkpointer}.
 *
 * - Only saves whose {@link SaveContext} has `scope: "fan_out_internal"` (a completed event inside
 *   a fan-out instance, or a fan-out recording an instance's contribution) are buffered. Every
 *   record is a full snapshot, so a buffer holds just the latest record per invocation; it is
 *   written to the wrapped backend after every `flushEvery` buffered saves.
 * - Every other save (outermost graph, subgraph-internal, the fan-out node's own completion) is
 *   written through synchronously, superseding — and so flushing — whatever was buffered.
 * - **Risk (documented per §10.3.1):** a crash loses the buffered saves; on resume, instances whose
 *   completion was only buffered re-run (and contribute for the first time: no double merge).
 * - `load` sees buffered records (read-your-writes in this process); `list` shows what is durable.
 *
 * Default (without this wrapper) is no batching: every save is durable when it returns.
 */
import { checkInvocationId, compareAndSave, type Checkpointer, type CheckpointFilter, type CheckpointSummary, type SaveContext } from "./checkpointer.ts";
import type { CheckpointRecord } from "./record.ts";

/** Options of {@link BatchingCheckpointer}. */
export interface BatchingOptions {
  /** Write the buffered record after this many buffered fan-out internal saves (positive integer). */
  readonly flushEvery: number;
}

/** §10.11.4 batching wrapper (see the module comment). */
export class BatchingCheckpointer implements Checkpointer {
  readonly inner: Checkpointer;
  readonly flushEvery: number;
  readonly #pending = new Map<string, { record: CheckpointRecord; context: SaveContext; count: number }>();

  constructor(inner: Checkpointer, options: BatchingOptions) {
    if (!Number.isInteger(options.flushEvery) || options.flushEvery < 1) throw new RangeError("flushEvery must be a positive integer");
    this.inner = inner;
    this.flushEvery = options.flushEvery;
  }

  get supportsStateMigration(): boolean {
    return this.inner.supportsStateMigration !== false;
  }

  get backendName(): string {
    return `batching(${this.inner.backendName ?? "custom"})`;
  }

  async save(invocationId: string, record: CheckpointRecord, context?: SaveContext): Promise<void> {
    checkInvocationId(invocationId); // before buffering: a bad id must not wait for the flush to fail
    if (context?.scope === "fan_out_internal") {
      const p = this.#pending.get(invocationId);
      const count = (p?.count ?? 0) + 1;
      if (count < this.flushEvery) {
        this.#pending.set(invocationId, { record, context, count });
        return;
      }
      this.#pending.delete(invocationId);
      return this.inner.save(invocationId, record, context);
    }
    this.#pending.delete(invocationId);
    return this.inner.save(invocationId, record, context);
  }

  /** Flush `invocationId`'s buffered record, then compare-and-set on the wrapped backend. */
  async compareAndSave(invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
    checkInvocationId(invocationId);
    await this.flush(invocationId);
    return compareAndSave(this.inner, invocationId, expected, record);
  }

  async load(invocationId: string): Promise<CheckpointRecord | undefined> {
    checkInvocationId(invocationId);
    return this.#pending.get(invocationId)?.record ?? this.inner.load(invocationId);
  }

  list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    return this.inner.list(filter);
  }

  async delete(invocationId: string): Promise<void> {
    checkInvocationId(invocationId);
    this.#pending.delete(invocationId);
    return this.inner.delete(invocationId);
  }

  /** Number of invocations with buffered, not yet durable saves. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Write every buffered record now (or only `invocationId`'s). */
  async flush(invocationId?: string): Promise<void> {
    const ids = invocationId === undefined ? [...this.#pending.keys()] : [invocationId];
    for (const id of ids) {
      const p = this.#pending.get(id);
      if (!p) continue;
      this.#pending.delete(id);
      await this.inner.save(id, p.record, p.context);
    }
  }

  /** Drop buffered saves without writing them — what a crash does (tests, crash simulation). */
  discardPending(): void {
    this.#pending.clear();
  }
}
