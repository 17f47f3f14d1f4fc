/**
 * The prompt-context and token-budget claims (observability 064, 106, 129, 131, 146, 147, 155, 156):
 * each passes on a call whose engine output has the property, and fails naming what it read when
 * the call does not (a prompt not rendered, a counter reported, a budget not crossed...).
 */
import { directiveTester } from "./tester.ts";

const usage = (prompt: number | null, completion = 1, total: number | null = 21) => `{prompt_tokens: ${prompt}, completion_tokens: ${completion}, total_tokens: ${total}}`;
const llmOk = (u = usage(20)) => `mock_llm:
  - {status: 200, body: {id: cc-1, object: chat.completion, model: m, choices: [{index: 0, message: {role: assistant, content: hello}, finish_reason: stop}], usage: ${u}}}`;
const LLM_503 = "mock_llm:\n  - {status: 503, body: {error: {message: down}}}";
const TRUNCATED = `mock_llm:
  - {status: 200, body: {id: cc-2, object: chat.completion, model: m, choices: [{index: 0, message: {role: assistant, content: '{"name":'}, finish_reason: length}], usage: ${usage(20, 16, 36)}}}`;

const backend = (budget: string) => `prompt_backend:
  type: filesystem
  prompts:
    classify: {name: classify, version: "v7", label: production, template: "classify {{x}}", template_hash: h1${budget ? `, token_budget: ${budget}` : ""}}
render_variables: {x: y}`;

const SCHEMA = "response_schema: {type: object, properties: {name: {type: string}}, required: [name]}";

/** One node `ask`: optionally renders `classify`, then calls the LLM. */
const call = (o: { render?: boolean; budget?: string; mock: string; claims: string; extra?: string; callKeys?: string }) => `
state:
  fields:
    msg: {type: string, default: ""}
entry: ask
nodes:
  ask:
${o.render === false ? "" : "    renders_prompt: classify\n"}    calls_llm: {messages: [{role: user, content: hi}], stores_response_in: msg${o.callKeys ? `, ${o.callKeys}` : ""}}
edges:
  - {from: ask, to: END}
initial_state: {}
enable_metrics: true
${backend(o.budget ?? "")}
${o.mock}
typed_observers:
  - {name: collector, kind: typed_event_collector}
${o.extra ?? ""}
expected:
  invariants:
${o.claims}
`;

/** The same node inside a fan-out instance (the prompt context follows the call into any composite). */
const inFanOut = (claims: string) => `
subgraphs:
  inner:
    state:
      fields:
        item: {type: int, default: 0}
        msg: {type: string, default: ""}
    entry: ask
    nodes:
      ask:
        renders_prompt: classify
        calls_llm: {messages: [{role: user, content: hi}], stores_response_in: msg}
    edges:
      - {from: ask, to: END}
state:
  fields:
    items: {type: list<int>, default: []}
    out: {type: list<string>, reducer: append, default: []}
entry: fan
nodes:
  fan:
    fan_out: {subgraph: inner, items_field: items, item_field: item, collect_field: msg, target_field: out}
edges:
  - {from: fan, to: END}
initial_state: {items: [1, 2]}
${backend("")}
${llmOk()}
  - {status: 200, body: {id: cc-3, object: chat.completion, model: m, choices: [{index: 0, message: {role: assistant, content: hi}, finish_reason: stop}], usage: ${usage(20)}}}
typed_observers:
  - {name: collector, kind: typed_event_collector}
expected:
  invariants:
${claims}
`;

const c = (name: string, value = "true") => `    ${name}: ${value}`;

directiveTester("prompt-context and token-budget claims", {
  capability: "observability",
  template: (b) => b,
  valid: [
    call({ mock: llmOk(), claims: c("active_prompt_snapshot_matches_prompt_management_section_12_identity_attrs") }),
    inFanOut(c("active_prompt_snapshot_matches_prompt_management_section_12_identity_attrs")),
    call({ render: false, mock: llmOk(), claims: c("active_prompt_snapshot_matches_prompt_management_section_12_identity_attrs", "false") }),
    call({ mock: llmOk(), claims: c("token_budget_null_on_completion_event") }),
    call({ budget: "{input_max_tokens: 10}", mock: LLM_503, extra: "expected_error: {category: provider_unavailable}", claims: c("token_budget_populated_but_not_evaluated_without_usage") }),
    call({
      budget: "{input_max_tokens: 10}",
      mock: llmOk(usage(null, 5, 12)),
      claims: [
        "input_bound_not_evaluated_when_prompt_tokens_null",
        "exceeded_span_signal_absent_not_false_when_only_bound_unevaluable",
        "exceeded_span_signal_absent_not_false",
        "span_omits_both_input_usage_attributes",
        "null_prompt_tokens_reaches_no_span_histogram_or_budget_surface",
      ].map((n) => c(n)).join("\n"),
    }),
    call({
      budget: "{input_max_tokens: 10}",
      mock: TRUNCATED,
      callKeys: SCHEMA,
      extra: "expected_error: {category: structured_output_invalid}",
      claims: ["exceeded_flag_survives_error_precedence_on_failed_generation", "declared_bounds_present_on_failed_generation", "error_level_and_category_unchanged"].map((n) => c(n)).join("\n"),
    }),
    call({ budget: "{input_max_tokens: 40}", mock: llmOk(), claims: [c("exceeded_flag_present_and_false_under_budget"), c("no_warning_level_under_budget")].join("\n") }),
  ],
  invalid: [
    { code: call({ render: false, mock: llmOk(), claims: c("active_prompt_snapshot_matches_prompt_management_section_12_identity_attrs") }), message: "no typed event carries an active_prompt" },
    { code: call({ budget: "{input_max_tokens: 10}", mock: llmOk(), claims: c("token_budget_null_on_completion_event") }), message: "token_budget [{" },
    { code: call({ mock: LLM_503, extra: "expected_error: {category: provider_unavailable}", claims: c("token_budget_populated_but_not_evaluated_without_usage") }), message: "carry no token_budget" },
    { code: call({ budget: "{input_max_tokens: 10}", mock: llmOk(), claims: c("input_bound_not_evaluated_when_prompt_tokens_null") }), message: "every call reported prompt_tokens" },
    { code: call({ budget: "{input_max_tokens: 10}", mock: llmOk(), claims: c("exceeded_span_signal_absent_not_false_when_only_bound_unevaluable") }), message: "no LLM span of a call whose only declared bound" },
    { code: call({ budget: "{input_max_tokens: 10, total_max_tokens: 8}", mock: llmOk(usage(null, 5, 12)), claims: c("exceeded_span_signal_absent_not_false") }), message: "declared bounds were all unevaluable" },
    { code: call({ mock: llmOk(), claims: c("span_omits_both_input_usage_attributes") }), message: "input usage on the span" },
    { code: call({ budget: "{input_max_tokens: 10}", mock: llmOk(), claims: c("null_prompt_tokens_reaches_no_span_histogram_or_budget_surface") }), message: "every call reported prompt_tokens" },
    // Within budget, the failed generation carries token_budget_exceeded false.
    {
      code: call({ budget: "{input_max_tokens: 40}", mock: TRUNCATED, callKeys: SCHEMA, extra: "expected_error: {category: structured_output_invalid}", claims: c("exceeded_flag_survives_error_precedence_on_failed_generation") }),
      message: "token_budget_exceeded [false]",
    },
    { code: call({ mock: TRUNCATED, callKeys: SCHEMA, extra: "expected_error: {category: structured_output_invalid}", claims: c("declared_bounds_present_on_failed_generation") }), message: "no LLM span carries a declared bound" },
    { code: call({ budget: "{input_max_tokens: 10}", mock: llmOk(), claims: c("error_level_and_category_unchanged") }), message: "the call did not raise" },
    { code: call({ budget: "{input_max_tokens: 10}", mock: llmOk(), claims: c("exceeded_flag_present_and_false_under_budget") }), message: "token_budget_exceeded [true]" },
    { code: call({ mock: llmOk(), claims: c("no_warning_level_under_budget") }), message: "no generation within a declared budget" },
  ],
});
