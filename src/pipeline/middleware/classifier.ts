/**
 * Retry classification (pipeline-utilities §6.1 *Default transient classifier*, *Classification
 * depth*, *Cancellation signals MUST propagate*).
 */
import type { MaybePromise, StateRecord } from "../../graph/index.ts";
import { categoryOf, classifyCause, isCarrier } from "./cause-chain.ts";
import { isCancellation } from "./errors.ts";

/**
 * A retry classifier (§6.1 `classifier`): `true` when `error` is retryable. `state` is the
 * pre-merge state the wrapped chain received on the failed attempt (the retry middleware's own
 * `state` argument); the default classifier ignores it.
 */
export type RetryClassifier<S extends StateRecord = StateRecord> = (error: unknown, state: Readonly<S>) => MaybePromise<boolean>;

/**
 * Categories the default classifier treats as transient: llm-provider §7's `provider_unavailable`,
 * `provider_rate_limit`, `provider_model_not_loaded`. Kept in lock-step with llm-provider §7
 * (§6.1: a §7 reclassification is a clarification PATCH here).
 */
export const TRANSIENT_CATEGORIES: ReadonlySet<string> = Object.freeze(
  new Set(["provider_unavailable", "provider_rate_limit", "provider_model_not_loaded"]),
);

/**
 * Categories the default classifier never treats as transient, whatever an error's own
 * `transient` marking says: llm-provider §7's non-transient set, the graph-engine §4 categories
 * (carriers are looked through, see {@link isTransientError}), and the pipeline-utilities runtime
 * categories its sections declare non-transient (§9 fan-out configuration, §10.10 checkpoint
 * errors). Carriers (`node_exception`, `parallel_branches_branch_failed`) inherit from their cause.
 */
export const NON_TRANSIENT_CATEGORIES: ReadonlySet<string> = Object.freeze(
  new Set([
    "provider_authentication",
    "provider_invalid_model",
    "provider_invalid_request",
    "provider_invalid_response",
    "provider_unsupported_content_block",
    "structured_output_invalid",
    "edge_exception",
    "reducer_error",
    "routing_error",
    "state_validation_error",
    "fan_out_empty",
    "fan_out_invalid_count",
    "fan_out_invalid_concurrency",
    "fan_out_field_not_list",
    "checkpoint_not_found",
    "checkpoint_record_invalid",
    "checkpoint_state_migration_missing",
    "checkpoint_state_migration_failed",
    "checkpoint_state_migration_chain_ambiguous",
  ]),
);

/** The surface-level decision for one (non-carrier) error: its category, else its own marking. */
function transientAtSurface(error: unknown): boolean {
  const category = categoryOf(error);
  if (category !== null) {
    if (NON_TRANSIENT_CATEGORIES.has(category)) return false;
    if (TRANSIENT_CATEGORIES.has(category)) return true;
  }
  return typeof error === "object" && error !== null && (error as { transient?: unknown }).transient === true;
}

/**
 * The §6.1 default classification of `error`, **single-level by design**: `true` when the error's
 * category is transient ({@link TRANSIENT_CATEGORIES}) or the error is marked `transient: true` by
 * its carrying spec; for a graph-engine §4 carrier (`node_exception`, or a subtype such as
 * `parallel_branches_branch_failed`), the same test on its *direct* cause. Cancellation is never
 * transient. A transient buried two or more carriers deep is the inner scope's to retry — use
 * {@link chainClassifier} for full-chain classification at an outer scope.
 */
export function isTransientError(error: unknown): boolean {
  if (isCancellation(error)) return false;
  if (!isCarrier(error)) return transientAtSurface(error);
  const cause: unknown = (error as { cause?: unknown }).cause;
  return cause !== error && !isCarrier(cause) && transientAtSurface(cause);
}

/** §6.1's default classifier: ignores `state`, classifies by category ({@link isTransientError}). */
export const defaultClassifier: RetryClassifier = (error) => isTransientError(error);

/**
 * A full-chain classifier (§6.1 *Classification depth*: "a caller that genuinely needs full-chain
 * retry classification … supplies a custom classifier that walks the chain via the §6.4
 * primitive"): retryable when the §6.4 derived category of the error's cause chain is in
 * `categories` (default {@link TRANSIENT_CATEGORIES}). Cancellation is never retryable.
 */
export function chainClassifier(categories: Iterable<string> = TRANSIENT_CATEGORIES): RetryClassifier {
  const set = new Set(categories);
  return (error) => {
    if (isCancellation(error)) return false;
    const { category } = classifyCause(error);
    return category !== null && set.has(category);
  };
}
