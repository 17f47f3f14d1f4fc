/**
 * JSON Schemas (ajv) of the llm-provider records a fixture writes as call inputs — §3 messages
 * and content blocks, §4 tools, §5 tool_choice, §6 RuntimeConfig — strict, so a mistyped or
 * unknown key in a fixture is `fixture_schema_invalid` before anything runs. Free-form data (tool
 * `arguments`, `parameters` / `response_schema` JSON Schemas, `extras`) stays open.
 */
const str = { type: "string" } as const;
const text = { type: "object", additionalProperties: false, required: ["type", "text"], properties: { type: { const: "text" }, text: str, signature: str } };
const image = {
  type: "object",
  additionalProperties: false,
  required: ["type"],
  properties: {
    type: { const: "image" },
    source: {
      type: "object",
      additionalProperties: false,
      required: ["type"],
      properties: { type: { enum: ["url", "inline"] }, url: str, base64_data: str },
    },
    media_type: str,
    detail: str,
  },
};
const thinking = { type: "object", additionalProperties: false, required: ["type", "text"], properties: { type: { const: "thinking" }, text: str, signature: str } };
const redacted = { type: "object", additionalProperties: false, required: ["type", "data"], properties: { type: { const: "redacted_thinking" }, data: str } };
const block = { oneOf: [text, image, thinking, redacted] };
const toolCall = {
  type: "object",
  additionalProperties: false,
  required: ["id", "name", "arguments"],
  properties: { id: str, name: str, arguments: { type: ["object", "null"] }, signature: str },
};

export const MESSAGE_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["role"],
  properties: {
    role: { enum: ["system", "user", "assistant", "tool"] },
    content: { oneOf: [str, { type: "null" }, { type: "array", items: block }] },
    tool_calls: { type: ["array", "null"], items: toolCall },
    tool_call_id: str,
  },
} as const;

export const TOOL_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["name", "description", "parameters"],
  properties: { name: str, description: str, parameters: { type: "object" } },
} as const;

export const TOOL_CHOICE_SCHEMA = {
  oneOf: [{ enum: ["auto", "required", "none"] }, { type: "object", additionalProperties: false, required: ["type", "name"], properties: { type: { const: "tool" }, name: str } }],
} as const;

const num = { type: "number" } as const;
const int = { type: "integer" } as const;
export const CONFIG_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    temperature: num,
    max_tokens: int,
    top_p: num,
    seed: int,
    frequency_penalty: num,
    presence_penalty: num,
    stop_sequences: { type: "array", items: str },
    extras: { type: "object" },
  },
} as const;

export const BACKOFF_SCHEMA = {
  oneOf: [
    { type: "number", minimum: 0 },
    { type: "object", additionalProperties: false, required: ["type"], properties: { type: { enum: ["deterministic", "constant", "exponential_jitter", "default"] }, seconds: { type: "number", minimum: 0 } } },
  ],
} as const;
