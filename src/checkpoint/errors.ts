/**
 * Checkpoint error categories (pipeline-utilities §10.10, §10.11, §10.12).
 *
 * Every error here is a graph-engine §4 {@link GraphRuntimeError} with a canonical `category`
 * (registered on `RuntimeErrorCategories` by declaration merging) and `transient = false`: none
 * of them recovers by retrying without a change (a missing record stays missing, a buggy migration
 * stays buggy, a broken disk stays broken until someone fixes it).
 *
 * | category | raised |
 * |---|---|
 * | `checkpoint_not_found` | resume: `load()` returned nothing, or no Checkpointer is registered (§10.1.1, §10.4 step 1) |
 * | `checkpoint_save_failed` | `Checkpointer.save` raised during a completed-event save (§10.3); raised to the caller of `invoke()` |
 * | `checkpoint_record_invalid` | resume: a corrupt / structurally incompatible record, a post-migration state that fails the current schema (§10.12.4), a version mismatch on a backend that cannot migrate (§10.12.1), fan-out count drift (§10.11) |
 * | `checkpoint_state_migration_missing` | resume: versions differ and no migration chain connects them (§10.12.2 step 4) |
 * | `checkpoint_state_migration_failed` | resume: a migration function raised (§10.12.2) |
 * | `checkpoint_state_migration_chain_ambiguous` | registration (duplicate pair) or chain resolution (two shortest paths) (§10.12.1–2) |
 *
 * Project categories (the spec defines none for these cases; documented here and in README.md):
 *
 * | category | raised |
 * |---|---|
 * | `checkpoint_already_resumed` | resume: another resume already claimed the record (a compare-and-set on its `lastSavedAt`); the run is not started a second time — resume the claimant's invocation instead |
 * | `checkpoint_store_corrupt` | a checkpoint store's file is not a database, is corrupt, or holds a foreign table of the same name (SQLite `SQLITE_NOTADB` / `SQLITE_CORRUPT`), from the constructor or any operation |
 * | `checkpoint_store_unavailable` | a checkpoint store's file cannot be opened or written: a directory, a missing folder, no permission, read-only, disk full, an I/O error (SQLite `SQLITE_CANTOPEN` / `SQLITE_FULL` / `SQLITE_READONLY` / `SQLITE_IOERR` / `SQLITE_PERM`), from the constructor or any operation |
 * | `checkpoint_invalid_id` | an invocation id argument (of a `Checkpointer` method, `resume`, `resumeInvocation`) is not a non-empty string; raised before any store is touched |
 */
import { GraphRuntimeError, type ErrorLocation, messageOf } from "../graph/index.ts";

declare module "../graph/errors.ts" {
  interface RuntimeErrorCategories {
    /** §10.10: resume found no record for the invocation id (or no Checkpointer is registered). */
    checkpoint_not_found: true;
    /** §10.10: `Checkpointer.save` raised during a save. */
    checkpoint_save_failed: true;
    /** §10.10: the loaded record is incompatible with the current graph. */
    checkpoint_record_invalid: true;
    /** §10.10: no registered migration chain bridges the record's schema version to the current one. */
    checkpoint_state_migration_missing: true;
    /** §10.10: a migration function raised while the chain was applied. */
    checkpoint_state_migration_failed: true;
    /** §10.10 (configuration time): duplicate migration pair, or two shortest chains. */
    checkpoint_state_migration_chain_ambiguous: true;
    /** Project: resume of a record another resume already claimed. */
    checkpoint_already_resumed: true;
    /** Project: the checkpoint store's file is not a usable database. */
    checkpoint_store_corrupt: true;
    /** Project: the checkpoint store's file cannot be opened or written (a directory, no permission, disk full). */
    checkpoint_store_unavailable: true;
    /** Project: an invocation id argument is not a non-empty string. */
    checkpoint_invalid_id: true;
  }
}

/** The categories a {@link CheckpointError} can carry. */
export type CheckpointErrorCategory =
  | "checkpoint_not_found"
  | "checkpoint_save_failed"
  | "checkpoint_record_invalid"
  | "checkpoint_state_migration_missing"
  | "checkpoint_state_migration_failed"
  | "checkpoint_state_migration_chain_ambiguous"
  | "checkpoint_already_resumed"
  | "checkpoint_store_corrupt"
  | "checkpoint_store_unavailable"
  | "checkpoint_invalid_id";

/** Base class of the §10.10 errors. Never transient. */
export abstract class CheckpointError extends GraphRuntimeError {
  abstract override readonly category: CheckpointErrorCategory;
  /** §10.10: every checkpoint category is non-transient (retry middleware must not retry it). */
  readonly transient = false;
}

/** §10.10 `checkpoint_not_found`: `invoke(resume_invocation=X)` and `load(X)` returned nothing. */
export class CheckpointNotFoundError extends CheckpointError {
  override name = "CheckpointNotFoundError";
  readonly category = "checkpoint_not_found" as const;
  /** The invocation id that was asked for. */
  readonly resumeInvocationId: string;
  constructor(resumeInvocationId: string, reason?: string) {
    super(
      reason === undefined
        ? `no checkpoint record exists for invocation "${resumeInvocationId}"`
        : `cannot resume invocation "${resumeInvocationId}": ${reason}`,
    );
    this.resumeInvocationId = resumeInvocationId;
  }
}

/**
 * §10.10 `checkpoint_save_failed`: `Checkpointer.save` raised. This implementation raises it to the
 * caller of `invoke()` (it is not retried, and middleware cannot swallow it: a save failure seen
 * inside a fan-out instance or a retried node still fails the invocation). `cause` is the backend's
 * error; `nodeName` / `namespace` name the node whose completed event triggered the save.
 */
export class CheckpointSaveFailedError extends CheckpointError {
  override name = "CheckpointSaveFailedError";
  readonly category = "checkpoint_save_failed" as const;
  /** The invocation whose record could not be saved. */
  readonly savedInvocationId: string;
  constructor(savedInvocationId: string, cause: unknown, location: ErrorLocation = {}) {
    super(`checkpoint save for invocation "${savedInvocationId}" failed: ${messageOf(cause)}`, location, { cause });
    this.savedInvocationId = savedInvocationId;
  }
}

/**
 * §10.10 `checkpoint_record_invalid`: the record cannot be resumed against the current graph —
 * corrupt or structurally wrong, a state that fails the current schema (also after migration,
 * §10.12.4), positions naming nodes the graph no longer has, a version mismatch on a backend that
 * cannot migrate (§10.12.1), or a fan-out whose instance count drifted (§10.11).
 */
export class CheckpointRecordInvalidError extends CheckpointError {
  override name = "CheckpointRecordInvalidError";
  readonly category = "checkpoint_record_invalid" as const;
  /** What is wrong, in one phrase. */
  readonly reason: string;
  constructor(reason: string, options: { cause?: unknown; location?: ErrorLocation } = {}) {
    super(`checkpoint record invalid: ${reason}`, options.location ?? {}, "cause" in options ? { cause: options.cause } : undefined);
    this.reason = reason;
  }
}

/** §10.10 `checkpoint_state_migration_missing`: no registered chain from `fromVersion` to `toVersion`. */
export class CheckpointStateMigrationMissingError extends CheckpointError {
  override name = "CheckpointStateMigrationMissingError";
  readonly category = "checkpoint_state_migration_missing" as const;
  /** The record's saved `schema_version`. */
  readonly fromVersion: string;
  /** The current state schema's `schema_version`. */
  readonly toVersion: string;
  /** How many migrations are registered. */
  readonly registeredMigrationsCount: number;
  /** The registered set, one `from -> to` per line (`(none)` when empty). */
  readonly registryDescription: string;
  constructor(fromVersion: string, toVersion: string, registeredMigrationsCount: number, registryDescription: string) {
    super(
      `no state migration chain from schema_version "${fromVersion}" to "${toVersion}" ` +
        `(${registeredMigrationsCount} registered: ${registryDescription}); register a migration for it`,
    );
    this.fromVersion = fromVersion;
    this.toVersion = toVersion;
    this.registeredMigrationsCount = registeredMigrationsCount;
    this.registryDescription = registryDescription;
  }
}

/** §10.10 `checkpoint_state_migration_failed`: the migration `fromVersion -> toVersion` raised (`cause`). */
export class CheckpointStateMigrationFailedError extends CheckpointError {
  override name = "CheckpointStateMigrationFailedError";
  readonly category = "checkpoint_state_migration_failed" as const;
  readonly fromVersion: string;
  readonly toVersion: string;
  constructor(fromVersion: string, toVersion: string, cause: unknown) {
    super(`state migration "${fromVersion}" -> "${toVersion}" raised: ${messageOf(cause)}`, {}, { cause });
    this.fromVersion = fromVersion;
    this.toVersion = toVersion;
  }
}

/**
 * §10.10 `checkpoint_state_migration_chain_ambiguous` (configuration time): a duplicate
 * `(fromVersion, toVersion)` registration, or two distinct shortest chains between
 * `fromVersion` and `toVersion`. Either may be `null` where a detection site lacks it.
 */
export class CheckpointStateMigrationChainAmbiguousError extends CheckpointError {
  override name = "CheckpointStateMigrationChainAmbiguousError";
  readonly category = "checkpoint_state_migration_chain_ambiguous" as const;
  readonly fromVersion: string | null;
  readonly toVersion: string | null;
  constructor(fromVersion: string | null, toVersion: string | null, detail: string) {
    super(`ambiguous state migrations (${String(fromVersion)} -> ${String(toVersion)}): ${detail}`);
    this.fromVersion = fromVersion;
    this.toVersion = toVersion;
  }
}

/**
 * Project category `checkpoint_already_resumed`: resume of `resumeInvocationId` found the record
 * claimed by an earlier (or concurrent) resume, which runs — or ran — as `resumedBy`. Nothing ran.
 * Resume `resumedBy` to continue the run (`undefined` when the claimant is unknown: the record
 * changed between load and claim).
 */
export class CheckpointAlreadyResumedError extends CheckpointError {
  override name = "CheckpointAlreadyResumedError";
  readonly category = "checkpoint_already_resumed" as const;
  readonly resumeInvocationId: string;
  /** The invocation id of the resume that claimed the record. */
  readonly resumedBy: string | undefined;
  constructor(resumeInvocationId: string, resumedBy: string | undefined) {
    super(
      `invocation "${resumeInvocationId}" was already resumed` +
        (resumedBy !== undefined
          ? ` as invocation "${resumedBy}"; resume "${resumedBy}" to continue it`
          : " (its record changed while this resume was starting); load it again to see who resumed it"),
    );
    this.resumeInvocationId = resumeInvocationId;
    this.resumedBy = resumedBy;
  }
}

/**
 * Project category `checkpoint_store_corrupt`: the store's `file` cannot be used — it is not a
 * database (`SQLITE_NOTADB`), it is damaged (`SQLITE_CORRUPT`), or its `table` is a foreign table
 * of the same name. `cause` is the driver's error. Restore the file from a backup or use another.
 */
export class CheckpointStoreCorruptError extends CheckpointError {
  override name = "CheckpointStoreCorruptError";
  readonly category = "checkpoint_store_corrupt" as const;
  /** The database file (`":memory:"` for an in-memory database). */
  readonly file: string;
  /** The checkpoint table. */
  readonly table: string;
  constructor(file: string, table: string, during: string, detail: string, cause?: unknown) {
    super(
      `checkpoint store file "${file}" (table "${table}") cannot be used while ${during}: ${detail}; ` +
        "restore it from a backup or point the checkpointer at another file",
      {},
      cause !== undefined ? { cause } : undefined,
    );
    this.file = file;
    this.table = table;
  }
}

/**
 * Project category `checkpoint_store_unavailable`: the store's `file` cannot be opened or written —
 * a directory, a path whose folder does not exist, no permission, a read-only file, a full disk, an
 * I/O error. `cause` is the driver's error. The message names the file and what to do.
 */
export class CheckpointStoreUnavailableError extends CheckpointError {
  override name = "CheckpointStoreUnavailableError";
  readonly category = "checkpoint_store_unavailable" as const;
  /** The database file. */
  readonly file: string;
  /** The checkpoint table. */
  readonly table: string;
  constructor(file: string, table: string, during: string, detail: string, cause?: unknown) {
    super(`checkpoint store file "${file}" (table "${table}") cannot be used while ${during}: ${detail}`, {}, cause !== undefined ? { cause } : undefined);
    this.file = file;
    this.table = table;
  }
}

/** A value passed where an id belongs, for a message: `42 (a number)`, `null`, `"" (an empty string)`. */
export function describeArgument(v: unknown): string {
  if (v === null) return "null";
  if (v === undefined) return "undefined";
  if (typeof v === "string") return v === "" ? '"" (an empty string)' : JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "function") return "a function";
  return `${String(v)} (a ${typeof v})`;
}

/**
 * Project category `checkpoint_invalid_id`: an invocation id argument is not a non-empty string (a
 * number, `null`, an object, `""`). Raised at the call, before any store is touched; pass the
 * string id the run was started or suspended with.
 */
export class CheckpointInvalidIdError extends CheckpointError {
  override name = "CheckpointInvalidIdError";
  readonly category = "checkpoint_invalid_id" as const;
  /** What was passed, described (the value itself may not be printable). */
  readonly received: string;
  constructor(received: unknown, what = "invocationId") {
    super(`${what} must be a non-empty string, got ${describeArgument(received)}`);
    this.received = describeArgument(received);
  }
}

/** Is `err` a checkpoint error (optionally of one category)? */
export function isCheckpointError<C extends CheckpointErrorCategory>(
  err: unknown,
  category?: C,
): err is CheckpointError & { category: C } {
  return err instanceof CheckpointError && (category === undefined || err.category === category);
}

/**
 * The checkpoint error carried by `err` — itself, or the first one on its `cause` chain (a save
 * failure inside a subgraph or a fan-out arrives wrapped in `node_exception` carriers).
 */
export function findCheckpointError(err: unknown): CheckpointError | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 32 && cur !== undefined && cur !== null; depth++) {
    if (cur instanceof CheckpointError) return cur;
    cur = typeof cur === "object" ? (cur as { cause?: unknown }).cause : undefined;
  }
  return undefined;
}

