/**
 * The LLM span directives (conformance-adapter §5.5, §5.11; observability §5.5, §6): llm_spans
 * (graph case and a traced bare llm-provider call), llm_span_attributes / _absent,
 * no_llm_provider_span, response_usage, otel_observer / disable_llm_spans, attribute_truncation,
 * caller_global_otel_active with span_tree_private / span_tree_global / no_openarmature_spans_on_global.
 */
import { directiveTester } from "./tester.ts";

const body = (usage = "{prompt_tokens: 5, completion_tokens: 1, total_tokens: 6}") =>
  `{id: cc-1, object: chat.completion, model: test-model, choices: [{index: 0, message: {role: assistant, content: hello}, finish_reason: stop}], usage: ${usage}}`;

const graphCase = (expected: string, extra = "", call = "calls_llm: {messages: [{role: user, content: hi}], stores_response_in: msg}") => `
state: {fields: {msg: {type: string, default: ""}}}
entry: ask
nodes:
  ask:
    ${call}
edges: [{from: ask, to: END}]
initial_state: {}
mock_llm:
  - {status: 200, body: ${body("{prompt_tokens: 100, completion_tokens: 5, total_tokens: 105, prompt_tokens_details: {cached_tokens: 0}}")}}
${extra}
expected:
${expected.split("\n").map((l) => `  ${l}`).join("\n")}
`;

directiveTester("llm_span_attributes / llm_span_attributes_absent / response_usage", {
  capability: "observability",
  template: (b) => graphCase(b),
  valid: [
    `llm_span_attributes: {openarmature.llm.cache_read.input_tokens: 0, openarmature.llm.model: test-model}\nllm_span_attributes_absent: [openarmature.llm.cache_creation.input_tokens]\nresponse_usage: {prompt_tokens: 100, cached_tokens: 0, cache_creation_tokens: null}\ninvariants:\n  reported_zero_distinct_from_absent: true`,
  ],
  invalid: [
    { code: "llm_span_attributes: {openarmature.llm.cache_read.input_tokens: 1}", message: "llm_span_attributes" },
    { code: "llm_span_attributes_absent: [openarmature.llm.cache_read.input_tokens]", message: "carries openarmature.llm.cache_read.input_tokens" },
    { code: "response_usage: {prompt_tokens: 99}", message: "response_usage.prompt_tokens" },
    { code: "invariants:\n  cache_attribute_absent_when_field_unpopulated: true", message: "cache_attribute_absent_when_field_unpopulated" },
  ],
});

directiveTester("no_llm_provider_span / disable_llm_spans / otel_observer", {
  capability: "observability",
  template: (b) => b,
  valid: [graphCase("no_llm_provider_span: true", "disable_llm_spans: true"), graphCase("no_llm_provider_span: false\nllm_span_attributes_absent: [gen_ai.system]", "otel_observer: {disable_genai_semconv: true}")],
  invalid: [
    { code: graphCase("no_llm_provider_span: true"), message: "produced 1 openarmature.llm.complete spans" },
    { code: graphCase("llm_span_attributes: {gen_ai.system: openai}", "otel_observer: {disable_genai_semconv: true}"), message: "llm_span_attributes" },
  ],
});

const truncation = (bytes: number, sub: string) =>
  graphCase(
    `span_tree:\n  - name: openarmature.invocation\n    children:\n      - name: ask\n        children:\n          - name: openarmature.llm.complete\n            attribute_truncation:\n              openarmature.llm.input.messages: {${sub}}`,
    "otel_observer: {disable_provider_payload: false, payload_byte_cap: 256}",
    `calls_llm: {messages: [{role: user, content_repeat: {char: "é", bytes: ${bytes}}}]}`,
  );

directiveTester("attribute_truncation", {
  capability: "observability",
  template: (b) => b,
  valid: [truncation(1000, 'max_bytes: 256, marker_pattern: "…\\\\[truncated, [0-9]+ bytes total\\\\]$", utf8_valid: true, prefix_of_full_serialization: true')],
  invalid: [
    { code: truncation(1000, "max_bytes: 100"), message: "attribute_truncation" },
    // not truncated at all: the marker is missing and the value is no cut prefix.
    { code: truncation(20, "prefix_of_full_serialization: true"), message: "attribute_truncation" },
  ],
});

directiveTester("caller_global_otel_active (§6 isolation)", {
  capability: "observability",
  template: (b) => b,
  valid: [
    graphCase(
      "span_tree_private:\n  - name: openarmature.invocation\n    children: [{name: ask, children: [{name: openarmature.llm.complete}]}]\nspan_tree_global: [{name: external.llm.call, children: []}]\nno_openarmature_spans_on_global: true",
      "caller_global_otel_active: true",
      "calls_llm: {messages: [{role: user, content: hi}]}\n    also_emits_via_global_tracer: {span_name: external.llm.call}",
    ),
  ],
  invalid: [
    {
      code: graphCase("span_tree_global: []", "caller_global_otel_active: true", "calls_llm: {messages: [{role: user, content: hi}]}\n    also_emits_via_global_tracer: {span_name: external.llm.call}"),
      message: "span_tree_global",
    },
  ],
});

const bare = (spans: string) => `
mock_provider:
  responses:
    - {status: 503, body: {error: {message: down}}}
    - {status: 200, body: ${body()}}
call:
  operation: complete
  messages: [{role: user, content: go}]
  retry: {max_attempts: 2, backoff: {type: deterministic, seconds: 0}}
expected:
  llm_spans:
${spans}
  invariants:
    n_attempts_emit_n_llm_spans: true
`;

directiveTester("llm_spans (bare llm-provider call, traced)", {
  capability: "llm-provider",
  template: (b) => b,
  valid: [bare("    - {attempt_index: 0, error_category: provider_unavailable, attributes_absent: [openarmature.llm.retry_reason]}\n    - {attempt_index: 1, error_category: null, attributes: {openarmature.llm.retry_reason: transient}}")],
  invalid: [
    { code: bare("    - {attempt_index: 0, error_category: null}\n    - {attempt_index: 1, error_category: null}"), message: "llm_spans[0].error_category" },
    { code: bare("    - {attempt_index: 0}"), message: "expected.llm_spans" },
  ],
});

/** mock_llm's mapping form (conformance-adapter §5.5): `{capabilities, responses}`, §5.11's OpenAI flags. */
const imageCase = (capabilities: string) => `
state: {fields: {msg: {type: string, default: ""}}}
entry: ask
nodes:
  ask:
    calls_llm:
      messages:
        - role: user
          content:
            - type: image
              source: {type: url, url: "https://example.com/a.png"}
            - {type: text, text: describe}
      stores_response_in: msg
edges: [{from: ask, to: END}]
initial_state: {}
mock_llm:
  capabilities: ${capabilities}
  responses:
    - {status: 200, body: ${body()}}
expected_error: {category: provider_unsupported_content_block, raised_from: ask}
`;

directiveTester("mock_llm {capabilities, responses} (conformance-adapter §5.5)", {
  capability: "observability",
  template: (b) => b,
  valid: [imageCase("{supports_image_input: false}"), imageCase("{supports_image_input: false, supports_native_response_format: true}")],
  invalid: [
    // Honored: without the flag the mock has image input, so the call completes.
    { code: imageCase("{}"), message: "but it completed" },
    // The mock is OpenAI-compatible: the Anthropic / Gemini flag (or a typo) is refused, never dropped.
    { code: imageCase("{supports_native_structured_output: false}"), category: "fixture_schema_invalid", message: ["mock_llm.capabilities.supports_native_structured_output", "'openai' mapping"] },
  ],
});

/** A bare llm-provider call (traced in a one-node invocation for llm_spans) with case-level keys `extra`. */
const bareCall = (extra: string, span: string) => `
mock_provider:
  responses:
    - {status: 200, body: ${body()}}
call:
  operation: complete
  messages: [{role: user, content: hi}]
${extra}
expected:
  success: true
  llm_spans:
    - ${span}
`;

directiveTester("otel_observer honored on a traced llm-provider bare call (§5.5)", {
  capability: "llm-provider",
  template: (b) => b,
  valid: [
    bareCall("otel_observer: {disable_genai_semconv: true}", "{attempt_index: 0, attributes_absent: [gen_ai.system]}"),
    bareCall("otel_observer: {disable_provider_payload: false}", "{attempt_index: 0, attributes: {openarmature.llm.input.messages: <any-string>}}"),
  ],
  invalid: [
    // Without the flags the GenAI subset is emitted and the payload withheld: the same entries fail.
    { code: bareCall("", "{attempt_index: 0, attributes_absent: [gen_ai.system]}"), message: "expected.llm_spans[0].attributes_absent" },
    { code: bareCall("", "{attempt_index: 0, attributes: {openarmature.llm.input.messages: <any-string>}}"), message: "openarmature.llm.input.messages" },
  ],
});
