/**
 * Gemini streaming (opt-in; §8.3 in spec 0.120.1 does not stream, so a provider enables it with
 * `capabilities: { streaming: true }`): `streamGenerateContent?alt=sse` sends one
 * GenerateContentResponse per SSE event, each carrying the next parts; the last carries
 * `finishReason` and the usage totals. Parts are merged (adjacent text of the same kind joins,
 * signatures kept) into the body a non-streamed call returns, which the non-streamed response
 * mapping then reads.
 */
import { canonicalJson } from "../canonical-json.ts";
import { LlmProviderError } from "../errors.ts";
import { isRecord } from "../json.ts";
import type { PreparedCall, StreamAssembler } from "../mapping.ts";
import type { StreamEvent } from "../provider.ts";
import type { Response } from "../response.ts";
import { generateContentResponse } from "./response.ts";

export class GenerateContentStream implements StreamAssembler {
  readonly #call: PreparedCall;
  readonly #parts: Array<Record<string, unknown>> = [];
  #last: Record<string, unknown> | undefined;
  #finishReason: unknown;
  #calls = 0;

  constructor(call: PreparedCall) {
    this.#call = call;
  }

  push(data: string): StreamEvent[] {
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch (cause) {
      throw new LlmProviderError("provider_invalid_response", `Gemini stream: an SSE event is not JSON: ${(cause as Error).message}`, { cause, body: data });
    }
    if (!isRecord(chunk)) throw new LlmProviderError("provider_invalid_response", "Gemini stream: an event is not a JSON object", { body: data });
    this.#last = chunk;
    const candidate = Array.isArray(chunk["candidates"]) && isRecord(chunk["candidates"][0]) ? chunk["candidates"][0] : undefined;
    if (!candidate) return [];
    if (candidate["finishReason"] !== undefined) this.#finishReason = candidate["finishReason"];
    const content = candidate["content"];
    const parts = isRecord(content) && Array.isArray(content["parts"]) ? content["parts"] : [];
    const events: StreamEvent[] = [];
    for (const p of parts) {
      if (!isRecord(p)) continue;
      const prev = this.#parts[this.#parts.length - 1];
      if (typeof p["text"] === "string" && p["functionCall"] === undefined) {
        const thought = p["thought"] === true;
        if (prev && typeof prev["text"] === "string" && (prev["thought"] === true) === thought && prev["thoughtSignature"] === undefined) {
          this.#parts[this.#parts.length - 1] = { ...prev, ...p, text: `${prev["text"]}${p["text"]}` };
        } else this.#parts.push({ ...p });
        events.push(thought ? { type: "reasoning_delta", delta: p["text"] } : { type: "text_delta", delta: p["text"] });
      } else if (isRecord(p["functionCall"])) {
        this.#parts.push({ ...p });
        const fc = p["functionCall"];
        const index = this.#calls++;
        const id = typeof fc["id"] === "string" ? fc["id"] : `call_${index}`;
        const args = isRecord(fc["args"]) ? fc["args"] : {};
        // The call's thought signature travels with it, as on the assembled Response (§8.3).
        const signature = typeof p["thoughtSignature"] === "string" ? { signature: p["thoughtSignature"] } : {};
        events.push(
          { type: "tool_call_start", index, id, name: String(fc["name"]) },
          { type: "tool_call_delta", index, delta: canonicalJson(args) },
          { type: "tool_call_end", index, toolCall: { id, name: String(fc["name"]), arguments: args, ...signature } },
        );
      } else this.#parts.push({ ...p });
    }
    return events;
  }

  finish(): Response {
    const last = this.#last ?? {};
    const candidate = Array.isArray(last["candidates"]) && isRecord(last["candidates"][0]) ? last["candidates"][0] : {};
    const body = { ...last, candidates: [{ ...candidate, content: { role: "model", parts: this.#parts }, finishReason: this.#finishReason }] };
    if (this.#finishReason === undefined) throw new LlmProviderError("provider_invalid_response", "Gemini stream: ended without a finishReason", { body: JSON.stringify(body) });
    return generateContentResponse(body, this.#call);
  }
}
