/**
 * Structured output (llm-provider §5 `response_schema`, §6 `parsed`, §7 `structured_output_invalid`):
 * schema validation with ajv (each distinct schema compiled once), the `json_schema.name`, and the
 * prompt-augmentation fallback (§8.1.5.1) for providers without native structured output.
 */
import AjvModule from "ajv";
import type { ValidateFunction } from "ajv";
import { canonicalJson } from "./canonical-json.ts";
import { StructuredOutputInvalid } from "./errors.ts";
import type { Message } from "./messages.ts";
import type { FinishReason, Usage } from "./response.ts";
import type { JsonSchema } from "./tools.ts";

// strictSchema: an unknown keyword (a typo such as `requried`) is an invalid schema, not ignored.
const ajv = new AjvModule.default({ allErrors: false, strict: false, strictSchema: true, validateFormats: false });
const compiled = new Map<string, ValidateFunction>();

function compile(schema: JsonSchema): ValidateFunction {
  const key = canonicalJson(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** Why `schema` is not a valid JSON Schema (unknown keywords included), or `null`. */
export function invalidSchema(schema: JsonSchema): string | null {
  try {
    compile(schema);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Validate `value` against `schema`; `null` when valid, else a description naming the JSON Pointer. */
export function schemaViolation(schema: JsonSchema, value: unknown): string | null {
  const validate = compile(schema);
  if (validate(value)) return null;
  const e = validate.errors?.[0];
  if (!e) return "value does not match the schema";
  const where = e.instancePath === "" ? "/" : e.instancePath;
  const extra = e.keyword === "required" ? ` (${String((e.params as { missingProperty?: string }).missingProperty)})` : e.keyword === "additionalProperties" ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : "";
  return `${where}: ${e.message ?? e.keyword}${extra}`;
}

/**
 * Parse and validate structured content. Returns the parsed value, or throws
 * {@link StructuredOutputInvalid} carrying the verbatim content, the failure, finish reason and usage.
 */
export function parseStructured(schema: JsonSchema, content: string, finish_reason: FinishReason, usage: Usage): unknown {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (cause) {
    throw new StructuredOutputInvalid({
      response_schema: schema,
      output_content: content,
      error_message: `content is not valid JSON: ${(cause as Error).message}`,
      finish_reason,
      usage,
      cause,
    });
  }
  const violation = schemaViolation(schema, value);
  if (violation !== null) {
    throw new StructuredOutputInvalid({ response_schema: schema, output_content: content, error_message: `schema violation at ${violation}`, finish_reason, usage });
  }
  return value;
}

/** A stable `json_schema.name`: the schema's `title` when it is a valid name, else a hash of its canonical form. */
export function schemaName(schema: JsonSchema): string {
  const title = schema.title;
  if (typeof title === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(title)) return title;
  let h = 0x811c9dc5;
  for (const ch of canonicalJson(schema)) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `response_${h.toString(16).padStart(8, "0")}`;
}

/**
 * The prompt-augmentation directive (§8.1.5.1 step 1; its text is implementation-defined): asks for
 * only JSON and carries the schema, serialized canonically (wire-byte stability, §8).
 */
export function schemaDirective(schema: JsonSchema): string {
  return `Respond with only a JSON value that conforms to this JSON Schema, with no other text:\n${canonicalJson(schema)}`;
}

/**
 * The prompt-augmentation fallback on a message list (§8.1.5.1 step 1, the OpenAI-compatible
 * mapping): a copy of `messages` with the schema directive *appended* — to the end of the existing
 * system message's content (after a blank line) when there is one, otherwise as a new system
 * message at the end of the list. §5 allows one system message, first; were there several, the
 * last is extended, so the directive still follows every caller instruction. The caller's list is
 * not modified.
 */
export function augmentForSchema(messages: ReadonlyArray<Message>, schema: JsonSchema): Message[] {
  const directive = schemaDirective(schema);
  const out = [...messages];
  const last = out.findLastIndex((m) => m.role === "system");
  const system = out[last];
  if (system?.role === "system") out[last] = { ...system, content: `${system.content}\n\n${directive}` };
  else out.push({ role: "system", content: directive });
  return out;
}

/**
 * The system text a system-field mapping sends (Anthropic `system` §8.2.1, Gemini
 * `systemInstruction` §8.3.1): the system messages' text joined with a blank line in order, and on
 * the prompt-augmentation fallback (§8.2.5.1, §8.3.5.1) the schema directive appended at the end.
 * `undefined` when there is no system text at all.
 */
export function systemText(messages: ReadonlyArray<Message>, fallbackSchema?: JsonSchema): string | undefined {
  const parts = messages.filter((m) => m.role === "system").map((m) => m.content as string);
  if (fallbackSchema !== undefined) parts.push(schemaDirective(fallbackSchema));
  return parts.length > 0 ? parts.join("\n\n") : undefined;
}
