/**
 * OpenArmature checkpointing — public entry (pipeline-utilities spec §10).
 *
 * - Protocol and record: {@link Checkpointer} (§10.1), {@link CheckpointRecord} (§10.2).
 * - Backends (§10.13): {@link InMemoryCheckpointer}, {@link SqliteCheckpointer};
 *   {@link BatchingCheckpointer} (§10.11.4).
 * - Running: {@link withCheckpointer} → `invoke()` saves on every completed event (§10.3),
 *   `resume()` continues an invocation (§10.4).
 * - Migrations (§10.12): {@link MigrationRegistry}, {@link defineMigration}.
 * - Errors (§10.10): `errors.ts`.
 * - Record codec for a custom backend: {@link serializeRecord} / {@link deserializeRecord}.
 *
 * The record documents, value codec, fan-out seam and resume helpers the engine and the conformance
 * adapter share are in `openarmature/internal` (unstable).
 */

// §10.1 protocol
export type { Checkpointer, CheckpointFilter, CheckpointSummary, SaveContext } from "./checkpointer.ts";

// §10.2 record
export type {
  CheckpointRecord,
  NodePosition,
  FanOutProgressEntry,
  FanOutInstanceProgress,
  FanOutInstanceState,
  FanOutLineageElement,
} from "./record.ts";
export { serializeRecord, deserializeRecord } from "./serialization.ts";
export type { JsonValue, RecordEncoding } from "./serialization.ts";

// §10.13 backends
export { InMemoryCheckpointer } from "./in-memory.ts";
export { SqliteCheckpointer } from "./sqlite.ts";
export type { SqliteCheckpointerOptions } from "./sqlite.ts";
export { BatchingCheckpointer } from "./batching.ts";
export type { BatchingOptions } from "./batching.ts";

// §10.1.1, §10.3, §10.4 running and resuming
export { withCheckpointer, CheckpointedGraph } from "./with-checkpointer.ts";
export type { CheckpointOptions, CheckpointInvokeOptions, ResumeOptions } from "./with-checkpointer.ts";
export type { CheckpointSaveEvent, SavePoint } from "./recorder.ts";

// §10.12 migrations
export { MigrationRegistry, defineMigration } from "./migrations.ts";
export type { StateMigration, MigrationFn, SerializedState } from "./migrations.ts";

// §10.10 errors
export {
  CheckpointError,
  CheckpointNotFoundError,
  CheckpointSaveFailedError,
  CheckpointRecordInvalidError,
  CheckpointStateMigrationMissingError,
  CheckpointStateMigrationFailedError,
  CheckpointStateMigrationChainAmbiguousError,
  CheckpointAlreadyResumedError,
  CheckpointStoreCorruptError,
  CheckpointStoreUnavailableError,
  CheckpointInvalidIdError,
  isCheckpointError,
  findCheckpointError,
} from "./errors.ts";
export type { CheckpointErrorCategory } from "./errors.ts";
