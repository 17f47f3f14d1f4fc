/**
 * The Anthropic Messages wire mapping (llm-provider §8.2): `POST {base}/messages` with `x-api-key`
 * and `anthropic-version`, `GET {base}/models/{model}` for `ready()`. §8.2 does not implement
 * streaming in spec 0.120.1, so `stream: true` is refused pre-send (§5) unless the provider opts in
 * with `capabilities: { streaming: true }` (the Messages API's SSE events, `stream.ts`).
 */
import { canonicalJson } from "../canonical-json.ts";
import { LlmProviderError } from "../errors.ts";
import type { Endpoint, PreparedCall, StreamAssembler, WireMapping, WireRequest } from "../mapping.ts";
import { anthropicError } from "./errors.ts";
import { messagesBody } from "./request.ts";
import { messagesResponse } from "./response.ts";
import { MessagesStream } from "./stream.ts";

export const ANTHROPIC_VERSION = "2023-06-01";

const ACCEPT = "application/json, text/event-stream";

function headers(endpoint: Endpoint, json: boolean): Record<string, string> {
  // Built by assignment, not spreads (once per call, bench/llm.ts); same keys, same order.
  const h: Record<string, string> = json ? { "content-type": "application/json", accept: ACCEPT } : { accept: ACCEPT };
  h["anthropic-version"] = ANTHROPIC_VERSION;
  if (endpoint.apiKey) h["x-api-key"] = endpoint.apiKey;
  if (endpoint.headers !== undefined) Object.assign(h, endpoint.headers);
  return h;
}

export const anthropicMessagesMapping: WireMapping = {
  api: "anthropic-messages",
  defaultBaseUrl: "https://api.anthropic.com/v1",
  supportsStreaming: true,
  streamsByDefault: false,
  buildRequest(call: PreparedCall, endpoint: Endpoint): WireRequest {
    return { method: "POST", url: `${endpoint.baseUrl}/messages`, headers: headers(endpoint, true), body: canonicalJson(messagesBody(call)) };
  },
  parseResponse: messagesResponse,
  mapError: anthropicError,
  createStreamAssembler: (call: PreparedCall): StreamAssembler => new MessagesStream(call),
  readyRequest(model: string, endpoint: Endpoint): WireRequest {
    return { method: "GET", url: `${endpoint.baseUrl}/models/${encodeURIComponent(model)}`, headers: headers(endpoint, false) };
  },
  interpretReady(body: unknown, model: string): void {
    const id = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["id"] : undefined;
    if (id !== model) throw new LlmProviderError("provider_invalid_model", `model '${model}' is not known to the Anthropic API`);
  },
};
