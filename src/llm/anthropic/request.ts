/**
 * Anthropic Messages request mapping (llm-provider §8.2.1, §8.2.1.1, §8.2.1.2, §8.2.5): system
 * messages lift to the top-level `system`, tool calls become `tool_use` blocks, runs of `tool`
 * messages collapse into one `user` message of `tool_result` blocks, tools carry `input_schema`,
 * `max_tokens` is required and `seed` / penalties are refused, structured output goes through
 * `output_config.format` (native) or a synthetic forced tool / the prompt (fallback).
 */
import { declaredFields } from "../config.ts";
import { invalidRequest } from "../errors.ts";
import { placeExtras } from "../extras.ts";
import type { PreparedCall } from "../mapping.ts";
import type { ContentBlock, Message, ToolCall } from "../messages.ts";
import { systemText } from "../structured-output.ts";
import type { Tool, ToolChoice } from "../tools.ts";

type Json = Record<string, unknown>;

/** The name of the synthetic tool the tool-call-coercion fallback forces (§8.2.5.1). */
export const STRUCTURED_OUTPUT_TOOL = "structured_output";

/**
 * One content block as an Anthropic entry, or `undefined` for reasoning another provider produced
 * (§3.1.7: signatures are provider-bound; a mapping strips foreign reasoning before sending).
 * Anthropic signs the thinking block itself, so one without a signature is not Anthropic's (e.g. a
 * Gemini thought summary, an OpenAI-compatible streamed reasoning block); text / tool-call
 * signatures are never Anthropic's and are dropped.
 */
function block(b: ContentBlock): Json | undefined {
  switch (b.type) {
    case "text":
      return { type: "text", text: b.text };
    case "image":
      return b.source.type === "url"
        ? { type: "image", source: { type: "url", url: b.source.url } }
        : { type: "image", source: { type: "base64", media_type: b.media_type, data: b.source.base64_data } };
    case "thinking":
      return b.signature === undefined ? undefined : { type: "thinking", thinking: b.text, signature: b.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: b.data };
  }
}

function blocks(content: ReadonlyArray<ContentBlock>): Json[] {
  return content.map(block).filter((b): b is Json => b !== undefined);
}

function toolUse(c: ToolCall): Json {
  return { type: "tool_use", id: c.id, name: c.name, input: c.arguments ?? {} };
}

/** §3 messages (system already lifted) as Anthropic messages, `tool` runs collapsed. */
export function anthropicMessages(messages: ReadonlyArray<Message>): Json[] {
  const out: Json[] = [];
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "tool") {
      const result = { type: "tool_result", tool_use_id: m.tool_call_id, content: m.content };
      const prev = out[out.length - 1];
      if (prev && prev["role"] === "user" && Array.isArray(prev["content"]) && (prev["content"] as Json[]).every((b) => b["type"] === "tool_result")) {
        (prev["content"] as Json[]).push(result);
      } else out.push({ role: "user", content: [result] });
      continue;
    }
    if (m.role === "user") {
      out.push({ role: "user", content: typeof m.content === "string" ? m.content : blocks(m.content) });
      continue;
    }
    const calls = m.tool_calls ?? [];
    if (calls.length === 0 && typeof m.content === "string") {
      out.push({ role: "assistant", content: m.content });
      continue;
    }
    const content: Json[] = typeof m.content === "string" ? (m.content === "" ? [] : [{ type: "text", text: m.content }]) : blocks(m.content ?? []);
    out.push({ role: "assistant", content: [...content, ...calls.map(toolUse)] });
  }
  return out;
}

export function anthropicTool(t: Tool): Json {
  return { name: t.name, description: t.description, input_schema: t.parameters };
}

export function anthropicToolChoice(c: ToolChoice): Json {
  if (c === "auto") return { type: "auto" };
  if (c === "required") return { type: "any" };
  if (c === "none") return { type: "none" };
  return { type: "tool", name: c.name };
}

/** Does this call take the tool-call-coercion fallback (§8.2.5.1: only without caller tools)? */
export function coercesToTool(call: PreparedCall): boolean {
  return call.responseSchema !== undefined && call.structuredOutput === "fallback" && (call.tools?.length ?? 0) === 0;
}

export function messagesBody(call: PreparedCall): Json {
  const declared = declaredFields(call.config);
  for (const field of ["seed", "frequency_penalty", "presence_penalty"] as const) {
    if (field in declared) throw invalidRequest(`config.${field}`, "the Anthropic Messages API does not support this field");
  }
  if (!("max_tokens" in declared)) throw invalidRequest("config.max_tokens", "required by the Anthropic Messages mapping (it has no default)");
  const promptFallback = call.responseSchema !== undefined && call.structuredOutput === "fallback" && !coercesToTool(call);
  // §8.2.5.1 prompt augmentation: the schema directive appended to the end of `system`.
  const system = systemText(call.messages, promptFallback ? call.responseSchema : undefined);
  const body: Json = { model: call.model, messages: anthropicMessages(call.messages) };
  if (system !== undefined) body["system"] = system;
  const exclusive = new Map<string, unknown>([
    ["model", body["model"]],
    ["messages", body["messages"]],
    ["stream", call.stream],
  ]);
  const additive = new Map<string, (v: unknown) => unknown[] | undefined>();
  if (body["system"] !== undefined) exclusive.set("system", body["system"]);
  if (call.stream) body["stream"] = true;
  let tools = call.tools?.map(anthropicTool) ?? [];
  let toolChoice = call.toolChoice !== undefined ? anthropicToolChoice(call.toolChoice) : undefined;
  if (coercesToTool(call)) {
    tools = [{ name: STRUCTURED_OUTPUT_TOOL, description: "Return the response as the input of this tool, matching its schema.", input_schema: call.responseSchema }];
    toolChoice = { type: "tool", name: STRUCTURED_OUTPUT_TOOL };
  }
  if (tools.length > 0) {
    body["tools"] = tools;
    exclusive.set("tools", tools);
  }
  if (toolChoice !== undefined) {
    body["tool_choice"] = toolChoice;
    exclusive.set("tool_choice", toolChoice);
  }
  for (const field of ["max_tokens", "temperature", "top_p"] as const) {
    if (field in declared) {
      body[field] = declared[field];
      exclusive.set(field, declared[field]);
    }
  }
  if ("stop_sequences" in declared) {
    body["stop_sequences"] = [...(declared.stop_sequences as string[])];
    additive.set("stop_sequences", (v) => (Array.isArray(v) && v.every((s) => typeof s === "string") ? v : undefined));
  }
  if (call.responseSchema !== undefined && call.structuredOutput === "native") {
    body["output_config"] = { format: { type: "json_schema", schema: call.responseSchema } };
    exclusive.set("output_config", body["output_config"]);
  }
  placeExtras(body, call.config?.extras, { exclusive, additive }, "Anthropic Messages");
  return body;
}
