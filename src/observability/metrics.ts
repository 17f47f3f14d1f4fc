/**
 * Metrics (observability §11): the OpenTelemetry histograms and counter over provider calls, a
 * projection of the §6 typed event stream — nothing else is measured.
 *
 * - `openarmature.gen_ai.client.token.usage` (histogram, `{token}`): one observation per reported
 *   counter — LLM input and output, embedding input, rerank input (only when reported; search
 *   units are not tokens). A call whose usage is absent, or a counter that is null, records none.
 * - `openarmature.gen_ai.client.operation.duration` (histogram, `s`): one observation per call
 *   (per wire attempt under LLM call-level retry), failed ones carrying `error.type`.
 * - `openarmature.gen_ai.client.token_budget.exceeded` (counter, `{call}`) and
 *   `.token_budget.utilization` (histogram, `1`): LLM calls whose active prompt declared a
 *   `token_budget`, per declared bound whose actual counter is reported (§5.5.15).
 *
 * Dimensions (§11.3): `openarmature.gen_ai.operation` (`chat` / `embeddings` / `rerank`),
 * `gen_ai.request.model`, `gen_ai.system`, plus `openarmature.gen_ai.token.type` on token usage,
 * `error.type` on a failed call's duration and `openarmature.gen_ai.token_budget.kind` on the
 * budget instruments. Opt-in: nothing is created unless metrics are enabled; with no
 * `MeterProvider` configured the OTel global one is used, which is a silent no-op until an
 * application registers one.
 */
import { metrics, type Attributes, type Counter, type Histogram, type MeterProvider } from "@opentelemetry/api";
import type { ObserverEvent } from "../graph/index.ts";
import type { LlmCompletionEvent, LlmFailedEvent } from "../llm/events.ts";
import { isRetrievalEvent, type RetrievalEvent } from "../retrieval/events.ts";
import { IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION } from "./attributes.ts";

/** §11.2 instrument names. */
export const MetricName = {
  tokenUsage: "openarmature.gen_ai.client.token.usage",
  operationDuration: "openarmature.gen_ai.client.operation.duration",
  tokenBudgetExceeded: "openarmature.gen_ai.client.token_budget.exceeded",
  tokenBudgetUtilization: "openarmature.gen_ai.client.token_budget.utilization",
} as const;

/** §11.3 dimension keys. */
export const MetricDimension = {
  operation: "openarmature.gen_ai.operation",
  model: "gen_ai.request.model",
  system: "gen_ai.system",
  tokenType: "openarmature.gen_ai.token.type",
  errorType: "error.type",
  budgetKind: "openarmature.gen_ai.token_budget.kind",
} as const;

/** §11.2 SHOULD bucket boundaries. */
export const TOKEN_USAGE_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864];
export const DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
export const UTILIZATION_BUCKETS = [0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 2.0, 4.0];

/** The §11.3 base dimensions of one call. */
export interface CallDimensions {
  readonly operation: "chat" | "embeddings" | "rerank";
  readonly model: string;
  readonly system: string;
}

/**
 * The four §11.2 instruments on one `Meter`. {@link ProviderMetrics.record} projects a typed event
 * onto them; the `record*` primitives are public so any provider-call observer (the LLM family's,
 * a custom provider's) records through the same instruments and dimension rules.
 */
export class ProviderMetrics {
  readonly #tokenUsage: Histogram;
  readonly #duration: Histogram;
  readonly #budgetExceeded: Counter;
  readonly #budgetUtilization: Histogram;

  /** `meterProvider` default: the OTel global provider (a no-op until one is registered). */
  constructor(meterProvider: MeterProvider = metrics.getMeterProvider()) {
    const meter = meterProvider.getMeter(IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION);
    this.#tokenUsage = meter.createHistogram(MetricName.tokenUsage, { unit: "{token}", description: "Tokens used per provider call, by token type", advice: { explicitBucketBoundaries: TOKEN_USAGE_BUCKETS } });
    this.#duration = meter.createHistogram(MetricName.operationDuration, { unit: "s", description: "Wall-clock duration of a provider call", advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
    this.#budgetExceeded = meter.createCounter(MetricName.tokenBudgetExceeded, { unit: "{call}", description: "Declared prompt token-budget bounds a call's usage exceeded" });
    this.#budgetUtilization = meter.createHistogram(MetricName.tokenBudgetUtilization, { unit: "1", description: "Actual tokens / declared prompt token budget, per bound", advice: { explicitBucketBoundaries: UTILIZATION_BUCKETS } });
  }

  /** Project one typed event: LLM completion / failure, embedding and rerank events; others are ignored. */
  record(event: ObserverEvent): void {
    if (isRetrievalEvent(event)) this.#retrieval(event);
    else if (event.kind === "llm_completion" || event.kind === "llm_failed") this.#llm(event);
  }

  /** One token-usage observation; nothing when the counter is not reported (`null` / not a number). */
  recordTokens(call: CallDimensions, tokenType: "input" | "output", count: number | null | undefined): void {
    if (typeof count !== "number" || !Number.isFinite(count)) return;
    this.#tokenUsage.record(count, { ...base(call), [MetricDimension.tokenType]: tokenType });
  }

  /** One duration observation in seconds; `errorCategory` for a failed call (the `error.type`). */
  recordDuration(call: CallDimensions, seconds: number, errorCategory?: string): void {
    this.#duration.record(Math.max(0, seconds), errorCategory === undefined ? base(call) : { ...base(call), [MetricDimension.errorType]: errorCategory });
  }

  /** One declared budget bound evaluated against its reported actual: utilization always, exceeded on a breach. */
  recordBudget(call: CallDimensions, kind: "input" | "total", actual: number | null | undefined, budget: number | null | undefined): void {
    if (typeof actual !== "number" || typeof budget !== "number" || budget <= 0) return;
    const attrs = { ...base(call), [MetricDimension.budgetKind]: kind };
    this.#budgetUtilization.record(actual / budget, attrs);
    if (actual > budget) this.#budgetExceeded.add(1, attrs);
  }

  #retrieval(e: RetrievalEvent): void {
    const embedding = e.kind === "embedding" || e.kind === "embedding_failed";
    const call: CallDimensions = { operation: embedding ? "embeddings" : "rerank", model: e.model, system: e.provider };
    const seconds = (e.latencyMs ?? 0) / 1000;
    if (e.kind === "embedding_failed" || e.kind === "rerank_failed") {
      this.recordDuration(call, seconds, e.errorCategory);
      return;
    }
    if (e.usage !== null) this.recordTokens(call, "input", e.usage.input_tokens);
    this.recordDuration(call, seconds);
  }

  /**
   * An LLM call: per wire attempt (llm-provider §7.1) one duration (failed attempts with
   * `error.type`) and the input / output tokens of an attempt that returned usage (a
   * `structured_output_invalid` failure included); then the token budget from the terminal event.
   */
  #llm(e: LlmCompletionEvent | LlmFailedEvent): void {
    const call: CallDimensions = { operation: "chat", model: e.model, system: e.provider };
    const attempts = e.attempts.length > 0
      ? e.attempts.map((a) => ({ seconds: (a.endTime - a.startTime) / 1000, error: a.failure?.category, usage: a.response?.usage ?? null }))
      : [{ seconds: (e.latencyMs ?? 0) / 1000, error: e.kind === "llm_failed" ? e.errorCategory : undefined, usage: e.usage }];
    for (const a of attempts) {
      if (a.usage) {
        this.recordTokens(call, "input", a.usage.prompt_tokens);
        this.recordTokens(call, "output", a.usage.completion_tokens);
      }
      this.recordDuration(call, a.seconds, a.error);
    }
    const budget = e.tokenBudget;
    const usage = e.usage;
    if (budget === null || usage === null) return;
    this.recordBudget(call, "input", usage.prompt_tokens, budget.input_max_tokens);
    const total = usage.total_tokens ?? (usage.prompt_tokens !== null && usage.completion_tokens !== null ? usage.prompt_tokens + usage.completion_tokens : null);
    this.recordBudget(call, "total", total, budget.total_max_tokens);
  }
}

function base(call: CallDimensions): Attributes {
  return { [MetricDimension.operation]: call.operation, [MetricDimension.model]: call.model, [MetricDimension.system]: call.system };
}
