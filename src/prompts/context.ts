/**
 * The prompt-context binding (prompt-management §12; graph-engine §6 `active_prompt` /
 * `active_prompt_group` / `token_budget` on LLM, embedding and rerank events): code that makes an LLM
 * call with a rendered prompt's messages runs inside `withPrompt(result, fn)` (and, for a member of a
 * `PromptGroup`, inside `withPromptGroup(group, fn)`); whatever observes the call — a provider
 * mapping, an observer emitting `openarmature.prompt.*` span attributes — reads the snapshot with
 * `activePrompt()`, `activePromptGroup()` and `activeTokenBudget()`. The binding follows the async
 * context (AsyncLocalStorage), so concurrent calls each see their own; the innermost binding wins.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { PromptGroup } from "./group.ts";
import type { PromptResult } from "./result.ts";

/** The prompt-identity snapshot (`openarmature.prompt.*` attribute family). */
export interface ActivePrompt {
  readonly name: string;
  readonly version: string;
  readonly label: string;
  readonly template_hash: string;
  readonly rendered_hash: string;
}
export interface ActivePromptGroup {
  readonly group_name: string;
}
export interface ActiveTokenBudget {
  readonly input_max_tokens: number | null;
  readonly total_max_tokens: number | null;
}

interface Binding {
  readonly prompt: PromptResult | null;
  readonly group: PromptGroup | null;
}

const storage = new AsyncLocalStorage<Binding>();

/** Run `fn` with `result` as the active prompt (the enclosing group, if any, stays active). */
export function withPrompt<T>(result: PromptResult, fn: () => T): T {
  return storage.run({ prompt: result, group: storage.getStore()?.group ?? null }, fn);
}

/** Run `fn` with `group` as the active prompt group (bind each member call with {@link withPrompt}). */
export function withPromptGroup<T>(group: PromptGroup, fn: () => T): T {
  return storage.run({ prompt: storage.getStore()?.prompt ?? null, group }, fn);
}

/**
 * The active prompt's `observability_entities` (e.g. `langfuse_prompt`, observability §8.4.4), keyed
 * by the identity snapshot {@link activePrompt} handed out: the snapshot stays the five identity
 * fields the events and span attributes carry, and an observer that links to a backend's own prompt
 * entity reads the reference back with {@link promptEntitiesOf}.
 */
const entities = new WeakMap<ActivePrompt, Readonly<Record<string, unknown>>>();

export function activePrompt(): ActivePrompt | null {
  const p = storage.getStore()?.prompt;
  if (!p) return null;
  const snapshot: ActivePrompt = { name: p.name, version: p.version, label: p.label, template_hash: p.template_hash, rendered_hash: p.rendered_hash };
  if (p.observability_entities !== undefined) entities.set(snapshot, p.observability_entities);
  return snapshot;
}

/**
 * The `observability_entities` of the prompt an {@link activePrompt} snapshot (as an LLM, embedding
 * or rerank event carries it) was taken from; undefined when that prompt exposed none.
 */
export function promptEntitiesOf(snapshot: object | null | undefined): Readonly<Record<string, unknown>> | undefined {
  return snapshot ? entities.get(snapshot as ActivePrompt) : undefined;
}

export function activePromptGroup(): ActivePromptGroup | null {
  const g = storage.getStore()?.group;
  return g ? { group_name: g.group_name } : null;
}

/** The active prompt's token budget, each bound null when only the other was declared; null when none. */
export function activeTokenBudget(): ActiveTokenBudget | null {
  const b = storage.getStore()?.prompt?.token_budget;
  return b ? { input_max_tokens: b.input_max_tokens ?? null, total_max_tokens: b.total_max_tokens ?? null } : null;
}
