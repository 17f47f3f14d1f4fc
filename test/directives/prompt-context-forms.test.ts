/**
 * The prompt-context forms the observability fixture headers define (conformance-adapter §3.2, §5
 * Definition homes: a header comment block is a per-directory harness note): `renders_prompt` on a
 * node, `prompt_backend` (with `token_budget` and a Langfuse prompt reference) and `render_variables`
 * at the case, and `calls_llm` / `calls_embed` / `calls_rerank` taking their messages, input or query
 * from the rendered prompt (106's `query_from_rendered_prompt`, its embedding sibling
 * `input_from_rendered_prompt`). The render, the prompt-context binding and what the events and
 * spans report are the library's: a wrong identity, budget or rendered text fails the case.
 */
import { directiveTester } from "./tester.ts";

const LLM_OK = `mock_llm:
  - {status: 200, body: {id: cc-1, object: chat.completion, model: m, choices: [{index: 0, message: {role: assistant, content: hello}, finish_reason: stop}], usage: {prompt_tokens: 20, completion_tokens: 1, total_tokens: 21}}}`;
const RERANK_OK = `mock_rerank:
  - status: 200
    body: {id: rr-1, model: rr-m, results: [{index: 0, relevance_score: 0.8}, {index: 1, relevance_score: 0.2}]}`;
const EMBED_OK = `mock_embedding:
  - status: 200
    body: {object: list, model: e-m, data: [{object: embedding, index: 0, embedding: [0.1, 0.2]}], usage: {prompt_tokens: 2, total_tokens: 2}}`;

const COLLECTOR = "typed_observers:\n  - {name: collector, kind: typed_event_collector}";

const graph = (node: string, caseLevel: string) => `
state:
  fields:
    msg: {type: string, default: ""}
    r: {type: record, default: null}
entry: n
nodes:
  n:
${node}
edges:
  - {from: n, to: END}
initial_state: {}
${caseLevel}
`;

const BACKEND = (budget = "", type = "filesystem", extra = "") => `prompt_backend:
  type: ${type}
  prompts:
    classify: {name: classify, version: "v7", label: production, template: "classify {{x}}", template_hash: h1${budget}${extra}}`;
const PROMPT_CASE = (budget = "") => `${BACKEND(budget)}\nrender_variables: {x: y}`;
const RENDERS = "    renders_prompt: classify";
const IDENTITY = `active_prompt: {name: classify, version: "v7", label: production, template_hash: h1, rendered_hash: "<any-string>"}`;

/** The call's Langfuse Generation under node n, with its §8.4.4 prompt link (024's entry keys). */
const GENERATION = (link: string) => `expected:
  langfuse_trace:
    observations:
      - type: span
        name: n
        children:
          - {type: generation, name: openarmature.llm.complete, ${link}, metadata: {prompt: {name: classify, version: "v7"}}}`;
const LF_CASE = `${BACKEND("", "mock_with_langfuse_reference", ", langfuse_prompt_reference: lf-1")}\nrender_variables: {x: y}`;
const LLM_NODE = `${RENDERS}\n    calls_llm: {stores_response_in: msg}`;

const event = (type: string, fields: string) => `expected:
  observers:
    collector:
      contains_event:
        event_type: ${type}
        fields: {${fields}}`;

/** The messages the provider was sent, as the typed event reports them. */
const SENT = (text: string) => `${COLLECTOR}\n${event("LlmCompletionEvent", `input_messages: [{role: user, content: "${text}"}]`)}`;

directiveTester("prompt-context forms (observability harness notes)", {
  capability: "observability",
  template: (b) => b,
  valid: [
    // calls_llm without messages sends the rendered prompt, in its prompt context (064 / 126).
    graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${PROMPT_CASE()}\n${COLLECTOR}\n${event("LlmCompletionEvent", `${IDENTITY}, token_budget: null`)}\n  final_state: {msg: hello, r: null}`),
    graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${PROMPT_CASE()}\n${SENT("classify y")}`),
    // The prompt's token_budget reaches the event through the library's binding (126).
    graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${PROMPT_CASE(", token_budget: {input_max_tokens: 10}")}\n${COLLECTOR}\n${event("LlmCompletionEvent", "token_budget: {input_max_tokens: 10, total_max_tokens: null}")}`),
    // Explicit messages after renders_prompt: sent as written, the prompt still active (131).
    graph(`${RENDERS}\n    calls_llm: {messages: [{role: user, content: hi}], stores_response_in: msg}`, `${LLM_OK}\n${PROMPT_CASE()}\n${COLLECTOR}\n${event("LlmCompletionEvent", IDENTITY)}`),
    // Document order (§8.3): a call before the render runs outside any prompt context (065).
    graph(`    calls_llm: {messages: [{role: user, content: hi}]}\n${RENDERS}`, `${LLM_OK}\n${PROMPT_CASE()}\n${COLLECTOR}\n${event("LlmCompletionEvent", "active_prompt: null")}`),
    // 106: the rendered text is the rerank query.
    graph(`${RENDERS}\n    calls_rerank: {query_from_rendered_prompt: true, documents: [a, b], stores_response_in: r}`, `${RERANK_OK}\n${PROMPT_CASE()}\n${COLLECTOR}\n${event("RerankEvent", `${IDENTITY}, query: classify y`)}`),
    // The embedding sibling: the rendered text is the one input.
    graph(`${RENDERS}\n    calls_embed: {input_from_rendered_prompt: true, stores_response_in: r}`, `${EMBED_OK}\n${PROMPT_CASE()}\n${COLLECTOR}\n${event("EmbeddingEvent", `${IDENTITY}, input_strings: [classify y]`)}`),
    // The render is the library's, strict about undefined variables (prompt-management §8).
    graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${BACKEND()}\nexpected_error: {category: prompt_render_error}`),
    // A Langfuse-reference backend serves the same identity.
    graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${BACKEND("", "mock_with_langfuse_reference", ", langfuse_prompt_reference: lf-1")}\nrender_variables: {x: y}\n${COLLECTOR}\n${event("LlmCompletionEvent", IDENTITY)}`),
    // §8.4.4 case 1 (024): the Generation is linked, through the SDK's native prompt link, to the
    // Prompt entity the backend's reference names; case 2: a backend exposing none links nothing.
    graph(LLM_NODE, `${LLM_OK}\n${LF_CASE}\n${GENERATION("prompt_entity_link: lf-1")}`),
    graph(LLM_NODE, `${LLM_OK}\n${PROMPT_CASE()}\n${GENERATION("prompt_entity_link_absent: true")}`),
  ],
  invalid: [
    {
      code: graph("    calls_llm: {stores_response_in: msg}", LLM_OK),
      category: "fixture_schema_invalid",
      message: "'calls_llm' is missing required key 'messages'",
    },
    {
      code: graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, LLM_OK),
      category: "fixture_schema_invalid",
      message: "renders_prompt needs a case-level prompt_backend",
    },
    {
      code: graph(`    renders_prompt: other\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${PROMPT_CASE()}`),
      category: "fixture_schema_invalid",
      message: "no prompt 'other' is declared",
    },
    {
      code: graph("    calls_rerank: {query_from_rendered_prompt: true, documents: [a, b], stores_response_in: r}", RERANK_OK),
      category: "fixture_schema_invalid",
      message: "the node renders none before it",
    },
    {
      code: graph(`${RENDERS}\n    calls_rerank: {query: q, query_from_rendered_prompt: true, documents: [a, b], stores_response_in: r}`, `${RERANK_OK}\n${PROMPT_CASE()}`),
      category: "fixture_schema_invalid",
      message: "carries both 'query' and 'query_from_rendered_prompt'",
    },
    {
      code: graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${BACKEND("", "filesystem", ", langfuse_prompt_reference: lf-1")}`),
      category: "fixture_schema_invalid",
      message: "needs prompt_backend type mock_with_langfuse_reference",
    },
    // The link names the entity the reference registered, and only a reference establishes one.
    { code: graph(LLM_NODE, `${LLM_OK}\n${LF_CASE}\n${GENERATION("prompt_entity_link: lf-2")}`), message: "lf-2" },
    { code: graph(LLM_NODE, `${LLM_OK}\n${LF_CASE}\n${GENERATION("prompt_entity_link_absent: true")}`), message: "prompt_entity_link_absent" },
    { code: graph(LLM_NODE, `${LLM_OK}\n${PROMPT_CASE()}\n${GENERATION("prompt_entity_link: lf-1")}`), message: "prompt_entity_link" },
    // Two prompts cannot be the same Langfuse Prompt entity.
    {
      code: graph(
        LLM_NODE,
        `${LLM_OK}\nprompt_backend:\n  type: mock_with_langfuse_reference\n  prompts:\n    classify: {name: classify, version: "v7", label: production, template: "c", template_hash: h1, langfuse_prompt_reference: lf-1}\n    other: {name: other, version: "v1", label: production, template: "o", template_hash: h2, langfuse_prompt_reference: lf-1}`,
      ),
      category: "fixture_schema_invalid",
      message: "already another prompt's Langfuse Prompt entity",
    },
    // The identity and the rendered text are what the library reports, not what the fixture wrote.
    {
      code: graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${PROMPT_CASE()}\n${COLLECTOR}\n${event("LlmCompletionEvent", 'active_prompt: {version: "v8"}')}`),
      message: "v8",
    },
    { code: graph(`${RENDERS}\n    calls_llm: {stores_response_in: msg}`, `${LLM_OK}\n${PROMPT_CASE()}\n${SENT("classify z")}`), message: "classify z" },
  ],
});

/** A per-directory note's definition is recognized only in its own directory (§5 Definition homes). */
directiveTester("prompt-context forms outside observability", {
  capability: "graph-engine",
  template: (b) => b,
  valid: [],
  invalid: [
    {
      code: graph(`${RENDERS}\n    update: {msg: x}`, PROMPT_CASE()),
      category: "fixture_directive_unknown",
      message: ["'renders_prompt'", "'prompt_backend'", "'render_variables'"],
    },
  ],
});
