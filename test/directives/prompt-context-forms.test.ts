/**
 * The prompt-context forms some observability fixtures use (024, 064, 106, 126-131, 146, 147, 155,
 * 156): `renders_prompt` on a node, `prompt_backend` / `render_variables` at the case, a
 * `calls_llm` without `messages` and a `calls_rerank` without `query`
 * (`query_from_rendered_prompt`). The governing conformance-adapter text (seeds/002, 0.120.1)
 * defines none of them: §5.1 writes calls_llm as `{messages: [...], stores_response_in}` and
 * calls_rerank as `{query, documents, ...}`, and neither §5 nor a harness-note home of the
 * observability directory (§3.2, §3.3) defines renders_prompt, prompt_backend or render_variables
 * (their only descriptions are the per-fixture .md files, which are not a definition home; 106's
 * header note defines query_from_rendered_prompt only in terms of the undefined renders_prompt).
 * §5's preamble puts such directives outside the recognized vocabulary, so §8.2 rejects them. These
 * tests pin that: the defined forms run, the undefined ones fail with the §9 category naming them.
 */
import { directiveTester } from "./tester.ts";

const LLM_OK = `mock_llm:
  - {status: 200, body: {id: cc-1, object: chat.completion, model: m, choices: [{index: 0, message: {role: assistant, content: hello}, finish_reason: stop}], usage: {prompt_tokens: 5, completion_tokens: 1, total_tokens: 6}}}`;
const RERANK_OK = `mock_rerank:
  - status: 200
    body: {id: rr-1, model: rr-m, results: [{index: 0, relevance_score: 0.8}, {index: 1, relevance_score: 0.2}]}`;

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

const LLM_CALL = "    calls_llm: {messages: [{role: user, content: hi}], stores_response_in: msg}";
const PROMPT_CASE = `prompt_backend:
  type: filesystem
  prompts:
    classify: {name: classify, version: "v1", label: production, template: "classify {{x}}", template_hash: h}
render_variables: {x: y}`;

directiveTester("prompt-context forms the seed does not define", {
  capability: "observability",
  template: (b) => b,
  valid: [
    graph(LLM_CALL, `${LLM_OK}\nexpected:\n  final_state: {msg: hello}`),
    graph("    calls_rerank: {query: q, documents: [a, b], stores_response_in: r}", `${RERANK_OK}\n${COLLECTOR}\nexpected:\n  invariants:\n    exactly_one_rerank_event_observed: true`),
  ],
  invalid: [
    {
      code: graph("    calls_llm: {stores_response_in: msg}", LLM_OK),
      category: "fixture_schema_invalid",
      message: "'calls_llm' is missing required key 'messages'",
    },
    {
      code: graph(`    renders_prompt: classify\n${LLM_CALL}`, LLM_OK),
      category: "fixture_directive_unknown",
      message: "'renders_prompt'",
    },
    {
      code: graph(LLM_CALL, `${LLM_OK}\n${PROMPT_CASE}`),
      category: "fixture_directive_unknown",
      message: ["'prompt_backend'", "'render_variables'"],
    },
    {
      code: graph("    calls_rerank: {query_from_rendered_prompt: true, documents: [a, b], stores_response_in: r}", RERANK_OK),
      category: "fixture_schema_invalid",
      message: "'calls_rerank' is missing required key 'query'",
    },
  ],
});
