/**
 * `Response`, `Usage` and `finish_reason` (llm-provider §6), and the §7 malformed-usage rule.
 */
import type { AssistantMessage, JsonObject } from "./messages.ts";

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "error";

export interface Usage {
  readonly prompt_tokens: number | null;
  readonly completion_tokens: number | null;
  readonly total_tokens: number | null;
  readonly cached_tokens?: number | null;
  readonly cache_creation_tokens?: number | null;
}

export interface Response<P = unknown> {
  readonly message: AssistantMessage;
  readonly finish_reason: FinishReason;
  readonly usage: Usage;
  /** The parsed provider response verbatim (for a stream: the assembled chunks). */
  readonly raw: JsonObject;
  /** The validated structured value, when a `responseSchema` was supplied and content returned. */
  readonly parsed?: P;
}

export const NO_USAGE: Usage = Object.freeze({ prompt_tokens: null, completion_tokens: null, total_tokens: null });

/**
 * A wire usage counter, or `null` when it is absent or malformed (§7 *Malformed usage counter*:
 * a non-integer, a negative or a boolean is "not reported" — never raised, coerced or repaired).
 */
export function counter(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

/** A derived total (§7): `null` unless both addends were reported. */
export function derivedTotal(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}
