/**
 * The Checkpointer the engine saves to in a conformance case: a pass-through over the case's real
 * backend that records every save (for `checkpoint_saves`, `every_save_assertions`, `save_count`)
 * into the running call's observation, and models a crashed process: once an invocation is
 * {@link kill}ed, nothing more of it is persisted (a dead process writes nothing), so the backend
 * keeps exactly what was saved up to the crash point.
 */
import { type Checkpointer, type CheckpointFilter, type CheckpointRecord, type CheckpointSummary, type SaveContext } from "../../src/checkpoint/index.ts";
import { compareAndSave, toRecordDocument } from "../../src/internal.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { perCall } from "../pipeline/facets.ts";
import type { OpenedBackend } from "./backends.ts";
import { CheckpointSaves, DroppedSaves, type SaveEntry } from "./facets.ts";

/** Called after each persisted save (crash boundaries watch saves). */
export type AfterSave = (invocationId: string, record: CheckpointRecord, context: SaveContext | undefined) => Promise<void> | void;

export class RecordingCheckpointer implements Checkpointer {
  readonly backend: OpenedBackend;
  readonly #dead = new Set<string>();
  #call: Observation | undefined;
  #afterSave: AfterSave | undefined;

  constructor(backend: OpenedBackend, afterSave?: AfterSave) {
    this.backend = backend;
    this.#afterSave = afterSave;
  }

  get supportsStateMigration(): boolean {
    return this.backend.checkpointer.supportsStateMigration !== false;
  }

  get backendName(): string | undefined {
    return this.backend.checkpointer.backendName;
  }

  /** Record the saves that follow into `call` (the call now running), or nowhere. */
  bind(call: Observation | undefined): void {
    this.#call = call;
  }

  /** The process running `invocationId` died: its later saves are not persisted. */
  kill(invocationId: string): void {
    this.#dead.add(invocationId);
  }

  isDead(invocationId: string): boolean {
    return this.#dead.has(invocationId);
  }

  async save(invocationId: string, record: CheckpointRecord, context?: SaveContext): Promise<void> {
    const entry = (durable: boolean): SaveEntry => ({
      invocationId,
      record: structuredClone(toRecordDocument(record)),
      context: context === undefined ? undefined : { ...context, namespace: [...context.namespace] },
      durable,
    });
    const call = this.#call;
    if (this.#dead.has(invocationId)) {
      if (call) perCall(call, DroppedSaves, () => []).push(entry(false));
      return;
    }
    await this.backend.checkpointer.save(invocationId, record, context);
    let durable = true;
    if (this.backend.batching !== undefined) durable = (await this.backend.durableLoad(invocationId))?.lastSavedAt === record.lastSavedAt;
    if (call) perCall(call, CheckpointSaves, () => []).push(entry(durable));
    await this.#afterSave?.(invocationId, record, context);
  }

  /**
   * A resume's claim (its starting record, the original's `resumedBy` mark): passed through, not
   * recorded — it is not a §10.3 completed-event save. A killed invocation's id is claimed by the
   * resuming process, which is alive: {@link kill} does not apply.
   */
  compareAndSave(invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
    return compareAndSave(this.backend.checkpointer, invocationId, expected, record);
  }

  load(invocationId: string): Promise<CheckpointRecord | undefined> {
    return this.backend.checkpointer.load(invocationId);
  }

  list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    return this.backend.checkpointer.list(filter);
  }

  delete(invocationId: string): Promise<void> {
    return this.backend.checkpointer.delete(invocationId);
  }
}
