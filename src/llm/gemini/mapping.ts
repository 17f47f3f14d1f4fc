/**
 * The Google Gemini wire mapping (llm-provider §8.3): `POST {base}/models/{model}:generateContent`
 * with `x-goog-api-key`, `GET {base}/models/{model}` for `ready()`. §8.3 does not implement
 * streaming in spec 0.120.1, so `stream: true` is refused pre-send (§5) unless the provider opts in
 * with `capabilities: { streaming: true }` (`:streamGenerateContent?alt=sse`, `stream.ts`).
 */
import { canonicalJson } from "../canonical-json.ts";
import { LlmProviderError } from "../errors.ts";
import type { Endpoint, PreparedCall, StreamAssembler, WireMapping, WireRequest } from "../mapping.ts";
import { geminiError } from "./errors.ts";
import { generateContentBody } from "./request.ts";
import { generateContentResponse } from "./response.ts";
import { GenerateContentStream } from "./stream.ts";

const ACCEPT = "application/json, text/event-stream";

function headers(endpoint: Endpoint, json: boolean): Record<string, string> {
  // Built by assignment, not spreads (once per call, bench/llm.ts); same keys, same order.
  const h: Record<string, string> = json ? { "content-type": "application/json", accept: ACCEPT } : { accept: ACCEPT };
  if (endpoint.apiKey) h["x-goog-api-key"] = endpoint.apiKey;
  if (endpoint.headers !== undefined) Object.assign(h, endpoint.headers);
  return h;
}

function modelUrl(endpoint: Endpoint, model: string): string {
  return `${endpoint.baseUrl}/models/${encodeURIComponent(model)}`;
}

export const geminiMapping: WireMapping = {
  api: "gemini",
  defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
  supportsStreaming: true,
  streamsByDefault: false,
  buildRequest(call: PreparedCall, endpoint: Endpoint): WireRequest {
    const action = call.stream ? "streamGenerateContent?alt=sse" : "generateContent";
    return { method: "POST", url: `${modelUrl(endpoint, call.model)}:${action}`, headers: headers(endpoint, true), body: canonicalJson(generateContentBody(call)) };
  },
  parseResponse: generateContentResponse,
  mapError: geminiError,
  createStreamAssembler: (call: PreparedCall): StreamAssembler => new GenerateContentStream(call),
  readyRequest(model: string, endpoint: Endpoint): WireRequest {
    return { method: "GET", url: modelUrl(endpoint, model), headers: headers(endpoint, false) };
  },
  interpretReady(body: unknown, model: string): void {
    const name = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["name"] : undefined;
    if (name !== `models/${model}` && name !== model) throw new LlmProviderError("provider_invalid_model", `model '${model}' is not known to the Gemini API`);
  },
};
