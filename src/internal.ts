/**
 * `openarmature/internal` — UNSTABLE. The seams the engine's capabilities and the conformance
 * adapter share, which a user building graphs does not need: spec wire formats (event and record
 * documents), value codecs, persistence keys, the fan-out checkpoint seam, type-string parsing.
 *
 * Nothing here follows semver: names and shapes change in any release. Import from the public
 * entries (`openarmature`, `/graph`, `/pipeline`, `/middleware`, `/checkpoint`, `/sessions`,
 * `/suspension`, `/conformance`) unless you are extending the adapter itself. `test/public-surface`
 * pins the public entries; moving a name between them and this file is a decision, not a side effect.
 */

// graph: type strings, reducer resolution, spec event records, delivery introspection
export { parseTypeString, typeNodeToString, typeNodeToJsonSchema, isListType, isMappingType, collectRecordNames } from "./graph/type-strings.ts";
export { resolveReducer, reducerNameOf } from "./graph/reducers.ts";
export { toSpecEvent, type SpecNodeEventRecord } from "./graph/events.ts";
export { activeWorkerCount } from "./graph/drain.ts";

// pipeline: fan-in and error-entry builders
export { combineContributions } from "./pipeline/fan-in.ts";
export { fanOutErrorRecord, branchErrorRecord } from "./pipeline/error-policy.ts";

// middleware: cause-chain internals, retry / failure-isolation hooks, spec event records
export { isCarrier, surfaceError } from "./pipeline/middleware/cause-chain.ts";
export { terminalAttemptIndex } from "./pipeline/middleware/retry.ts";
export { isFailureIsolationMiddleware } from "./pipeline/middleware/failure-isolation.ts";
export { toSpecFailureIsolationEvent, type SpecFailureIsolationEventRecord } from "./pipeline/middleware/events.ts";

// checkpoint: record documents, value codec, filters, resume positions, the fan-out seam
export { summarize, matchesFilter, compareAndSave } from "./checkpoint/checkpointer.ts";
export {
  validateRecord,
  toRecordDocument,
  fromRecordDocument,
  type CheckpointRecordDocument,
  type NodePositionDocument,
  type FanOutProgressEntryDocument,
} from "./checkpoint/record.ts";
export { encodeValue, decodeValue } from "./checkpoint/serialization.ts";
export { declaredSchemaVersion, savePointPosition } from "./checkpoint/resume.ts";
export { beginFanOutCheckpoint, type FanOutCheckpoint, type InstanceContribution } from "./checkpoint/fan-out-progress.ts";

// sessions: state codec, resolved projection
export { encodeSessionState, decodeSessionState } from "./sessions/record.ts";
export { ResolvedSessionProjection } from "./sessions/projection.ts";

// suspension: descriptor and paused-record documents, store keys, payload merge
export {
  normalizeDescriptor,
  toDescriptorDocument,
  fromDescriptorDocument,
  isSignalDescriptor,
  annotateDescriptor,
  type SignalDescriptorDocument,
} from "./suspension/descriptor.ts";
export {
  invocationState,
  toPausedDocument,
  fromPausedDocument,
  type PausedInvocationRecordDocument,
  type PositionDocument,
} from "./suspension/record.ts";
export { isPausedEnvelope, RECORD_TYPE_KEY, PAUSED_RECORD_KEY, type StoredRecordType } from "./suspension/store.ts";
export { mergeSignalPayload } from "./suspension/resume.ts";
