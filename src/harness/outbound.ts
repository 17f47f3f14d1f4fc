/**
 * The outbound surface of a turn (harness §5): one of three shapes, distinct by `kind`, so a
 * transport can always tell completion from error from suspension (§5.1).
 */
import type { ErrorBucket } from "./errors.ts";

/** §5.1: the final state, or what `present` derived from it. */
export interface CompletionResponse {
  readonly kind: "completion_response";
  readonly payload: Readonly<Record<string, unknown>>;
}

/** §5.2: the categorized error and what the caller should do about it (§7). */
export interface ErrorResponse {
  readonly kind: "error_response";
  readonly payload: {
    /** The concrete category (`null` for an uncategorized error). */
    readonly category: string | null;
    readonly bucket: ErrorBucket;
    /** The diagnostic: the message of the link the category came from. */
    readonly diagnosticMessage: string;
    /** §7.2: retrying with the same inputs may succeed. */
    readonly retrySafe: boolean;
    /** §7.1: the session is broken; an operator must intervene (no auto-retry). */
    readonly interventionRequired: boolean;
    /** §7.3: the caller must change its input. */
    readonly userActionRequired: boolean;
  };
}

/** §5.3 step 3: the turn paused; the awaited signal resumes it. */
export interface SuspendedAcknowledgment {
  readonly kind: "suspended_acknowledgment";
  readonly payload: {
    readonly invocationId: string;
    readonly signalId: string;
    readonly metadata: Readonly<Record<string, unknown>>;
  };
}

export type OutboundResponse = CompletionResponse | ErrorResponse | SuspendedAcknowledgment;

export function errorResponse(e: { readonly category: string | null; readonly bucket: ErrorBucket; readonly message: string }): ErrorResponse {
  return {
    kind: "error_response",
    payload: {
      category: e.category,
      bucket: e.bucket,
      diagnosticMessage: e.message,
      retrySafe: e.bucket === "retryable_transient",
      interventionRequired: e.bucket === "session_terminating",
      userActionRequired: e.bucket === "user_correctable",
    },
  };
}
