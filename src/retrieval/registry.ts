/**
 * The retrieval provider registry: embedding and rerank providers looked up by name the way a
 * user configures them (`tei`, `jina`, `openai`, `cohere`; presets such as `vllm` are named base
 * URLs on the OpenAI-compatible mapping), like `openarmature/llm`'s `providers`.
 */
import type { FetchFn } from "../llm/transport.ts";
import { cohereEmbeddingMapping, cohereRerankMapping } from "./cohere.ts";
import { HttpEmbeddingProvider } from "./http-embedding.ts";
import { HttpRerankProvider } from "./http-rerank.ts";
import { jinaEmbeddingMapping, jinaRerankMapping } from "./jina.ts";
import type { EmbeddingWireMapping, RerankWireMapping } from "./mapping.ts";
import { openAiEmbeddingMapping } from "./openai.ts";
import { teiEmbeddingMapping, teiRerankMapping } from "./tei.ts";
import type { EmbeddingProvider, RerankProvider } from "./types.ts";

export interface RetrievalProviderConfig {
  readonly model: string;
  /** Defaults to the entry's `apiKeyEnv` environment variable, when it has one. */
  readonly apiKey?: string;
  readonly baseUrl?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly fetch?: FetchFn;
  /** Items per request (TEI's `max-client-batch-size`; lowers a vendor's fixed cap). */
  readonly chunkSize?: number;
}

export interface EmbeddingProviderConfig extends RetrievalProviderConfig {
  readonly inputTypePromptMap?: Readonly<Record<string, string>>;
  readonly queryPrefix?: string;
  readonly documentPrefix?: string;
}

export interface RetrievalEntry<C, P> {
  readonly name: string;
  readonly kind: "embedding" | "rerank";
  /** `native`: a vendor API or runtime; `preset`: a named base URL over a compatible mapping. */
  readonly preset: boolean;
  readonly system: string;
  readonly defaultBaseUrl: string | undefined;
  readonly apiKeyEnv: string | undefined;
  create(config: C): P;
}

export type EmbeddingEntry = RetrievalEntry<EmbeddingProviderConfig, EmbeddingProvider>;
export type RerankEntry = RetrievalEntry<RetrievalProviderConfig, RerankProvider>;

/** A name → entry table; an unknown name lists the known ones. */
export class RetrievalRegistry<C, P> {
  readonly #entries = new Map<string, RetrievalEntry<C, P>>();
  constructor(readonly kind: "embedding" | "rerank") {}
  register(entry: RetrievalEntry<C, P>): void {
    if (entry.kind !== this.kind) throw new Error(`'${entry.name}' is a ${entry.kind} provider, not a ${this.kind} one`);
    if (this.#entries.has(entry.name)) throw new Error(`${this.kind} provider '${entry.name}' is already registered`);
    this.#entries.set(entry.name, entry);
  }
  lookup(name: string): RetrievalEntry<C, P> | undefined {
    return this.#entries.get(name);
  }
  entries(): ReadonlyArray<RetrievalEntry<C, P>> {
    return [...this.#entries.values()];
  }
  create(name: string, config: C): P {
    const entry = this.#entries.get(name);
    if (!entry) throw new Error(`unknown ${this.kind} provider '${name}' (registered: ${[...this.#entries.keys()].join(", ")})`);
    return entry.create(config);
  }
}

interface EntryDefaults {
  readonly baseUrl?: string;
  readonly apiKeyEnv?: string;
  readonly preset?: boolean;
}

function entry<C extends RetrievalProviderConfig, P, M extends { readonly system: string; readonly defaultBaseUrl?: string }>(
  kind: "embedding" | "rerank",
  name: string,
  mapping: M,
  defaults: EntryDefaults,
  make: (options: C & { name: string; mapping: M; baseUrl?: string; apiKey?: string }) => P,
): RetrievalEntry<C, P> {
  const baseUrl = defaults.baseUrl ?? mapping.defaultBaseUrl;
  return {
    name,
    kind,
    preset: defaults.preset === true,
    system: mapping.system,
    defaultBaseUrl: baseUrl,
    apiKeyEnv: defaults.apiKeyEnv,
    create: (config) => {
      const url = config.baseUrl ?? baseUrl;
      const apiKey = config.apiKey ?? (defaults.apiKeyEnv !== undefined ? process.env[defaults.apiKeyEnv] : undefined);
      return make({ ...config, name, mapping, ...(url !== undefined ? { baseUrl: url } : {}), ...(apiKey !== undefined ? { apiKey } : {}) });
    },
  };
}

/** An entry for an HTTP embedding provider over `mapping`. */
export function embeddingEntry(name: string, mapping: EmbeddingWireMapping, defaults: EntryDefaults = {}): EmbeddingEntry {
  return entry("embedding", name, mapping, defaults, (o: EmbeddingProviderConfig & { name: string; mapping: EmbeddingWireMapping }) => new HttpEmbeddingProvider(o));
}

/** An entry for an HTTP rerank provider over `mapping`. */
export function rerankEntry(name: string, mapping: RerankWireMapping, defaults: EntryDefaults = {}): RerankEntry {
  return entry("rerank", name, mapping, defaults, (o: RetrievalProviderConfig & { name: string; mapping: RerankWireMapping }) => new HttpRerankProvider(o));
}

/** The default embedding providers. TEI is self-hosted: `baseUrl` is required. */
export const embeddingProviders = new RetrievalRegistry<EmbeddingProviderConfig, EmbeddingProvider>("embedding");
embeddingProviders.register(embeddingEntry("tei", teiEmbeddingMapping));
embeddingProviders.register(embeddingEntry("jina", jinaEmbeddingMapping, { apiKeyEnv: "JINA_API_KEY" }));
embeddingProviders.register(embeddingEntry("openai", openAiEmbeddingMapping, { apiKeyEnv: "OPENAI_API_KEY" }));
embeddingProviders.register(embeddingEntry("cohere", cohereEmbeddingMapping, { apiKeyEnv: "CO_API_KEY" }));
embeddingProviders.register(embeddingEntry("vllm", openAiEmbeddingMapping, { baseUrl: "http://localhost:8000", preset: true }));
embeddingProviders.register(embeddingEntry("ollama", openAiEmbeddingMapping, { baseUrl: "http://localhost:11434", preset: true }));

/** The default rerank providers (OpenAI has no rerank API, §8.3). */
export const rerankProviders = new RetrievalRegistry<RetrievalProviderConfig, RerankProvider>("rerank");
rerankProviders.register(rerankEntry("tei", teiRerankMapping));
rerankProviders.register(rerankEntry("jina", jinaRerankMapping, { apiKeyEnv: "JINA_API_KEY" }));
rerankProviders.register(rerankEntry("cohere", cohereRerankMapping, { apiKeyEnv: "CO_API_KEY" }));
