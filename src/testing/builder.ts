/**
 * {@link ScriptBuilder}: scripts written in code.
 *
 * ```ts
 * const llm = scriptBuilder()
 *   .respondWithTools("get_weather", { city: "Paris" })
 *   .respond("It is sunny in Paris.")
 *   .fail("rate_limit", { when: { prompt_contains: "retry me" } })
 *   .provider();
 * ```
 */
import { Script, type ResponseEntry, type ScriptErrorKind, type ScriptMode, type StreamChunkSpec, type WhenMatcher } from "./script.ts";
import { ScriptedProvider, type ScriptedProviderOptions } from "./scripted-provider.ts";

export interface EntryOptions {
  /** Serve this entry only when the matcher holds (conditional: served at most once). */
  readonly when?: WhenMatcher;
}

export class ScriptBuilder {
  readonly #responses: ResponseEntry[] = [];
  #mode: ScriptMode = "auto";

  /** The script's mode (`auto` by default). */
  mode(mode: ScriptMode): this {
    this.#mode = mode;
    return this;
  }
  /** A text reply. */
  respond(content: string, options: EntryOptions = {}): this {
    return this.#push({ type: "text", content }, options);
  }
  /** Several text replies, in order. */
  respondAll(contents: ReadonlyArray<string>): this {
    for (const c of contents) this.respond(c);
    return this;
  }
  /** A tool call (`id` generated as `call_...` when absent). */
  respondWithTools(name: string, args: { readonly [key: string]: unknown } = {}, options: EntryOptions & { readonly id?: string } = {}): this {
    return this.#push({ type: "tool_call", name, arguments: args, ...(options.id !== undefined ? { id: options.id } : {}) }, options);
  }
  /** Structured output: `data` as JSON in the assistant content, parsed by the normal path. */
  respondStructured(data: { readonly [key: string]: unknown }, options: EntryOptions = {}): this {
    return this.#push({ type: "structured", data }, options);
  }
  /** A stream of typed chunks. */
  stream(chunks: ReadonlyArray<StreamChunkSpec>, options: EntryOptions = {}): this {
    return this.#push({ type: "stream", chunks }, options);
  }
  /** A scripted failure (mapped onto the llm-provider §7 categories). */
  fail(kind: ScriptErrorKind = "value_error", options: EntryOptions & { readonly message?: string; readonly delayMs?: number } = {}): this {
    return this.#push({ type: "error", kind, ...(options.message !== undefined ? { message: options.message } : {}), ...(options.delayMs !== undefined ? { delay_ms: options.delayMs } : {}) }, options);
  }
  /** Any entry as data. */
  entry(entry: ResponseEntry): this {
    this.#responses.push(entry);
    return this;
  }

  build(): Script {
    return new Script({ version: 1, mode: this.#mode, responses: this.#responses });
  }
  /** A scripted provider over the built script. */
  provider(options: Omit<ScriptedProviderOptions, "script"> = {}): ScriptedProvider {
    return new ScriptedProvider({ ...options, script: this.build() });
  }

  #push(entry: ResponseEntry, options: EntryOptions): this {
    this.#responses.push(options.when !== undefined ? ({ ...entry, when: options.when } as ResponseEntry) : entry);
    return this;
  }
}

export function scriptBuilder(): ScriptBuilder {
  return new ScriptBuilder();
}
