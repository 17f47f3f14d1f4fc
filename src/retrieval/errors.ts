/**
 * retrieval-provider §7: the llm-provider §7 categories, inherited. A retrieval failure is a
 * {@link RetrievalProviderError} — an `LlmProviderError` subclass, so the §6.1 retry classifier
 * and anything that reads `category` / `status` / `body` treat both capabilities alike.
 */
import { LlmProviderError, type LlmErrorCategory, type LlmProviderErrorOptions } from "../llm/errors.ts";

/** The retrieval-applicable subset (§7): the llm-provider categories minus the two completion-only ones. */
export type RetrievalErrorCategory = Exclude<LlmErrorCategory, "provider_unsupported_content_block" | "structured_output_invalid">;

export class RetrievalProviderError extends LlmProviderError {
  override name = "RetrievalProviderError";
  declare readonly category: RetrievalErrorCategory;
  constructor(category: RetrievalErrorCategory, message: string, options: LlmProviderErrorOptions = {}) {
    super(category, message, options);
  }
}

/** A pre-send refusal naming the field. */
export function invalidRequest(field: string, problem: string): RetrievalProviderError {
  return new RetrievalProviderError("provider_invalid_request", `${field}: ${problem}`);
}

/** A malformed provider payload (§7 `provider_invalid_response`) naming what was wrong and where. */
export function invalidResponse(provider: string, problem: string, body?: unknown): RetrievalProviderError {
  return new RetrievalProviderError("provider_invalid_response", `${provider}: ${problem}`, body === undefined ? {} : { body: JSON.stringify(body) });
}

/**
 * The shared §8.1–§8.4 status table: 401 / 403 authentication, 404 unknown model, 429 rate limit,
 * 400 / 413 / 422 (and other 4xx) invalid request, 5xx (and anything else) unavailable.
 */
export function statusCategory(status: number): RetrievalErrorCategory {
  if (status === 401 || status === 403) return "provider_authentication";
  if (status === 404) return "provider_invalid_model";
  if (status === 429) return "provider_rate_limit";
  if (status === 408) return "provider_unavailable";
  if (status >= 400 && status < 500) return "provider_invalid_request";
  return "provider_unavailable";
}
