/**
 * OpenAI-compatible response mapping (llm-provider §8.1.2): `choices[0].message` to the §6
 * Response, `finish_reason` normalized, usage with the malformed-counter rule, `raw` verbatim.
 * Under a non-error finish, tool calls must parse and validate against their tool's schema, else
 * `provider_invalid_response`; under `finish_reason: "error"` what parses is surfaced (§3).
 */
import { LlmProviderError } from "../errors.ts";
import type { PreparedCall } from "../mapping.ts";
import type { AssistantMessage, JsonObject, ToolCall } from "../messages.ts";
import { NO_USAGE, counter, type FinishReason, type Response, type Usage } from "../response.ts";
import { schemaViolation } from "../structured-output.ts";
import { isRecord } from "../json.ts";

const FINISH: Readonly<Record<string, FinishReason>> = {
  stop: "stop",
  length: "length",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
  content_filter: "content_filter",
};

export function finishReason(wire: unknown): FinishReason {
  return typeof wire === "string" && Object.hasOwn(FINISH, wire) ? FINISH[wire]! : "error";
}


export function invalidResponse(detail: string, raw: unknown): LlmProviderError {
  return new LlmProviderError("provider_invalid_response", `OpenAI-compatible response: ${detail}`, { body: JSON.stringify(raw) });
}

/** §6 usage from an OpenAI `usage` member (absent: the three baseline counters null). */
export function openAiUsage(usage: unknown): Usage {
  if (!isRecord(usage)) return NO_USAGE;
  const out: { -readonly [K in keyof Usage]: Usage[K] } = {
    prompt_tokens: counter(usage["prompt_tokens"]),
    completion_tokens: counter(usage["completion_tokens"]),
    total_tokens: counter(usage["total_tokens"]),
  };
  const details = usage["prompt_tokens_details"];
  if (isRecord(details) && "cached_tokens" in details) out.cached_tokens = counter(details["cached_tokens"]);
  return out;
}

/** Parse a tool call's argument bytes: a mapping, or null when they are not a JSON object. */
export function parseArguments(text: unknown): JsonObject | null {
  if (isRecord(text)) return text;
  if (typeof text !== "string") return null;
  try {
    const v: unknown = JSON.parse(text === "" ? "{}" : text);
    return isRecord(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * Check tool calls of a non-error response: each names a declared tool and carries arguments that
 * parse and conform to that tool's parameters schema (§3 *Validation timing*).
 */
export function checkToolCalls(calls: ReadonlyArray<ToolCall>, rawArgs: ReadonlyArray<unknown>, call: PreparedCall, raw: unknown): void {
  calls.forEach((c, i) => {
    const tool = call.tools?.find((t) => t.name === c.name);
    if (!tool) throw invalidResponse(`tool_calls[${i}].name '${c.name}' is not a tool of this call`, raw);
    if (c.arguments === null) throw invalidResponse(`tool_calls[${i}].arguments is not a JSON object: ${String(rawArgs[i])}`, raw);
    const violation = schemaViolation(tool.parameters, c.arguments);
    if (violation !== null) throw invalidResponse(`tool_calls[${i}].arguments do not match tool '${c.name}': ${violation}`, raw);
  });
}

export function chatCompletionResponse(body: unknown, call: PreparedCall): Response {
  if (!isRecord(body)) throw invalidResponse("the body is not a JSON object", body);
  const choices = body["choices"];
  if (!Array.isArray(choices) || choices.length === 0 || !isRecord(choices[0])) throw invalidResponse("missing choices[0]", body);
  const choice = choices[0];
  const msg = choice["message"];
  if (!isRecord(msg)) throw invalidResponse("missing choices[0].message", body);
  const content = msg["content"];
  if (content !== null && content !== undefined && typeof content !== "string") throw invalidResponse("choices[0].message.content is not a string", body);
  const finish = finishReason(choice["finish_reason"]);
  const wireCalls = msg["tool_calls"];
  let toolCalls: ToolCall[] | null = null;
  if (wireCalls !== undefined && wireCalls !== null) {
    if (!Array.isArray(wireCalls)) throw invalidResponse("choices[0].message.tool_calls is not a list", body);
    const rawArgs: unknown[] = [];
    toolCalls = wireCalls.map((w, i) => {
      const fn = isRecord(w) ? w["function"] : undefined;
      if (!isRecord(w) || !isRecord(fn)) throw invalidResponse(`tool_calls[${i}] has no function`, body);
      if (finish !== "error" && (typeof w["id"] !== "string" || typeof fn["name"] !== "string")) throw invalidResponse(`tool_calls[${i}] needs an id and a function name`, body);
      rawArgs.push(fn["arguments"]);
      return { id: String(w["id"] ?? ""), name: String(fn["name"] ?? ""), arguments: parseArguments(fn["arguments"]) };
    });
    if (toolCalls.length === 0) toolCalls = null;
    else if (finish !== "error") checkToolCalls(toolCalls, rawArgs, call, body);
  }
  const message: AssistantMessage = { role: "assistant", content: typeof content === "string" ? content : null, tool_calls: toolCalls };
  return { message, finish_reason: finish, usage: openAiUsage(body["usage"]), raw: body };
}
