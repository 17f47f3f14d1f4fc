/**
 * Which model answers `agent`, `chat` and `serve` — one rule for the three commands:
 *
 *  1. `--provider NAME`: that registered provider (`--base-url URL` sends its requests to URL);
 *  2. else `--base-url URL`: an OpenAI-compatible server at URL (a local vLLM, Ollama, a gateway);
 *     `--model` is required and no API key is sent (`--provider openai --base-url URL` sends
 *     `$OPENAI_API_KEY` to URL);
 *  3. else `--script FILE`: the scripted provider answering from FILE;
 *  4. else the first native provider whose API key is set (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`,
 *     `GEMINI_API_KEY`), with that provider's default model;
 *  5. else there is no model: `chat` and `serve` (which show a conversation) run the offline demo
 *     and say so; `agent` (whose standard output is taken as a model's answer) refuses, naming
 *     what it looked for. `--provider scripted` without a script is the demo on all three.
 *
 * A native provider named without its key (and without `--base-url`) is refused before any call.
 */
import { providers, httpEntry } from "../llm/registry.ts";
import { openAiChatMapping } from "../llm/openai/mapping.ts";
import type { CompleteOptions, Provider, StreamEvent } from "../llm/provider.ts";
import type { Message } from "../llm/messages.ts";
import { ScriptedProvider, scriptedConfig, TEST_SCRIPT_ENV } from "../testing/scripted-provider.ts";
import { Script } from "../testing/script.ts";
import { UsageError } from "./request.ts";

/** The native providers picked by their API key, in this order, and their default models. */
export const KEYED: ReadonlyArray<{ name: string; env: string; model: string }> = [
  { name: "openai", env: "OPENAI_API_KEY", model: "gpt-4o-mini" },
  { name: "anthropic", env: "ANTHROPIC_API_KEY", model: "claude-3-5-haiku-latest" },
  { name: "gemini", env: "GEMINI_API_KEY", model: "gemini-2.0-flash" },
];
const KEY_LIST = KEYED.map((k) => k.env).join(", ");

/** The `--help` lines of the shared model flags. */
export const MODEL_FLAGS_HELP = `  --provider NAME      a registered provider: openai, anthropic, gemini (each needs its key,
                       ${KEY_LIST}), vllm, ollama, lmstudio,
                       llamacpp (local servers; --model required), scripted (--script FILE, else
                       the offline demo)
  --base-url URL       send the requests to URL (http or https), e.g. an OpenAI-compatible server
                       such as a local vLLM or Ollama (http://localhost:11434/v1). Without --provider
                       it needs --model and sends no API key; with --provider NAME, NAME's key goes to URL
  --model ID           the model (defaults: gpt-4o-mini, claude-3-5-haiku-latest, gemini-2.0-flash)
  --script FILE        the scripted provider's script (default $${TEST_SCRIPT_ENV}; none: it
                       echoes "You said: …", the offline demo)`;

/** The `--help` paragraph stating the rule; `noModel` says what the command does when nothing names a model. */
export function modelRuleHelp(noModel: string): string {
  return `Which model answers (agent, chat and serve alike): --provider; else --base-url; else --script;
else the first of ${KEY_LIST} that is set;
${noModel}`;
}

/** The offline demo model: a scripted provider per call, its one entry streaming "You said: …" back. */
class EchoDemo implements Provider {
  readonly name = "scripted";
  readonly api = "openai-chat";
  readonly model = "scripted-echo";
  #provider(messages: ReadonlyArray<Message>): ScriptedProvider {
    const last = [...messages].reverse().find((m) => m.role === "user");
    const text = typeof last?.content === "string" ? last.content : "";
    const words = `You said: ${text}`.split(/(?<= )/);
    return new ScriptedProvider({ model: this.model, script: [{ type: "stream", chunks: words.map((w) => ({ type: "text", content: w, is_delta: true })) }] });
  }
  async ready(): Promise<void> {}
  complete(messages: ReadonlyArray<Message>, options?: CompleteOptions) {
    return this.#provider(messages).complete(messages, options);
  }
  stream(messages: ReadonlyArray<Message>, options?: Omit<CompleteOptions, "stream" | "retry" | "onEvent">): AsyncIterable<StreamEvent> {
    return this.#provider(messages).stream(messages, options);
  }
}

export interface ModelFlags {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly script?: string | undefined;
  readonly "base-url"?: string | undefined;
}

export interface ModelChoice {
  readonly provider: Provider;
  /** One line for stderr: which model answers and why. */
  readonly banner: string;
}

/** What a command does when no flag and no key names a model: the offline demo, or a usage error. */
export type WhenNoModel = "demo" | "refuse";

/**
 * `--base-url`: an absolute http(s) URL the request paths are appended to, so no query or fragment,
 * and no credentials (a key travels in the provider's header, never in a URL that is printed).
 */
export function parseBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url: expected an http:// or https:// URL, got '${value}' (e.g. http://localhost:11434/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--base-url: expected an http:// or https:// URL, got '${url.protocol}' (e.g. http://localhost:11434/v1)`);
  if (url.username !== "" || url.password !== "") throw new UsageError("--base-url: credentials in the URL are refused (a URL is printed and logged); set the provider's API key variable instead");
  if (url.search !== "" || url.hash !== "") throw new UsageError("--base-url: a query or fragment is refused (request paths such as /chat/completions are appended to the URL)");
  return value.replace(/\/+$/, "");
}

function noModelMessage(command: string): string {
  return [
    `no model to call: no --provider, no --base-url, and none of ${KEY_LIST} is set. Either`,
    `  - set one of those keys, or pass --provider NAME (registered: ${providers.entries().map((e) => e.name).join(", ")}),`,
    `  - or --base-url URL --model ID for an OpenAI-compatible server (a local vLLM or Ollama),`,
    `  - or run the offline demo, which echoes the prompt back: openarmature ${command} --provider scripted "hello"`,
  ].join("\n");
}

/** The chosen model, not yet constructed (constructing a scripted provider reads its script and records). */
export type ModelPlan =
  | { readonly kind: "demo"; readonly banner: string }
  | { readonly kind: "scripted"; readonly script: string; readonly model: string; readonly banner: string }
  | { readonly kind: "compatible"; readonly baseUrl: string; readonly model: string; readonly banner: string }
  | { readonly kind: "registered"; readonly name: string; readonly model: string; readonly apiKey?: string; readonly baseUrl?: string; readonly banner: string };

/** Apply the rule (see the module comment) without constructing anything; a usage problem throws {@link UsageError}. */
export function planModel(flags: ModelFlags, env: NodeJS.ProcessEnv = process.env, whenNone: WhenNoModel = "demo", command = "agent"): ModelPlan {
  const baseUrl = flags["base-url"] !== undefined ? parseBaseUrl(flags["base-url"]) : undefined;
  if (flags.script !== undefined && flags.provider !== undefined && flags.provider !== "scripted") throw new UsageError("--script needs the scripted provider");
  if (flags.script !== undefined && baseUrl !== undefined) throw new UsageError("--script answers offline from a file; it does not go with --base-url");
  if (flags.provider === undefined && baseUrl !== undefined) {
    if (flags.model === undefined) throw new UsageError("--base-url without --provider needs --model (the server's model id, e.g. llama3.2)");
    return { kind: "compatible", baseUrl, model: flags.model, banner: `openai-compatible server at ${baseUrl} (model ${flags.model})` };
  }
  let name = flags.provider;
  if (name === undefined) name = flags.script !== undefined ? "scripted" : KEYED.find((k) => (env[k.env] ?? "") !== "")?.name;
  if (name === undefined) {
    if (whenNone === "refuse") throw new UsageError(noModelMessage(command));
    name = "scripted";
  }
  const entry = providers.lookup(name);
  if (entry === undefined) throw new UsageError(`unknown provider '${name}' (registered: ${providers.entries().map((e) => e.name).join(", ")})`);
  if (name === "scripted") {
    if (baseUrl !== undefined) throw new UsageError("--base-url does not apply to the scripted provider (it answers offline)");
    const script = flags.script ?? (env[TEST_SCRIPT_ENV] || undefined);
    if (script === undefined) return { kind: "demo", banner: `scripted provider, offline demo (set ${KEY_LIST}, or pass --provider or --base-url, for a real model)` };
    return { kind: "scripted", script, model: flags.model ?? "scripted-test", banner: `scripted provider, script ${script}` };
  }
  const apiKey = entry.apiKeyEnv !== undefined ? env[entry.apiKeyEnv] || undefined : undefined;
  if (entry.apiKeyEnv !== undefined && apiKey === undefined && baseUrl === undefined) throw new UsageError(`--provider ${name} needs ${entry.apiKeyEnv} in the environment (or --base-url URL for a compatible server that takes no key)`);
  const model = flags.model ?? KEYED.find((k) => k.name === name)?.model;
  if (model === undefined) throw new UsageError(`--model is required for provider '${name}'`);
  return { kind: "registered", name, model, ...(apiKey !== undefined ? { apiKey } : {}), ...(baseUrl !== undefined ? { baseUrl } : {}), banner: `${name}${baseUrl !== undefined ? ` at ${baseUrl}` : ""} (model ${model})` };
}

/** Construct the planned model. */
export function createModel(plan: ModelPlan): ModelChoice {
  switch (plan.kind) {
    case "demo":
      return { provider: new EchoDemo(), banner: plan.banner };
    case "scripted":
      return { provider: providers.create("scripted", scriptedConfig(Script.fromFile(plan.script), plan.model)), banner: plan.banner };
    case "compatible":
      return { provider: httpEntry("openai-compatible", openAiChatMapping, "preset", { baseUrl: plan.baseUrl }).create({ model: plan.model }), banner: plan.banner };
    case "registered": {
      const { name, model, apiKey, baseUrl } = plan;
      return { provider: providers.create(name, { model, ...(apiKey !== undefined ? { apiKey } : {}), ...(baseUrl !== undefined ? { baseUrl } : {}) }), banner: plan.banner };
    }
  }
}

/** Plan and construct the model (see the module comment). */
export function chooseProvider(flags: ModelFlags, env: NodeJS.ProcessEnv = process.env, whenNone: WhenNoModel = "demo", command = "agent"): ModelChoice {
  return createModel(planModel(flags, env, whenNone, command));
}
