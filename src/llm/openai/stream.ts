/**
 * OpenAI-compatible streaming (llm-provider §8.1.6, §6 *Streaming assembly*): each SSE `data:`
 * chunk's `choices[0].delta` carries content, reasoning (`reasoning_content` or `reasoning`) or
 * tool-call fragments; `finish_reason` and the terminal usage chunk close the response; `[DONE]`
 * ends the stream. Content is collected in arrays and joined once (no quadratic string building).
 */
import { LlmProviderError } from "../errors.ts";
import type { PreparedCall, StreamAssembler } from "../mapping.ts";
import type { AssistantMessage, ThinkingBlock, TextBlock, ToolCall } from "../messages.ts";
import type { StreamEvent } from "../provider.ts";
import type { FinishReason, Response } from "../response.ts";
import { checkToolCalls, finishReason, invalidResponse, openAiUsage, parseArguments } from "./response.ts";
import { isRecord } from "../json.ts";

interface PartialCall {
  id: string;
  name: string;
  args: string[];
  started: boolean;
}


export class ChatCompletionStream implements StreamAssembler {
  readonly #call: PreparedCall;
  readonly #content: string[] = [];
  readonly #reasoning: string[] = [];
  readonly #calls: PartialCall[] = [];
  #finish: FinishReason | undefined;
  #usage: unknown;
  #sawUsage = false;
  #first: Record<string, unknown> | undefined;
  #done = false;

  constructor(call: PreparedCall) {
    this.#call = call;
  }

  push(data: string): StreamEvent[] {
    if (this.#done) return [];
    if (data.trim() === "[DONE]") {
      this.#done = true;
      return this.#endCalls();
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch (cause) {
      throw new LlmProviderError("provider_invalid_response", `OpenAI-compatible stream: an SSE event is not JSON: ${(cause as Error).message}`, { cause, body: data });
    }
    if (!isRecord(chunk)) throw invalidResponse("a stream chunk is not a JSON object", chunk);
    if (isRecord(chunk["error"])) throw invalidResponse(`the stream reported an error: ${String((chunk["error"] as Record<string, unknown>)["message"] ?? "")}`, chunk);
    this.#first ??= chunk;
    if ("usage" in chunk && chunk["usage"] !== null) {
      this.#usage = chunk["usage"];
      this.#sawUsage = true;
    }
    const events: StreamEvent[] = [];
    const choices = chunk["choices"];
    if (!Array.isArray(choices)) return events;
    for (const choice of choices) {
      if (!isRecord(choice) || (choice["index"] !== undefined && choice["index"] !== 0)) continue;
      const delta = choice["delta"];
      if (isRecord(delta)) {
        const reasoning = typeof delta["reasoning_content"] === "string" ? delta["reasoning_content"] : typeof delta["reasoning"] === "string" ? delta["reasoning"] : undefined;
        if (reasoning) {
          this.#reasoning.push(reasoning);
          events.push({ type: "reasoning_delta", delta: reasoning });
        }
        if (typeof delta["content"] === "string" && delta["content"] !== "") {
          this.#content.push(delta["content"]);
          events.push({ type: "text_delta", delta: delta["content"] });
        }
        if (Array.isArray(delta["tool_calls"])) for (const t of delta["tool_calls"]) events.push(...this.#toolDelta(t));
      }
      if (choice["finish_reason"] !== null && choice["finish_reason"] !== undefined) this.#finish = finishReason(choice["finish_reason"]);
    }
    return events;
  }

  #toolDelta(t: unknown): StreamEvent[] {
    if (!isRecord(t)) return [];
    const index = typeof t["index"] === "number" ? t["index"] : this.#calls.length;
    const fn = isRecord(t["function"]) ? t["function"] : {};
    let p = this.#calls[index];
    if (!p) {
      p = { id: "", name: "", args: [], started: false };
      this.#calls[index] = p;
    }
    if (typeof t["id"] === "string") p.id += t["id"];
    if (typeof fn["name"] === "string") p.name += fn["name"];
    const out: StreamEvent[] = [];
    if (!p.started && p.id !== "" && p.name !== "") {
      p.started = true;
      out.push({ type: "tool_call_start", index, id: p.id, name: p.name });
    }
    if (typeof fn["arguments"] === "string" && fn["arguments"] !== "") {
      p.args.push(fn["arguments"]);
      out.push({ type: "tool_call_delta", index, delta: fn["arguments"] });
    }
    return out;
  }

  #endCalls(): StreamEvent[] {
    return this.#toolCalls().map((toolCall, index) => ({ type: "tool_call_end", index, toolCall }));
  }

  #toolCalls(): ToolCall[] {
    return this.#calls.filter((p) => p !== undefined).map((p) => ({ id: p.id, name: p.name, arguments: parseArguments(p.args.join("")) }));
  }

  finish(): Response {
    const raw = this.#raw();
    if (this.#finish === undefined) throw invalidResponse("the stream ended without a finish_reason", raw);
    const calls = this.#toolCalls();
    if (calls.length > 0 && this.#finish !== "error") checkToolCalls(calls, this.#calls.map((p) => p.args.join("")), this.#call, raw);
    const text = this.#content.join("");
    const reasoning = this.#reasoning.join("");
    const content: AssistantMessage["content"] =
      reasoning !== ""
        ? [{ type: "thinking", text: reasoning } as ThinkingBlock, ...(text !== "" ? [{ type: "text", text } as TextBlock] : [])]
        : text !== ""
          ? text
          : null;
    return {
      message: { role: "assistant", content, tool_calls: calls.length > 0 ? calls : null },
      finish_reason: this.#finish,
      usage: openAiUsage(this.#usage),
      raw,
    };
  }

  /** The assembled chunk: the first chunk's envelope, one assembled choice, the terminal usage verbatim. */
  #raw(): Record<string, unknown> {
    const first = this.#first ?? {};
    const message: Record<string, unknown> = { role: "assistant", content: this.#content.length > 0 ? this.#content.join("") : null };
    if (this.#reasoning.length > 0) message["reasoning_content"] = this.#reasoning.join("");
    if (this.#calls.length > 0) {
      message["tool_calls"] = this.#calls.map((p) => ({ id: p.id, type: "function", function: { name: p.name, arguments: p.args.join("") } }));
    }
    const raw: Record<string, unknown> = { ...first, choices: [{ index: 0, message, finish_reason: this.#finish ?? null }] };
    if (this.#sawUsage) raw["usage"] = this.#usage;
    else delete raw["usage"];
    return raw;
  }
}
