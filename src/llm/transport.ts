/**
 * The HTTP transport every provider shares (llm-provider §5 / §7, and retrieval-provider through
 * it): one request through the injectable `fetch`, the body read as text, JSON parsing, and the
 * API key scrubbed from an error. A transport failure is `provider_unavailable`, a body that is not
 * JSON `provider_invalid_response`; an aborted `signal` rejects with its reason, never classified.
 */
import { LlmProviderError } from "./errors.ts";
import type { WireRequest } from "./mapping.ts";

/** The `fetch` shape a provider calls (the global one by default; inject a fake or a cassette). */
export type FetchFn = (input: string, init: RequestInit) => Promise<globalThis.Response>;

/** Send `request` through `fetchFn` (global `fetch` when undefined); `provider` names the caller in errors. */
export async function send(fetchFn: FetchFn | undefined, provider: string, request: WireRequest, signal: AbortSignal | undefined): Promise<globalThis.Response> {
  const f = fetchFn ?? (globalThis.fetch as FetchFn);
  try {
    return await f(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      ...(signal !== undefined ? { signal } : {}),
    });
  } catch (cause) {
    if (signal?.aborted || (cause as { name?: string })?.name === "AbortError") throw cause;
    throw new LlmProviderError("provider_unavailable", `${provider}: could not reach ${request.method} ${request.url}: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

export async function readText(res: globalThis.Response, signal: AbortSignal | undefined): Promise<string> {
  try {
    return await res.text();
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new LlmProviderError("provider_unavailable", `the response body could not be read: ${(cause as Error).message}`, { cause, status: res.status });
  }
}

export function parseBody(text: string, status: number): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new LlmProviderError("provider_invalid_response", `the response body is not JSON: ${(cause as Error).message}`, { cause, status, body: text });
  }
}

/** `error` with `apiKey` scrubbed from its message and body (the same error when it carries none). */
export function scrubKey(error: LlmProviderError, apiKey: string | undefined): LlmProviderError {
  if (!apiKey || (!error.message.includes(apiKey) && !(error.body ?? "").includes(apiKey))) return error;
  const scrub = (s: string): string => s.split(apiKey).join("[redacted]");
  return new LlmProviderError(error.category, scrub(error.message), {
    ...(error.status !== undefined ? { status: error.status } : {}),
    body: scrub(error.body ?? ""),
    ...(error.retry_after_seconds !== undefined ? { retry_after_seconds: error.retry_after_seconds } : {}),
  });
}
