/**
 * Error → user-facing reply (harness-chat §10): each harness §7 bucket maps to a system message the
 * chat UI shows as is. The default texts follow the spec's templates; pass your own
 * {@link ErrorReplies} to change the wording (the bucket semantics stay).
 */
import type { ErrorBucket, TurnError } from "../errors.ts";
import type { SystemMessage } from "./message.ts";

export type ErrorReplies = Readonly<Record<ErrorBucket, (error: TurnError) => string>>;

export const DEFAULT_ERROR_REPLIES: ErrorReplies = Object.freeze({
  session_terminating: () => "This conversation can't continue. Please start a new one.",
  retryable_transient: () => "I had trouble responding. Try again in a moment.",
  // §10.3: the diagnostic MUST come through, or the user cannot act on it.
  user_correctable: (e: TurnError) => `That request couldn't be processed: ${e.message}. Please adjust your message and try again.`,
});

export function errorReply(error: TurnError, replies: ErrorReplies = DEFAULT_ERROR_REPLIES): SystemMessage {
  return { role: "system", content: replies[error.bucket](error) };
}
