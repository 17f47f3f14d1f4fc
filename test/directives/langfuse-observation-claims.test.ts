import { directiveTester } from "./tester.ts";

/** 083 / 137's shape: one embedding call through the Langfuse observer, succeeding or failing with 503. */
const embed = (claims: string, opts: { fail?: boolean; payload?: boolean; raises?: boolean; unservedRaises?: boolean } = {}) => `
state: {fields: {r: {type: record, default: null}}}
entry: embed_node
nodes:
  embed_node:
    calls_embed: {input: ["query one", "query two"], stores_response_in: r}
edges: [{from: embed_node, to: END}]
initial_state: {}
mock_embedding:
${
  opts.fail
    ? `  - status: 503${opts.raises ? `\n    raises: {error_type: "ServiceUnavailableError", message: "the embedding endpoint returned 503"}` : ""}`
    : `  - status: 200
    body:
      object: list
      model: text-embedding-test
      id: emb-id
      data:
        - {object: embedding, index: 0, embedding: [0.1, 0.2]}
        - {object: embedding, index: 1, embedding: [0.3, 0.4]}
      usage: {prompt_tokens: 4, total_tokens: 4}${opts.unservedRaises ? `
  - status: 503
    raises: {error_type: "ServiceUnavailableError", message: "the embedding endpoint returned 503"}` : ""}`
}
langfuse_observer: {disable_provider_payload: ${opts.payload === false ? "false" : "true"}}
${opts.fail ? "expected_error: {category: provider_unavailable, raised_from: embed_node}\n" : ""}expected:
  invariants:
${claims}
`;

/** 117's shape: one streamed LLM call. */
const stream = (claims: string) => `
state: {fields: {answer: {type: string, default: ""}}}
entry: ask
nodes:
  ask:
    calls_llm: {stream: true, messages: [{role: user, content: "say hello"}], stores_response_in: answer}
edges: [{from: ask, to: END}]
initial_state: {}
mock_llm_stream:
  - - {choices: [{index: 0, delta: {content: "Hel"}, finish_reason: null}]}
    - {choices: [{index: 0, delta: {content: "lo"}, finish_reason: stop}]}
    - {choices: [], usage: {prompt_tokens: 9, completion_tokens: 3, total_tokens: 12}}
langfuse_observer: {disable_provider_payload: false}
expected:
  invariants:
${claims}
`;

directiveTester("Langfuse observation claims (observability 035, 083, 117, 137, 142, 148, 150)", {
  template: (b) => b,
  capability: "observability",
  valid: [
    embed("    error_type_asserted_literally_from_raises: true\n    error_message_asserted_literally_from_raises: true\n    error_category_still_from_status: true", { fail: true, raises: true }),
    embed("    langfuse_trace_id_is_uuid_hex_dashes_stripped: true\n    observation_type_is_embedding_not_generation: true\n    input_and_output_suppressed_under_default_privacy_posture: true"),
    embed("    renders_as_embedding_observation_not_generation: true", { payload: false }),
    embed("    embedding_failure_renders_error_level: true\n    error_category_is_status_message: true\n    failure_observation_carries_no_output: true", { fail: true }),
    embed("    no_output_even_with_payload_flag_off: true\n    request_side_input_populated_when_payload_flag_disabled: true\n    error_level_and_status_message_unchanged_by_payload_flag: true", { fail: true, payload: false }),
    stream("    exactly_one_generation_observation_under_stream: true\n    no_per_token_child_observations: true\n    generation_output_is_full_assembled_content: true\n    generation_usage_output_and_total_present_when_sound: true\n    input_and_output_populated_when_payload_flag_disabled: true"),
  ],
  invalid: [
    // The observation is an Embedding, not a Retriever / Tool / Generation.
    { code: embed("    observation_type_is_retriever_not_generation: true"), message: 'is a "embedding", expected "retriever"' },
    { code: embed("    renders_as_dedicated_tool_observation_not_generation: true"), message: 'expected "tool"' },
    { code: stream("    observation_type_is_embedding_not_generation: true"), message: 'is a "generation", expected "embedding"' },
    { code: embed("    exactly_one_generation_observation_under_stream: true"), message: "0 generation observations" },
    // Payload gating: suppressed by default, populated with the flag off.
    { code: embed("    input_and_output_populated_when_payload_flag_disabled: true"), message: "expected both populated" },
    { code: embed("    input_and_output_suppressed_under_default_privacy_posture: true", { payload: false }), message: "expected both suppressed" },
    { code: embed("    request_side_input_populated_when_payload_flag_disabled: true", { fail: true }), message: "input is absent" },
    // Usage: the embedding reported usage; the generation reported its prompt tokens.
    { code: embed("    usage_details_empty_when_no_usage_record: true"), message: "usageDetails" },
    { code: stream("    generation_usage_input_omitted_when_prompt_tokens_null: true"), message: "has input" },
    // Failure claims on a success, and literal raises the case does not declare.
    { code: embed("    embedding_failure_renders_error_level: true"), message: 'level "DEFAULT", expected "ERROR"' },
    { code: embed("    failure_observation_carries_no_output: true"), message: "not a failure observation" },
    { code: embed("    error_category_is_status_message: true"), message: 'level "DEFAULT"' },
    { code: embed("    error_type_asserted_literally_from_raises: true", { fail: true }), message: "declare no raises" },
    // The raises entry is never served (the one call succeeds): the observation carries no error_message.
    { code: embed("    error_message_asserted_literally_from_raises: true", { unservedRaises: true }), message: "metadata.error_message" },
    { code: embed("    failed_generation_carries_output_usage_finish_reason: true", { fail: true }), message: "output is absent" },
  ],
});
