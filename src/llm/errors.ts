/**
 * llm-provider §7 error categories. Every provider failure is a {@link LlmProviderError}: a
 * {@link CategorizedError} (the project's one categorized error base, which the §6.1 retry
 * classifier already reads) whose `category` is one of the nine §7 strings, with the underlying
 * cause preserved as `cause`.
 *
 * No secret and no whole response body is kept: `body` is an excerpt of at most
 * {@link BODY_EXCERPT_CHARS} characters, and a provider passes every error it raises through
 * {@link redactError}, which replaces the credentials it was configured with (its API key, auth
 * headers) in the message, stack, body and along the `cause` chain — so neither `util.inspect(err)`
 * nor `JSON.stringify(err)` nor a log of it shows a key, even one the server echoed back.
 */
import { CategorizedError } from "../pipeline/middleware/errors.ts";
import type { Scrubber } from "./secrets.ts";
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
  /** The response body text (for a wire-format failure: the raw body); the error keeps an excerpt ({@link bodyExcerpt}). */
  readonly body?: string;
  /** `Retry-After` in seconds, when the provider sent one (§7 `provider_rate_limit`). */
  readonly retry_after_seconds?: number;
}

/** The most of a response body an error keeps (a longer body is cut, with a marker saying how long it was). */
export const BODY_EXCERPT_CHARS = 512;

/** `text` cut to at most {@link BODY_EXCERPT_CHARS} characters, the marker included. */
export function bodyExcerpt(text: string): string {
  if (text.length <= BODY_EXCERPT_CHARS) return text;
  const marker = `…[${text.length} chars, cut]`;
  let cut = BODY_EXCERPT_CHARS - marker.length;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--; // never half a surrogate pair
  return text.slice(0, cut) + marker;
}

/** The vendor's error type in an error body — `error.type` / `error.code` / `error.status`, or TEI's `error_type`. */
export function vendorTypeOfBody(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const body = parsed as Record<string, unknown>;
  const err = body["error"];
  const inner = typeof err === "object" && err !== null ? (err as Record<string, unknown>) : {};
  const t = inner["type"] ?? inner["code"] ?? inner["status"] ?? body["error_type"];
  return typeof t === "string" && t !== "" ? t : undefined;
}

export class LlmProviderError extends CategorizedError {
  override name = "LlmProviderError";
  declare readonly category: LlmErrorCategory;
  readonly status: number | undefined;
  /** An excerpt of the response body (at most {@link BODY_EXCERPT_CHARS} characters), known secrets redacted. */
  readonly body: string | undefined;
  readonly retry_after_seconds: number | undefined;
  /**
   * The vendor's error type read from the whole body of an HTTP error (graph-engine §6
   * `error_type`), kept because the excerpt may cut the JSON it sits in.
   */
  readonly vendor_type: string | undefined;

  constructor(category: LlmErrorCategory, message: string, options: LlmProviderErrorOptions = {}) {
    super(category, message, options.cause !== undefined ? { cause: options.cause } : {});
    this.status = options.status;
    this.body = options.body === undefined ? undefined : bodyExcerpt(options.body);
    this.retry_after_seconds = options.retry_after_seconds;
    this.vendor_type = options.body !== undefined && options.status !== undefined && options.status >= 400 ? vendorTypeOfBody(options.body) : undefined;
  }
}

/** Cause links {@link redactError} follows. */
const MAX_CAUSE_DEPTH = 16;

/**
 * `error`, with every secret `scrubber` knows replaced — in place, so its class and identity stay —
 * in its `message`, `stack` and `body`, and in those of each error along its `cause` chain (a string
 * cause is replaced). Anything that is not an {@link LlmProviderError} is returned untouched (an abort
 * reason is the caller's own value).
 */
export function redactError<E>(error: E, scrubber: Scrubber): E {
  if (!(error instanceof LlmProviderError) || scrubber.empty) return error;
  const seen = new Set<object>();
  let link: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof link === "object" && link !== null && !seen.has(link); depth++) {
    seen.add(link);
    const rec = link as Record<string, unknown>;
    for (const key of ["message", "stack", "body", "cause"]) {
      const v = rec[key];
      if (typeof v === "string" && scrubber.finds(v)) replaceOwn(rec, key, scrubber.text(v));
    }
    link = rec["cause"];
  }
  return error;
}

function replaceOwn(target: Record<string, unknown>, key: string, value: string): void {
  try {
    const enumerable = Object.prototype.propertyIsEnumerable.call(target, key);
    Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable });
  } catch {
    // a frozen foreign object: nothing can be changed on it
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
