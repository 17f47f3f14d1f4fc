/**
 * The suspension §9 error categories, as typed graph-engine §4 errors.
 *
 * | category | raised |
 * |---|---|
 * | `suspension_persistence_failed` | the paused-invocation record (or, §8.6, the session saved beside it) could not be written at suspend: the outcome is errored, not suspended |
 * | `suspension_record_invalid` | resume of an invocation id with no paused record in `suspended` status (completed, errored, already resumed, never existed, or the latest record is a checkpoint) — or of an id that is not a non-empty string (reason `invalid_id`, before any store is touched) |
 * | `suspension_resume_payload_invalid` | the signal payload merged over the paused state does not validate against the state schema (§6) |
 * | `suspension_in_unsupported_context` | `suspend()` outside a node body of a suspendable invocation: outside any invocation, from middleware (§8.4), inside a `collect`-mode fan-out instance or parallel branch (§8.2 / §8.3) |
 *
 * Each is a {@link GraphRuntimeError} with a canonical `category` (registered on
 * `RuntimeErrorCategories` by declaration merging) and `transient = false`: the engine never
 * retries them (suspension §8.6 *Backend-level mitigation*). Raised inside a node body, the engine
 * carries them in a `node_exception` whose `cause` is the suspension error; the §5.8 / pipeline-utilities
 * §6.4 category rule reads the suspension category through the carrier.
 */
import { describeArgument } from "../checkpoint/errors.ts";
import { GraphRuntimeError, type ErrorLocation, type StateRecord, type SuspendedInvocation, type ValidationIssue, messageOf } from "../graph/index.ts";

declare module "../graph/errors.ts" {
  interface RuntimeErrorCategories {
    /** suspension §9: the paused-invocation record (or the session beside it, §8.6) could not be persisted. */
    suspension_persistence_failed: true;
    /** suspension §9: resume requested for an invocation that is not suspended. */
    suspension_record_invalid: true;
    /** suspension §9: the merged signal payload does not validate against the state schema. */
    suspension_resume_payload_invalid: true;
    /** suspension §9: `suspend()` called where it is not permitted. */
    suspension_in_unsupported_context: true;
  }
}

/** The four suspension §9 categories. */
export type SuspensionErrorCategory =
  | "suspension_persistence_failed"
  | "suspension_record_invalid"
  | "suspension_resume_payload_invalid"
  | "suspension_in_unsupported_context";

/** Every suspension §9 category, in spec order. */
export const SUSPENSION_ERROR_CATEGORIES: readonly SuspensionErrorCategory[] = Object.freeze([
  "suspension_persistence_failed",
  "suspension_record_invalid",
  "suspension_resume_payload_invalid",
  "suspension_in_unsupported_context",
]);


/** Base class of the suspension §9 errors. Never transient. */
export abstract class SuspensionError extends GraphRuntimeError {
  abstract override readonly category: SuspensionErrorCategory;
  readonly transient = false;
  constructor(message: string, location: ErrorLocation = {}, options?: ErrorOptions) {
    super(message, location, options);
  }
}

/** Which write failed at suspend. */
export type PersistedPart = "paused_record" | "session";

/**
 * §9 `suspension_persistence_failed`: at suspend, the paused-invocation record could not be
 * written (`part: "paused_record"`, `cause` = the backend's error), or — §8.6 *Atomic suspend* —
 * the session save beside it failed (`part: "session"`, `cause` = the session error; no paused
 * record is written then). The invocation is errored; `suspended` is the outcome the engine
 * produced (its state is what could not be saved). Catchable like any error (§3).
 */
export class SuspensionPersistenceFailedError<S extends StateRecord = StateRecord> extends SuspensionError {
  override name = "SuspensionPersistenceFailedError";
  readonly category = "suspension_persistence_failed" as const;
  readonly part: PersistedPart;
  /** The session bound to the invocation, when there is one. */
  readonly sessionId: string | undefined;
  /** The suspended outcome that could not be persisted. */
  readonly suspended: SuspendedInvocation<S>;
  constructor(
    cause: unknown,
    init: { readonly suspended: SuspendedInvocation<S>; readonly part?: PersistedPart; readonly sessionId?: string | undefined },
  ) {
    const part = init.part ?? "paused_record";
    const what = part === "session" ? `the session${init.sessionId !== undefined ? ` "${init.sessionId}"` : ""}` : "the paused-invocation record";
    super(
      `${what} could not be persisted at suspend: ${messageOf(cause)}`,
      { nodeName: init.suspended.nodeName, namespace: init.suspended.namespace, state: init.suspended.state },
      { cause },
    );
    this.part = part;
    this.sessionId = init.sessionId;
    this.suspended = init.suspended;
    this.invocationId = init.suspended.invocationId;
    this.executionOrder = init.suspended.executionOrder;
  }
}

/** Why a resume found no resumable record. */
export type RecordInvalidReason =
  | "missing"
  | "resumed"
  | "completed"
  | "errored"
  | "not_a_paused_record"
  | "malformed"
  | "incompatible"
  | "invalid_id";

/**
 * §9 `suspension_record_invalid`: resume (§7 step 2) of `invocationId` found no paused record in
 * `suspended` status. `reason`: `missing` (never existed, or deleted / cancelled), `resumed`
 * (already resumed — a second resume of one suspension), `completed` / `errored` (the resumed run
 * ended), `not_a_paused_record` (the latest record under the id is a checkpoint record,
 * pipeline-utilities §10.15), `malformed` (the stored record cannot be read), `incompatible` (it
 * does not fit the current graph: schema version, topology, or session), `invalid_id` (the id is not
 * a non-empty string — `42`, `null`, `{}` — so it cannot name a paused record; then
 * `invocationId` is `undefined` and the message describes what was passed).
 */
export class SuspensionRecordInvalidError extends SuspensionError {
  override name = "SuspensionRecordInvalidError";
  readonly category = "suspension_record_invalid" as const;
  readonly reason: RecordInvalidReason;
  constructor(invocationId: string, reason: RecordInvalidReason, detail?: string, options?: ErrorOptions);
  constructor(invocationId: unknown, reason: "invalid_id", detail?: string, options?: ErrorOptions);
  constructor(invocationId: unknown, reason: RecordInvalidReason, detail?: string, options?: ErrorOptions) {
    const why: Record<RecordInvalidReason, string> = {
      missing: "no paused-invocation record exists for it",
      resumed: "it was already resumed",
      completed: "its resumed run already completed",
      errored: "its resumed run errored",
      not_a_paused_record: "its latest record is a checkpoint record, not a paused-invocation record",
      malformed: "its paused-invocation record cannot be read",
      incompatible: "its paused-invocation record does not fit this graph",
      invalid_id: "an invocation id is a non-empty string; pass the id the suspended outcome carried",
    };
    const named = typeof invocationId === "string" && invocationId !== "" ? `"${invocationId}"` : describeArgument(invocationId);
    super(`cannot resume invocation ${named}: ${why[reason]}${detail ? ` (${detail})` : ""}`, {}, options);
    this.reason = reason;
    this.invocationId = typeof invocationId === "string" && invocationId !== "" ? invocationId : undefined;
  }
}

/**
 * §9 `suspension_resume_payload_invalid`: the signal payload merged over the paused state (§6
 * shallow overlay) does not validate against the state schema. Nothing ran; the paused record is
 * still `suspended` (a corrected payload may resume it). `cause` is the engine's
 * `state_validation_error`; `fields` / `issues` name the offending fields.
 */
export class SuspensionResumePayloadInvalidError extends SuspensionError {
  override name = "SuspensionResumePayloadInvalidError";
  readonly category = "suspension_resume_payload_invalid" as const;
  readonly fields: readonly string[];
  readonly issues: readonly ValidationIssue[];
  constructor(invocationId: string, issues: readonly ValidationIssue[], options?: ErrorOptions) {
    const fields = [...new Set(issues.map((i) => i.field))];
    super(
      `the signal payload for invocation "${invocationId}" does not validate against the state schema: ` +
        issues.map((i) => `${i.path || i.field} ${i.message}`).join("; "),
      {},
      options,
    );
    this.fields = Object.freeze(fields);
    this.issues = Object.freeze([...issues]);
    this.invocationId = invocationId;
  }
}

/** Where `suspend()` was called from, when that is not permitted (§3 table, §9). */
export type UnsupportedContext =
  /** (a) no invocation is running in this async context. */
  | "outside_invocation"
  /** (a) the invocation was not started through `withSuspension()`: nothing can persist the pause. */
  | "not_suspendable"
  /** (c) from middleware (before `next()`, or between attempts), §8.4. */
  | "middleware"
  /** (b) inside an instance of a `collect`-mode fan-out, §8.2. */
  | "collect_fan_out"
  /** (b) inside a branch of a `collect`-mode parallel-branches node, §8.3. */
  | "collect_parallel_branches";

/**
 * §9 `suspension_in_unsupported_context`: `suspend()` was called where the §3 table forbids it.
 * Raised from the `suspend()` call (so a node body sees it as a normal error); under `collect` or a
 * catching middleware the engine still fails the invocation with it at the next node boundary —
 * the suspension cannot be suppressed.
 */
export class SuspensionInUnsupportedContextError extends SuspensionError {
  override name = "SuspensionInUnsupportedContextError";
  readonly category = "suspension_in_unsupported_context" as const;
  readonly context: UnsupportedContext;
  constructor(context: UnsupportedContext, location: ErrorLocation = {}) {
    const at = location.namespace && location.namespace.length > 0 ? ` (node ${location.namespace.join("/")})` : "";
    const why: Record<UnsupportedContext, string> = {
      outside_invocation: "suspend() was called outside an invocation",
      not_suspendable:
        "suspend() was called in an invocation that cannot persist a pause: run the graph through withSuspension()",
      middleware: "suspend() was called from middleware; suspend from a node body (a preceding regular node) instead (§8.4)",
      collect_fan_out: 'suspend() was called inside a fan-out instance whose fan-out uses error_policy "collect" (§8.2)',
      collect_parallel_branches:
        'suspend() was called inside a parallel branch whose node uses error_policy "collect" (§8.3)',
    };
    super(why[context] + at, location);
    this.context = context;
  }
}

/** Is `e` one of the suspension §9 errors? */
export function isSuspensionError(e: unknown): e is SuspensionError {
  return e instanceof SuspensionError;
}
