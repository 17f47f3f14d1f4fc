/**
 * Anthropic Messages streaming (opt-in; §8.2 in spec 0.120.1 does not stream, so a provider enables
 * it with `capabilities: { streaming: true }`): the SSE events `message_start`,
 * `content_block_start` / `_delta` / `_stop`, `message_delta`, `message_stop` (and `ping`,
 * `error`) are reassembled into the same message body a non-streamed call returns, which the
 * non-streamed response mapping then reads — so both paths produce the same Response.
 */
import { LlmProviderError } from "../errors.ts";
import { isRecord } from "../json.ts";
import type { PreparedCall, StreamAssembler } from "../mapping.ts";
import type { StreamEvent } from "../provider.ts";
import type { Response } from "../response.ts";
import { parseArguments } from "../openai/response.ts";
import { messagesResponse } from "./response.ts";

interface Block {
  readonly start: Record<string, unknown>;
  readonly text: string[];
  readonly json: string[];
  signature?: string;
}

export class MessagesStream implements StreamAssembler {
  readonly #call: PreparedCall;
  #message: Record<string, unknown> | undefined;
  readonly #blocks: Block[] = [];
  #stop: Record<string, unknown> = {};
  #usage: Record<string, unknown> = {};
  #ended = false;

  constructor(call: PreparedCall) {
    this.#call = call;
  }

  push(data: string, event: string | undefined): StreamEvent[] {
    let e: unknown;
    try {
      e = JSON.parse(data);
    } catch (cause) {
      throw new LlmProviderError("provider_invalid_response", `Anthropic stream: an SSE event is not JSON: ${(cause as Error).message}`, { cause, body: data });
    }
    if (!isRecord(e)) throw new LlmProviderError("provider_invalid_response", "Anthropic stream: an event is not a JSON object", { body: data });
    const type = e["type"] ?? event;
    switch (type) {
      case "message_start": {
        this.#message = isRecord(e["message"]) ? e["message"] : {};
        this.#usage = { ...(isRecord(this.#message["usage"]) ? this.#message["usage"] : {}) };
        return [];
      }
      case "content_block_start": {
        const index = Number(e["index"]);
        const start = isRecord(e["content_block"]) ? e["content_block"] : {};
        this.#blocks[index] = { start, text: [], json: [] };
        return start["type"] === "tool_use" ? [{ type: "tool_call_start", index, id: String(start["id"]), name: String(start["name"]) }] : [];
      }
      case "content_block_delta": {
        const index = Number(e["index"]);
        const block = this.#blocks[index];
        const delta = isRecord(e["delta"]) ? e["delta"] : {};
        if (!block) throw new LlmProviderError("provider_invalid_response", `Anthropic stream: a delta for block ${index}, which never started`, { body: data });
        if (delta["type"] === "text_delta" && typeof delta["text"] === "string") {
          block.text.push(delta["text"]);
          return [{ type: "text_delta", delta: delta["text"] }];
        }
        if (delta["type"] === "thinking_delta" && typeof delta["thinking"] === "string") {
          block.text.push(delta["thinking"]);
          return [{ type: "reasoning_delta", delta: delta["thinking"] }];
        }
        if (delta["type"] === "signature_delta" && typeof delta["signature"] === "string") block.signature = (block.signature ?? "") + delta["signature"];
        if (delta["type"] === "input_json_delta" && typeof delta["partial_json"] === "string") {
          block.json.push(delta["partial_json"]);
          return [{ type: "tool_call_delta", index, delta: delta["partial_json"] }];
        }
        return [];
      }
      case "content_block_stop": {
        const index = Number(e["index"]);
        const b = this.#blocks[index];
        if (b?.start["type"] !== "tool_use") return [];
        const args = parseArguments(b.json.join(""));
        return [{ type: "tool_call_end", index, toolCall: { id: String(b.start["id"]), name: String(b.start["name"]), arguments: args } }];
      }
      case "message_delta": {
        if (isRecord(e["delta"])) this.#stop = { ...this.#stop, ...e["delta"] };
        if (isRecord(e["usage"])) this.#usage = { ...this.#usage, ...e["usage"] };
        return [];
      }
      case "message_stop":
        this.#ended = true;
        return [];
      case "error": {
        const err = isRecord(e["error"]) ? e["error"] : {};
        const category = err["type"] === "overloaded_error" || err["type"] === "api_error" ? "provider_unavailable" : err["type"] === "rate_limit_error" ? "provider_rate_limit" : "provider_invalid_response";
        throw new LlmProviderError(category, typeof err["message"] === "string" ? err["message"] : "Anthropic stream error", { body: data });
      }
      default:
        return []; // ping, and event types added later
    }
  }

  /** The streamed message, assembled into the shape `POST /v1/messages` returns. */
  #assembled(): Record<string, unknown> {
    const content = this.#blocks
      .filter((b) => b !== undefined)
      .map((b) => {
        const type = b.start["type"];
        if (type === "text") return { ...b.start, text: b.text.join("") };
        if (type === "thinking") return { ...b.start, thinking: b.text.join(""), ...(b.signature !== undefined ? { signature: b.signature } : {}) };
        if (type === "tool_use") return { ...b.start, input: b.json.length > 0 ? (parseArguments(b.json.join("")) ?? b.json.join("")) : b.start["input"] ?? {} };
        return b.start;
      });
    return { ...this.#message, content, ...this.#stop, usage: this.#usage };
  }

  finish(): Response {
    const body = this.#assembled();
    if (!this.#ended || this.#message === undefined) throw new LlmProviderError("provider_invalid_response", "Anthropic stream: ended before message_stop", { body: JSON.stringify(body) });
    return messagesResponse(body, this.#call);
  }
}
