/**
 * The retrieval-provider directives (conformance-adapter §5.14–§5.16) each fail on a wrong
 * observation, through the real interpreter, graph, provider and mock `fetch`.
 */
import { directiveTester } from "./tester.ts";

const RP = "retrieval-provider";

/** A Cohere embed node over 3 inputs with chunk_size 2 (two requests). */
const embed = (block: string, mocks = `
mock_embedding:
  - status: 200
    body: {id: first, embeddings: {float: [[0.1, 0.2], [0.3, 0.4]]}, meta: {billed_units: {input_tokens: 2}}}
  - status: 200
    body: {id: second, embeddings: {float: [[0.5, 0.6]]}, meta: {billed_units: {input_tokens: 1}}}`, config = "") => `
mapping: cohere
cohere_embedding_provider: {base_url: "https://co.invalid", model: co-embed, api_key: k, chunk_size: 2}
state:
  fields:
    r: {type: record, default: null}
entry: n
nodes:
  n:
    calls_embed:
      input: [a, b, c]${config}
      stores_response_in: r
edges:
  - {from: n, to: END}
initial_state: {}${mocks}
${block}
`;

/** A TEI rerank node over 3 documents with chunk_size 2. */
const rerank = (block: string) => `
mapping: tei
tei_rerank_provider: {base_url: "http://tei.invalid", model: tei-rr, chunk_size: 2}
state:
  fields:
    r: {type: record, default: null}
entry: n
nodes:
  n:
    calls_rerank: {query: q, documents: [d0, d1, d2], top_k: 2, stores_response_in: r}
edges:
  - {from: n, to: END}
initial_state: {}
mock_rerank:
  - status: 200
    body: [{index: 1, score: 0.2}, {index: 0, score: 0.7}]
  - status: 200
    body: [{index: 0, score: 0.9}]
${block}
`;

const wire = `expected_wire_request:
  - {model: co-embed, input_type: search_document, texts: [a, b], embedding_types: [float], truncate: "NONE"}
  - {model: co-embed, input_type: search_document, texts: [c], embedding_types: [float], truncate: "NONE"}`;

directiveTester("calls_embed / final_state (provider records by named keys)", {
  capability: RP,
  template: (b) => embed(b),
  valid: [`expected:\n  final_state:\n    r:\n      vectors: [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]\n      dimensions: 2\n      usage: {input_tokens: 3}\n      response_id: first\n      model: co-embed`],
  invalid: [
    { code: `expected:\n  final_state:\n    r: {vectors_length: 3}`, message: "expected.final_state.r.vectors_length" },
    { code: `expected:\n  final_state:\n    r: {response_id: second}`, message: "expected.final_state.r.response_id" },
    { code: `expected:\n  final_state:\n    r: {usage: null}`, message: "expected.final_state.r.usage" },
    { code: `expected:\n  final_state:\n    r:\n      raw: [{id: first}]`, message: "expected.final_state.r.raw" },
  ],
});

directiveTester("wire-request assertions on a chunked call", {
  capability: RP,
  template: (b) => embed(b),
  valid: [`${wire}\nexpected_wire_request_count: 2\nexpected_wire_headers: {Authorization: "Bearer k"}\nexpected_wire_request_absent_keys: [output_dimension]\nexpected:\n  invariants: {exactly_two_embed_requests_issued: true}`],
  invalid: [
    { code: `expected_wire_request:\n  - {model: co-embed, input_type: search_document, texts: [a, b, c], embedding_types: [float], truncate: "NONE"}`, message: "expected 1 wire request(s), but the call sent 2" },
    { code: `${wire.replace("[c]", "[b]")}`, message: "expected_wire_request[1].texts" },
    { code: `expected_wire_headers: {Authorization: "Bearer other"}`, message: "expected_wire_headers.Authorization" },
    { code: `expected_wire_request_absent_keys: [truncate]`, message: "carries 'truncate'" },
    { code: `expected_wire_request_count: 3`, message: "expected_wire_request_count: expected 3, got 2" },
    { code: `${wire}\nexpected_wire_request_count: 3`, category: "fixture_schema_invalid", message: "disagrees" },
  ],
});

directiveTester("retrieval named claims", {
  capability: RP,
  template: (b) => embed(b),
  valid: [
    `expected:\n  invariants:\n    vectors_concatenated_in_input_order: true\n    input_tokens_summed_across_chunks: true\n    response_id_from_first_chunk_id: true\n    raw_is_list_of_per_chunk_response_objects: true\n    identical_per_call_params_across_chunks: true\n    wire_request_truncate_none: true\n    wire_request_embedding_types_is_float_only: true\n    wire_request_input_type_search_document_default: true`,
  ],
  invalid: [
    { code: `expected:\n  invariants: {exactly_one_embed_request_issued: true}`, message: "2 request(s) were issued, not 1" },
    { code: `expected:\n  invariants: {no_embed_request_issued: true}`, message: "no_embed_request_issued does not hold" },
    { code: `expected:\n  invariants: {exception_raised_out_of_embed_call: true}`, message: "the call returned" },
    { code: `expected:\n  invariants: {response_id_null_when_openai_omits: true}`, message: "response_id_null_when_openai_omits does not hold" },
    { code: `expected:\n  invariants: {malformed_input_tokens_not_reported_usage_null: true}`, message: "usage is not null" },
    { code: `expected:\n  invariants: {wire_request_carries_input_type_search_query: true}`, message: "input_type" },
    { code: `expected:\n  invariants: {chunk_inputs_sizes_2_2_1_consecutive_slices: true}`, message: "chunk sizes [2,1]" },
    { code: `expected:\n  invariants: {vectors_length_matches_input_length: false}`, message: "holds, but the fixture asserts it does not" },
  ],
});

directiveTester("malformed ancillary figures and pre-send rejections", {
  capability: RP,
  template: (b) => embed(b, `
mock_embedding:
  - status: 200
    body: {id: 7, embeddings: {float: [[0.1], [0.2]]}, meta: {billed_units: {input_tokens: "2"}}}
  - status: 200
    body: {id: later, embeddings: {float: [[0.3]]}, meta: {billed_units: {input_tokens: 1}}}`),
  valid: [`expected:\n  final_state:\n    r: {usage: null, response_id: null}\n  invariants:\n    malformed_chunk_input_tokens_collapses_stitched_usage_null: true\n    no_fall_through_to_later_chunk_id: true\n    malformed_first_chunk_id_preserved_verbatim_on_raw: true`],
  invalid: [
    { code: `expected:\n  invariants: {stitched_usage_is_sum_of_sound_chunk_figures: true}`, message: "usage is null" },
    { code: `expected:\n  invariants: {response_id_from_first_chunk_id: true}`, message: "response_id is null" },
  ],
});

directiveTester("pre-send rejection (managed truncate) with expected_error", {
  capability: RP,
  template: (b) => embed(b, "", `\n      config: {extras: {truncate: END}}`),
  valid: [`expected_error: {category: provider_invalid_request, raised_from: n}\nexpected:\n  invariants:\n    no_embed_request_issued: true\n    conflicting_managed_truncate_rejected_pre_send: true`],
  invalid: [
    { code: `expected_error: {category: provider_invalid_response}`, message: "expected_error.category" },
    { code: `expected:\n  invariants: {exactly_one_embed_request_issued: true}`, message: "0 request(s) were issued" },
  ],
});

directiveTester("calls_rerank over TEI chunk-and-stitch", {
  capability: RP,
  template: (b) => rerank(b),
  valid: [
    `expected:\n  final_state:\n    r:\n      results: [{index: 2, relevance_score: 0.9, document: null}, {index: 0, relevance_score: 0.7, document: null}]\n      usage: null\n      response_id: null\n      model: tei-rr\n  invariants:\n    chunk_local_indices_rebased_to_absolute_positions: true\n    results_globally_sorted_by_score_descending_across_chunks: true\n    top_k_honored_after_global_sort: true\n    same_query_on_every_chunk_request: true\n    model_is_bound_id_when_tei_omits_echo: true`,
  ],
  invalid: [
    { code: `expected:\n  final_state:\n    r:\n      results: [{index: 0, relevance_score: 0.9}]`, message: "expected.final_state.r.results" },
    { code: `expected:\n  invariants: {result_count_equals_top_k: false}`, message: "holds, but" },
    { code: `expected:\n  invariants: {every_document_null_when_cohere_omits_echo: false}`, message: "holds, but" },
  ],
});

directiveTester("mock entry schema (§5.15 raises)", {
  capability: RP,
  template: (b) => embed("expected_error: {category: provider_rate_limit}", b),
  valid: [`\nmock_embedding:\n  - status: 429\n    raises: {error_type: RateLimitError, message_repeat: {char: "é", bytes: 9}}`],
  invalid: [
    { code: `\nmock_embedding:\n  - status: 429\n    raises: {message: a, message_repeat: {char: x, bytes: 3}}`, category: "fixture_schema_invalid", message: "mock_embedding" },
    { code: `\nmock_embedding:\n  - status: 200\n    raises: {message: a}`, category: "fixture_schema_invalid", message: "mock_embedding" },
  ],
});

directiveTester("retrieval claim families (names a held-back fixture may spell)", {
  capability: RP,
  template: (b) => embed(b),
  valid: [`expected:\n  invariants:\n    exactly_two_requests_issued: true\n    wire_request_carries_input_type_search_document: true\n    chunk_texts_sizes_2_1_consecutive_slices: true\n    wire_request_omits_output_dimension_field: true\n    chunk_requests_omit_output_dimension_and_prompt_name: true`],
  invalid: [
    { code: `expected:\n  invariants: {exactly_four_embed_requests_issued: true}`, message: "2 request(s) were issued, not 4" },
    { code: `expected:\n  invariants: {wire_request_carries_input_type_classification: true}`, message: "input_type" },
    { code: `expected:\n  invariants: {chunk_texts_sizes_1_2_consecutive_slices: true}`, message: "chunk sizes [2,1]" },
    { code: `expected:\n  invariants: {wire_request_omits_truncate_field: true}`, message: "no 'truncate'" },
    { code: `expected:\n  invariants: {chunk_requests_omit_texts_and_model: true}`, message: "no 'texts'" },
  ],
});

// The runtime configs are closed like llm-provider `config` (§6): declared fields plus `extras`; a
// key beside them is a typo the provider would drop unseen (found by the robustness test).
const embedded = `expected:\n  final_state:\n    r:\n      vectors: [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]]\n      dimensions: 2\n      model: co-embed`;
directiveTester("calls_embed config: declared fields and extras only", {
  capability: RP,
  template: (b) => embed(embedded, undefined, b),
  valid: [`\n      config: {input_type: document, dimensions: null, extras: {}}`],
  invalid: [{ code: `\n      config: {input_type: document, inputtype: query}`, category: "fixture_schema_invalid", message: "config" }],
});
directiveTester("calls_rerank config: declared fields and extras only", {
  capability: RP,
  template: (b) => rerank(`expected:\n  final_state:\n    r:\n      model: tei-rr`).replace("top_k: 2,", `top_k: 2, ${b}`),
  valid: [`config: {return_documents: false, extras: {}},`],
  invalid: [{ code: `config: {return_documents: false, top_n: 1},`, category: "fixture_schema_invalid", message: "config" }],
});

/**
 * §5.14: chunk_size is honored "whatever the mapping" — the Jina and Cohere rerank blocks (no
 * upstream fixture chunks them): three documents under chunk_size 2 are two requests, stitched.
 */
const vendorRerank = (vendor: "jina" | "cohere", chunk: number) => `
mapping: ${vendor}
${vendor}_rerank_provider: {base_url: "https://${vendor}.invalid", model: rr, api_key: k, chunk_size: ${chunk}}
state:
  fields:
    r: {type: record, default: null}
entry: n
nodes:
  n:
    calls_rerank: {query: q, documents: [d0, d1, d2], stores_response_in: r}
edges:
  - {from: n, to: END}
initial_state: {}
mock_rerank:
  - status: 200
    body: {model: rr, results: [{index: 0, relevance_score: 0.4}, {index: 1, relevance_score: 0.9}]}
  - status: 200
    body: {model: rr, results: [{index: 0, relevance_score: 0.5}]}
expected_wire_request_count: 2
expected:
  final_state:
    r:
      results:
        - {index: 1, relevance_score: 0.9}
        - {index: 2, relevance_score: 0.5}
        - {index: 0, relevance_score: 0.4}
`;

directiveTester("chunk_size on the Jina / Cohere rerank blocks (§5.14)", {
  capability: RP,
  template: (b) => b,
  valid: [vendorRerank("jina", 2), vendorRerank("cohere", 2)],
  // Under a cap of 3 the call is one request: the written count of 2 fails.
  invalid: [
    { code: vendorRerank("jina", 3), message: "expected_wire_request_count" },
    { code: vendorRerank("cohere", 3), message: "expected_wire_request_count" },
  ],
});
