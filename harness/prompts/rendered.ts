/**
 * The prompt context of a graph case (the observability fixture headers' harness notes, per
 * conformance-adapter §3.2: 024, 106, 126-131, 146, 147, 155, 156): the case's `prompt_backend` and
 * `render_variables`, a real `PromptManager` over the library's in-memory backend holding the
 * declared prompts, and, per node execution, the `PromptResult` a `renders_prompt` step rendered.
 *
 * A call directive later in the same node (`calls_llm`, `calls_embed`, `calls_rerank`) runs inside
 * the library's `withPrompt(result, ...)`, so the engine's own prompt-context binding populates the
 * events' `active_prompt` / `token_budget` and the `openarmature.prompt.*` span attributes; with
 * no `messages` / `input_from_rendered_prompt` / `query_from_rendered_prompt` it takes its content
 * from that result. Nothing here computes what the spec's prompt surface reports: rendering,
 * hashing, budgets and their evaluation are the library's.
 */
import { SlotKey } from "../../src/conformance/directive.ts";
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { NodeContext } from "../../src/graph/index.ts";
import type { Message } from "../../src/llm/index.ts";
import { PromptManager, toLlmMessages, withPrompt, type PromptResult } from "../../src/prompts/index.ts";
import type { NodeAssembly } from "../graph/node-directive.ts";
import { BuiltBackend } from "./backends.ts";

/** `prompt_backend.type`: which Prompt records the backend serves (observability 024's note). */
export type PromptBackendType = "filesystem" | "mock_with_langfuse_reference";

/** One declared prompt, as the store holds it (the backend's `toInit` projects `sampling` / `token_budget`). */
export type DeclaredPrompt = Readonly<Record<string, unknown>>;

export class PromptContextState {
  /** `prompt_backend`: the declared prompts by the key `renders_prompt` names. */
  declared: { readonly type: PromptBackendType; readonly prompts: ReadonlyMap<string, DeclaredPrompt>; readonly where: FixtureLocation } | undefined;
  /** `render_variables`: the variables every render of the case uses. */
  variables: Readonly<Record<string, unknown>> = {};
  /** Nodes with a `renders_prompt` step, and how many steps preceded it (document order, §8.3). */
  readonly #renders = new WeakMap<NodeAssembly, number>();
  /** What each node execution rendered (one context per execution; a retry re-renders). */
  readonly #rendered = new WeakMap<NodeContext, PromptResult>();
  #manager: PromptManager | undefined;

  /** The case's manager, over the declared prompts (built on first use). */
  manager(where: FixtureLocation): PromptManager {
    if (this.#manager) return this.#manager;
    const d = this.declared;
    if (d === undefined) throw new FixtureSchemaInvalid("renders_prompt needs a case-level prompt_backend declaring the prompt", where);
    const prompts = [...d.prompts.values()];
    const backend = new BuiltBackend({ name: d.type, prompts, caching: false, unavailable: false });
    this.#manager = new PromptManager({ backends: [backend.backend] });
    return this.#manager;
  }

  /** Mark `node`'s next step as its `renders_prompt` step. */
  markRenders(node: NodeAssembly): void {
    this.#renders.set(node, node.steps.length);
  }

  /** Whether a `renders_prompt` step precedes the step `node` is about to add. */
  rendersBefore(node: NodeAssembly): boolean {
    const at = this.#renders.get(node);
    return at !== undefined && at < node.steps.length;
  }

  record(ctx: NodeContext, result: PromptResult): void {
    this.#rendered.set(ctx, result);
  }

  /** What this node execution rendered so far (undefined before its `renders_prompt` step ran). */
  rendered(ctx: NodeContext): PromptResult | undefined {
    return this.#rendered.get(ctx);
  }

  /** Run `fn` inside the library's prompt context of what this execution rendered, if anything. */
  within<T>(ctx: NodeContext, fn: () => T): T {
    const r = this.#rendered.get(ctx);
    return r === undefined ? fn() : withPrompt(r, fn);
  }
}

export const PromptContextSlot = new SlotKey<PromptContextState>("graph-case prompt context", () => new PromptContextState());

/** One `renders_prompt` render of a call: the node that rendered and what the library returned. */
export interface RenderedPrompt {
  readonly node: string;
  readonly result: PromptResult;
}

/** The renders the call's nodes made, in order (the prompt-identity claims compare the events with them). */
export const RenderedPrompts = new Facet<readonly RenderedPrompt[]>("prompts rendered by renders_prompt");

export function recordRender(obs: Observation, render: RenderedPrompt): void {
  obs.set(RenderedPrompts, [...(obs.tryGet(RenderedPrompts) ?? []), render]);
}

/** The prompt this node execution rendered; a fixture defect when its `renders_prompt` step did not run first. */
export function requireRendered(state: PromptContextState, ctx: NodeContext, what: string, where: FixtureLocation): PromptResult {
  const r = state.rendered(ctx);
  if (r === undefined) throw new FixtureSchemaInvalid(`${what} takes its content from the prompt renders_prompt rendered earlier in the node, and none was rendered`, where);
  return r;
}

/** The rendered prompt's messages, ready for `complete()`. */
export function renderedMessages(r: PromptResult): Message[] {
  return toLlmMessages(r.messages);
}

/**
 * The rendered prompt's text (a query or an embedding input): the text of its one message. A
 * prompt rendering to several messages has no single text, so that is a fixture defect.
 */
export function renderedText(r: PromptResult, what: string, where: FixtureLocation): string {
  if (r.messages.length !== 1) throw new FixtureSchemaInvalid(`${what}: prompt '${r.name}' renders ${r.messages.length} messages, not the one text a query or input is`, where);
  const c = r.messages[0]!.content;
  if (typeof c === "string") return c;
  const blocks: ReadonlyArray<{ readonly type: string; readonly text?: unknown }> = c ?? [];
  const texts = blocks.filter((b) => b.type === "text" && typeof b.text === "string").map((b) => b.text as string);
  if (c === null || texts.length !== blocks.length) throw new FixtureSchemaInvalid(`${what}: prompt '${r.name}' renders non-text content blocks`, where);
  return texts.join("");
}
