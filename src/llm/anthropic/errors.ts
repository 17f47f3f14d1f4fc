/** Anthropic Messages error mapping (llm-provider §8.2.3). */
import type { LlmErrorCategory, LlmProviderError } from "../errors.ts";
import { errorBody, errorMessage, errorWords, httpError } from "../wire-errors.ts";

const CONTENT_BLOCK_WORDS = /image|media[ _-]?type|source type|unsupported (content|source)|does not support (image|vision)/;

export function anthropicCategory(status: number, type: string, words: string): LlmErrorCategory {
  if (status === 401 || status === 402 || status === 403 || type === "authentication_error" || type === "billing_error" || type === "permission_error") return "provider_authentication";
  if (status === 429 || type === "rate_limit_error") return "provider_rate_limit";
  if (status === 404 || type === "not_found_error") return "provider_invalid_model";
  if (status === 413 || type === "request_too_large") return "provider_invalid_request";
  if (status >= 500 || type === "api_error" || type === "overloaded_error" || type === "timeout_error") return "provider_unavailable";
  if (status === 400 && CONTENT_BLOCK_WORDS.test(words)) return "provider_unsupported_content_block";
  return "provider_invalid_request";
}

export function anthropicError(status: number, bodyText: string, headers: Headers): LlmProviderError {
  const body = errorBody(bodyText);
  const err = body?.["error"];
  const type = typeof err === "object" && err !== null && typeof (err as Record<string, unknown>)["type"] === "string" ? ((err as Record<string, unknown>)["type"] as string) : "";
  return httpError("Anthropic", anthropicCategory(status, type, errorWords(body, bodyText)), status, bodyText, errorMessage(body), headers);
}
