/**
 * An in-memory `PromptBackend` (prompt-management §5): prompts held by `(name, label)`. It reads its
 * store on every fetch, so `cacheTtlSeconds` is a no-op; `fetched_at` is the time of the fetch.
 */
import { checkCacheTtl, type FetchOptions, type PromptBackend } from "./backend.ts";
import { PromptNotFound } from "./errors.ts";
import { createPrompt, type Prompt, type PromptInit } from "./prompt.ts";

export class InMemoryPromptBackend implements PromptBackend {
  readonly name: string;
  readonly #prompts = new Map<string, PromptInit>();

  constructor(prompts: Iterable<PromptInit> = [], options: { name?: string } = {}) {
    this.name = options.name ?? "in-memory";
    for (const p of prompts) this.put(p);
  }

  /** Add or replace the prompt stored under its `(name, label)`. */
  put(prompt: PromptInit): void {
    this.#prompts.set(key(prompt.name, prompt.label), prompt);
  }

  /** Remove the prompt under `(name, label)`; true when one was stored. */
  delete(name: string, label: string): boolean {
    return this.#prompts.delete(key(name, label));
  }

  async fetch(name: string, label: string, options: FetchOptions = {}): Promise<Prompt> {
    checkCacheTtl(options.cacheTtlSeconds);
    const stored = this.#prompts.get(key(name, label));
    if (stored === undefined) {
      const labels = [...this.#prompts.values()].filter((p) => p.name === name).map((p) => p.label);
      throw new PromptNotFound(name, label, labels.length > 0 ? `backend '${this.name}' has it under label(s) ${labels.map((l) => `'${l}'`).join(", ")}` : `backend '${this.name}' has no prompt of that name`);
    }
    return createPrompt({ ...stored, fetched_at: new Date() });
  }
}

function key(name: string, label: string): string {
  return `${name}\0${label}`;
}
