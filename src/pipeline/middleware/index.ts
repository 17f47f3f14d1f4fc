/**
 * Canonical middleware — public entry (pipeline-utilities §2–§6).
 *
 * Middleware wrap node execution: `(state, next, ctx) => update`, registered per graph with
 * `GraphBuilder.use(...)` (outer) and per node with `addNode(name, fn, { middleware: [...] })`
 * (inner); each list runs outer to inner (§3). The canonical ones:
 *
 * - {@link retry} (§6.1) with {@link defaultClassifier} and the {@link exponentialJitterBackoff} default;
 * - {@link timing} / {@link timingForGraph} (§6.2);
 * - {@link failureIsolation} (§6.3), emitting {@link FailureIsolationEvent}s;
 * - {@link classifyCause} (§6.4), the cause-chain classification primitive.
 *
 * Recommended stack for LLM-calling nodes, outer to inner:
 * `[timing…, failureIsolation({...}), retry({...})]`.
 */

// §6.4 cause-chain classification
export { classifyCause, categoryOf } from "./cause-chain.ts";
export type { CauseClassification, CauseLink } from "./cause-chain.ts";

// Errors and control signals
export { CategorizedError, isCancellation, isControlSignal } from "./errors.ts";
export type { CategorizedErrorOptions } from "./errors.ts";

// §6.1 retry
export { retry } from "./retry.ts";
export type { RetryOptions, RetryMiddleware } from "./retry.ts";
export {
  defaultClassifier,
  isTransientError,
  chainClassifier,
  TRANSIENT_CATEGORIES,
  NON_TRANSIENT_CATEGORIES,
} from "./classifier.ts";
export type { RetryClassifier } from "./classifier.ts";
export {
  exponentialJitterBackoff,
  exponentialBackoff,
  constantBackoff,
  linearBackoff,
  sleepSeconds,
} from "./backoff.ts";
export type { BackoffFn, SleepFn, ExponentialBackoffOptions, JitterBackoffOptions } from "./backoff.ts";

// §6.2 timing
export { timing, timingForGraph } from "./timing.ts";
export type { TimingRecord, TimingOptions, TimingCommonOptions, TimingMiddleware, MonotonicClock } from "./timing.ts";

// §6.3 failure isolation
export { failureIsolation } from "./failure-isolation.ts";
export type { FailureIsolationOptions, FailureIsolationMiddleware, DegradedUpdate } from "./failure-isolation.ts";
export { isFailureIsolationEvent } from "./events.ts";
export type { FailureIsolationEvent, CaughtException } from "./events.ts";
