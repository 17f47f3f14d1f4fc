/**
 * Errors at the turn boundary (harness §7, §10).
 *
 * - The four harness §10 categories: {@link HarnessSessionIdUnresolvedError},
 *   {@link HarnessSignalSubscriptionFailedError}, {@link HarnessSignalCorrelationFailedError},
 *   {@link HarnessPathClassificationAmbiguousError}.
 * - §7's three buckets ({@link ErrorBucket}) and {@link categorizeTurnError}, which reads an
 *   error's concrete category by the cause-chain rule (pipeline-utilities §6.4: the outermost
 *   non-carrier link with a category, else the carrier's own) and puts it in a bucket.
 */
import { classifyCause } from "../pipeline/middleware/cause-chain.ts";

/** harness §7: how the caller should treat an errored turn. */
export type ErrorBucket = "session_terminating" | "retryable_transient" | "user_correctable";

export const HARNESS_ERROR_CATEGORIES = [
  "harness_session_id_unresolved",
  "harness_signal_subscription_failed",
  "harness_signal_correlation_failed",
  "harness_path_classification_ambiguous",
] as const;
export type HarnessErrorCategory = (typeof HARNESS_ERROR_CATEGORIES)[number];

/** Base class of the harness §10 errors. `category` is the spec's identifier. */
export class HarnessError extends Error {
  override name = "HarnessError";
  constructor(readonly category: HarnessErrorCategory, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** §10 `harness_session_id_unresolved`: a sessioned transmission (§3.1 / §3.2) whose `session_id` could not be resolved. */
export class HarnessSessionIdUnresolvedError extends HarnessError {
  override name = "HarnessSessionIdUnresolvedError";
  constructor(why: string, options?: { cause?: unknown }) {
    super("harness_session_id_unresolved", `harness: the transmission's session_id could not be resolved: ${why}`, options);
  }
}

/** §10 `harness_signal_subscription_failed`: the coordinator refused the subscription at suspend time (§5.3 step 2, §6). */
export class HarnessSignalSubscriptionFailedError extends HarnessError {
  override name = "HarnessSignalSubscriptionFailedError";
  constructor(readonly invocationId: string, readonly signalId: string, cause: unknown) {
    super(
      "harness_signal_subscription_failed",
      `harness: could not register a signal subscription for suspended invocation ${invocationId} (signal "${signalId}"): ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
}

/** §10 `harness_signal_correlation_failed`: an arriving signal maps to no paused invocation (§6). */
export class HarnessSignalCorrelationFailedError extends HarnessError {
  override name = "HarnessSignalCorrelationFailedError";
  constructor(readonly signal: { readonly signalId?: string; readonly invocationId?: string }, why: string) {
    super(
      "harness_signal_correlation_failed",
      `harness: the arriving signal (${signal.invocationId !== undefined ? `invocation ${signal.invocationId}` : `signal "${signal.signalId ?? "?"}"`}) maps to no paused invocation: ${why}`,
    );
  }
}

/** §10 `harness_path_classification_ambiguous`: a transmission satisfies several §3 paths, or none. */
export class HarnessPathClassificationAmbiguousError extends HarnessError {
  override name = "HarnessPathClassificationAmbiguousError";
  constructor(why: string) {
    super("harness_path_classification_ambiguous", `harness: the transmission cannot be classified into exactly one dispatch path: ${why}`);
  }
}

/**
 * The default bucket of each category the specs name (harness §7, harness-chat §10). A category
 * not listed (an uncategorized node error, a graph-engine category) is `retryable_transient`: the
 * session is kept and the caller may try again — see {@link TurnErrorClassifier} to refine.
 */
export const DEFAULT_ERROR_BUCKETS: Readonly<Record<string, ErrorBucket>> = Object.freeze({
  // §7.1 / chat §10.1
  session_load_failed: "session_terminating",
  session_save_failed: "session_terminating",
  session_state_migration_chain_ambiguous: "session_terminating",
  session_state_migration_missing: "session_terminating",
  session_state_migration_failed: "session_terminating",
  session_store_corrupt: "session_terminating",
  suspension_persistence_failed: "session_terminating",
  suspension_record_invalid: "session_terminating",
  harness_session_id_unresolved: "session_terminating",
  state_validation_error: "session_terminating",
  // §7.2 / chat §10.2
  provider_unavailable: "retryable_transient",
  provider_rate_limit: "retryable_transient",
  provider_rate_limited: "retryable_transient",
  provider_timeout: "retryable_transient",
  provider_model_not_loaded: "retryable_transient",
  session_write_conflict: "retryable_transient",
  harness_signal_subscription_failed: "retryable_transient",
  // §7.3 / chat §10.3
  provider_invalid_request: "user_correctable",
  provider_invalid_response: "user_correctable",
  provider_authentication: "user_correctable",
  suspension_resume_payload_invalid: "user_correctable",
  harness_signal_correlation_failed: "user_correctable",
  harness_path_classification_ambiguous: "user_correctable",
  chat_message_shape_invalid: "user_correctable",
  // The chat harness's own (not a spec category): a message sent while a turn waits for a signal.
  chat_turn_pending: "user_correctable",
  // The stores' own input and availability categories (project categories, not the spec's): a
  // malformed id is the caller's to correct; a store file that cannot be used ends the session's turn
  // as a failed load or save does.
  session_invalid_id: "user_correctable",
  checkpoint_invalid_id: "user_correctable",
  postgres_input_invalid: "user_correctable",
  session_store_unavailable: "session_terminating",
  checkpoint_store_unavailable: "session_terminating",
});

/** A refinement of the §7 split ("implementations MAY refine"): return a bucket, or `undefined` for the default. */
export type TurnErrorClassifier = (category: string | null, error: unknown) => ErrorBucket | undefined;

/** An errored turn, categorized (§5.2, §7). */
export interface TurnError {
  /** The concrete category by the cause-chain rule; `null` for an uncategorized error. */
  readonly category: string | null;
  readonly bucket: ErrorBucket;
  /** The message of the link the category came from (the diagnostic a user-correctable reply carries). */
  readonly message: string;
  /** The error itself. */
  readonly error: unknown;
}

/** Categorize an error that reached the turn boundary (§7). */
export function categorizeTurnError(error: unknown, refine?: TurnErrorClassifier): TurnError {
  const c = classifyCause(error);
  // The engine's carrier (node_exception) stands only when nothing inside it is categorized.
  const category = c.category ?? c.chain.find((l) => l.carrier)?.category ?? null;
  const bucket = refine?.(category, error) ?? (category !== null ? DEFAULT_ERROR_BUCKETS[category] : undefined) ?? "retryable_transient";
  return { category, bucket, message: c.message, error };
}
