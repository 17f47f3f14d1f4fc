/**
 * The embedding / rerank observability directives (observability 074-109, 139, 143, 154;
 * conformance-adapter §5.5, §5.8 `metrics`, §6.9): `calls_embed` / `calls_rerank` / the mocks at
 * observability's position, `enable_metrics` / `metrics`, and the named claims of the retrieval
 * claim tables — each passes on the real call's events / spans / measurements and fails on a wrong
 * observation (a success claim over a failed call, and the reverse).
 */
import { directiveTester } from "./tester.ts";

const OBS = "observability";

const call = (node: string, enable = false, collector = true) => `
state:
  fields:
    r: {type: record, default: null}
entry: n
nodes:
  n:
${node}
edges:
  - {from: n, to: END}
initial_state: {}
${enable ? "enable_metrics: true" : ""}
${collector ? "typed_observers:\n  - {name: collector, kind: typed_event_collector}" : ""}`;

const EMBED = "    calls_embed: {input: [a, b], stores_response_in: r, config: {dimensions: 2}}";
const EMBED_OK = `mock_embedding:
  - status: 200
    body: {object: list, model: emb-m, id: emb-1, data: [{object: embedding, index: 0, embedding: [0.1, 0.2]}, {object: embedding, index: 1, embedding: [0.3, 0.4]}], usage: {prompt_tokens: 4, total_tokens: 4}}`;
const EMBED_503 = `mock_embedding:
  - {status: 503, body: {error: {message: down}}}
expected_error: {category: provider_unavailable, raised_from: n}`;
const RERANK = "    calls_rerank: {query: q, documents: [d0, d1], top_k: 2, stores_response_in: r}";
const RERANK_OK = `mock_rerank:
  - status: 200
    body: {id: rr-1, model: rr-m, results: [{index: 1, relevance_score: 0.9}, {index: 0, relevance_score: 0.1}], meta: {billed_units: {search_units: 1}}}`;
const RERANK_503 = `mock_rerank:
  - {status: 503, body: {error: {message: down}}}
expected_error: {category: provider_unavailable, raised_from: n}`;

const expected = (block: string) => `expected:\n${block.split("\n").map((l) => `  ${l}`).join("\n")}`;
const claims = (...names: string[]) => expected(`invariants:\n${names.map((n) => `  ${n}: true`).join("\n")}`);

const EMBED_SUCCESS_CLAIMS = ["exactly_one_embedding_event_observed", "success_emits_one_event_zero_failures", "event_typed_fields_match_provider_response", "identity_scoping_fields_populated", "all_call_ids_non_null", "request_params_populated_with_caller_supplied_fields", "input_count_matches_input_list_length", "dimensions_matches_inner_vector_length"];
const EMBED_FAILURE_CLAIMS = ["exactly_one_embedding_failed_event_observed", "zero_embedding_events_on_failed_call", "failure_emits_one_event_zero_successes", "exception_propagates_alongside_typed_event"];

directiveTester("embedding event claims", {
  template: (b) => b,
  capability: OBS,
  valid: [
    `${call(EMBED)}\n${EMBED_OK}\n${claims(...EMBED_SUCCESS_CLAIMS)}`,
    `${call(EMBED)}\n${EMBED_503}\n${claims(...EMBED_FAILURE_CLAIMS)}`,
    `${call(EMBED)}\n${EMBED_OK}\n${expected("observers:\n  collector:\n    contains_event:\n      event_type: EmbeddingEvent\n      fields: {provider: openai, model: emb-m, response_id: emb-1, input_count: 2, dimensions: 2, usage: {input_tokens: 4}, request_params: {dimensions: 2}, caller_invocation_metadata: null}")}`,
  ],
  invalid: [
    // The success-only claims fail over a failed call (the request-side ones hold on both variants).
    ...["exactly_one_embedding_event_observed", "success_emits_one_event_zero_failures", "event_typed_fields_match_provider_response", "dimensions_matches_inner_vector_length"].map((c) => ({ code: `${call(EMBED)}\n${EMBED_503}\n${claims(c)}`, message: c })),
    { code: `${call("    calls_embed: {input: [a, b], stores_response_in: r}")}\n${EMBED_OK}\n${claims("request_params_populated_with_caller_supplied_fields")}`, message: "the caller supplied {}" },
    ...EMBED_FAILURE_CLAIMS.map((c) => ({ code: `${call(EMBED)}\n${EMBED_OK}\n${claims(c)}`, message: c })),
    { code: `${call(EMBED)}\n${EMBED_OK}\n${claims("request_params_empty_when_caller_supplied_none")}`, message: "request_params" },
    { code: `${call(EMBED)}\n${EMBED_OK}\n${claims("call_ids_distinct_across_embedding_events")}`, message: "distinctness needs at least two" },
    { code: `${call(EMBED, false, false)}\n${EMBED_OK}\n${claims("exactly_one_embedding_event_observed")}`, message: "declares no typed_observers collector" },
  ],
});

const RERANK_SUCCESS_CLAIMS = ["exactly_one_rerank_event_observed", "event_typed_fields_match_provider_response", "query_carried_verbatim", "documents_carried_verbatim", "document_count_matches_input", "top_k_matches_caller_supplied_value", "result_count_matches_response"];
const RERANK_FAILURE_CLAIMS = ["exactly_one_rerank_failed_event_observed", "zero_rerank_success_events_observed", "exception_propagates_out_of_rerank_call"];

directiveTester("rerank event claims", {
  template: (b) => b,
  capability: OBS,
  valid: [
    `${call(RERANK)}\n${RERANK_OK}\n${claims(...RERANK_SUCCESS_CLAIMS, "request_params_empty_when_caller_supplied_none")}`,
    `${call(RERANK)}\n${RERANK_503}\n${claims(...RERANK_FAILURE_CLAIMS)}`,
    `${call("    calls_rerank: {query: q, documents: [d0, d1], stores_response_in: r}")}\n${RERANK_OK}\n${claims("top_k_null_when_caller_passed_none")}`,
  ],
  invalid: [
    { code: `${call(RERANK)}\n${RERANK_503}\n${claims("exactly_one_rerank_event_observed")}`, message: "0 RerankEvent observed" },
    { code: `${call(RERANK)}\n${RERANK_503}\n${claims("result_count_matches_response")}`, message: "result_count" },
    { code: `${call(RERANK)}\n${RERANK_OK}\n${claims("top_k_null_when_caller_passed_none")}`, message: "top_k 2" },
    ...RERANK_FAILURE_CLAIMS.map((c) => ({ code: `${call(RERANK)}\n${RERANK_OK}\n${claims(c)}`, message: c })),
  ],
});

const span = (attrs: string, absent: string) => expected(`span_tree:
  - name: openarmature.invocation
    children:
      - name: n
        children:
          - name: openarmature.embedding.complete
            status: OK
            attributes: {${attrs}}
            attributes_absent: [${absent}]
            children: []`);
/** span claims read the §6.3 capture, which a span_tree composes (as in fixtures 082 / 107 / 139). */
const SPANS = "span_tree:\n  - name: openarmature.invocation";
const spanClaims = (...names: string[]) => expected(`${SPANS}\ninvariants:\n${names.map((n) => `  ${n}: true`).join("\n")}`);

directiveTester("embedding span (span_tree) and span claims", {
  template: (b) => b,
  capability: OBS,
  valid: [
    `${call(EMBED, false, false)}\n${EMBED_OK}\n${span('gen_ai.system: openai, gen_ai.request.model: emb-m, gen_ai.usage.input_tokens: 4, openarmature.embedding.input_count: 2, openarmature.embedding.dimensions: 2', "gen_ai.operation.name, openarmature.embedding.input.strings")}`,
    `${call(EMBED, false, false)}\n${EMBED_OK}\n${spanClaims("embedding_span_name_is_openarmature_embedding_complete", "stable_genai_semconv_subset_emitted", "operation_name_attribute_not_emitted_in_v1")}`,
  ],
  invalid: [
    { code: `${call(EMBED, false, false)}\n${EMBED_OK}\n${span("gen_ai.usage.input_tokens: 5", "")}`, message: "gen_ai.usage.input_tokens" },
    { code: `${call(EMBED, false, false)}\n${EMBED_OK}\n${spanClaims("usage_input_tokens_attribute_omitted_when_no_usage_record")}`, message: "carries gen_ai.usage.input_tokens" },
    { code: `${call(RERANK, false, false)}\n${RERANK_OK}\n${spanClaims("embedding_span_name_is_openarmature_embedding_complete")}`, message: "0 spans named openarmature.embedding.complete" },
    { code: `${call(RERANK, false, false)}\n${RERANK_OK}\n${spanClaims("input_tokens_emitted_when_provider_reports_it")}`, message: "has no gen_ai.usage.input_tokens" },
    { code: `${call(RERANK, false, false)}\n${RERANK_OK}\n${spanClaims("search_units_omitted_when_provider_reports_none")}`, message: "openarmature.rerank.search_units" },
  ],
});

const metrics = (entries: string) => expected(`metrics:\n${entries}`);
const EMB_DIMS = `openarmature.gen_ai.operation: embeddings, gen_ai.request.model: emb-m, gen_ai.system: openai`;

directiveTester("enable_metrics / metrics and the metric claims", {
  template: (b) => b,
  capability: OBS,
  valid: [
    `${call(EMBED, true, false)}\n${EMBED_OK}\n${metrics(`  - {instrument: openarmature.gen_ai.client.token.usage, value: 4, dimensions: {${EMB_DIMS}, openarmature.gen_ai.token.type: input}}\n  - {instrument: openarmature.gen_ai.client.operation.duration, dimensions: {${EMB_DIMS}}}`)}`,
    `${call(EMBED, false, false)}\n${EMBED_OK}\n${metrics("  []").replace("metrics:\n  []", "metrics: []")}`,
    // §6.9: the flag configured on the observer block, the way its span flags are.
    `${call(EMBED, false, false)}\notel_observer: {enable_metrics: true}\n${EMBED_OK}\n${metrics(`  - {instrument: openarmature.gen_ai.client.token.usage, value: 4, dimensions: {${EMB_DIMS}, openarmature.gen_ai.token.type: input}}\n  - {instrument: openarmature.gen_ai.client.operation.duration, dimensions: {${EMB_DIMS}}}`)}`,
    `${call(EMBED, true, false)}\n${EMBED_503}\n${claims("errored_embedding_records_duration_with_error_type", "no_token_usage_observation_on_failure")}`,
    `${call(RERANK, true, false)}\n${RERANK_OK}\n${claims("duration_recorded_for_rerank", "no_token_usage_observation_when_search_units_only", "rerank_operation_dimension_is_rerank")}`,
  ],
  invalid: [
    // The value is asserted; a duration entry without error.type does not match a failed call's (dimensions exact).
    { code: `${call(EMBED, true, false)}\n${EMBED_OK}\n${metrics(`  - {instrument: openarmature.gen_ai.client.token.usage, value: 5, dimensions: {${EMB_DIMS}, openarmature.gen_ai.token.type: input}}\n  - {instrument: openarmature.gen_ai.client.operation.duration, dimensions: {${EMB_DIMS}}}`)}`, message: "expected.metrics" },
    { code: `${call(EMBED, true, false)}\n${EMBED_503}\n${metrics(`  - {instrument: openarmature.gen_ai.client.operation.duration, dimensions: {${EMB_DIMS}}}`)}`, message: "error.type" },
    // Complete: a missing recording fails; enable_metrics off records nothing.
    { code: `${call(EMBED, true, false)}\n${EMBED_OK}\n${metrics(`  - {instrument: openarmature.gen_ai.client.operation.duration, dimensions: {${EMB_DIMS}}}`)}`, message: "expected.metrics" },
    { code: `${call(EMBED, false, false)}\n${EMBED_OK}\n${metrics(`  - {instrument: openarmature.gen_ai.client.operation.duration, dimensions: {${EMB_DIMS}}}`)}`, message: "expected.metrics" },
    { code: `${call(EMBED, true, false)}\n${EMBED_OK}\n${claims("no_token_usage_observation_when_usage_absent")}`, message: "token.usage observations" },
    { code: `${call(EMBED, true, false)}\n${EMBED_OK}\n${claims("errored_embedding_records_duration_with_error_type")}`, message: "has no error.type" },
  ],
});

const llm = (mock: string) => `
state:
  fields:
    msg: {type: string, default: ""}
entry: ask
nodes:
  ask:
    calls_llm:
      messages: [{role: user, content: hi}]
      stores_response_in: msg
edges:
  - {from: ask, to: END}
initial_state: {}
enable_metrics: true
mock_llm:
${mock}`;
const LLM_OK = `  - status: 200
    body: {id: cc-1, object: chat.completion, created: 1700000000, model: test-model, choices: [{index: 0, message: {role: assistant, content: hello}, finish_reason: stop}], usage: {prompt_tokens: 5, completion_tokens: 1, total_tokens: 6}}`;
const LLM_NULL_PROMPT = LLM_OK.replace("prompt_tokens: 5", "prompt_tokens: null");
const LLM_503 = `  - {status: 503, body: {error: {message: down}}}
expected_error: {category: provider_unavailable, raised_from: ask}`;

directiveTester("LLM metric claims", {
  template: (b) => b,
  capability: OBS,
  valid: [
    `${llm(LLM_OK)}\n${claims("two_token_usage_observations_input_and_output", "one_duration_observation_per_call", "duration_value_not_asserted", "no_token_budget_instrument_observations_when_no_budget")}`,
    `${llm(LLM_503)}\n${claims("errored_call_records_duration_with_error_type", "duration_records_error_type_on_failure", "no_token_usage_observation_on_failure")}`,
    `${llm(LLM_NULL_PROMPT)}\n${claims("no_input_token_usage_observation_when_prompt_tokens_null", "no_input_token_usage_observation", "output_token_usage_observation_recorded_when_completion_sound", "no_input_kind_budget_observation_when_prompt_tokens_null")}`,
  ],
  invalid: [
    { code: `${llm(LLM_503)}\n${claims("two_token_usage_observations_input_and_output")}`, message: "token observations" },
    { code: `${llm(LLM_OK)}\n${claims("errored_call_records_duration_with_error_type")}`, message: "durations" },
    { code: `${llm(LLM_OK)}\n${claims("no_input_token_usage_observation_when_prompt_tokens_null")}`, message: "input-token observations" },
    { code: `${llm(LLM_503)}\n${claims("output_token_usage_observation_recorded_when_completion_sound")}`, message: "output-token observations" },
    { code: `${llm(LLM_OK)}\n${claims("token_usage_recorded_on_structured_output_failure")}`, message: "token_usage_recorded_on_structured_output_failure" },
    { code: `${llm(LLM_OK)}\n${claims("total_bound_evaluated_when_total_tokens_sound")}`, message: "total-kind budget observations" },
  ],
});

/** Two embed calls (one per invocation): the case-level block's scope is both calls (§5.8, §8.4). */
const twoCalls = (block: string) => `${call(EMBED, true, false)}
${EMBED_OK}
${EMBED_OK.split("\n").slice(1).join("\n")}
invocations:
  - {name: one}
  - {name: two}
expected:
  metrics:
${block}`;
const USAGE = `    - {instrument: openarmature.gen_ai.client.token.usage, value: 4, dimensions: {${EMB_DIMS}, openarmature.gen_ai.token.type: input}}`;
const DURATION = `    - {instrument: openarmature.gen_ai.client.operation.duration, dimensions: {${EMB_DIMS}}}`;

directiveTester("metrics in the case-level block of a multi-invocation case (§5.8 'the block's scope')", {
  template: twoCalls,
  capability: OBS,
  valid: [[USAGE, DURATION, USAGE, DURATION].join("\n")],
  // Complete over both calls: one call's measurements are not all of them.
  invalid: [{ code: [USAGE, DURATION].join("\n"), message: "expected.metrics" }],
});
