/**
 * Helpers the mappings share for §7 error mapping: reading an error body, `Retry-After`, and the
 * common status table (each mapping refines it with its own body conventions).
 */
import { LlmProviderError, vendorTypeOfBody, type LlmErrorCategory } from "./errors.ts";

/** The parsed error body, or undefined when the body is not JSON. */
export function errorBody(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date (§7 `provider_rate_limit`). */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const v = headers.get("retry-after");
  if (v === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/**
 * A categorized error for an HTTP failure, carrying the status and an excerpt of the body. The
 * message is the provider's own error message when the body has one (what a caller searches
 * logs for), else `<provider> answered HTTP <status>`.
 */
export function httpError(provider: string, category: LlmErrorCategory, status: number, bodyText: string, detail: string, headers: Headers): LlmProviderError {
  const retryAfter = category === "provider_rate_limit" ? retryAfterSeconds(headers) : undefined;
  return new LlmProviderError(category, detail || `${provider} answered HTTP ${status}`, {
    status,
    body: bodyText,
    ...(retryAfter !== undefined ? { retry_after_seconds: retryAfter } : {}),
  });
}

/** The lower-cased text of an error body's code / type / message members, for keyword tests. */
export function errorWords(body: Record<string, unknown> | undefined, bodyText: string): string {
  const err = body?.["error"];
  const e = typeof err === "object" && err !== null ? (err as Record<string, unknown>) : body ?? {};
  const parts = [e["code"], e["type"], e["message"], e["status"]].filter((x) => typeof x === "string") as string[];
  return (parts.length > 0 ? parts.join(" ") : bodyText).toLowerCase();
}

/** The error body's human message, if any (never the request, so never a key). */
export function errorMessage(body: Record<string, unknown> | undefined): string {
  const err = body?.["error"];
  const m = typeof err === "object" && err !== null ? (err as Record<string, unknown>)["message"] : typeof err === "string" ? err : body?.["message"];
  return typeof m === "string" ? m : "";
}

/**
 * The vendor's error type from a §7 error's body — `error.type` / `error.code` / `error.status`
 * (OpenAI, Anthropic, Gemini), or TEI's top-level `error_type` — else the error's class name
 * (graph-engine §6 `error_type`: a vendor error code or the exception class name).
 */
export function vendorErrorType(e: unknown): string | null {
  if (e instanceof LlmProviderError && e.vendor_type !== undefined) return e.vendor_type;
  const body = (e as { body?: unknown } | null)?.body;
  if (typeof body === "string" && body.length > 0) {
    const t = vendorTypeOfBody(body);
    if (t !== undefined) return t;
  }
  return e instanceof Error ? e.name : null;
}
