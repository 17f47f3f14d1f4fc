/**
 * The `Prompt` record (prompt-management §3) in its two variants (§3.1): a Text prompt carries
 * `template`, a Chat prompt carries `chat_template`. Templates are strings in the project's template
 * syntax (a Jinja2 subset, `{{ var }}`, run by the interpreter in `template/`; see `template.ts`).
 */
import { contentHash } from "./hash.ts";
import type { SamplingConfig, TokenBudget } from "./sampling.ts";

/** A content-block template (§3.1): text, or an image by URL or inline base64. */
export type ContentBlockTemplate =
  | { readonly type: "text"; readonly text: string }
  | {
      readonly type: "image";
      readonly source: { readonly type: "url"; readonly url: string };
      readonly media_type?: string;
      readonly detail?: "auto" | "low" | "high";
    }
  | {
      readonly type: "image";
      readonly source: { readonly type: "inline"; readonly base64_data: string };
      readonly media_type: string;
      readonly detail?: "auto" | "low" | "high";
    };

/** A content segment: one authored message. `tool` is not an authoring role (§3.1). */
export interface ContentSegment {
  readonly role: "system" | "user" | "assistant";
  readonly content: string | ReadonlyArray<ContentBlockTemplate>;
}
/** A placeholder segment: a slot the caller fills with a message list at render time. */
export interface PlaceholderSegment {
  readonly placeholder: string;
}
export type ChatSegment = ContentSegment | PlaceholderSegment;

export function isPlaceholderSegment(s: ChatSegment): s is PlaceholderSegment {
  return "placeholder" in s;
}

/** Fields both variants carry (§3). */
export interface PromptIdentity {
  readonly name: string;
  readonly version: string;
  readonly label: string;
  readonly template_hash: string;
  /** When this prompt was fetched from its source (a cache hit keeps the original time). */
  readonly fetched_at: Date;
  readonly sampling?: SamplingConfig;
  readonly token_budget?: TokenBudget;
  /** Backend-keyed references, e.g. `langfuse_prompt` (observability §8.4.4). */
  readonly observability_entities?: Readonly<Record<string, unknown>>;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface TextPrompt extends PromptIdentity {
  readonly template: string;
  readonly chat_template?: never;
}
export interface ChatPrompt extends PromptIdentity {
  readonly chat_template: ReadonlyArray<ChatSegment>;
  readonly template?: never;
}
export type Prompt = TextPrompt | ChatPrompt;

export function isChatPrompt(p: Prompt): p is ChatPrompt {
  return p.chat_template !== undefined;
}

/** What a backend or a caller supplies to make a `Prompt`: the hash and fetch time may be computed. */
export type PromptInit = Omit<TextPrompt, "template_hash" | "fetched_at"> & { readonly template_hash?: string; readonly fetched_at?: Date }
  | (Omit<ChatPrompt, "template_hash" | "fetched_at"> & { readonly template_hash?: string; readonly fetched_at?: Date });

/**
 * `template_hash` (§3, §3.1): SHA-256 over the canonical serialization of the template — the text
 * for a Text prompt; for a Chat prompt the ordered segments with their kind, role, content / block
 * fields and placeholder names.
 */
export function templateHash(template: string | ReadonlyArray<ChatSegment>): string {
  return typeof template === "string" ? contentHash({ kind: "text", template }) : contentHash({ kind: "chat", segments: template });
}

/** A `Prompt` record from its parts, computing `template_hash` and `fetched_at` when not given. */
export function createPrompt(init: PromptInit): Prompt {
  const hash = init.template_hash ?? templateHash(init.chat_template ?? (init.template as string));
  const base: Record<string, unknown> = { ...init, template_hash: hash, fetched_at: init.fetched_at ?? new Date() };
  for (const k of Object.keys(base)) if (base[k] === undefined) delete base[k];
  return Object.freeze(base) as unknown as Prompt;
}
