/**
 * OpenArmature suspension (suspension spec): pause an invocation at a node under a typed signal
 * descriptor, persist it, and resume it later — any worker, any process — with a signal payload.
 *
 * - §3 {@link suspend} (from a node body); §4 {@link SignalDescriptor}.
 * - §5 / §7 / §8 {@link withSuspension} → {@link SuspendableGraph} (`invoke`, `resume`, `load`, `cancel`).
 * - §8.5 paused-invocation records through a Checkpointer: {@link PausedInvocationStore}.
 * - §9 errors: `errors.ts`.
 *
 * See `README.md`. The record documents, descriptor codec and store keys the conformance adapter
 * uses are in `openarmature/internal` (unstable).
 */
export { suspend, type SuspendOptions } from "./suspend.ts";
export { isSuspension } from "./signal.ts";
export type { SignalDescriptor, SignalMetadata } from "./descriptor.ts";
export {
  withSuspension,
  SuspendableGraph,
  type SuspendedOutcome,
  type SuspendableResult,
  type SuspendInvokeOptions,
  type SuspensionOptions,
  type InvokeTarget,
} from "./with-suspension.ts";
export type { PausedInvocationRecord, PausedStatus } from "./record.ts";
export { PausedInvocationStore } from "./store.ts";
export {
  SuspensionError,
  SuspensionPersistenceFailedError,
  SuspensionRecordInvalidError,
  SuspensionResumePayloadInvalidError,
  SuspensionInUnsupportedContextError,
  isSuspensionError,
  SUSPENSION_ERROR_CATEGORIES,
  type SuspensionErrorCategory,
  type RecordInvalidReason,
  type UnsupportedContext,
  type PersistedPart,
} from "./errors.ts";
