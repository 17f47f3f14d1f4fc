/**
 * The session record (sessions §2 *SessionRecord*, §5) and its JSON encoding.
 *
 * A record is `sessionId` + the serialized session state + `schemaVersion` + backend metadata
 * (`createdAt`, `updatedAt`, and a `version` counter for §8.2 optimistic concurrency). State is
 * stored as JSON (schema-independent — what §7 migrations receive): only JSON-native values are
 * accepted (plain objects, arrays, strings, finite numbers, booleans, `null`; `undefined` object
 * members are dropped). Both bundled stores share {@link encodeSessionState} /
 * {@link decodeSessionState}, so they accept and return exactly the same shapes.
 */
import { SessionInvalidIdError } from "./errors.ts";

/** A session state in its serialized, schema-independent form (sessions §7; what migrations see). */
export type SessionStateData = Readonly<Record<string, unknown>>;

/** What a caller hands to `SessionStore.save()` (§5.2). The store adds the metadata. */
export interface SessionRecordInput {
  /** The session state (§4: the projected `SessionState`, or the full state for §4.1). JSON-native. */
  readonly state: SessionStateData;
  /** The session schema version the state is shaped for (§7). Default `""` (undeclared). */
  readonly schemaVersion?: string;
}

/** A stored session record (§2, §5.1). */
export interface SessionRecord {
  readonly sessionId: string;
  readonly state: SessionStateData;
  /** The schema version the state was saved under (`""` = undeclared). */
  readonly schemaVersion: string;
  /** First save under this `sessionId` (kept across overwrites). */
  readonly createdAt: Date;
  /** Last save. */
  readonly updatedAt: Date;
  /** §8.2 version counter: 1 after the first save, +1 per save. */
  readonly version: number;
}

/** Lightweight listing entry (§5.4): no state. */
export interface SessionSummary {
  readonly sessionId: string;
  readonly schemaVersion: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly version: number;
}

/** What the bundled stores' `save()` resolves with (§5.2 backend extension: the new version token). */
export interface SessionSaveResult {
  readonly version: number;
  readonly updatedAt: Date;
}

/** Check a `session_id` (§2: a caller-supplied, non-empty string): `session_invalid_id` otherwise. */
export function checkSessionId(sessionId: unknown, what = "sessionId"): asserts sessionId is string {
  if (typeof sessionId !== "string" || sessionId.length === 0) throw new SessionInvalidIdError(sessionId, what);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "object") return (v as object).constructor?.name ?? "object";
  return typeof v;
}

function checkJson(v: unknown, path: string, seen: Set<object>): void {
  switch (typeof v) {
    case "string":
    case "boolean":
      return;
    case "number":
      if (!Number.isFinite(v)) throw new TypeError(`session state ${path || "(root)"} is ${v}: not JSON-native`);
      return;
    case "object": {
      if (v === null) return;
      if (seen.has(v)) throw new TypeError(`session state ${path || "(root)"} is a cycle`);
      seen.add(v);
      if (Array.isArray(v)) {
        v.forEach((x, i) => checkJson(x, `${path}[${i}]`, seen));
      } else {
        const proto = Object.getPrototypeOf(v) as unknown;
        if (proto !== Object.prototype && proto !== null) {
          throw new TypeError(`session state ${path || "(root)"} is a ${describe(v)}: only plain objects are JSON-native`);
        }
        for (const [k, x] of Object.entries(v)) {
          if (x !== undefined) checkJson(x, `${path}.${k}`, seen);
        }
      }
      seen.delete(v);
      return;
    }
    default:
      throw new TypeError(`session state ${path || "(root)"} is a ${describe(v)}: not JSON-native`);
  }
}

/** Serialize a session state to JSON text, rejecting non-JSON-native values with a `TypeError`. */
export function encodeSessionState(state: SessionStateData): string {
  if (typeof state !== "object" || state === null || Array.isArray(state)) {
    throw new TypeError("session state must be a mapping");
  }
  checkJson(state, "", new Set());
  return JSON.stringify(state);
}

/** Parse JSON text written by {@link encodeSessionState} (a `SyntaxError` / `TypeError` when corrupt). */
export function decodeSessionState(text: string): Record<string, unknown> {
  const v: unknown = JSON.parse(text);
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new TypeError("stored session state is not a mapping");
  return v as Record<string, unknown>;
}

/** Check a `schemaVersion` argument. */
export function checkSchemaVersion(v: unknown): string {
  if (v === undefined) return "";
  if (typeof v !== "string") throw new TypeError("schemaVersion must be a string");
  return v;
}

/** A stored row, as both bundled stores keep it: the encoded state plus versioning and timestamps (ms). */
export interface StoredSessionRow {
  readonly state: string;
  readonly schemaVersion: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly version: number;
}

/** The frozen {@link SessionRecord} a store returns from `load()` for a stored row. */
export function sessionRecordOf(sessionId: string, row: StoredSessionRow): SessionRecord {
  return Object.freeze({
    sessionId,
    state: decodeSessionState(row.state),
    schemaVersion: row.schemaVersion,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    version: row.version,
  });
}
