/**
 * conformance-adapter §5.8's span-entry sub-keys: `attribute_does_not_contain` (the attribute holds
 * no 64-character prefix of base64 data the case synthesized), and a key the table does not define
 * is fixture_schema_invalid rather than compared as a span field.
 */
import { directiveTester } from "./tester.ts";

const body = `{id: cc-1, object: chat.completion, model: test-model, choices: [{index: 0, message: {role: assistant, content: hello}, finish_reason: stop}], usage: {prompt_tokens: 5, completion_tokens: 1, total_tokens: 6}}`;
const A70 = "A".repeat(70);

const image = (text: string) =>
  `[{role: user, content: [{type: text, text: "${text}"}, {type: image, media_type: image/png, source: {type: inline, base64_data_synthetic: {bytes: 2048}}}]}]`;

const graphCase = (span: string, messages = image("describe this")) => `
state: {fields: {msg: {type: string, default: ""}}}
entry: ask
nodes:
  ask:
    calls_llm: {messages: ${messages}, stores_response_in: msg}
edges: [{from: ask, to: END}]
initial_state: {}
otel_observer: {disable_provider_payload: false}
mock_llm:
  capabilities: {supports_image_input: true}
  responses:
    - {status: 200, body: ${body}}
expected:
  span_tree:
    - name: openarmature.invocation
      children:
        - name: ask
          children:
            - name: openarmature.llm.complete
${span.split("\n").map((l) => `              ${l}`).join("\n")}
`;

const NOT_CONTAIN = "attribute_does_not_contain:\n  openarmature.llm.input.messages: {forbidden_substring_kind: synthetic_base64_prefix}";

directiveTester("span entry: attribute_does_not_contain (§5.8)", {
  capability: "observability",
  template: (b) => b,
  valid: [
    // observability §5.5.5 redacts the inline image: the payload attribute keeps no base64 prefix.
    graphCase(`attributes_present: [openarmature.llm.input.messages]\n${NOT_CONTAIN}`),
  ],
  invalid: [
    // the text content repeats the blob's first 64 characters: the attribute contains them.
    { code: graphCase(NOT_CONTAIN, image(A70)), message: "attribute_does_not_contain" },
    // no synthesized data in the case: the assertion could never fail, so it does not hold.
    { code: graphCase(NOT_CONTAIN, `[{role: user, content: hi}]`), message: "attribute_does_not_contain" },
    { code: graphCase("attribute_does_not_contain:\n  openarmature.llm.input.messages: {forbidden_substring_kind: api_key}"), category: "fixture_schema_invalid", message: "attribute_does_not_contain" },
  ],
});

directiveTester("span entry: an unknown key is fixture_schema_invalid (§5.8)", {
  capability: "observability",
  template: (b) => b,
  valid: [graphCase("status: OK")],
  invalid: [
    { code: graphCase("kind: CLIENT"), category: "fixture_schema_invalid", message: ["unknown key 'kind'", "§5.8 sub-keys"] },
    { code: graphCase("attribute: {openarmature.llm.model: test-model}"), category: "fixture_schema_invalid", message: "unknown key 'attribute'" },
  ],
});
