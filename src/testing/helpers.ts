/**
 * Helpers in the spirit of LionAGI's `TestBranch` (ADR-0052 D4): a scripted provider from a script,
 * texts, responses, YAML or JSON; a graph-ready model client; reading a provider's calls. Asking a
 * provider that is not scripted for its script raises `TypeError`, so a shared test cannot silently
 * run against a real model.
 */
import type { Message } from "../llm/messages.ts";
import type { CompleteOptions, Provider } from "../llm/provider.ts";
import { textOf } from "../llm/messages.ts";
import type { Response } from "../llm/response.ts";
import { Script, type ResponseEntry, type ScriptSource } from "./script.ts";
import { ScriptedProvider, type RecordedCall, type ScriptedProviderOptions } from "./scripted-provider.ts";

type Options = Omit<ScriptedProviderOptions, "script">;

export function scriptedProvider(script: ScriptSource, options: Options = {}): ScriptedProvider {
  return new ScriptedProvider({ ...options, script });
}
export function providerFromResponses(responses: ReadonlyArray<ResponseEntry>, options: Options = {}): ScriptedProvider {
  return scriptedProvider(Script.fromResponses(responses), options);
}
/** One text reply per string, served in order. */
export function providerFromText(text: string | ReadonlyArray<string>, options: Options = {}): ScriptedProvider {
  const texts = typeof text === "string" ? [text] : text;
  return providerFromResponses(texts.map((content) => ({ type: "text", content })), options);
}
export function providerFromYaml(path: string, options: Options = {}): ScriptedProvider {
  return scriptedProvider(Script.fromYaml(path), options);
}
export function providerFromJson(path: string, options: Options = {}): ScriptedProvider {
  return scriptedProvider(Script.fromJson(path), options);
}

/** `provider` as a scripted provider; `TypeError` for any other provider. */
export function scripted(provider: Provider): ScriptedProvider {
  if (!(provider instanceof ScriptedProvider)) throw new TypeError(`provider '${provider?.name}' (model '${provider?.model}') is not a scripted provider`);
  return provider;
}
export function calls(provider: Provider): ReadonlyArray<RecordedCall> {
  return scripted(provider).calls;
}
export function attachScript(provider: Provider, script: ScriptSource): void {
  scripted(provider).attachScript(script);
}

/**
 * A model client for graph nodes: `ask(prompt)` sends one user message (after an optional system
 * prompt) through the provider's real request path and returns the reply text; `complete` is the
 * provider's own call.
 */
export interface ModelClient {
  readonly provider: Provider;
  ask(prompt: string, options?: CompleteOptions): Promise<string>;
  complete(messages: ReadonlyArray<Message>, options?: CompleteOptions): Promise<Response>;
}

export function modelClient(provider: Provider, options: { readonly system?: string } = {}): ModelClient {
  return {
    provider,
    async ask(prompt, callOptions) {
      const messages: Message[] = [...(options.system !== undefined ? [{ role: "system" as const, content: options.system }] : []), { role: "user", content: prompt }];
      return textOf((await provider.complete(messages, callOptions)).message.content);
    },
    complete: (messages, callOptions) => provider.complete(messages, callOptions),
  };
}

/** A model client over a scripted provider built from `script`. */
export function scriptedClient(script: ScriptSource, options: Options & { readonly system?: string } = {}): ModelClient & { readonly provider: ScriptedProvider } {
  const { system, ...rest } = options;
  const provider = scriptedProvider(script, rest);
  return { ...modelClient(provider, system !== undefined ? { system } : {}), provider };
}
