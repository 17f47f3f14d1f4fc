/**
 * The retrieval-provider construction / mock / call vocabulary (conformance-adapter §5.14, §5.15):
 * the `<vendor>_embedding_provider` / `<vendor>_rerank_provider` blocks, `mapping:`, the
 * `mock_embedding` / `mock_rerank` lists, and the `calls_embed` / `calls_rerank` node directives
 * that call the real provider and store its response record in state.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import { PromptContextSlot, renderedText, requireRendered, type PromptContextState } from "../../harness/prompts/rendered.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { completedState } from "../../harness/graph/reading.ts";
import * as F from "../../harness/graph/facets.ts";
import { MOCK_RAISES_SCHEMA, RETRIEVAL_CASE, type RetrievalMockEntry } from "../../harness/retrieval/case.ts";
import { RetrievalCallsFacet, type RetrievalCall } from "../../harness/retrieval/facets.ts";
import { WireCallFacet } from "../../harness/wire-call.ts";
import { usesProvider } from "../../harness/provider-context.ts";
import { FinalState, finalStateShape } from "../general/final-state.ts";
import type { EmbeddingResponse, RerankResponse } from "../../src/retrieval/index.ts";

const HOME = "retrieval-provider";
/**
 * §5.15 "gives [the retrieval vocabulary] a normative home" in §5 itself: the construction blocks,
 * the mocks and the node calls are general — recognized in every directory (observability's
 * retrieval fixtures use them unchanged). `mapping` is general too (directives/general/mapping.ts:
 * the blocks and mocks mark the case as calling a retrieval provider, which is how it picks this
 * provider's mapping); the `final_state` refinement stays this directory's.
 */
const GENERAL = "general";

/** §5.14 `chunk_size`: the per-request cap for the constructed provider. */
const chunkSize = { type: "integer", minimum: 1 } as const;
const common = { base_url: { type: "string", minLength: 1 }, model: { type: "string", minLength: 1 }, api_key: { type: "string" }, chunk_size: chunkSize } as const;
const prefixes = { query_prefix: { type: "string" }, document_prefix: { type: "string" } } as const;

const BLOCKS: ReadonlyArray<{ name: string; vendor: string; kind: "embedding" | "rerank"; properties: Record<string, unknown> }> = [
  { name: "tei_embedding_provider", vendor: "tei", kind: "embedding", properties: { ...common, ...prefixes, input_type_prompt_map: { type: "object", additionalProperties: { type: "string" } } } },
  { name: "tei_rerank_provider", vendor: "tei", kind: "rerank", properties: common },
  { name: "jina_embedding_provider", vendor: "jina", kind: "embedding", properties: common },
  { name: "jina_rerank_provider", vendor: "jina", kind: "rerank", properties: common },
  { name: "openai_embedding_provider", vendor: "openai", kind: "embedding", properties: { ...common, ...prefixes } },
  { name: "cohere_embedding_provider", vendor: "cohere", kind: "embedding", properties: common },
  { name: "cohere_rerank_provider", vendor: "cohere", kind: "rerank", properties: common },
];

for (const block of BLOCKS) {
  class ConstructionBlock {
    readonly schema = { type: "object", required: ["model"], additionalProperties: false, properties: block.properties };
    configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
      const state = ctx.slot(RETRIEVAL_CASE);
      state[block.kind] = { vendor: block.vendor, fields: value, where: ctx.locate(ctx.self.path) };
      usesProvider(ctx, "retrieval");
    }
  }
  Object.defineProperty(ConstructionBlock, "name", { value: `Construction_${block.name}` });
  directive({ name: block.name, at: "case", home: GENERAL, summary: `a bound ${block.vendor} ${block.kind} provider (§5.15)` })(ConstructionBlock);
}

const mockEntry = {
  type: "object",
  required: ["status"],
  additionalProperties: false,
  properties: {
    status: { type: "integer", minimum: 100, maximum: 599 },
    body: {},
    raises: {
      ...MOCK_RAISES_SCHEMA,
      // §5.15: message and message_repeat are mutually exclusive.
      not: { required: ["message", "message_repeat"] },
    },
  },
  // §5.15: raises is not used without a non-2xx status.
  if: { required: ["raises"] },
  then: { properties: { status: { not: { type: "integer", minimum: 200, maximum: 299 } } } },
} as const;

@directive({ name: "mock_embedding", at: "case", home: GENERAL, summary: "the embedding mock's responses, one per request" })
export class MockEmbedding {
  readonly schema = { type: "array", items: mockEntry };
  configure(value: RetrievalMockEntry[], ctx: ConfigureContext): void {
    ctx.slot(RETRIEVAL_CASE).mockEmbedding = value;
    usesProvider(ctx, "retrieval");
  }
}

@directive({ name: "mock_rerank", at: "case", home: GENERAL, summary: "the rerank mock's responses, one per request" })
export class MockRerank {
  readonly schema = { type: "array", items: mockEntry };
  configure(value: RetrievalMockEntry[], ctx: ConfigureContext): void {
    ctx.slot(RETRIEVAL_CASE).mockRerank = value;
    usesProvider(ctx, "retrieval");
  }
}

/** Record a finished provider call on the running call's observation (claims and wire assertions read it). */
function record(env: BuildEnv, call: RetrievalCall): void {
  const obs = env.currentCall().observation;
  const calls = obs.tryGet(RetrievalCallsFacet) ?? [];
  calls.push(call);
  obs.set(RetrievalCallsFacet, calls);
  obs.set(WireCallFacet, { operation: call.operation, mapping: call.mapping, requests: calls.flatMap((c) => c.requests) });
}

/**
 * The §2 embedding / rerank runtime configs: the declared fields plus the extras bag, closed like
 * the llm-provider `config` (§6). A vendor knob rides `extras`; a key beside them is a typo the
 * provider would otherwise drop unseen, so it is rejected (fixture_schema_invalid) at its line.
 * Values are left to the provider's own §7 pre-send checks.
 */
const EMBED_CONFIG_SCHEMA = { type: "object", additionalProperties: false, properties: { dimensions: {}, input_type: {}, extras: { type: ["object", "null"] } } } as const;
const RERANK_CONFIG_SCHEMA = { type: "object", additionalProperties: false, properties: { return_documents: {}, extras: { type: ["object", "null"] } } } as const;

interface EmbedValue {
  input?: string[];
  model?: string;
  input_from_rendered_prompt?: boolean;
  config?: Record<string, unknown>;
  stores_response_in: string;
}

/**
 * `calls_embed: {input, config?, stores_response_in}` — the node calls embed() and stores the
 * response. After a `renders_prompt` step in the node (observability's harness notes) the call runs
 * in the library's prompt context of the rendered prompt; `input_from_rendered_prompt: true` in
 * place of `input` embeds the rendered prompt's text (106's note names it the embedding sibling of
 * `query_from_rendered_prompt`).
 */
@directive({ name: "calls_embed", at: "node", home: GENERAL, summary: "call the bound EmbeddingProvider.embed()" })
export class CallsEmbed {
  readonly schema = {
    type: "object",
    required: ["stores_response_in"],
    additionalProperties: false,
    properties: {
      input: { type: "array", items: { type: "string" } },
      input_from_rendered_prompt: { const: true },
      config: EMBED_CONFIG_SCHEMA,
      // Read only through the legacy bundle's `calls_embed.model` form (counted): as calls_rerank.model.
      model: { type: "string", minLength: 1 },
      stores_response_in: { type: "string", minLength: 1 },
    },
  };
  contribute(value: EmbedValue, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const state = env.slot(RETRIEVAL_CASE);
    const prompts = env.slot(PromptContextSlot);
    const content = fromRenderedPrompt(value.input, value.input_from_rendered_prompt, "calls_embed", "input", node, prompts, env.locate(at));
    node.steps.push(async (_s, ctx) => {
      const input = content === "rendered" ? [renderedText(requireRendered(prompts, ctx, "input_from_rendered_prompt", env.locate(at)), "input_from_rendered_prompt", env.locate(at))] : content;
      const provider = state.embeddingProvider(env.locate(at), value.model);
      const mock = state.embedMock;
      const [sent, served] = [mock.requests.length, mock.served.length];
      let response: EmbeddingResponse | undefined;
      let error: unknown;
      try {
        response = await prompts.within(ctx, () => provider.embed(input, value.config !== undefined ? { config: value.config } : {}));
        return { [value.stores_response_in]: response };
      } catch (e) {
        error = e;
        throw e;
      } finally {
        record(env, { operation: "embed", mapping: state.mapping ?? "stand-in", node: node.name, input: { ...value, input }, construction: state.embedding?.fields ?? {}, response, error, requests: mock.requests.slice(sent), served: mock.served.slice(served).map((s) => s.body) });
      }
    });
  }
}

interface RerankValue {
  query?: string;
  query_from_rendered_prompt?: boolean;
  documents: string[];
  top_k?: number;
  config?: Record<string, unknown>;
  model?: string;
  stores_response_in: string;
}

/**
 * `calls_rerank: {query, documents, top_k?, config?, model?, stores_response_in}` — the node calls
 * rerank(). After a `renders_prompt` step in the node the call runs in the library's prompt context
 * of the rendered prompt; `query_from_rendered_prompt: true` in place of `query` uses the rendered
 * prompt's text as the query (observability 106's harness note).
 */
@directive({ name: "calls_rerank", at: "node", home: GENERAL, summary: "call the bound RerankProvider.rerank()" })
export class CallsRerank {
  readonly schema = {
    type: "object",
    required: ["documents", "stores_response_in"],
    additionalProperties: false,
    properties: {
      query: { type: "string" },
      query_from_rendered_prompt: { const: true },
      documents: { type: "array", items: { type: "string" } },
      top_k: { type: "integer" },
      config: RERANK_CONFIG_SCHEMA,
      model: { type: "string", minLength: 1 },
      stores_response_in: { type: "string", minLength: 1 },
    },
  };
  contribute(value: RerankValue, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const state = env.slot(RETRIEVAL_CASE);
    const prompts = env.slot(PromptContextSlot);
    const content = fromRenderedPrompt(value.query, value.query_from_rendered_prompt, "calls_rerank", "query", node, prompts, env.locate(at));
    node.steps.push(async (_s, ctx) => {
      const query = content === "rendered" ? renderedText(requireRendered(prompts, ctx, "query_from_rendered_prompt", env.locate(at)), "query_from_rendered_prompt", env.locate(at)) : content;
      const provider = state.rerankProvider(env.locate(at), value.model);
      const mock = state.rerankMock;
      const [sent, served] = [mock.requests.length, mock.served.length];
      let response: RerankResponse | undefined;
      let error: unknown;
      try {
        response = await prompts.within(ctx, () =>
          provider.rerank(query, value.documents, {
            ...(value.top_k !== undefined ? { topK: value.top_k } : {}),
            ...(value.config !== undefined ? { config: value.config } : {}),
          }),
        );
        return { [value.stores_response_in]: response };
      } catch (e) {
        error = e;
        throw e;
      } finally {
        record(env, { operation: "rerank", mapping: state.mapping ?? "stand-in", node: node.name, input: { ...value, query }, construction: state.rerank?.fields ?? {}, response, error, requests: mock.requests.slice(sent), served: mock.served.slice(served).map((s) => s.body) });
      }
    });
  }
}

/**
 * A call's written content, or `"rendered"` when it takes it from the prompt a `renders_prompt`
 * step earlier in the node rendered; exactly one of the two forms, and the rendered form only after
 * such a step (`fixture_schema_invalid` otherwise).
 */
function fromRenderedPrompt<T>(written: T | undefined, flag: boolean | undefined, directive: string, key: string, node: NodeAssembly, prompts: PromptContextState, where: FixtureLocation): T | "rendered" {
  const flagKey = `${key}_from_rendered_prompt`;
  if (flag === true) {
    if (written !== undefined) throw new FixtureSchemaInvalid(`'${directive}' carries both '${key}' and '${flagKey}'; write one`, where);
    if (!prompts.rendersBefore(node)) throw new FixtureSchemaInvalid(`'${directive}.${flagKey}' takes the ${key} from the prompt a renders_prompt step earlier in the node rendered, and the node renders none before it`, where);
    return "rendered";
  }
  if (written === undefined) throw new FixtureSchemaInvalid(`'${directive}' is missing required key '${key}' (or '${flagKey}: true' after a renders_prompt step)`, where);
  return written;
}

/**
 * `final_state` here (conformance-adapter §5.8): exact, except that a field a `calls_*` node stored
 * a provider record in (an EmbeddingResponse / RerankResponse) matches by the keys the fixture
 * names, with `raw` exact as a JSON document (§8.4). A key that names no field of the record, such
 * as `vectors_length`, fails.
 */
@directive({ name: "final_state", at: "expected", home: HOME, summary: "the final state; provider records by named keys" })
export class RetrievalFinalState extends FinalState {
  override check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const state = completedState(obs, ctx);
    if (state === null) return;
    const base = finalStateShape(obs);
    const keys: Record<string, Shape> = { ...base.keys };
    const graph = obs.tryGet(F.RootGraph);
    const fields = (obs.tryGet(RetrievalCallsFacet) ?? []).map((c) => c.input["stores_response_in"] as string);
    for (const f of fields) if (!graph || graph.schema.fields.has(f)) keys[f] = Shapes.record({ keys: { raw: Shapes.document() } });
    ctx.match(value, state, Shapes.exact({ keys }));
  }
}
