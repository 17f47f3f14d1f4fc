/**
 * Google Gemini response mapping (llm-provider §8.3.2): `candidates[0].content.parts` to content
 * blocks (`thought: true` → thinking) and tool calls (`functionCall`), every `thoughtSignature`
 * captured onto its block / tool call, `finishReason` normalized (a function call → `tool_calls`),
 * `usageMetadata` to usage.
 */
import { LlmProviderError } from "../errors.ts";
import type { PreparedCall } from "../mapping.ts";
import type { TextBlock, ThinkingBlock, ToolCall } from "../messages.ts";
import { checkToolCalls } from "../openai/response.ts";
import { counter, NO_USAGE, type FinishReason, type Response, type Usage } from "../response.ts";
import { assistantOf } from "../anthropic/response.ts";
import { isRecord } from "../json.ts";

const FINISH: Readonly<Record<string, FinishReason>> = {
  STOP: "stop",
  MAX_TOKENS: "length",
  SAFETY: "content_filter",
  RECITATION: "content_filter",
  BLOCKLIST: "content_filter",
  PROHIBITED_CONTENT: "content_filter",
  SPII: "content_filter",
};


export function geminiUsage(meta: unknown): Usage {
  if (!isRecord(meta)) return NO_USAGE;
  return {
    prompt_tokens: counter(meta["promptTokenCount"]),
    completion_tokens: counter(meta["candidatesTokenCount"]),
    total_tokens: counter(meta["totalTokenCount"]),
    ...("cachedContentTokenCount" in meta ? { cached_tokens: counter(meta["cachedContentTokenCount"]) } : {}),
  };
}

export function generateContentResponse(body: unknown, call: PreparedCall): Response {
  const invalid = (detail: string): LlmProviderError => new LlmProviderError("provider_invalid_response", `Gemini response: ${detail}`, { body: JSON.stringify(body) });
  if (!isRecord(body) || !Array.isArray(body["candidates"]) || !isRecord(body["candidates"][0])) throw invalid("missing candidates[0]");
  const candidate = body["candidates"][0];
  const content = candidate["content"];
  const parts = isRecord(content) && Array.isArray(content["parts"]) ? content["parts"] : [];
  const blocks: Array<TextBlock | ThinkingBlock> = [];
  const calls: ToolCall[] = [];
  for (const [i, p] of parts.entries()) {
    if (!isRecord(p)) throw invalid(`parts[${i}] is not an object`);
    const signature = typeof p["thoughtSignature"] === "string" ? { signature: p["thoughtSignature"] } : {};
    if (isRecord(p["functionCall"])) {
      const fc = p["functionCall"];
      if (typeof fc["name"] !== "string") throw invalid(`parts[${i}].functionCall has no name`);
      // Older Gemini versions omit the id: a positional one (`call_<n>`) keeps tool results pairable.
      calls.push({ id: typeof fc["id"] === "string" ? fc["id"] : `call_${calls.length}`, name: fc["name"], arguments: isRecord(fc["args"]) ? fc["args"] : fc["args"] === undefined ? {} : null, ...signature });
    } else if (typeof p["text"] === "string") {
      blocks.push(p["thought"] === true ? { type: "thinking", text: p["text"] } : { type: "text", text: p["text"], ...signature });
    }
  }
  const raw = candidate["finishReason"];
  let finish: FinishReason = typeof raw === "string" && Object.hasOwn(FINISH, raw) ? FINISH[raw]! : "error";
  if (calls.length > 0 && (finish === "stop" || raw === undefined)) finish = "tool_calls";
  if (calls.length > 0 && finish !== "error") checkToolCalls(calls, calls.map((c) => c.arguments), call, body);
  return { message: assistantOf(blocks, calls), finish_reason: finish, usage: geminiUsage(body["usageMetadata"]), raw: body };
}
