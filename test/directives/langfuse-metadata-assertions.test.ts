/**
 * The Langfuse observation entry's absence and truncation forms (conformance-adapter §5.5:
 * `metadata_absent`, proposal 0118; `metadata_truncation`, proposal 0119) and the failure mocks
 * that feed them (`mock_llm` / `mock_embedding` `raises` with `message_repeat`): each passes on the
 * right observation and fails on a wrong one, and a malformed entry is `fixture_schema_invalid`.
 */
import { directiveTester } from "./tester.ts";

/** One LLM call failing with a 503 whose `raises` message is `repeat` (no body), under a Langfuse cap. */
const generation = (entry: string, opts: { cap?: number; bytes?: number; char?: string; message?: string } = {}) => `
state: {fields: {answer: {type: string, default: ""}}}
entry: ask
nodes:
  ask:
    calls_llm: {messages: [{role: user, content: hi}], stores_response_in: answer}
edges: [{from: ask, to: END}]
initial_state: {}
mock_llm:
  - status: 503
    raises: {error_type: ServiceUnavailableError, ${opts.message !== undefined ? `message: "${opts.message}"` : `message_repeat: {char: "${opts.char ?? "é"}", bytes: ${opts.bytes ?? 2000}}`}}
langfuse_observer: {payload_byte_cap: ${opts.cap ?? 512}}
expected_error: {category: provider_unavailable, raised_from: ask}
expected:
  langfuse_trace:
    observations:
      - type: span
        name: ask
        children:
          - type: generation
            level: ERROR
${entry
  .split("\n")
  .map((l) => `            ${l}`)
  .join("\n")}
            children: []
`;

const FULL = `metadata: {error_type: ServiceUnavailableError}
metadata_truncation:
  error_message: {max_bytes: 512, marker_pattern: "…\\\\[truncated, \\\\d+ bytes total\\\\]", utf8_valid: true, prefix_of_full_serialization: true}`;

/** One embedding call failing with a 503 whose `raises` message is repeated, under a Langfuse cap. */
const embedding = (entry: string, raises: string) => `
state: {fields: {r: {type: record, default: null}}}
entry: embed_node
nodes:
  embed_node:
    calls_embed: {input: ["a"], stores_response_in: r}
edges: [{from: embed_node, to: END}]
initial_state: {}
mock_embedding:
  - status: 503
    raises: ${raises}
langfuse_observer: {payload_byte_cap: 300}
otel_observer: {payload_byte_cap: 65536}
expected_error: {category: provider_unavailable, raised_from: embed_node}
expected:
  langfuse_trace:
    observations:
      - type: span
        name: embed_node
        children:
          - type: embedding
${entry
  .split("\n")
  .map((l) => `            ${l}`)
  .join("\n")}
            children: []
`;

directiveTester("metadata_truncation / metadata_absent on a Langfuse observation entry", {
  capability: "observability",
  template: (b) => b,
  valid: [
    generation(FULL),
    // Each sub-key alone; absence of what a failed Generation does not carry.
    generation("metadata_truncation: {error_message: {max_bytes: 512}}\nmetadata_absent: [finish_reason, response_id, request_extras]"),
    generation("metadata_truncation: {error_message: {utf8_valid: true}}"),
    // The Langfuse cap applies, not the OTel default: a 400-byte message is cut at 300.
    embedding(`metadata_truncation: {error_message: {max_bytes: 300, prefix_of_full_serialization: true}}\nmetadata: {error_type: ServiceUnavailableError}\nmetadata_absent: [openarmature_dimensions, openarmature_response_id]`, `{error_type: ServiceUnavailableError, message_repeat: {char: "x", bytes: 400}}`),
  ],
  invalid: [
    // Wrong observations for each sub-key.
    { code: generation("metadata_truncation: {error_message: {max_bytes: 100}}"), message: "metadata_truncation" },
    { code: generation("metadata_truncation: {error_message: {utf8_valid: false}}"), message: "metadata_truncation" },
    { code: generation("metadata_truncation: {error_message: {prefix_of_full_serialization: false}}"), message: "metadata_truncation" },
    { code: generation('metadata_truncation: {error_message: {marker_pattern: "\\\\[cut\\\\]"}}'), message: "metadata_truncation" },
    // A message within the cap is not truncated; a key that is not truncated; a key that is absent.
    { code: generation("metadata_truncation: {error_message: {prefix_of_full_serialization: true}}", { message: "short" }), message: "metadata_truncation" },
    { code: generation('metadata_truncation: {error_type: {marker_pattern: "…\\\\[truncated, \\\\d+ bytes total\\\\]"}}'), message: "metadata_truncation" },
    { code: generation("metadata_truncation: {response_id: {max_bytes: 100000}}"), message: "metadata_truncation" },
    // The default cap (65,536) does not cut a 2,000-byte message.
    { code: generation("metadata_truncation: {error_message: {max_bytes: 65536}}", { cap: 65_536 }), message: "metadata_truncation" },
    // metadata_absent naming a present key.
    { code: generation("metadata_absent: [error_type]"), message: "metadata_absent" },
    { code: embedding("metadata_absent: [error_message]", `{error_type: E, message: "m"}`), message: "metadata_absent" },
    // Malformed entries are refused before anything runs.
    { code: generation("metadata_truncation: {error_message: {}}"), category: "fixture_schema_invalid", message: "at least one of" },
    { code: generation("metadata_truncation: {error_message: {max_size: 3}}"), category: "fixture_schema_invalid", message: "unknown sub-key 'max_size'" },
    { code: generation("metadata_truncation: {error_message: {utf8_valid: yes please}}"), category: "fixture_schema_invalid", message: "must be a boolean" },
    { code: generation("metadata_absent: error_type"), category: "fixture_schema_invalid", message: "list of metadata keys" },
    { code: embedding("metadata: {}", `{message: a, message_repeat: {char: x, bytes: 3}}`), category: "fixture_schema_invalid", message: "mock_embedding" },
  ],
});

/** 098's shape: one tool call; the case-level flag and the per-observer blocks. */
const tool = (config: string, entry: string) => `
state: {fields: {out: {type: record, default: null}}}
entry: run_tool
nodes:
  run_tool:
    calls_tool: {tool_name: get_weather, tool_call_id: call_1, arguments: {city: Paris}, mock_tool: {returns: {c: 20}}, stores_result_in: out}
edges: [{from: run_tool, to: END}]
initial_state: {}
${config}
expected:
  langfuse_trace:
    observations:
      - type: span
        name: run_tool
        children:
          - type: tool
            ${entry}
            children: []
`;

directiveTester("disable_provider_payload: the case-level form and the per-observer blocks (Langfuse side)", {
  capability: "observability",
  template: (b) => b,
  valid: [
    tool("disable_provider_payload: false\nlangfuse_observer: {}", "input: {city: Paris}\n            output: {c: 20}"),
    tool("disable_provider_payload: false\nlangfuse_observer: {disable_provider_payload: true}", "input: null\n            output: null"),
    tool("otel_observer: {disable_provider_payload: false}\nlangfuse_observer: {}", "input: null\n            output: null"),
    tool("langfuse_observer: {disable_provider_payload: false}", "input: {city: Paris}\n            output: {c: 20}"),
  ],
  invalid: [
    { code: tool("otel_observer: {disable_provider_payload: false}\nlangfuse_observer: {}", "input: {city: Paris}"), message: "input" },
    { code: tool("disable_provider_payload: false\nlangfuse_observer: {disable_provider_payload: true}", "output: {c: 20}"), message: "output" },
  ],
});
