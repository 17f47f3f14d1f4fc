/**
 * `PromptManager` (prompt-management §6, §9): fetches through its backends in order and renders.
 *
 * Fallback (§9): the first backend that returns a prompt wins; `prompt_not_found` stops the chain
 * (a retired prompt is not resurrected from a secondary); `prompt_store_unavailable` moves on to the
 * next backend, and when every backend was unavailable the manager raises `prompt_store_unavailable`
 * naming each backend's failure (the last one as `cause`). A fallback that succeeded is reported
 * through `onFallback` (default: a `console.warn` line).
 */
import { checkCacheTtl, DEFAULT_LABEL, type PromptBackend } from "./backend.ts";
import { PromptStoreUnavailable } from "./errors.ts";
import type { LabelResolver } from "./label-resolver.ts";
import type { Prompt } from "./prompt.ts";
import { renderPrompt, type Placeholders, type RenderOptions } from "./render.ts";
import type { PromptResult } from "./result.ts";

export interface PromptManagerOptions {
  readonly backends: ReadonlyArray<PromptBackend>;
  /** Resolves the label when a fetch gives none (§7). */
  readonly labelResolver?: LabelResolver;
  /** Staleness bound used when a fetch gives none (§6); negative is a `RangeError`. */
  readonly defaultCacheTtlSeconds?: number;
  /** Called when a backend was unavailable and a later one served the prompt (§9 SHOULD log at WARN). */
  readonly onFallback?: (event: FallbackEvent) => void;
  /** Render defaults (strictness, redaction, clock). */
  readonly render?: RenderOptions;
}

export interface FallbackEvent {
  readonly name: string;
  readonly label: string;
  /** The backends that were unavailable, with their errors. */
  readonly failed: ReadonlyArray<{ readonly backend: string; readonly error: unknown }>;
  /** The backend that served the prompt. */
  readonly servedBy: string;
}

export interface ManagerFetchOptions {
  /** Explicit label; else the resolver's; else `"production"`. */
  readonly label?: string | null;
  readonly cacheTtlSeconds?: number | null;
  readonly signal?: AbortSignal;
}

export interface ManagerGetOptions extends ManagerFetchOptions {
  readonly variables?: Readonly<Record<string, unknown>>;
  readonly placeholders?: Placeholders | null;
}

export class PromptManager {
  readonly backends: ReadonlyArray<PromptBackend>;
  readonly #resolver: LabelResolver | undefined;
  readonly #defaultTtl: number | null;
  readonly #onFallback: (event: FallbackEvent) => void;
  readonly #render: RenderOptions;

  constructor(options: PromptManagerOptions) {
    if (!Array.isArray(options.backends) || options.backends.length === 0) throw new TypeError("a PromptManager needs at least one backend");
    this.backends = Object.freeze([...options.backends]);
    this.#resolver = options.labelResolver;
    this.#defaultTtl = checkCacheTtl(options.defaultCacheTtlSeconds, "defaultCacheTtlSeconds");
    this.#onFallback =
      options.onFallback ??
      ((e) => console.warn(`openarmature prompts: '${e.name}' (label '${e.label}') served by '${e.servedBy}' after ${e.failed.map((f) => `'${f.backend}'`).join(", ")} unavailable`));
    this.#render = options.render ?? {};
  }

  /** The label a fetch without one uses for `name` (§6 steps 2–3). */
  resolveLabel(name: string, label?: string | null): string {
    if (label !== undefined && label !== null) return label;
    return this.#resolver?.resolve(name) ?? DEFAULT_LABEL;
  }

  async fetch(name: string, options: ManagerFetchOptions = {}): Promise<Prompt> {
    const label = this.resolveLabel(name, options.label);
    const explicit = checkCacheTtl(options.cacheTtlSeconds);
    const ttl = explicit ?? this.#defaultTtl;
    const failed: { backend: string; error: unknown }[] = [];
    for (const backend of this.backends) {
      options.signal?.throwIfAborted();
      try {
        const prompt = await backend.fetch(name, label, { ...(ttl !== null ? { cacheTtlSeconds: ttl } : {}), ...(options.signal ? { signal: options.signal } : {}) });
        if (failed.length > 0) this.#onFallback({ name, label, failed, servedBy: backend.name });
        return prompt;
      } catch (e) {
        if ((e as { category?: unknown })?.category !== "prompt_store_unavailable") throw e;
        failed.push({ backend: backend.name, error: e });
      }
    }
    const detail = failed.map((f) => `${f.backend}: ${f.error instanceof Error ? f.error.message : String(f.error)}`).join("; ");
    throw new PromptStoreUnavailable(name, label, failed.map((f) => f.backend).join(", "), `every backend was unavailable (${detail})`, {
      cause: failed[failed.length - 1]?.error,
    });
  }

  /** Render a fetched prompt (§6 `render`). Synchronous. */
  render(prompt: Prompt, variables: Readonly<Record<string, unknown>> = {}, placeholders?: Placeholders | null, options: RenderOptions = {}): PromptResult {
    return renderPrompt(prompt, variables, placeholders, { ...this.#render, ...options });
  }

  /** `render(await fetch(name, …), variables, placeholders)` (§6 `get`). */
  async get(name: string, options: ManagerGetOptions = {}): Promise<PromptResult> {
    const prompt = await this.fetch(name, options);
    return this.render(prompt, options.variables ?? {}, options.placeholders);
  }
}
