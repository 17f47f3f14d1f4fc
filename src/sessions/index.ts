/**
 * OpenArmature sessions (sessions spec): named, typed state that persists across `invoke()` calls
 * under a caller-supplied `session_id`.
 *
 * - §5 protocol: {@link SessionStore}; backends {@link InMemorySessionStore}, {@link SqliteSessionStore}.
 * - §3/§4/§6/§8/§9: {@link withSessions} → {@link SessionBoundGraph} (`invoke(initial, { sessionId })`,
 *   `save`, `load`, `delete`, `saveCurrent`); {@link saveSession} / {@link currentSessionId} inside nodes.
 * - §7: {@link SessionMigrationRegistry}. §10: the errors in `errors.ts`.
 *
 * See `README.md`.
 */
export type { SessionStore, SessionSaveOptions, SessionListFilter, SessionStoreStats } from "./session-store.ts";
export type { SessionRecord, SessionRecordInput, SessionSummary, SessionSaveResult, SessionStateData } from "./record.ts";
export { InMemorySessionStore } from "./in-memory.ts";
export { SqliteSessionStore, type SqliteSessionStoreOptions } from "./sqlite.ts";
export { type SessionProjection, type SessionFieldProjection, type SessionStateOf, type StateFieldName } from "./projection.ts";
export { currentSessionId, saveSession, type SessionSaveReport, type MidInvokeSaveOptions } from "./context.ts";
export {
  withSessions,
  SessionBoundGraph,
  type SessionOptions,
  type SessionInvokeOptions,
  type SessionInvocationInfo,
  type SessionInvocationResult,
  type LoadedSession,
} from "./lifecycle.ts";
export {
  SessionMigrationRegistry,
  defineSessionMigration,
  type SessionMigration,
  type SessionMigrationFn,
  type SessionMigrationStep,
} from "./migrations.ts";
export {
  SessionError,
  SessionLoadFailedError,
  SessionSaveFailedError,
  SessionStateMigrationMissingError,
  SessionStateMigrationChainAmbiguousError,
  SessionStateMigrationFailedError,
  SessionWriteConflictError,
  SessionStoreCorruptError,
  SessionStoreUnavailableError,
  SessionInvalidIdError,
  SuspensionPersistenceFailedError,
  isSessionError,
  SESSION_ERROR_CATEGORIES,
  type SessionErrorCategory,
  type SessionSavePoint,
} from "./errors.ts";
