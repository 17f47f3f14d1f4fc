/**
 * The retrieval-provider case (conformance-adapter §5.14–§5.15): the construction blocks, the
 * `mapping:` under test and the response mocks, turned into real providers from
 * `openarmature/retrieval` whose injected `fetch` is the mock (the network edge, nothing above
 * it). One mock serves each surface — `mock_embedding` every embed request, `mock_rerank` every
 * rerank request — one entry per request in order, and every request is captured with its bytes.
 */
import { SlotKey } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import {
  HttpEmbeddingProvider,
  HttpRerankProvider,
  embeddingProviders,
  openAiEmbeddingMapping,
  rerankProviders,
  type EmbeddingProvider,
  type RerankProvider,
} from "../../src/retrieval/index.ts";
import { MockProvider, type MockEntry } from "../llm/mock-provider.ts";
import { echoedModel, STAND_IN_BASE_URL, STAND_IN_EMBEDDING_MODEL, STAND_IN_RERANK_MODEL, standInRerankMapping } from "./stand-in.ts";

/** A mock entry: `{status, body?, raises?: {error_type, message | message_repeat}}` (§5.15). */
export interface RetrievalMockEntry {
  readonly status: number;
  readonly body?: unknown;
  readonly raises?: { readonly error_type?: string; readonly message?: string; readonly message_repeat?: { readonly char: string; readonly bytes: number } };
}

export interface Construction {
  /** `tei`, `jina`, `openai`, `cohere` (from the block name). */
  readonly vendor: string;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly where: FixtureLocation;
}

/** The §5.15 retrieval wire mappings `mapping:` may name (absent: the harness stand-in shape). */
export const RETRIEVAL_MAPPINGS: ReadonlyArray<string> = ["tei", "jina", "openai", "cohere"];

export class RetrievalCaseState {
  mapping: string | undefined;
  embedding: Construction | undefined;
  rerank: Construction | undefined;
  mockEmbedding: ReadonlyArray<RetrievalMockEntry> = [];
  mockRerank: ReadonlyArray<RetrievalMockEntry> = [];
  #embedMock: MockProvider | undefined;
  #rerankMock: MockProvider | undefined;

  get embedMock(): MockProvider {
    return (this.#embedMock ??= new MockProvider({ responses: this.mockEmbedding.map(toMockEntry) }));
  }
  get rerankMock(): MockProvider {
    return (this.#rerankMock ??= new MockProvider({ responses: this.mockRerank.map(toMockEntry) }));
  }

  /**
   * The bound EmbeddingProvider: the construction block under the `mapping:`, or the stand-in;
   * `model` (a legacy `calls_embed.model`, read as `calls_rerank.model` is) binds it to that model.
   */
  embeddingProvider(where: FixtureLocation, model?: string): EmbeddingProvider {
    const fetch = this.embedMock.fetch;
    const c = this.embedding;
    if (this.mapping === undefined) {
      if (c !== undefined) throw new FixtureSchemaInvalid(`${c.vendor}_embedding_provider needs a mapping: to select its wire shape`, c.where);
      return new HttpEmbeddingProvider({ name: "stand-in", mapping: openAiEmbeddingMapping, model: model ?? echoedModel(this.mockEmbedding) ?? STAND_IN_EMBEDDING_MODEL, baseUrl: STAND_IN_BASE_URL, fetch });
    }
    if (c === undefined) throw new FixtureSchemaInvalid(`mapping: ${this.mapping} has no ${this.mapping}_embedding_provider block to construct the provider from`, where);
    if (c.vendor !== this.mapping) throw new FixtureSchemaInvalid(`${c.vendor}_embedding_provider does not match mapping: ${this.mapping}`, c.where);
    const f = c.fields as Record<string, never>;
    return embeddingProviders.create(this.mapping, {
      model: model ?? f["model"],
      fetch,
      ...(f["base_url"] !== undefined ? { baseUrl: f["base_url"] } : {}),
      ...(f["api_key"] !== undefined ? { apiKey: f["api_key"] } : {}),
      ...(f["chunk_size"] !== undefined ? { chunkSize: f["chunk_size"] } : {}),
      ...(f["input_type_prompt_map"] !== undefined ? { inputTypePromptMap: f["input_type_prompt_map"] } : {}),
      ...(f["query_prefix"] !== undefined ? { queryPrefix: f["query_prefix"] } : {}),
      ...(f["document_prefix"] !== undefined ? { documentPrefix: f["document_prefix"] } : {}),
    });
  }

  /** The bound RerankProvider; `model` (a `calls_rerank.model`) binds a provider instance to that model. */
  rerankProvider(where: FixtureLocation, model: string | undefined): RerankProvider {
    const fetch = this.rerankMock.fetch;
    const c = this.rerank;
    if (this.mapping === undefined) {
      if (c !== undefined) throw new FixtureSchemaInvalid(`${c.vendor}_rerank_provider needs a mapping: to select its wire shape`, c.where);
      return new HttpRerankProvider({ name: "stand-in", mapping: standInRerankMapping, model: model ?? echoedModel(this.mockRerank) ?? STAND_IN_RERANK_MODEL, baseUrl: STAND_IN_BASE_URL, fetch });
    }
    if (c === undefined) throw new FixtureSchemaInvalid(`mapping: ${this.mapping} has no ${this.mapping}_rerank_provider block to construct the provider from`, where);
    if (c.vendor !== this.mapping) throw new FixtureSchemaInvalid(`${c.vendor}_rerank_provider does not match mapping: ${this.mapping}`, c.where);
    const f = c.fields as Record<string, never>;
    return rerankProviders.create(this.mapping, {
      model: model ?? f["model"],
      fetch,
      ...(f["base_url"] !== undefined ? { baseUrl: f["base_url"] } : {}),
      ...(f["api_key"] !== undefined ? { apiKey: f["api_key"] } : {}),
      ...(f["chunk_size"] !== undefined ? { chunkSize: f["chunk_size"] } : {}),
    });
  }
}

export const RETRIEVAL_CASE = new SlotKey("retrieval-provider case", () => new RetrievalCaseState());

/**
 * A mock entry's `raises: {error_type?, message? | message_repeat?}` (§5.15, and §5.5's `mock_llm`
 * counterpart, which carries the same shape): the literal error a non-2xx entry reports. Each side
 * enforces `message` / `message_repeat` exclusion in its own words.
 */
export const MOCK_RAISES_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    error_type: { type: "string" },
    message: { type: "string" },
    message_repeat: { type: "object", required: ["char", "bytes"], additionalProperties: false, properties: { char: { type: "string", minLength: 1 }, bytes: { type: "integer", minimum: 0 } } },
  },
} as const;

/**
 * §5.15 `message_repeat`: `char` repeated while the UTF-8 encoding stays within `bytes` — the
 * largest whole number of repetitions, never longer than `bytes`.
 */
export function repeatMessage(char: string, bytes: number): string {
  const size = Buffer.byteLength(char, "utf8");
  return size === 0 ? "" : char.repeat(Math.floor(bytes / size));
}

/**
 * A fixture entry as the mock serves it. A `raises` entry's literal error reaches the provider's
 * error through the wire, as a vendor's would: `message` (or `message_repeat`) as the body's
 * `error.message` (the message every mapping reads) and `error_type` as `error.type` (the vendor
 * error type the typed failure event reports); the status still decides the §7 category.
 */
function toMockEntry(e: RetrievalMockEntry): MockEntry {
  const r = e.raises;
  const message = r?.message ?? (r?.message_repeat ? repeatMessage(r.message_repeat.char, r.message_repeat.bytes) : undefined);
  const error = r === undefined ? undefined : { ...(r.error_type !== undefined ? { type: r.error_type } : {}), ...(message !== undefined ? { message } : {}) };
  const body = e.body !== undefined ? e.body : error !== undefined ? { error } : undefined;
  return { status: e.status, ...(body !== undefined ? { body } : {}) };
}
