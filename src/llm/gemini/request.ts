/**
 * Google Gemini request mapping (llm-provider §8.3.1, §8.3.1.1, §8.3.1.2, §8.3.5): system
 * messages lift to `systemInstruction`, `assistant` becomes `model`, tool calls become
 * `functionCall` parts (with their `thoughtSignature`), runs of `tool` messages collapse into one
 * `user` content of `functionResponse` parts, tools go under `functionDeclarations`, sampling
 * fields and extras under `generationConfig`. The model is a URL path segment, not a body field.
 */
import { declaredFields } from "../config.ts";
import { placeExtras } from "../extras.ts";
import type { PreparedCall } from "../mapping.ts";
import type { ContentBlock, Message, ToolCall } from "../messages.ts";
import { systemText } from "../structured-output.ts";
import type { ToolChoice } from "../tools.ts";

type Json = Record<string, unknown>;

/** Declared RuntimeConfig field → its `generationConfig` wire name. */
export const GENERATION_CONFIG_NAMES = {
  temperature: "temperature",
  top_p: "topP",
  max_tokens: "maxOutputTokens",
  stop_sequences: "stopSequences",
  seed: "seed",
  frequency_penalty: "frequencyPenalty",
  presence_penalty: "presencePenalty",
} as const;

function part(b: ContentBlock): Json {
  switch (b.type) {
    case "text":
      return { text: b.text, ...(b.signature ? { thoughtSignature: b.signature } : {}) };
    case "image":
      return b.source.type === "inline"
        ? { inlineData: { mimeType: b.media_type, data: b.source.base64_data } }
        : { fileData: { mimeType: b.media_type ?? inferMimeType(b.source.url), fileUri: b.source.url } };
    case "thinking":
      // Gemini's thought summary carries no signature (§3.1.4): a signed block is another
      // provider's reasoning, stripped (§3.1.7: signatures and their blocks are provider-bound).
      return b.signature === undefined ? { text: b.text, thought: true } : {};
    case "redacted_thinking":
      // Gemini has no redacted-reasoning part: a provider-bound blob from elsewhere is stripped (§3.1.7).
      return {};
  }
}

/** The media type of an image URL from its extension (Gemini's `fileData.mimeType`). */
export function inferMimeType(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return ext === "jpg" || ext === "jpeg" ? "image/jpeg" : ext === "webp" ? "image/webp" : ext === "gif" ? "image/gif" : "image/png";
}

function functionCall(c: ToolCall): Json {
  return { functionCall: { name: c.name, id: c.id, args: c.arguments ?? {} }, ...(c.signature ? { thoughtSignature: c.signature } : {}) };
}

export function geminiContents(messages: ReadonlyArray<Message>): Json[] {
  const out: Json[] = [];
  const toolNames = new Map<string, string>();
  for (const m of messages) {
    if (m.role === "system") continue;
    if (m.role === "tool") {
      const response = { functionResponse: { name: toolNames.get(m.tool_call_id) ?? "", id: m.tool_call_id, response: { result: m.content } } };
      const prev = out[out.length - 1];
      if (prev && prev["role"] === "user" && (prev["parts"] as Json[]).every((p) => "functionResponse" in p)) (prev["parts"] as Json[]).push(response);
      else out.push({ role: "user", parts: [response] });
      continue;
    }
    if (m.role === "user") {
      out.push({ role: "user", parts: typeof m.content === "string" ? [{ text: m.content }] : m.content.map(part) });
      continue;
    }
    for (const c of m.tool_calls ?? []) toolNames.set(c.id, c.name);
    const blocks = typeof m.content === "string" ? (m.content === "" ? [] : [{ text: m.content }]) : (m.content ?? []).map(part).filter((p) => Object.keys(p).length > 0);
    out.push({ role: "model", parts: [...blocks, ...(m.tool_calls ?? []).map(functionCall)] });
  }
  return out;
}

export function geminiToolChoice(c: ToolChoice): Json {
  if (c === "auto") return { mode: "AUTO" };
  if (c === "required") return { mode: "ANY" };
  if (c === "none") return { mode: "NONE" };
  return { mode: "ANY", allowedFunctionNames: [c.name] };
}

export function generateContentBody(call: PreparedCall): Json {
  // §8.3.5.1 prompt augmentation: the schema directive appended to the end of `systemInstruction`.
  const system = systemText(call.messages, call.structuredOutput === "fallback" ? call.responseSchema : undefined);
  const body: Json = { contents: geminiContents(call.messages) };
  if (system !== undefined) body["systemInstruction"] = { parts: [{ text: system }] };
  if (call.tools && call.tools.length > 0) {
    body["tools"] = [{ functionDeclarations: call.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })) }];
  }
  if (call.toolChoice !== undefined) body["toolConfig"] = { functionCallingConfig: geminiToolChoice(call.toolChoice) };
  const generation: Json = {};
  const exclusive = new Map<string, unknown>();
  const additive = new Map<string, (v: unknown) => unknown[] | undefined>();
  const declared = declaredFields(call.config);
  for (const [field, wire] of Object.entries(GENERATION_CONFIG_NAMES)) {
    if (!(field in declared)) continue;
    const value = declared[field as keyof typeof declared];
    if (field === "stop_sequences") {
      generation[wire] = [...(value as string[])];
      additive.set(wire, (v) => (Array.isArray(v) && v.every((s) => typeof s === "string") ? v : undefined));
    } else {
      generation[wire] = value;
      exclusive.set(wire, value);
    }
  }
  if (call.responseSchema !== undefined && call.structuredOutput === "native") {
    generation["responseMimeType"] = "application/json";
    generation["responseJsonSchema"] = call.responseSchema;
    exclusive.set("responseMimeType", "application/json");
    exclusive.set("responseJsonSchema", call.responseSchema);
  }
  // §8.3: undeclared extras ride under generationConfig, the managed rules applying there.
  placeExtras(generation, call.config?.extras, { exclusive, additive }, "Gemini");
  if (Object.keys(generation).length > 0) body["generationConfig"] = generation;
  return body;
}
