/** Google Gemini error mapping (llm-provider §8.3.3): HTTP status plus the `error.status` string. */
import type { LlmErrorCategory, LlmProviderError } from "../errors.ts";
import { errorBody, errorMessage, errorWords, httpError } from "../wire-errors.ts";

/**
 * A 400 / 403 naming the rejected part (§8.3.3): a media type, a `fileUri` (incl. Gemini's 403 "You
 * do not have permission to access the File <uri> or it may not exist" for a file the model cannot
 * read), an image.
 */
const CONTENT_PART_WORDS = /mime|media[ _-]?type|file ?uri|unsupported (image|content|part|file)|image|access the file /;

export function geminiCategory(status: number, words: string): LlmErrorCategory {
  if ((status === 400 || status === 403) && CONTENT_PART_WORDS.test(words)) return "provider_unsupported_content_block";
  if (status === 401 || status === 403 || /unauthenticated|permission_denied/.test(words)) return "provider_authentication";
  if (status === 404) return "provider_invalid_model";
  if (status === 429) return "provider_rate_limit";
  if (status >= 500) return "provider_unavailable";
  return "provider_invalid_request";
}

export function geminiError(status: number, bodyText: string, headers: Headers): LlmProviderError {
  const body = errorBody(bodyText);
  return httpError("Gemini", geminiCategory(status, errorWords(body, bodyText)), status, bodyText, errorMessage(body), headers);
}
