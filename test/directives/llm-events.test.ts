/**
 * The observability LLM / tool directives (conformance-adapter §5.1, §5.5): calls_llm,
 * calls_llm_from_wrapper, calls_tool, mock_llm (list / mapping / raises), mock_llm_stream, provider,
 * content_repeat, and the typed-event claims, through the real provider over the mock fetch.
 */
import { directiveTester } from "./tester.ts";

const body = (content: string, model = "test-model") =>
  `{id: cc-1, object: chat.completion, model: ${model}, choices: [{index: 0, message: {role: assistant, content: "${content}"}, finish_reason: stop}], usage: {prompt_tokens: 5, completion_tokens: 1, total_tokens: 6}}`;

const oneCall = (call: string, mock: string, expected: string, extra = "") => `
state: {fields: {msg: {type: string, default: ""}, out: {type: dict, default: {}}}}
entry: ask
nodes:
  ask:
${call.split("\n").map((l) => `    ${l}`).join("\n")}
edges: [{from: ask, to: END}]
initial_state: {}
${mock}
typed_observers: [{name: c, kind: typed_event_collector}]
${extra}
expected:
${expected.split("\n").map((l) => `  ${l}`).join("\n")}
`;

const CALL = `calls_llm:\n  messages: [{role: user, content: hi}]\n  stores_response_in: msg\n  config: {temperature: 0.5, extras: {repetition_penalty: 1.05}}`;
const MOCK = `mock_llm:\n  - {status: 200, body: ${body("hello")}}`;
const completion = (fields: string) => `observers:\n  c:\n    contains_event:\n      event_type: LlmCompletionEvent\n      fields: ${fields}`;

directiveTester("calls_llm / mock_llm", {
  capability: "observability",
  template: (b) => oneCall(CALL, MOCK, b),
  valid: [
    completion("{provider: openai, model: test-model, output_content: hello, request_params: {temperature: 0.5}, request_extras: {repetition_penalty: 1.05}, node_name: ask}") + "\nfinal_state: {msg: hello, out: {}}",
    "invariants:\n  request_extras_is_native_mapping_not_json_string: true\n  exactly_one_llm_completion_event: true",
  ],
  invalid: [
    { code: completion("{output_content: bye}"), message: "contains_event.fields" },
    // request_params is an exact position: an extra key the event lacks fails, and so would a missing one.
    { code: completion("{request_params: {temperature: 0.5, top_p: 1}}"), message: "request_params" },
    { code: completion("{request_params: {}}"), message: "request_params" },
    { code: "invariants:\n  zero_token_events_on_non_streamed_call: false", message: "zero_token_events_on_non_streamed_call" },
  ],
});

directiveTester("mock_llm raises / mapping form / provider", {
  capability: "observability",
  template: (b) => b,
  valid: [
    oneCall(CALL, `mock_llm:\n  responses:\n    - {status: 503, raises: {error_type: overloaded, message: "busy now"}}`, `observers:\n  c:\n    contains_event: {event_type: LlmFailedEvent, fields: {error_category: provider_unavailable, error_type: overloaded, output_content: null}}\ninvariants:\n  exactly_one_llm_failed_event_per_failed_call: true\n  failure_surfaces_via_exception_path: true`, "expected_error: {category: provider_unavailable, raised_from: ask}"),
    oneCall(CALL, `${MOCK}\nprovider: {type: openai_compatible, genai_system: vllm}`, completion("{provider: vllm}")),
  ],
  invalid: [
    { code: oneCall(CALL, `${MOCK}\nprovider: {type: openai_compatible, genai_system: vllm}`, completion("{provider: openai}")), message: "contains_event.fields" },
    {
      code: oneCall(CALL, `mock_llm:\n  - {status: 503, raises: {message: a, message_repeat: {char: x, bytes: 3}}}`, completion("{}")),
      category: "fixture_schema_invalid",
      message: "mutually exclusive",
    },
    {
      // The same raises shape as mock_embedding's (§5.15): an unknown key inside message_repeat is refused.
      code: oneCall(CALL, `mock_llm:\n  - {status: 503, raises: {message_repeat: {char: x, bytes: 3, chars: 9}}}`, completion("{}")),
      category: "fixture_schema_invalid",
      message: "mock_llm",
    },
  ],
});

const STREAM = `mock_llm_stream:
  - - {choices: [{index: 0, delta: {content: "Hel"}, finish_reason: null}]}
    - {choices: [{index: 0, delta: {content: "lo"}, finish_reason: stop}]}`;
const tokens = (a: string, b: string) => `observers:\n  c:\n    contains_events_in_order:\n      event_type: LlmTokenEvent\n      events:\n        - {chunk_index: 0, delta: "${a}"}\n        - {chunk_index: 1, delta: "${b}"}`;

directiveTester("mock_llm_stream (token events)", {
  capability: "observability",
  template: (b) => oneCall("calls_llm:\n  stream: true\n  messages: [{role: user, content: hi}]\n  stores_response_in: msg", STREAM, b),
  valid: [tokens("Hel", "lo") + "\ninvariants:\n  ordered_deltas_concatenate_to_assembled_content: true\n  all_token_event_call_ids_match_terminal_completion_event: true\n  chunk_index_monotonic_from_zero: true"],
  invalid: [
    { code: tokens("lo", "Hel"), message: "contains_events_in_order.events" },
    { code: "invariants:\n  exactly_one_terminal_llm_failed_event: true", message: "exactly_one_terminal_llm_failed_event" },
  ],
});

directiveTester("content_repeat", {
  capability: "observability",
  template: (b) => b,
  valid: [oneCall("calls_llm:\n  messages: [{role: user, content_repeat: {char: \"é\", bytes: 5}}]", MOCK, `observers:\n  c:\n    contains_event: {event_type: LlmCompletionEvent, fields: {input_messages: [{role: user, content: "éé"}]}}`)],
  invalid: [
    { code: oneCall("calls_llm:\n  messages: [{role: user, content_repeat: {char: \"é\", bytes: 5}}]", MOCK, `observers:\n  c:\n    contains_event: {event_type: LlmCompletionEvent, fields: {input_messages: [{role: user, content: "ééé"}]}}`), message: "contains_event.fields" },
    { code: oneCall("calls_llm:\n  messages: [{role: user, content: x, content_repeat: {char: a, bytes: 5}}]", MOCK, completion("{}")), category: "fixture_schema_invalid", message: "content and content_repeat" },
  ],
});

const TOOL = (mock: string) => `calls_tool:\n  tool_name: get_weather\n  tool_call_id: call_1\n  arguments: {city: Paris}\n  mock_tool: ${mock}\n  stores_result_in: out`;

directiveTester("calls_tool", {
  capability: "observability",
  template: (b) => b,
  valid: [
    oneCall(TOOL("{returns: {t: 20}}"), "", `observers:\n  c:\n    contains_event: {event_type: ToolCallEvent, fields: {tool_name: get_weather, tool_call_id: call_1, arguments: {city: Paris}, result: {t: 20}}}\nfinal_state: {msg: \"\", out: {t: 20}}\ninvariants:\n  exactly_one_tool_call_event_observed: true\n  zero_tool_call_failed_events_on_success: true`),
    oneCall(TOOL(`{raises: {error_type: TimeoutError, message: "timed out"}}`), "", `observers:\n  c:\n    contains_event: {event_type: ToolCallFailedEvent, fields: {error_type: TimeoutError, error_message: "timed out"}, fields_absent_keys: [error_category]}\ninvariants:\n  no_error_category_field_on_tool_failure_event: true`, "expected_error: {raised_from: run}".replace("run", "ask")),
  ],
  invalid: [
    { code: oneCall(TOOL("{returns: {t: 20}}"), "", `observers:\n  c:\n    contains_event: {event_type: ToolCallEvent, fields: {tool_call_id: call_2}}`), message: "contains_event.fields" },
    { code: oneCall(TOOL("{returns: {t: 20}}"), "", `invariants:\n  exactly_one_tool_call_failed_event_observed: true`), message: "exactly_one_tool_call_failed_event_observed" },
  ],
});

// mock_llm.capabilities (conformance-adapter §5.5): the mock presents an OpenAI-compatible provider,
// so it takes the OpenAI mapping's §5.11 flags; supports_native_response_format: false takes the
// prompt-augmentation fallback (the reply is still parsed and validated: a non-conforming reply
// fails the call). The Anthropic / Gemini flag, or an unknown one, is fixture_schema_invalid.
const SCHEMA_CALL = `calls_llm:\n  messages: [{role: user, content: hi}]\n  stores_response_in: msg\n  response_schema: {type: object, properties: {n: {type: integer}}, required: [n]}`;
const mockWith = (caps: string, content = '{\\"n\\":1}') => `mock_llm:\n  capabilities: {${caps}}\n  responses:\n    - {status: 200, body: ${body(content)}}`;
directiveTester("mock_llm.capabilities", {
  capability: "observability",
  template: (b) => b,
  valid: [
    oneCall(SCHEMA_CALL, mockWith("supports_native_response_format: false, supports_image_input: true"), `observers:\n  c:\n    contains_event: {event_type: LlmCompletionEvent, fields: {output_content: '{"n":1}'}}`),
  ],
  invalid: [
    { code: oneCall(SCHEMA_CALL, mockWith("supports_native_response_format: false", "nope"), `observers:\n  c:\n    contains_event_of_type: LlmCompletionEvent`), message: "LlmCompletionEvent" },
    {
      code: oneCall(SCHEMA_CALL, mockWith("supports_native_structured_output: false"), "observers:\n  c:\n    contains_event_of_type: LlmCompletionEvent"),
      category: "fixture_schema_invalid",
      message: ["mock_llm.capabilities.supports_native_structured_output", "'openai' mapping", "anthropic / gemini", ":13:"],
    },
    { code: oneCall(SCHEMA_CALL, mockWith("supports_native_response_fromat: false"), "observers:\n  c:\n    contains_event_of_type: LlmCompletionEvent"), category: "fixture_schema_invalid", message: ["supports_native_response_fromat", "not a §5.11 capability flag"] },
  ],
});

// identity_scoping_fields_populated reads every provider-call event the collectors retained — an
// LLM-only case has identity fields to check too (it is neither vacuous nor an embedding-only claim).
const IDENTITY = (v: boolean) => `invariants:\n  identity_scoping_fields_populated: ${v}`;
directiveTester("identity_scoping_fields_populated over LLM events", {
  capability: "observability",
  template: (b) => b,
  valid: [oneCall(CALL, MOCK, IDENTITY(true))],
  invalid: [
    { code: oneCall(CALL, MOCK, IDENTITY(false)), message: "identity_scoping_fields_populated" },
    // no collector retained a provider-call event: there is nothing to show.
    { code: oneCall("update: {msg: hi}", "", IDENTITY(true)), message: "no provider-call event" },
  ],
});
