/**
 * The llm-provider assertion directives (conformance-adapter §5.11–§5.16) each fail on a wrong
 * observation, through the real interpreter, provider and mock `fetch`.
 */
import { directiveTester } from "./tester.ts";
import { chatCompletion } from "./templates.ts";

const LP = "llm-provider";
const ok = chatCompletion;

/** One complete() call whose case-level keys are `block` (expected:, wire assertions). */
const single = (block: string, call = "", responses = ok("hello")) => `
mock_provider:
  responses:${responses}
call:
  operation: complete
  messages: [{role: user, content: "hi"}]${call}
${block}
`;

directiveTester("response", {
  capability: LP,
  template: (b) => single(b),
  valid: [
    `expected:\n  response:\n    message: {role: assistant, content: hello, tool_calls: null}\n    finish_reason: stop\n    usage: {prompt_tokens: 2, completion_tokens: 1, total_tokens: 3}\n    raw_check: {required_keys: [id, choices]}`,
  ],
  invalid: [
    { code: `expected:\n  response:\n    message: {content: bye}`, message: "expected.response.message.content" },
    { code: `expected:\n  response:\n    finish_reason: length`, message: "expected.response.finish_reason" },
    { code: `expected:\n  response:\n    usage: {total_tokens: 4}`, message: "expected.response.usage.total_tokens" },
    { code: `expected:\n  response:\n    parsed: {a: 1}`, message: "expected.response.parsed" },
  ],
});

directiveTester("raises", {
  capability: LP,
  template: (b) => single(b, `\n  response_schema: {type: object, properties: {n: {type: integer}}, required: [n]}`),
  valid: [
    `expected:\n  raises:\n    category: structured_output_invalid\n    carries:\n      output_content: hello\n      response_schema_present: true\n      error_message_mentions: JSON\n      finish_reason: stop\n      usage: {total_tokens: 3}`,
  ],
  invalid: [
    { code: `expected:\n  raises: {category: provider_unavailable}`, message: "expected.raises.category" },
    { code: `expected:\n  raises:\n    category: structured_output_invalid\n    carries: {output_content: other}`, message: "output_content" },
    { code: `expected:\n  raises:\n    category: structured_output_invalid\n    carries: {error_message_mentions: zebra}`, message: "mention" },
    { code: `expected:\n  raises:\n    category: structured_output_invalid\n    carries: {response_schema_present: false}`, message: "absent" },
    { code: `expected:\n  raises:\n    category: structured_output_invalid\n    carries: {usage: {prompt_tokens: 9}}`, message: "usage.prompt_tokens" },
    { code: `expected:\n  raises:\n    category: structured_output_invalid\n    carries: {no_such_field: 1}`, message: "no field 'no_such_field'" },
    { code: `expected:\n  raises:\n    category: structured_output_invalid\n    carries: {error_message_mentions: []}`, category: "fixture_schema_invalid", message: "non-empty" },
  ],
});

directiveTester("raises on a returned call / success / provider_call_count / no_token_events_emitted", {
  capability: LP,
  template: (b) => single(b),
  valid: [`expected:\n  success: true\n  provider_call_count: 1\n  no_token_events_emitted: true`],
  invalid: [
    { code: `expected:\n  raises: {category: provider_unavailable}`, message: "the call returned" },
    { code: `expected:\n  success: false`, message: "expected success false" },
    { code: `expected:\n  provider_call_count: 2`, message: "provider_call_count" },
  ],
});

directiveTester("no_token_events_emitted on a stream", {
  capability: LP,
  template: (b) =>
    single(b, "\n  stream: true", `
    - status: 200
      stream_body:
        - {id: s, object: chat.completion.chunk, model: test-model, choices: [{index: 0, delta: {content: "Hi"}, finish_reason: stop}]}
        - "[DONE]"`),
  valid: [`expected:\n  response: {message: {content: Hi}}`],
  invalid: [{ code: `expected:\n  no_token_events_emitted: true`, message: "1 token event" }],
});

const wireBody = `model: test-model\n  messages: [{role: user, content: "hi"}]`;
directiveTester("wire-request assertions", {
  capability: LP,
  template: (b) => single(`expected: {success: true}\n${b}`, "\n  config: {temperature: 0.5}"),
  valid: [
    `expected_wire_request:\n  ${wireBody}\n  temperature: 0.5`,
    `expected_wire_request_includes: {temperature: 0.5}\nexpected_wire_request_absent_keys: [stop]\nexpected_wire_request_count: 1`,
    `expected_wire_headers: {Authorization: "Bearer test-api-key", content-type: application/json}\nexpected_wire_url: "https://mock-provider.openarmature.test/v1/chat/completions"`,
    `expected_wire_request_checks: {stop_absent: true, temperature_absent: false}`,
  ],
  invalid: [
    { code: `expected_wire_request:\n  ${wireBody}`, message: "expected_wire_request.temperature" },
    { code: `expected_wire_request:\n  - {${wireBody.replace("\n ", ",")}, temperature: 0.5}\n  - {model: test-model}`, message: "expected 2 wire request(s)" },
    { code: `expected_wire_request_includes: {temperature: 0.7}`, message: "temperature" },
    { code: `expected_wire_request_absent_keys: [temperature]`, message: "carries 'temperature'" },
    { code: `expected_wire_headers: {Authorization: "Bearer other"}`, message: "Authorization" },
    { code: `expected_wire_request_count: 0`, message: "expected_wire_request_count" },
    { code: `expected_wire_url: "https://elsewhere.test/v1/chat/completions"`, message: "expected_wire_url" },
    { code: `expected_wire_request_checks: {temperature_absent: true}`, message: "'temperature' is present" },
  ],
});

directiveTester("expected_wire_bytes_identical", {
  capability: LP,
  template: (b) => `
mock_provider:
  responses:${ok("a")}${ok("b")}
calls:
  - operation: complete
    messages: [{role: user, content: "hi"}]
    config: {temperature: 0.5, max_tokens: 4}
    expected: {success: true}
  - operation: complete
    messages: [{role: user, content: "hi"}]
    config: ${b}
    expected: {success: true}
expected_wire_bytes_identical: {calls: [0, 1]}
`,
  valid: [`{max_tokens: 4, temperature: 0.5}`],
  invalid: [{ code: `{max_tokens: 4, temperature: 0.6}`, message: "call 1's request bytes differ" }],
});

directiveTester("wire_requests", {
  capability: LP,
  template: (b) =>
    single(
      b,
      `\n  config: {temperature: 0.1}\n  response_schema: {type: object, properties: {n: {type: integer}}, required: [n]}\n  retry:\n    max_attempts: 2\n    backoff: {type: deterministic, seconds: 0}\n    per_attempt_override: [{temperature: 0.9}]\n    reask: {template: "fix {output_content}"}`,
      `${ok("bad")}${ok('{"n":1}')}`,
    ),
  valid: [
    `expected:\n  wire_requests:\n    - {sampling: {temperature: 0.1}, appended_messages: []}\n    - sampling: {temperature: 0.9}\n      appended_messages:\n        - {role: assistant, content: bad}\n        - {role: user, content_contains: ["fix", "bad"]}`,
  ],
  invalid: [
    { code: `expected:\n  wire_requests: [{}]`, message: "expected 1 attempt request(s)" },
    { code: `expected:\n  wire_requests: [{sampling: {temperature: 0.9}}, {}]`, message: "wire_requests[0].sampling.temperature" },
    { code: `expected:\n  wire_requests: [{}, {appended_messages: [{role: assistant, content: bad}]}]`, message: "appended 2 message(s)" },
    { code: `expected:\n  wire_requests: [{}, {appended_messages: [{role: assistant, content: bad}, {role: user, content: "fix it"}]}]`, message: "appended_messages[1].content" },
    { code: `expected:\n  wire_requests: [{}, {appended_messages: [{role: assistant, content: bad}, {role: user, content_contains: [zebra]}]}]`, message: "does not contain" },
  ],
});

// The same directive reads each mapping's own wire shape (Gemini: generationConfig, contents / parts).
const geminiOk = (text: string) => `
    - status: 200
      body: {candidates: [{content: {role: model, parts: [{text: ${JSON.stringify(text)}}]}, finishReason: STOP}], usageMetadata: {promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3}}`;
directiveTester("wire_requests (mapping: gemini)", {
  capability: LP,
  template: (b) => `
mapping: gemini
mock_provider:
  responses:${geminiOk("bad")}${geminiOk('{"n":1}')}
call:
  operation: complete
  messages: [{role: system, content: "rules"}, {role: user, content: "hi"}]
  config: {temperature: 0.1, max_tokens: 8}
  response_schema: {type: object, properties: {n: {type: integer}}, required: [n]}
  retry:
    max_attempts: 2
    backoff: {type: deterministic, seconds: 0}
    per_attempt_override: [{temperature: 0.9}]
    reask: {template: "fix {output_content}"}
${b}
`,
  valid: [
    `expected:\n  wire_requests:\n    - {sampling: {temperature: 0.1, max_tokens: 8}, appended_messages: []}\n    - sampling: {temperature: 0.9}\n      appended_messages:\n        - {role: assistant, content: bad}\n        - {role: user, content: "fix bad"}`,
  ],
  invalid: [
    { code: `expected:\n  wire_requests: [{sampling: {temperature: 0.9}}, {}]`, message: "wire_requests[0].sampling.temperature" },
    { code: `expected:\n  wire_requests: [{sampling: {top_p: 0.5}}, {}]`, message: "wire_requests[0].sampling.top_p" },
    { code: `expected:\n  wire_requests: [{}, {appended_messages: [{role: assistant, content: bad}]}]`, message: "appended 2 message(s)" },
    { code: `expected:\n  wire_requests: [{}, {appended_messages: [{role: model, content: bad}, {role: user, content: "fix bad"}]}]`, message: "appended_messages[0].role" },
  ],
});

directiveTester("named claims", {
  capability: LP,
  template: (b) => single(`expected:\n  success: true\n  invariants:\n${b}`, "\n  config: {temperature: 0.7, stop_sequences: [A], extras: {stop: [B, A]}}"),
  valid: [`    wire_stop_is_merged_union: true\n    declared_stop_first_in_merge_order: true\n    caller_config_unmutated: true\n    wire_carries_no_stream_key: true`],
  invalid: [
    { code: `    no_request_issued: true`, message: "1 request(s) were issued" },
    { code: `    matching_stop_collapses_to_single_element: true`, message: "matching_stop_collapses_to_single_element does not hold" },
    { code: `    wire_stop_is_merged_union: false`, message: "wire_stop_is_merged_union" },
    { code: `    rejection_category_is_provider_invalid_request: true`, message: "expected provider_invalid_request" },
  ],
});

directiveTester("wire-request form exclusivity and count agreement", {
  capability: LP,
  template: (b) => single(`expected: {success: true}\n${b}`),
  valid: [`expected_wire_request_includes: {model: test-model}\nexpected_wire_request_count: 1`],
  invalid: [
    { code: `expected_wire_request: {${wireBody.replace("\n ", ",")}}\nexpected_wire_request_includes: {model: test-model}`, category: "fixture_schema_invalid", message: "cannot both be written" },
    { code: `expected_wire_request_includes: {model: test-model}\nexpected_wire_request_count: 2`, category: "fixture_schema_invalid", message: "disagrees" },
    // §5.16: a top-level `absent_keys` key in an includes body is fixture_schema_invalid.
    { code: `expected_wire_request_includes: {model: test-model, absent_keys: [temperature]}`, category: "fixture_schema_invalid", message: ["'absent_keys'", "expected_wire_request_absent_keys"] },
  ],
});

/** A structured-output call: the body carries a `response_format` mapping. */
const SCHEMA_CALL = "\n  response_schema: {type: object, properties: {v: {type: integer}}, required: [v], additionalProperties: false}";
directiveTester("expected_wire_request_includes: <key>_absent_keys is absence below the top level (§5.16, §8.4)", {
  capability: LP,
  template: (b) => single(`expected: {success: true}\n${b}`, SCHEMA_CALL, ok('{"v":1}')),
  valid: [
    "expected_wire_request_includes:\n  response_format: {type: json_schema}\n  response_format_absent_keys: [nope]",
    "expected_wire_request_includes:\n  response_format: {type: json_schema, json_schema: {name: <any-string>}, json_schema_absent_keys: [nope]}",
  ],
  invalid: [
    { code: "expected_wire_request_includes:\n  response_format: {type: json_schema}\n  response_format_absent_keys: [json_schema]", message: ["response_format.json_schema", "expected to be absent"] },
    { code: "expected_wire_request_includes:\n  response_format: {json_schema: {name: <any-string>}, json_schema_absent_keys: [name]}", message: "response_format.json_schema.name" },
    // Beside a scalar member there is no mapping to check.
    { code: "expected_wire_request_includes: {model: test-model, model_absent_keys: [x]}", message: "expected a mapping to check model_absent_keys against" },
  ],
});

// mock_provider.capabilities (conformance-adapter §5.11): each flag is defined for some mappings —
// supports_native_response_format for OpenAI, supports_native_structured_output for Anthropic and
// Gemini, supports_image_input for every mapping. A defined flag takes effect (the structured-output
// fallback: no native field on the wire); one the mapping does not define is fixture_schema_invalid,
// naming the key, the mapping and the line.
const anthropicReply = `
    - status: 200
      body: {type: message, id: m1, model: claude-x, role: assistant, content: [{type: text, text: '{"n":1}'}], stop_reason: end_turn, usage: {input_tokens: 2, output_tokens: 1}}`;
const geminiReply = `
    - status: 200
      body: {candidates: [{content: {role: model, parts: [{text: '{"n":1}'}]}, finishReason: STOP}], usageMetadata: {promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3}}`;
const REPLY: Readonly<Record<string, string>> = { openai: ok('{"n":1}'), anthropic: anthropicReply, gemini: geminiReply, streaming_unsupported_stub: ok('{"n":1}') };
/** The native field each mapping would send (absent on the fallback; Gemini's whole generationConfig, as the case sets no sampling). */
const NATIVE: Readonly<Record<string, string>> = { openai: "response_format", anthropic: "output_config", gemini: "generationConfig", streaming_unsupported_stub: "response_format" };
const withCapabilities = (mapping: string, capabilities: string) => `
mapping: ${mapping}
mock_provider:
  capabilities: {${capabilities}}
  responses:${REPLY[mapping]}
call:
  operation: complete
  messages: [{role: user, content: "hi"}]
  tools: [{name: lookup, description: "Look up.", parameters: {type: object, properties: {k: {type: string}}}}]
  response_schema: {type: object, properties: {n: {type: integer}}, required: [n]}
${mapping === "anthropic" ? "  config: {max_tokens: 8}\n" : ""}expected_wire_request_absent_keys: [${NATIVE[mapping]}]
expected:
  response: {parsed: {n: 1}}
`;

directiveTester("mock_provider.capabilities per mapping", {
  capability: LP,
  template: (b) => b,
  valid: [
    withCapabilities("openai", "supports_native_response_format: false, supports_image_input: true"),
    withCapabilities("anthropic", "supports_native_structured_output: false, supports_image_input: true"),
    withCapabilities("gemini", "supports_native_structured_output: false, supports_image_input: true"),
  ],
  invalid: [
    // Read as the other flag the case would take the fallback; ignored it would silently test the native path.
    {
      code: withCapabilities("openai", "supports_native_structured_output: false"),
      category: "fixture_schema_invalid",
      message: ["mock_provider.capabilities.supports_native_structured_output", "'openai' mapping", "anthropic / gemini", ":4:", "capabilities.supports_native_structured_output)"],
    },
    { code: withCapabilities("anthropic", "supports_native_response_format: false"), category: "fixture_schema_invalid", message: ["supports_native_response_format", "'anthropic' mapping", "belongs to the openai mapping", ":4:"] },
    { code: withCapabilities("gemini", "supports_native_response_format: false"), category: "fixture_schema_invalid", message: ["supports_native_response_format", "'gemini' mapping", ":4:"] },
    { code: withCapabilities("streaming_unsupported_stub", "supports_native_response_format: false"), category: "fixture_schema_invalid", message: ["'streaming_unsupported_stub' mapping (it defines supports_image_input)"] },
    // The mapping key after the mock block: the check still sees the case's mapping.
    { code: withCapabilities("openai", "supports_native_structured_output: false").replace("mapping: openai\n", "") + "mapping: openai\n", category: "fixture_schema_invalid", message: "'openai' mapping" },
  ],
});
