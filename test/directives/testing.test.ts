/**
 * The testing-capability directives (spec/testing/conformance/README.md) each fail on a wrong
 * observation, through the real interpreter and the registry-built scripted provider.
 */
import { directiveTester } from "./tester.ts";

const T = "testing";
const script = `
script:
  responses:
    - {type: text, content: sunny, when: {prompt_contains: weather}}
    - type: stream
      chunks: [{type: text, content: "a"}, {type: text, content: "b"}]
call:
  messages: [{role: user, content: "weather?"}]
  stream: true
`;

directiveTester("recorded_calls", {
  capability: T,
  template: (b) => `${script}${b}\n`,
  valid: [`expected:\n  recorded_calls: [{index: 0, response_type: text, reason: 'when[0]: prompt_contains="weather"', streamed: true}]`],
  invalid: [
    { code: `expected:\n  recorded_calls: [{response_type: stream}]`, message: "recorded_calls[0].response_type" },
    { code: `expected:\n  recorded_calls: [{reason: "positional[1]"}]`, message: "recorded_calls[0].reason" },
    { code: `expected:\n  recorded_calls: [{streamed: false}]`, message: "recorded_calls[0].streamed" },
    { code: `expected:\n  recorded_calls: []`, message: "recorded_calls" },
  ],
});

directiveTester("stream_event_types", {
  capability: T,
  template: (b) => `${script}${b}\n`,
  valid: [`expected:\n  stream_event_types: [start, text_delta, done]`],
  invalid: [
    { code: `expected:\n  stream_event_types: [start, text_delta, text_delta, done]`, message: "stream_event_types" },
    { code: `expected:\n  stream_event_types: [start, done]`, message: "stream_event_types" },
  ],
});
