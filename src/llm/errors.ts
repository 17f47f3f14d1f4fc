/**
 * llm-provider §7 error categories. Every provider failure is a {@link LlmProviderError}: a
 * {@link CategorizedError} (the project's one categorized error base, which the §6.1 retry
 * classifier already reads) whose `category` is one of the nine §7 strings, with the underlying
 * cause preserved as `cause`. Messages never carry an API key.
 */
import { CategorizedError } from "../pipeline/middleware/errors.ts";
import type { JsonObject } from "./messages.ts";
import type { FinishReason, Usage } from "./response.ts";
import type { JsonSchema } from "./tools.ts";

export type LlmErrorCategory =
  | "provider_authentication"
  | "provider_unavailable"
  | "provider_invalid_model"
  | "provider_model_not_loaded"
  | "provider_rate_limit"
  | "provider_invalid_response"
  | "provider_invalid_request"
  | "provider_unsupported_content_block"
  | "structured_output_invalid";

/** The §7 categories, in spec order. */
export const LLM_ERROR_CATEGORIES: ReadonlyArray<LlmErrorCategory> = Object.freeze([
  "provider_authentication",
  "provider_unavailable",
  "provider_invalid_model",
  "provider_model_not_loaded",
  "provider_rate_limit",
  "provider_invalid_response",
  "provider_invalid_request",
  "provider_unsupported_content_block",
  "structured_output_invalid",
]);

export interface LlmProviderErrorOptions {
  readonly cause?: unknown;
  /** HTTP status of the response that produced the error, when there was one. */
  readonly status?: number;
  /** The response body text verbatim (for a wire-format failure: the raw body). */
  readonly body?: string;
  /** `Retry-After` in seconds, when the provider sent one (§7 `provider_rate_limit`). */
  readonly retry_after_seconds?: number;
}

export class LlmProviderError extends CategorizedError {
  override name = "LlmProviderError";
  declare readonly category: LlmErrorCategory;
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly retry_after_seconds: number | undefined;

  constructor(category: LlmErrorCategory, message: string, options: LlmProviderErrorOptions = {}) {
    super(category, message, options.cause !== undefined ? { cause: options.cause } : {});
    this.status = options.status;
    this.body = options.body;
    this.retry_after_seconds = options.retry_after_seconds;
  }
}

/** A pre-send refusal (§3 / §4 / §5 validation): `provider_invalid_request` naming the field. */
export function invalidRequest(field: string, problem: string): LlmProviderError {
  return new LlmProviderError("provider_invalid_request", `${field}: ${problem}`);
}

/**
 * `structured_output_invalid` (§7): the content could not be parsed as JSON or did not validate
 * against `response_schema`. Exposes the 0082 diagnostics surface the call-level `reask` reads.
 */
export class StructuredOutputInvalid extends LlmProviderError {
  override name = "StructuredOutputInvalid";
  readonly response_schema: JsonSchema;
  /** The verbatim content the model produced. */
  readonly output_content: string;
  /** What failed: the parse error's message or the failing JSON Pointer and rule. */
  readonly error_message: string;
  readonly finish_reason: FinishReason;
  readonly usage: Usage;
  /**
   * The parsed provider response whose content failed (set by the provider that received it; the
   * typed `LlmFailedEvent` reads its response id and model, graph-engine §6).
   */
  raw: JsonObject | undefined = undefined;

  constructor(fields: {
    response_schema: JsonSchema;
    output_content: string;
    error_message: string;
    finish_reason: FinishReason;
    usage: Usage;
    cause?: unknown;
  }) {
    super("structured_output_invalid", `structured output invalid: ${fields.error_message}`, fields.cause !== undefined ? { cause: fields.cause } : {});
    this.response_schema = fields.response_schema;
    this.output_content = fields.output_content;
    this.error_message = fields.error_message;
    this.finish_reason = fields.finish_reason;
    this.usage = fields.usage;
  }
}

export function isLlmProviderError(e: unknown): e is LlmProviderError {
  return e instanceof LlmProviderError;
}
