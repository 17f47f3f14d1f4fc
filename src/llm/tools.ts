/**
 * Tool definitions (llm-provider §4) and the `tool_choice` constraint (§5), with their pre-send
 * validation: a violation is `provider_invalid_request` naming the field.
 */
import { invalidRequest } from "./errors.ts";
import { invalidSchema } from "./structured-output.ts";
import { isRecord } from "./json.ts";

/** A JSON Schema document. */
export type JsonSchema = { readonly [key: string]: unknown };

export interface Tool {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object schema describing the argument record. */
  readonly parameters: JsonSchema;
}

/** `"auto" | "required" | "none"`, or force one named tool. */
export type ToolChoice = "auto" | "required" | "none" | { readonly type: "tool"; readonly name: string };


/** Validate a `tools` list: records with a unique non-empty name, a description, an object schema. */
export function validateTools(tools: unknown): asserts tools is ReadonlyArray<Tool> | undefined {
  if (tools === undefined || tools === null) return;
  if (!Array.isArray(tools)) throw invalidRequest("tools", "must be a list of tool definitions");
  const names = new Set<string>();
  tools.forEach((t, i) => {
    const at = `tools[${i}]`;
    if (!isRecord(t)) throw invalidRequest(at, "a tool must be a record {name, description, parameters}");
    if (typeof t.name !== "string" || t.name.length === 0) throw invalidRequest(`${at}.name`, "a tool needs a non-empty name");
    if (names.has(t.name)) throw invalidRequest(`${at}.name`, `duplicate tool name '${t.name}'`);
    names.add(t.name);
    if (typeof t.description !== "string") throw invalidRequest(`${at}.description`, "must be a string");
    if (!isRecord(t.parameters)) throw invalidRequest(`${at}.parameters`, "must be a JSON Schema object");
    if (t.parameters.type !== undefined && t.parameters.type !== "object") {
      throw invalidRequest(`${at}.parameters.type`, "the parameters schema must be an object schema");
    }
    const bad = invalidSchema(t.parameters);
    if (bad !== null) throw invalidRequest(`${at}.parameters`, `not a valid JSON Schema: ${bad}`);
  });
}

/** Validate `tool_choice` against `tools` (§5 rules 1–2). */
export function validateToolChoice(choice: unknown, tools: ReadonlyArray<Tool> | undefined): asserts choice is ToolChoice | undefined {
  if (choice === undefined || choice === null) return;
  const count = tools?.length ?? 0;
  if (choice === "auto" || choice === "none") return;
  if (choice === "required") {
    if (count === 0) throw invalidRequest("tool_choice", "'required' needs a non-empty tools list");
    return;
  }
  if (isRecord(choice) && choice.type === "tool" && typeof choice.name === "string") {
    if (count === 0) throw invalidRequest("tool_choice", `forcing tool '${choice.name}' needs a non-empty tools list`);
    if (!tools!.some((t) => t.name === choice.name)) throw invalidRequest("tool_choice.name", `'${choice.name}' is not in the supplied tools`);
    return;
  }
  throw invalidRequest("tool_choice", `must be "auto", "required", "none" or {type: "tool", name} (got ${JSON.stringify(choice)})`);
}

/** Validate a `response_schema` (§5): a JSON Schema with `type: "object"` at the root. */
export function validateResponseSchema(schema: unknown): asserts schema is JsonSchema | undefined {
  if (schema === undefined || schema === null) return;
  if (!isRecord(schema)) throw invalidRequest("response_schema", "must be a JSON Schema object");
  if (schema.type !== "object") throw invalidRequest("response_schema.type", "the root of a response schema must be type: object");
  const bad = invalidSchema(schema);
  if (bad !== null) throw invalidRequest("response_schema", `not a valid JSON Schema: ${bad}`);
}
