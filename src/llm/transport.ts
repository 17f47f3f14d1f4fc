/**
 * The HTTP transport every provider shares (llm-provider §5 / §7, and retrieval-provider through
 * it): one request through the injectable `fetch`, the body read as text, JSON parsing, and the
 * scrubber for the endpoint's credentials (`redactError` applies it to an error). A transport failure is `provider_unavailable`, a body that is not
 * JSON `provider_invalid_response`; an aborted `signal` rejects with its reason, never classified.
 */
import { LlmProviderError } from "./errors.ts";
import type { WireRequest } from "./mapping.ts";
import { MIN_CREDENTIAL_LENGTH, Scrubber, credentialsOf } from "./secrets.ts";

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

/**
 * The scrubber for what a provider bound to `endpoint` must never show: its API key and the
 * credentials its configured headers or base URL carry (`secrets.ts`), from
 * {@link MIN_CREDENTIAL_LENGTH} characters on.
 */
export function endpointScrubber(endpoint: { readonly baseUrl: string; readonly apiKey?: string; readonly headers?: Readonly<Record<string, string>> }): Scrubber {
  const credentials = [...(endpoint.apiKey ? [endpoint.apiKey] : []), ...credentialsOf(endpoint.baseUrl, endpoint.headers ?? {})];
  return new Scrubber(credentials.filter((c) => c.length >= MIN_CREDENTIAL_LENGTH));
}
