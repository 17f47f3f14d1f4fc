/**
 * The OpenAI-compatible Chat Completions wire mapping (llm-provider §8.1): `POST
 * {base}/chat/completions` with `Authorization: Bearer <key>`, `GET {base}/models` for `ready()`.
 * Serves the OpenAI API and every compatible server (vLLM, Ollama, LM Studio, llama.cpp).
 */
import { canonicalJson } from "../canonical-json.ts";
import { LlmProviderError } from "../errors.ts";
import type { Endpoint, PreparedCall, WireMapping, WireRequest } from "../mapping.ts";
import { openAiError } from "./errors.ts";
import { chatCompletionBody } from "./request.ts";
import { chatCompletionResponse } from "./response.ts";
import { ChatCompletionStream } from "./stream.ts";

const ACCEPT = "application/json, text/event-stream";

function headers(endpoint: Endpoint, json: boolean): Record<string, string> {
  // Built by assignment, not spreads (once per call, bench/llm.ts); same keys, same order.
  const h: Record<string, string> = json ? { "content-type": "application/json", accept: ACCEPT } : { accept: ACCEPT };
  if (endpoint.apiKey) h["authorization"] = `Bearer ${endpoint.apiKey}`;
  if (endpoint.headers !== undefined) Object.assign(h, endpoint.headers);
  return h;
}

export const openAiChatMapping: WireMapping = {
  api: "openai-chat",
  supportsStreaming: true,
  streamsByDefault: true,
  defaultBaseUrl: "https://api.openai.com/v1",
  buildRequest(call: PreparedCall, endpoint: Endpoint): WireRequest {
    return { method: "POST", url: `${endpoint.baseUrl}/chat/completions`, headers: headers(endpoint, true), body: canonicalJson(chatCompletionBody(call)) };
  },
  parseResponse: chatCompletionResponse,
  mapError: openAiError,
  createStreamAssembler: (call) => new ChatCompletionStream(call),
  readyRequest(_model: string, endpoint: Endpoint): WireRequest {
    return { method: "GET", url: `${endpoint.baseUrl}/models`, headers: headers(endpoint, false) };
  },
  /**
   * The bound model must be listed (else `provider_invalid_model`); a local server that reports a
   * per-model `status` other than loaded / ready means `provider_model_not_loaded`.
   */
  interpretReady(body: unknown, model: string): void {
    const data = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["data"] : undefined;
    if (!Array.isArray(data)) throw new LlmProviderError("provider_invalid_response", "OpenAI-compatible /models: the body has no data list", { body: JSON.stringify(body) });
    const entry = data.find((m) => typeof m === "object" && m !== null && (m as Record<string, unknown>)["id"] === model) as Record<string, unknown> | undefined;
    if (!entry) throw new LlmProviderError("provider_invalid_model", `model '${model}' is not listed by the provider's /models`);
    const status = entry["status"] ?? (typeof entry["state"] === "string" ? entry["state"] : undefined);
    if (typeof status === "string" && !/^(loaded|ready|available|serving)$/i.test(status)) {
      throw new LlmProviderError("provider_model_not_loaded", `model '${model}' is listed but not serving (status '${status}')`);
    }
  },
};
