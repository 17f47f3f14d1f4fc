/**
 * The provider registry: providers are registered and looked up by name, the way a user
 * configures them (`openai`, and OpenAI-compatible presets such as `vllm` and `ollama` as named
 * base URLs). Native mappings (Anthropic, Gemini) and test providers join the same registry.
 */
import { HttpProvider, type FetchFn, type ProviderCapabilities } from "./http-provider.ts";
import type { WireMapping } from "./mapping.ts";
import { anthropicMessagesMapping } from "./anthropic/mapping.ts";
import { geminiMapping } from "./gemini/mapping.ts";
import { openAiChatMapping } from "./openai/mapping.ts";
import type { Provider } from "./provider.ts";
import { scriptedEntry } from "../testing/scripted-provider.ts";

export interface ProviderConfig {
  readonly model: string;
  /** Defaults to the entry's `apiKeyEnv` environment variable, when it has one. */
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: FetchFn;
  readonly capabilities?: ProviderCapabilities;
  /** `gen_ai.system` override (observability §5.5.3), e.g. `vllm` behind the OpenAI-compatible mapping. */
  readonly system?: string;
}

export interface ProviderEntry {
  readonly name: string;
  /** The wire mapping's api id (`openai-chat`, ...). */
  readonly api: string;
  /** `native`: a vendor's own API; `preset`: a named base URL over a compatible mapping; `test`. */
  readonly kind: "native" | "preset" | "test";
  readonly defaultBaseUrl?: string;
  readonly apiKeyEnv?: string;
  create(config: ProviderConfig): Provider;
}

export class ProviderRegistry {
  readonly #entries = new Map<string, ProviderEntry>();

  register(entry: ProviderEntry): void {
    if (this.#entries.has(entry.name)) throw new Error(`provider '${entry.name}' is already registered`);
    this.#entries.set(entry.name, entry);
  }
  lookup(name: string): ProviderEntry | undefined {
    return this.#entries.get(name);
  }
  entries(): ReadonlyArray<ProviderEntry> {
    return [...this.#entries.values()];
  }
  /** Create a provider by registry name; an unknown name lists the known ones. */
  create(name: string, config: ProviderConfig): Provider {
    const entry = this.#entries.get(name);
    if (!entry) throw new Error(`unknown provider '${name}' (registered: ${[...this.#entries.keys()].join(", ")})`);
    return entry.create(config);
  }
}

/** A registry entry for an HTTP provider over `mapping`, optionally preset to a base URL. */
export function httpEntry(
  name: string,
  mapping: WireMapping,
  kind: ProviderEntry["kind"],
  defaults: { baseUrl?: string; apiKeyEnv?: string; capabilities?: ProviderCapabilities } = {},
): ProviderEntry {
  const baseUrl = defaults.baseUrl ?? mapping.defaultBaseUrl;
  return {
    name,
    api: mapping.api,
    kind,
    defaultBaseUrl: baseUrl,
    ...(defaults.apiKeyEnv !== undefined ? { apiKeyEnv: defaults.apiKeyEnv } : {}),
    create(config) {
      const apiKey = config.apiKey ?? (defaults.apiKeyEnv !== undefined ? process.env[defaults.apiKeyEnv] : undefined);
      return new HttpProvider({
        name,
        mapping,
        model: config.model,
        baseUrl: config.baseUrl ?? baseUrl,
        ...(apiKey !== undefined ? { apiKey } : {}),
        ...(config.headers !== undefined ? { headers: config.headers } : {}),
        ...(config.fetch !== undefined ? { fetch: config.fetch } : {}),
        ...(config.system !== undefined ? { system: config.system } : {}),
        capabilities: { ...defaults.capabilities, ...config.capabilities },
      });
    },
  };
}

/** The default registry: the native providers and the OpenAI-compatible local-server presets. */
export const providers = new ProviderRegistry();
providers.register(httpEntry("openai", openAiChatMapping, "native", { apiKeyEnv: "OPENAI_API_KEY" }));
providers.register(httpEntry("anthropic", anthropicMessagesMapping, "native", { apiKeyEnv: "ANTHROPIC_API_KEY" }));
providers.register(httpEntry("gemini", geminiMapping, "native", { apiKeyEnv: "GEMINI_API_KEY" }));
providers.register(httpEntry("vllm", openAiChatMapping, "preset", { baseUrl: "http://localhost:8000/v1" }));
providers.register(httpEntry("ollama", openAiChatMapping, "preset", { baseUrl: "http://localhost:11434/v1" }));
providers.register(httpEntry("lmstudio", openAiChatMapping, "preset", { baseUrl: "http://localhost:1234/v1" }));
providers.register(httpEntry("llamacpp", openAiChatMapping, "preset", { baseUrl: "http://localhost:8080/v1" }));
// The scripted test provider (openarmature/testing) joins the normal registry, as ADR-0052 D5 has it.
providers.register(scriptedEntry);
