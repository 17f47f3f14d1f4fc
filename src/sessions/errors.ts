/**
 * Session error categories (sessions §10), plus the suspension §9 `suspension_persistence_failed`
 * category this layer raises when the session save at suspend fails (suspension §8.6).
 *
 * Every error here is a graph-engine §4 {@link GraphRuntimeError} with a canonical `category`
 * (registered on `RuntimeErrorCategories` by declaration merging), `transient = false` (the engine
 * never retries session I/O — backend-level retry is the backend's job, suspension §8.6) and the
 * `sessionId` it concerns.
 *
 * | category | raised |
 * |---|---|
 * | `session_load_failed` | invoke entry: `SessionStore.load()` raised, or returned something that is not a record (§6.1) — the graph does not run |
 * | `session_save_failed` | auto-save at END (post-completion: `result` carries the committed outcome), or an explicit save (§6.2: raised at the save call) |
 * | `session_state_migration_missing` | invoke entry: the record's `schemaVersion` differs and no chain reaches the current one (§7) |
 * | `session_state_migration_chain_ambiguous` | registration (duplicate pair) or chain resolution (two shortest chains) (§7) |
 * | `session_state_migration_failed` | invoke entry: a migration function raised or returned a non-mapping (§7); `cause` is its error |
 * | `session_write_conflict` | `save(…, { expectedVersion })` found another version (§8.2) |
 * | `suspension_persistence_failed` | the session save at suspend failed: the outcome becomes errored (suspension §8.6) |
 *
 * Project categories (the spec defines none for these):
 *
 * | category | raised |
 * |---|---|
 * | `session_store_corrupt` | a session store's file is not a database, is corrupt, or holds a foreign table of the same name (SQLite `SQLITE_NOTADB` / `SQLITE_CORRUPT`), by the store's constructor or operation |
 * | `session_store_unavailable` | a session store's file cannot be opened or written: a directory, a missing folder, no permission, read-only, disk full, an I/O error (SQLite `SQLITE_CANTOPEN` / `SQLITE_FULL` / `SQLITE_READONLY` / `SQLITE_IOERR` / `SQLITE_PERM`), by the store's constructor or operation |
 * | `session_invalid_id` | a session id argument (`invoke({ sessionId })`, a store's `load` / `save` / `delete`, the bound graph's helpers) is not a non-empty string; raised before any store is touched |
 *
 * At invoke entry / END the lifecycle carries a store's error as the `cause` of
 * `session_load_failed` / `session_save_failed`.
 */
import { describeArgument } from "../checkpoint/errors.ts";
import { GraphRuntimeError, messageOf } from "../graph/index.ts";
import type { InvocationResult, StateRecord } from "../graph/index.ts";

declare module "../graph/errors.ts" {
  interface RuntimeErrorCategories {
    /** sessions §10: `SessionStore.load()` raised; the invoke did not proceed. */
    session_load_failed: true;
    /** sessions §10: `SessionStore.save()` raised (auto-save at END, at suspend, or an explicit save). */
    session_save_failed: true;
    /** sessions §10: no registered migration chain bridges the record's schema version to the current one. */
    session_state_migration_missing: true;
    /** sessions §10 (configuration time): duplicate migration pair, or two shortest chains. */
    session_state_migration_chain_ambiguous: true;
    /** sessions §10: a session migration function raised during chain application. */
    session_state_migration_failed: true;
    /** sessions §10 / §8.2: an optimistic-concurrency conflict. */
    session_write_conflict: true;
    /** Project: the session store's file is not a usable database. */
    session_store_corrupt: true;
    /** Project: the session store's file cannot be opened or written (a directory, no permission, disk full). */
    session_store_unavailable: true;
    /** Project: a session id argument is not a non-empty string. */
    session_invalid_id: true;
  }
}

/** The six sessions §10 categories. */
export type SessionErrorCategory =
  | "session_load_failed"
  | "session_save_failed"
  | "session_state_migration_missing"
  | "session_state_migration_chain_ambiguous"
  | "session_state_migration_failed"
  | "session_write_conflict";

/** Every category a {@link SessionError} can carry. */
export const SESSION_ERROR_CATEGORIES: readonly SessionErrorCategory[] = Object.freeze([
  "session_load_failed",
  "session_save_failed",
  "session_state_migration_missing",
  "session_state_migration_chain_ambiguous",
  "session_state_migration_failed",
  "session_write_conflict",
]);

/** Where a session save was requested from (sessions §6). */
export type SessionSavePoint = "completed" | "suspended" | "explicit";


/** Base class of the sessions §10 errors (and of the project's `session_store_corrupt`). Never transient. */
export abstract class SessionError extends GraphRuntimeError {
  abstract override readonly category: SessionErrorCategory | "session_store_corrupt" | "session_store_unavailable" | "session_invalid_id";
  /** §10: no session category is retried by the engine (suspension §8.6 *Backend-level mitigation*). */
  readonly transient = false;
  /** The session the error concerns (absent for configuration-time errors). */
  readonly sessionId: string | undefined;
  constructor(message: string, sessionId: string | undefined, options?: ErrorOptions) {
    super(message, {}, options);
    this.sessionId = sessionId;
  }
}

/** §10 `session_load_failed`: `SessionStore.load()` raised (its error is `cause`). The invoke MUST NOT proceed. */
export class SessionLoadFailedError extends SessionError {
  override name = "SessionLoadFailedError";
  readonly category = "session_load_failed" as const;
  constructor(sessionId: string, cause: unknown) {
    super(`loading session "${sessionId}" failed: ${messageOf(cause)}`, sessionId, { cause });
  }
}

/**
 * §10 `session_save_failed`: `SessionStore.save()` raised (its error is `cause`).
 *
 * - `savePoint: "completed"` — the auto-save at END (§6.1). The invocation already completed and is
 *   not rolled back: `result` is its outcome (final state included); the store still holds the prior
 *   session state.
 * - `savePoint: "explicit"` — a mid-invoke save (§6.2) or `SessionBoundGraph.save()`: raised at the
 *   call; a node body may swallow, retry or propagate it (then it is a `node_exception` cause).
 * - `savePoint: "suspended"` — the save at suspend; surfaces as the `cause` of a
 *   {@link SuspensionPersistenceFailedError}.
 */
export class SessionSaveFailedError<S extends StateRecord = StateRecord> extends SessionError {
  override name = "SessionSaveFailedError";
  readonly category = "session_save_failed" as const;
  readonly savePoint: SessionSavePoint;
  /** The committed invocation outcome, for a post-completion (auto-save) failure. */
  result: InvocationResult<S> | undefined;
  constructor(sessionId: string, cause: unknown, savePoint: SessionSavePoint, result?: InvocationResult<S>) {
    super(`saving session "${sessionId}" (${savePoint}) failed: ${messageOf(cause)}`, sessionId, { cause });
    this.savePoint = savePoint;
    this.result = result;
  }
}

/**
 * §10 `session_state_migration_missing`: the loaded record's `schemaVersion` differs from the
 * current one and no registered chain connects them. Carries the pipeline-utilities §10.10 surface.
 */
export class SessionStateMigrationMissingError extends SessionError {
  override name = "SessionStateMigrationMissingError";
  readonly category = "session_state_migration_missing" as const;
  /** The record's saved schema version. */
  readonly fromVersion: string;
  /** The current session schema version. */
  readonly toVersion: string;
  /** How many migrations are registered. */
  readonly registeredMigrationsCount: number;
  /** The registered migration set, rendered (`"v1" -> "v2", …` or `(none)`). */
  readonly registryDescription: string;
  constructor(fromVersion: string, toVersion: string, registeredMigrationsCount: number, registryDescription: string, sessionId?: string) {
    super(
      `no session migration chain from schema version ${JSON.stringify(fromVersion)} to ${JSON.stringify(toVersion)} ` +
        `(${registeredMigrationsCount} registered: ${registryDescription})`,
      sessionId,
    );
    this.fromVersion = fromVersion;
    this.toVersion = toVersion;
    this.registeredMigrationsCount = registeredMigrationsCount;
    this.registryDescription = registryDescription;
  }
}

/**
 * §10 `session_state_migration_chain_ambiguous`: a duplicate `(fromVersion, toVersion)` registration,
 * or two distinct shortest chains between two versions. The pair is nullable (pipeline-utilities §10.10).
 */
export class SessionStateMigrationChainAmbiguousError extends SessionError {
  override name = "SessionStateMigrationChainAmbiguousError";
  readonly category = "session_state_migration_chain_ambiguous" as const;
  readonly fromVersion: string | null;
  readonly toVersion: string | null;
  constructor(fromVersion: string | null, toVersion: string | null, detail: string, sessionId?: string) {
    super(`ambiguous session migration chain ${JSON.stringify(fromVersion)} -> ${JSON.stringify(toVersion)}: ${detail}`, sessionId);
    this.fromVersion = fromVersion;
    this.toVersion = toVersion;
  }
}

/**
 * §10 `session_state_migration_failed`: the migration `fromVersion -> toVersion` raised (`cause`)
 * or returned a non-mapping. Later migrations in the chain did not run; the graph did not run.
 */
export class SessionStateMigrationFailedError extends SessionError {
  override name = "SessionStateMigrationFailedError";
  readonly category = "session_state_migration_failed" as const;
  readonly fromVersion: string;
  readonly toVersion: string;
  constructor(fromVersion: string, toVersion: string, cause: unknown, sessionId?: string) {
    super(`session migration ${JSON.stringify(fromVersion)} -> ${JSON.stringify(toVersion)} failed: ${messageOf(cause)}`, sessionId, { cause });
    this.fromVersion = fromVersion;
    this.toVersion = toVersion;
  }
}

/**
 * §10 `session_write_conflict` (§8.2): `save(…, { expectedVersion })` found the stored record at
 * another version (`0` = no record). The engine does not retry; the application decides. When raised
 * by an auto-save, `result` is the committed invocation outcome (as for `session_save_failed`).
 */
export class SessionWriteConflictError<S extends StateRecord = StateRecord> extends SessionError {
  override name = "SessionWriteConflictError";
  readonly category = "session_write_conflict" as const;
  readonly expectedVersion: number;
  /** The version found in the store (`0` when no record exists). */
  readonly actualVersion: number;
  result: InvocationResult<S> | undefined;
  constructor(sessionId: string, expectedVersion: number, actualVersion: number) {
    super(`session "${sessionId}" is at version ${actualVersion}, expected ${expectedVersion}`, sessionId);
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
    this.result = undefined;
  }
}

/**
 * Project category `session_store_corrupt`: the store's `file` cannot be used — it is not a database
 * (`SQLITE_NOTADB`), it is damaged (`SQLITE_CORRUPT`), or its `table` is a foreign table of the same
 * name. `cause` is the driver's error. Restore the file from a backup or use another.
 */
export class SessionStoreCorruptError extends SessionError {
  override name = "SessionStoreCorruptError";
  readonly category = "session_store_corrupt" as const;
  /** The database file (`":memory:"` for an in-memory database). */
  readonly file: string;
  /** The sessions table. */
  readonly table: string;
  constructor(file: string, table: string, during: string, detail: string, sessionId?: string, cause?: unknown) {
    super(
      `session store file "${file}" (table "${table}") cannot be used while ${during}: ${detail}; ` +
        "restore it from a backup or point the store at another file",
      sessionId,
      cause !== undefined ? { cause } : undefined,
    );
    this.file = file;
    this.table = table;
  }
}

/**
 * Project category `session_store_unavailable`: the store's `file` cannot be opened or written — a
 * directory, a path whose folder does not exist, no permission, a read-only file, a full disk, an
 * I/O error. `cause` is the driver's error. The message names the file and what to do.
 */
export class SessionStoreUnavailableError extends SessionError {
  override name = "SessionStoreUnavailableError";
  readonly category = "session_store_unavailable" as const;
  /** The database file. */
  readonly file: string;
  /** The sessions table. */
  readonly table: string;
  constructor(file: string, table: string, during: string, detail: string, sessionId?: string, cause?: unknown) {
    super(`session store file "${file}" (table "${table}") cannot be used while ${during}: ${detail}`, sessionId, cause !== undefined ? { cause } : undefined);
    this.file = file;
    this.table = table;
  }
}

/**
 * Project category `session_invalid_id`: a session id argument is not a non-empty string (a number,
 * `null`, an object, `""`). Raised at the call, before any store is touched.
 */
export class SessionInvalidIdError extends SessionError {
  override name = "SessionInvalidIdError";
  readonly category = "session_invalid_id" as const;
  /** What was passed, described (the value itself may not be printable). */
  readonly received: string;
  constructor(received: unknown, what = "sessionId") {
    super(`${what} must be a non-empty string, got ${describeArgument(received)}`, undefined);
    this.received = describeArgument(received);
  }
}

/**
 * suspension §9 `suspension_persistence_failed` — defined by the suspension capability
 * (`src/suspension/errors.ts`); this layer raises it for suspension §8.6 *Atomic suspend* when the
 * session save at suspend fails (`part: "session"`, `cause` = the {@link SessionSaveFailedError} or
 * {@link SessionWriteConflictError}; `suspended` = the outcome the engine produced).
 */
export { SuspensionPersistenceFailedError } from "../suspension/errors.ts";

/** Is `e` one of the sessions §10 errors? */
export function isSessionError(e: unknown): e is SessionError {
  return e instanceof SessionError;
}
