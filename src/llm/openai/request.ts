/**
 * OpenAI-compatible request mapping (llm-provider §8.1.1, §8.1.1.1, §8.1.5, §8.1.6): §3 messages,
 * §4 tools, `tool_choice`, `RuntimeConfig`, `response_format` and the streaming fields to a Chat
 * Completions body, with the managed-field collision rules for extras. Thinking blocks and
 * reasoning signatures are stripped on send (OpenAI has no wire form for them).
 */
import { DECLARED_CONFIG_FIELDS, declaredFields } from "../config.ts";
import { placeExtras, stringList } from "../extras.ts";
import type { PreparedCall } from "../mapping.ts";
import type { ContentBlock, Message } from "../messages.ts";
import { isStrictCompatible } from "../strict-schema.ts";
import { augmentForSchema, schemaName } from "../structured-output.ts";
import type { Tool, ToolChoice } from "../tools.ts";
import { canonicalJson } from "../canonical-json.ts";

type Json = Record<string, unknown>;

function userBlock(block: ContentBlock): Json {
  if (block.type === "text") return { type: "text", text: block.text };
  if (block.type === "image") {
    const url = block.source.type === "url" ? block.source.url : `data:${block.media_type};base64,${block.source.base64_data}`;
    return { type: "image_url", image_url: { url, ...(block.detail !== undefined && block.detail !== null ? { detail: block.detail } : {}) } };
  }
  throw new Error(`unreachable: ${block.type} in a user message`);
}

/** One §3 message as an OpenAI message. */
export function wireMessage(m: Message): Json {
  switch (m.role) {
    case "system":
      return { role: "system", content: m.content };
    case "user":
      return { role: "user", content: typeof m.content === "string" ? m.content : m.content.map(userBlock) };
    case "tool":
      return { role: "tool", content: m.content, tool_call_id: m.tool_call_id };
    case "assistant": {
      // Strip-on-send: only text survives (§8.1.1); an empty remainder is null.
      const text = typeof m.content === "string" ? m.content : (m.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");
      const out: Json = { role: "assistant", content: text === "" ? null : text };
      if (m.tool_calls && m.tool_calls.length > 0) {
        out["tool_calls"] = m.tool_calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: canonicalJson(c.arguments ?? {}) },
        }));
      }
      return out;
    }
  }
}

export function wireTool(t: Tool): Json {
  return { type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } };
}

export function wireToolChoice(c: ToolChoice): unknown {
  return typeof c === "string" ? c : { type: "function", function: { name: c.name } };
}

/** The request body (not yet serialized). */
export function chatCompletionBody(call: PreparedCall): Json {
  // §8.1.5.1 fallback: the schema directive appended to a copy of the messages (structured-output.ts).
  const messages = call.responseSchema !== undefined && call.structuredOutput === "fallback" ? augmentForSchema(call.messages, call.responseSchema) : call.messages;
  const body: Json = { model: call.model, messages: messages.map(wireMessage) };
  const exclusive = new Map<string, unknown>([
    ["model", body["model"]],
    ["messages", body["messages"]],
    // `stream` is always managed (§8.1.6): false on a unary call, where no key is emitted.
    ["stream", call.stream],
  ]);
  const additive = new Map<string, (v: unknown) => unknown[] | undefined>();
  if (call.tools && call.tools.length > 0) {
    body["tools"] = call.tools.map(wireTool);
    exclusive.set("tools", body["tools"]);
  }
  if (call.toolChoice !== undefined) {
    body["tool_choice"] = wireToolChoice(call.toolChoice);
    exclusive.set("tool_choice", body["tool_choice"]);
  }
  const declared = declaredFields(call.config);
  for (const field of DECLARED_CONFIG_FIELDS) {
    if (!(field in declared)) continue;
    if (field === "stop_sequences") {
      body["stop"] = [...(declared.stop_sequences as string[])];
      additive.set("stop", stringList);
    } else {
      body[field] = declared[field];
      exclusive.set(field, declared[field]);
    }
  }
  if (call.responseSchema !== undefined && call.structuredOutput === "native") {
    body["response_format"] = {
      type: "json_schema",
      json_schema: { name: schemaName(call.responseSchema), schema: call.responseSchema, strict: isStrictCompatible(call.responseSchema) },
    };
    exclusive.set("response_format", body["response_format"]);
  }
  if (call.stream) {
    body["stream"] = true;
    body["stream_options"] = { include_usage: true };
    exclusive.set("stream_options", body["stream_options"]);
  }
  placeExtras(body, call.config?.extras, { exclusive, additive }, "OpenAI-compatible");
  return body;
}
