/** OpenAI-compatible error mapping (llm-provider §8.1.3). */
import type { LlmErrorCategory, LlmProviderError } from "../errors.ts";
import { errorBody, errorMessage, errorWords, httpError } from "../wire-errors.ts";

const CONTENT_BLOCK_WORDS = /image|audio|media[ _-]?type|content[ _-]?(type|block|part)|multimodal|vision/;

export function openAiCategory(status: number, words: string): LlmErrorCategory {
  if (status === 401 || status === 403) return "provider_authentication";
  if (status === 429) return "provider_rate_limit";
  if (status === 404) return /model/.test(words) ? "provider_invalid_model" : "provider_invalid_request";
  if (status === 503 && /not[ _-]?loaded|loading|model_not_ready/.test(words)) return "provider_model_not_loaded";
  if (status >= 500) return "provider_unavailable";
  if (status === 400 && CONTENT_BLOCK_WORDS.test(words)) return "provider_unsupported_content_block";
  return "provider_invalid_request";
}

export function openAiError(status: number, bodyText: string, headers: Headers): LlmProviderError {
  const body = errorBody(bodyText);
  return httpError("OpenAI-compatible provider", openAiCategory(status, errorWords(body, bodyText)), status, bodyText, errorMessage(body), headers);
}
