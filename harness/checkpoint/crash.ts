/**
 * Harness crash signals (conformance-adapter §5.6 `crash_injection`, pipeline-utilities
 * `abort_after_instance`): ways a first run is ended at a checkpoint boundary, keeping only what
 * was persisted there.
 *
 * - {@link HarnessCrash}: the abort reason / hook error that stops an injected-crash run at its
 *   next node boundary (the engine's `invoke({ signal })` cancellation).
 * - {@link CrashedRun}: what the harness reports for a run it abandoned at a crash boundary (the
 *   first run "has no asserted outcome"); carries the abandoned invocation's id so the resume can
 *   find its record.
 * - {@link ProcessAbort}: the uncategorized error a fan-out node raises when a process-level abort
 *   (`abort_after_instance`) hits it, which the engine wraps as the node's `node_exception`.
 */

/** The signal that stops a run whose crash boundary fired. Not an engine error. */
export class HarnessCrash extends Error {
  override name = "HarnessCrash";
}

/**
 * A first run abandoned at a `crash_injection` boundary. It carries a `category` so the graph
 * executor records it as the call's (unasserted) outcome; it is not a spec category.
 */
export class CrashedRun extends Error {
  override name = "CrashedRun";
  readonly category = "harness_crash_injected";
  readonly invocationId: string;
  constructor(invocationId: string, boundary: string, options?: ErrorOptions) {
    super(`the run was abandoned after ${boundary} (crash_injection): only the checkpoint survives`, options);
    this.invocationId = invocationId;
  }
}

/** A process-level abort inside a fan-out node (`abort_after_instance`). Uncategorized. */
export class ProcessAbort extends Error {
  override name = "ProcessAbort";
}
