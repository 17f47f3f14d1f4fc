/**
 * A Langfuse-backed `PromptBackend` (prompt-management §5) over the `@langfuse/client` 5.x SDK's
 * `client.prompt.get`. Pass the SDK client (`new LangfuseClient({ publicKey, secretKey, baseUrl })`);
 * this module does not import the SDK, so the dependency is the caller's.
 *
 * Mapping (one-to-one, §5 *Returned Prompt variant*): a Langfuse TEXT prompt is a Text prompt, a CHAT
 * prompt a Chat prompt (`{role, content}` messages → content segments, `{type: "placeholder", name}` →
 * placeholder segments). `version` is the Langfuse version number as a string; `config` is projected
 * onto `sampling` (declared fields typed, the rest — `model` included — under `extras`) and its
 * `token_budget` onto `token_budget` (recognized bounds only); `observability_entities.langfuse_prompt`
 * is the SDK's prompt client (observability §8.4.4); `metadata` carries Langfuse's labels, tags and
 * commit message. Langfuse's `{{var}}` variables are valid in the project's template syntax.
 *
 * Freshness: the SDK serves an expired cache entry while it refreshes in the background, which a
 * `cache_ttl_seconds` bound forbids (§5), so every fetch asks the SDK for a fresh read
 * (`cacheTtlSeconds: 0`); wrap the backend in {@link CachingPromptBackend} for a cache that honours
 * the bound.
 *
 * Errors: HTTP 404 is `prompt_not_found`; any other failure (5xx, 401/403, timeout, network) is
 * `prompt_store_unavailable` with the SDK's error as `cause` (so a manager falls back to the next
 * backend); a `config` whose declared sampling fields have the wrong types is `prompt_config_invalid`.
 */
import { checkCacheTtl, type FetchOptions, type PromptBackend } from "./backend.ts";
import { PromptConfigInvalid, PromptNotFound, PromptStoreUnavailable } from "./errors.ts";
import { createPrompt, templateHash, type ChatSegment, type Prompt } from "./prompt.ts";
import { samplingConfigFrom, tokenBudgetFrom, type SamplingConfig, type TokenBudget } from "./sampling.ts";

/** What this backend reads of a Langfuse SDK prompt client (`TextPromptClient` / `ChatPromptClient`). */
export interface LangfusePromptRecord {
  readonly name: string;
  readonly version: number;
  readonly type: "text" | "chat";
  readonly prompt: string | ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly config?: unknown;
  readonly labels?: ReadonlyArray<string>;
  readonly tags?: ReadonlyArray<string>;
  readonly commitMessage?: string | null;
}

/** The part of `@langfuse/client`'s `LangfuseClient` this backend uses. */
export interface LangfusePromptClient {
  readonly prompt: {
    get(
      name: string,
      options: { label?: string; cacheTtlSeconds?: number; maxRetries?: number; fetchTimeoutMs?: number },
    ): Promise<LangfusePromptRecord>;
  };
}

export interface LangfusePromptBackendOptions {
  readonly client: LangfusePromptClient;
  readonly name?: string;
  /** Passed to the SDK: retries of 408 / 429 / 5xx responses (the SDK's default when absent). */
  readonly maxRetries?: number;
  /**
   * Passed to the SDK: per-request timeout (the SDK's default is 60 s). After a network error the
   * SDK leaves that timer armed until it fires, holding a short-lived process open that long; a
   * script that may run while Langfuse is unreachable sets a few seconds here.
   */
  readonly fetchTimeoutMs?: number;
}

function statusOf(e: unknown): number | undefined {
  const s = typeof e === "object" && e !== null ? (e as { statusCode?: unknown }).statusCode : undefined;
  return typeof s === "number" ? s : undefined;
}

export class LangfusePromptBackend implements PromptBackend {
  readonly name: string;
  readonly #options: LangfusePromptBackendOptions;

  constructor(options: LangfusePromptBackendOptions) {
    this.#options = options;
    this.name = options.name ?? "langfuse";
  }

  async fetch(name: string, label: string, options: FetchOptions = {}): Promise<Prompt> {
    checkCacheTtl(options.cacheTtlSeconds);
    options.signal?.throwIfAborted();
    const { maxRetries, fetchTimeoutMs } = this.#options;
    let lf: LangfusePromptRecord;
    try {
      lf = await this.#options.client.prompt.get(name, {
        label,
        cacheTtlSeconds: 0,
        ...(maxRetries !== undefined ? { maxRetries } : {}),
        ...(fetchTimeoutMs !== undefined ? { fetchTimeoutMs } : {}),
      });
    } catch (e) {
      const status = statusOf(e);
      if (status === 404) throw new PromptNotFound(name, label, `Langfuse (${this.name}) has no prompt under that name and label`, { cause: e });
      const why = status !== undefined ? `HTTP ${status}${status === 401 || status === 403 ? " (credentials rejected)" : ""}` : (e as Error)?.message ?? String(e);
      throw new PromptStoreUnavailable(name, label, this.name, why, { cause: e });
    }
    const where = `Langfuse prompt '${name}' version ${lf.version}`;
    const config = typeof lf.config === "object" && lf.config !== null && !Array.isArray(lf.config) ? (lf.config as Record<string, unknown>) : {};
    const extra: { sampling?: SamplingConfig; token_budget?: TokenBudget } = {};
    try {
      const sampling = samplingConfigFrom(config);
      if (sampling !== undefined) extra.sampling = sampling;
    } catch (e) {
      throw new PromptConfigInvalid(name, label, `${where} config`, (e as Error).message, { cause: e });
    }
    const budget = tokenBudgetFrom(config["token_budget"]);
    if (budget !== undefined) extra.token_budget = budget;
    const identity = {
      name,
      label,
      version: String(lf.version),
      observability_entities: { langfuse_prompt: lf },
      metadata: { langfuse_labels: [...(lf.labels ?? [])], langfuse_tags: [...(lf.tags ?? [])], ...(lf.commitMessage ? { langfuse_commit_message: lf.commitMessage } : {}) },
      ...extra,
    };
    if (lf.type === "chat") {
      if (!Array.isArray(lf.prompt)) throw new PromptConfigInvalid(name, label, where, "a chat prompt's content is not a message list");
      const segments: ChatSegment[] = lf.prompt.map((m, i) => {
        if (m["type"] === "placeholder") return { placeholder: String(m["name"]) };
        if (typeof m["role"] !== "string" || typeof m["content"] !== "string") {
          throw new PromptConfigInvalid(name, label, where, `message ${i} is neither {role, content} nor a placeholder`);
        }
        return { role: m["role"], content: m["content"] } as ChatSegment;
      });
      return createPrompt({ ...identity, chat_template: segments, template_hash: templateHash(segments) });
    }
    if (typeof lf.prompt !== "string") throw new PromptConfigInvalid(name, label, where, "a text prompt's content is not a string");
    return createPrompt({ ...identity, template: lf.prompt, template_hash: templateHash(lf.prompt) });
  }
}
