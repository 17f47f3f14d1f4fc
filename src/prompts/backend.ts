/** The `PromptBackend` protocol (prompt-management §5). */
import type { Prompt } from "./prompt.ts";

export interface FetchOptions {
  /**
   * Bound on the staleness of a cached template this fetch may be served (§5): absent = the
   * backend's own behaviour, `0` = read the source, `N > 0` = no entry older than N seconds.
   * Negative is rejected with a `RangeError`. Cacheless backends ignore it.
   */
  readonly cacheTtlSeconds?: number | null;
  /** Cancels a fetch that does I/O. */
  readonly signal?: AbortSignal;
}

export interface PromptBackend {
  /** A name for messages and logs (`'filesystem:/srv/prompts'`, `'langfuse'`). */
  readonly name: string;
  /**
   * Fetch a prompt by name and label. Reentrant. Raises `prompt_not_found` when nothing matches
   * `(name, label)` and `prompt_store_unavailable` when the source cannot be reached.
   */
  fetch(name: string, label: string, options?: FetchOptions): Promise<Prompt>;
}

/** §5: a negative `cache_ttl_seconds` is an invalid argument. Returns the value (null for absent). */
export function checkCacheTtl(value: number | null | undefined, what = "cacheTtlSeconds"): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative number of seconds, got ${String(value)}`);
  }
  return value;
}

/** The label a backend uses when none is given (§5). */
export const DEFAULT_LABEL = "production";
