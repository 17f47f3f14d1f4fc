/**
 * OpenArmature suspension (suspension spec): pause an invocation at a node under a typed signal
 * descriptor, persist it, and resume it later — any worker, any process — with a signal payload.
 *
 * - §3 {@link suspend} (from a node body); §4 {@link SignalDescriptor}.
 * - §5 / §7 / §8 {@link withSuspension} → {@link SuspendableGraph} (`invoke`, `resume`, `load`, `cancel`).
 * - §8.5 paused-invocation records through a Checkpointer: {@link PausedInvocationStore}.
 * - §9 errors: `errors.ts`.
 *
 * See `README.md`.
 */
export { suspend, type SuspendOptions } from "./suspend.ts";
export { isSuspension } from "./signal.ts";
export {
  normalizeDescriptor,
  toDescriptorDocument,
  fromDescriptorDocument,
  isSignalDescriptor,
  annotateDescriptor,
  type SignalDescriptor,
  type SignalDescriptorDocument,
  type SignalMetadata,
} from "./descriptor.ts";
export {
  withSuspension,
  SuspendableGraph,
  type SuspendedOutcome,
  type SuspendableResult,
  type SuspendInvokeOptions,
  type SuspensionOptions,
  type InvokeTarget,
} from "./with-suspension.ts";
export {
  invocationState,
  toPausedDocument,
  fromPausedDocument,
  type PausedInvocationRecord,
  type PausedInvocationRecordDocument,
  type PausedStatus,
  type PositionDocument,
} from "./record.ts";
export { PausedInvocationStore, isPausedEnvelope, RECORD_TYPE_KEY, PAUSED_RECORD_KEY, type StoredRecordType } from "./store.ts";
export { mergeSignalPayload } from "./resume.ts";
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
