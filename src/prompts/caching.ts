/**
 * A caching wrapper for any `PromptBackend` (prompt-management §5 `cache_ttl_seconds`): it keeps the
 * last fetched `Prompt` per `(name, label)` and serves it per the caller's bound:
 *
 * - `cacheTtlSeconds` absent: the wrapper's `defaultTtlSeconds` (absent: a cached entry is served
 *   whatever its age; the source is read only on a miss);
 * - `0`: the source is read (the fresh result replaces the cached one);
 * - `N > 0`: an entry at most N seconds old is served, an older one is re-read.
 *
 * A served entry is the `Prompt` as fetched: its `template_hash` and original `fetched_at` are kept
 * (§5: caching never breaks content-addressing). Errors are never cached. Concurrent misses for one
 * key share one source read.
 */
import { checkCacheTtl, type FetchOptions, type PromptBackend } from "./backend.ts";
import type { Prompt } from "./prompt.ts";

export interface CachingOptions {
  /** Staleness bound applied when a fetch gives none. Default: none (serve any cached entry). */
  readonly defaultTtlSeconds?: number;
  /** The clock entry ages are measured with, in milliseconds (default `Date.now`). */
  readonly now?: () => number;
  /** Most entries kept; the least recently stored is evicted first. Default 1000. */
  readonly maxEntries?: number;
}

interface Entry {
  readonly prompt: Prompt;
  readonly storedAt: number;
}

export class CachingPromptBackend implements PromptBackend {
  readonly name: string;
  readonly #entries = new Map<string, Entry>();
  readonly #inflight = new Map<string, Promise<Prompt>>();
  readonly #now: () => number;
  readonly #defaultTtl: number | null;
  readonly #maxEntries: number;

  constructor(
    readonly source: PromptBackend,
    options: CachingOptions = {},
  ) {
    this.name = `cached(${source.name})`;
    this.#now = options.now ?? Date.now;
    this.#defaultTtl = checkCacheTtl(options.defaultTtlSeconds, "defaultTtlSeconds");
    this.#maxEntries = options.maxEntries ?? 1000;
  }

  async fetch(name: string, label: string, options: FetchOptions = {}): Promise<Prompt> {
    const ttl = checkCacheTtl(options.cacheTtlSeconds) ?? this.#defaultTtl;
    const k = `${name}\0${label}`;
    const entry = this.#entries.get(k);
    if (entry !== undefined && ttl !== 0 && (ttl === null || this.#now() - entry.storedAt <= ttl * 1000)) return entry.prompt;
    const pending = this.#inflight.get(k);
    if (pending !== undefined && ttl !== 0) return pending;
    const read = (async () => {
      const prompt = await this.source.fetch(name, label, { ...options, cacheTtlSeconds: 0 });
      this.#entries.delete(k);
      this.#entries.set(k, { prompt, storedAt: this.#now() });
      if (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
      return prompt;
    })();
    this.#inflight.set(k, read);
    try {
      return await read;
    } finally {
      if (this.#inflight.get(k) === read) this.#inflight.delete(k);
    }
  }

  /** Drop the cached entry for `(name, label)`, or every entry. */
  invalidate(name?: string, label?: string): void {
    if (name === undefined) this.#entries.clear();
    else for (const k of [...this.#entries.keys()]) if (k.startsWith(`${name}\0`) && (label === undefined || k === `${name}\0${label}`)) this.#entries.delete(k);
  }
}
