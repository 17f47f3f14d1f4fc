/**
 * Call-level retry (llm-provider §7.1): the pipeline-utilities §6.1 retry record (the same
 * `RetryOptions` the retry middleware takes), plus the two adaptive fields — a per-attempt
 * `RuntimeConfig` override schedule and a caller-supplied `reask` builder that makes
 * `structured_output_invalid` retryable for the call by appending the model's output and the
 * builder's correction to a working transcript. The caller's messages and config are never mutated.
 */
import { checkDelay, exponentialJitterBackoff, sleepSeconds } from "../pipeline/middleware/backoff.ts";
import { defaultClassifier } from "../pipeline/middleware/classifier.ts";
import { isCancellation } from "../pipeline/middleware/errors.ts";
import type { RetryOptions } from "../pipeline/middleware/retry.ts";
import { mergeConfig, type RuntimeConfig } from "./config.ts";
import { StructuredOutputInvalid } from "./errors.ts";
import type { Message } from "./messages.ts";

export interface CallRetry extends RetryOptions {
  /** Retry i (attempt i+1) uses the base config with entry i merged on top; the last entry carries forward. */
  readonly perAttemptOverride?: ReadonlyArray<RuntimeConfig>;
  /** Build the corrective user message for a `structured_output_invalid` attempt. */
  readonly reask?: (error: StructuredOutputInvalid) => string | Promise<string>;
}

/** Why an attempt was scheduled (§7.1 `retry_reason`); absent on attempt 0. */
export type RetryReason = "transient" | "reask";

export interface Attempt {
  readonly attemptIndex: number;
  readonly retryReason: RetryReason | undefined;
  readonly messages: ReadonlyArray<Message>;
  readonly config: RuntimeConfig | undefined;
}

/**
 * Run `once` under the retry policy. Cancellation propagates before the classifier is asked; the
 * reask builder runs only when a further attempt remains.
 */
export async function withCallRetry<T>(
  retry: CallRetry | undefined,
  messages: ReadonlyArray<Message>,
  config: RuntimeConfig | undefined,
  signal: AbortSignal | undefined,
  once: (attempt: Attempt) => Promise<T>,
): Promise<T> {
  if (!retry) return once({ attemptIndex: 0, retryReason: undefined, messages, config });
  const maxAttempts = retry.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`retry.maxAttempts must be an integer >= 1 (got ${maxAttempts})`);
  const classifier = retry.classifier ?? defaultClassifier;
  const backoff = retry.backoff ?? exponentialJitterBackoff();
  const sleep = retry.sleep ?? sleepSeconds;
  const overrides = retry.perAttemptOverride ?? [];
  const transcript: Message[] = [...messages];
  let reason: RetryReason | undefined;
  for (let attempt = 0; ; attempt++) {
    const override = attempt === 0 || overrides.length === 0 ? undefined : overrides[Math.min(attempt - 1, overrides.length - 1)];
    const attemptConfig = override ? mergeConfig(config, override) : config;
    try {
      return await once({ attemptIndex: attempt, retryReason: reason, messages: [...transcript], config: attemptConfig });
    } catch (error) {
      if (isCancellation(error) || signal?.aborted) throw error;
      const reask = retry.reask !== undefined && error instanceof StructuredOutputInvalid;
      if (!reask && !(await classifier(error, {}))) throw error;
      if (attempt + 1 >= maxAttempts) throw error;
      if (reask) {
        const correction = await retry.reask!(error as StructuredOutputInvalid);
        transcript.push({ role: "assistant", content: (error as StructuredOutputInvalid).output_content }, { role: "user", content: correction });
        reason = "reask";
      } else {
        reason = "transient";
      }
      await retry.onRetry?.(error, attempt);
      // A provider-supplied Retry-After (§7 provider_rate_limit) wins over the schedule.
      const retryAfter = (error as { retry_after_seconds?: unknown }).retry_after_seconds;
      await sleep(typeof retryAfter === "number" ? retryAfter : checkDelay(backoff(attempt), attempt), signal);
    }
  }
}
