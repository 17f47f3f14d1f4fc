/**
 * `resume_with_modified_items` (pipeline-utilities note, fixture 056): the resumed run sees the
 * named fields of its restored state re-resolved to new values — "the user changed the input set
 * between runs" — while everything else about the resume is real. The view hands the library's
 * resume the stored record of `invocationId` with those fields replaced in the save point's
 * outermost state; every other call passes through to the case's checkpointer.
 */
import { type Checkpointer, type CheckpointFilter, type CheckpointRecord, type CheckpointSummary, type SaveContext } from "../../src/checkpoint/index.ts";
import { compareAndSave } from "../../src/internal.ts";

export class ModifiedItemsView implements Checkpointer {
  constructor(
    readonly inner: Checkpointer,
    readonly invocationId: string,
    readonly fields: Readonly<Record<string, unknown>>,
  ) {}

  get supportsStateMigration(): boolean {
    return this.inner.supportsStateMigration !== false;
  }

  get backendName(): string | undefined {
    return this.inner.backendName;
  }

  async load(invocationId: string): Promise<CheckpointRecord | undefined> {
    const r = await this.inner.load(invocationId);
    if (r === undefined || invocationId !== this.invocationId) return r;
    const patch = structuredClone(this.fields);
    if (r.parentStates.length === 0) return { ...r, state: { ...r.state, ...patch } };
    const [outer, ...rest] = r.parentStates;
    return { ...r, parentStates: [{ ...outer, ...patch }, ...rest] };
  }

  save(invocationId: string, record: CheckpointRecord, context?: SaveContext): Promise<void> {
    return this.inner.save(invocationId, record, context);
  }

  compareAndSave(invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
    return compareAndSave(this.inner, invocationId, expected, record);
  }

  list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]> {
    return this.inner.list(filter);
  }

  delete(invocationId: string): Promise<void> {
    return this.inner.delete(invocationId);
  }
}
