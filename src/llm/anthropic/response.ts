/**
 * Anthropic Messages response mapping (llm-provider §8.2.2): `text` / `thinking` /
 * `redacted_thinking` entries to content blocks (a lone text entry to a plain string), `tool_use`
 * entries to `tool_calls`, `stop_reason` to `finish_reason`, usage with a derived total (null
 * unless both addends were reported, §7). Under the tool-coercion fallback the synthetic tool's
 * input is the structured content.
 */
import type { PreparedCall } from "../mapping.ts";
import type { AssistantMessage, RedactedThinkingBlock, TextBlock, ThinkingBlock, ToolCall } from "../messages.ts";
import { LlmProviderError } from "../errors.ts";
import { counter, derivedTotal, NO_USAGE, type FinishReason, type Response, type Usage } from "../response.ts";
import { checkToolCalls } from "../openai/response.ts";
import { canonicalJson } from "../canonical-json.ts";
import { coercesToTool, STRUCTURED_OUTPUT_TOOL } from "./request.ts";
import { isRecord } from "../json.ts";

const STOP: Readonly<Record<string, FinishReason>> = {
  end_turn: "stop",
  max_tokens: "length",
  stop_sequence: "stop",
  tool_use: "tool_calls",
  pause_turn: "stop",
  refusal: "content_filter",
};


function invalid(detail: string, raw: unknown): LlmProviderError {
  return new LlmProviderError("provider_invalid_response", `Anthropic Messages response: ${detail}`, { body: JSON.stringify(raw) });
}

export function anthropicFinish(stop: unknown): FinishReason {
  return typeof stop === "string" && Object.hasOwn(STOP, stop) ? STOP[stop]! : "error";
}

export function anthropicUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return NO_USAGE;
  const prompt = counter(usage["input_tokens"]);
  const completion = counter(usage["output_tokens"]);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: derivedTotal(prompt, completion) };
}

type Block = TextBlock | ThinkingBlock | RedactedThinkingBlock;

/** The assistant message of a content array (blocks in order; a lone text block as a string). */
export function assistantOf(blocks: ReadonlyArray<Block>, calls: ToolCall[]): AssistantMessage {
  const content: AssistantMessage["content"] = blocks.length === 0 ? null : blocks.length === 1 && blocks[0]!.type === "text" && blocks[0]!.signature === undefined ? blocks[0]!.text : blocks;
  return { role: "assistant", content, tool_calls: calls.length > 0 ? calls : null };
}

export function messagesResponse(body: unknown, call: PreparedCall): Response {
  if (!isRecord(body) || !Array.isArray(body["content"])) throw invalid("missing the content array", body);
  const finish = anthropicFinish(body["stop_reason"]);
  const usage = anthropicUsage(body["usage"]);
  const blocks: Block[] = [];
  const calls: ToolCall[] = [];
  for (const [i, e] of body["content"].entries()) {
    if (!isRecord(e)) throw invalid(`content[${i}] is not an object`, body);
    if (e["type"] === "text" && typeof e["text"] === "string") blocks.push({ type: "text", text: e["text"] });
    else if (e["type"] === "thinking" && typeof e["thinking"] === "string") {
      blocks.push({ type: "thinking", text: e["thinking"], ...(typeof e["signature"] === "string" ? { signature: e["signature"] } : {}) });
    } else if (e["type"] === "redacted_thinking" && typeof e["data"] === "string") blocks.push({ type: "redacted_thinking", data: e["data"] });
    else if (e["type"] === "tool_use") {
      if (typeof e["id"] !== "string" || typeof e["name"] !== "string") throw invalid(`content[${i}] tool_use needs an id and a name`, body);
      calls.push({ id: e["id"], name: e["name"], arguments: isRecord(e["input"]) ? e["input"] : null });
    }
  }
  if (coercesToTool(call)) {
    // §8.2.5.1 tool-call coercion: the forced tool's input is the structured content.
    const forced = calls.find((c) => c.name === STRUCTURED_OUTPUT_TOOL) ?? calls[0];
    if (!forced) throw invalid("the forced structured-output tool was not called", body);
    const text = forced.arguments === null ? "" : canonicalJson(forced.arguments);
    return { message: { role: "assistant", content: text, tool_calls: null }, finish_reason: finish === "tool_calls" ? "stop" : finish, usage, raw: body };
  }
  if (calls.length > 0 && finish !== "error") checkToolCalls(calls, calls.map((c) => c.arguments), call, body);
  return { message: assistantOf(blocks, calls), finish_reason: finish, usage, raw: body };
}
