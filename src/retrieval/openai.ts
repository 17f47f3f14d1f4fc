/**
 * retrieval-provider §8.3 OpenAI-compatible embeddings: `{model, input, dimensions?}` to
 * `/v1/embeddings` (2048 inputs per request), `usage.prompt_tokens` → `input_tokens`. `input_type`
 * has no wire field: it selects a bound client-side prefix, else it is a no-op. Each
 * `data[].embedding` is decoded by its shape: a number array verbatim, a base64 string as
 * little-endian float32 (the caller's `encoding_format: "base64"` extra), anything else malformed.
 */
import { invalidResponse } from "./errors.ts";
import { arrayMember, counter, dig, floatVector, modelEcho, objectBody, responseId } from "./figures.ts";
import { byIndex } from "./jina.ts";
import type { EmbeddingWireMapping } from "./mapping.ts";
import { get, mapHttpError, post, prefixed, set, withExtras } from "./wire.ts";

const NAME = "OpenAI-compatible embeddings";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A base64 string of little-endian float32 values, decoded; malformed input raises. */
export function decodeFloat32Base64(text: string, provider: string, where: string): number[] {
  if (!BASE64.test(text)) throw invalidResponse(provider, `${where} is not valid base64`);
  const bytes = Buffer.from(text, "base64");
  if (bytes.length % 4 !== 0) throw invalidResponse(provider, `${where} decodes to ${bytes.length} bytes, not a whole number of float32 values`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

export const openAiEmbeddingMapping: EmbeddingWireMapping = {
  system: "openai",
  defaultBaseUrl: "https://api.openai.com",
  maxInputs: 2048,
  buildRequest({ binding, input, config }, endpoint) {
    const body: Record<string, unknown> = { model: binding.model, input: prefixed(input, binding, config.input_type) };
    set(body, "dimensions", config.dimensions);
    const exclusive: Record<string, unknown> = { model: binding.model, input: body["input"] };
    if (body["dimensions"] !== undefined) exclusive["dimensions"] = body["dimensions"];
    return post(endpoint, "/v1/embeddings", withExtras(body, config.extras, NAME, exclusive));
  },
  parseResponse(body) {
    const o = objectBody(body, NAME);
    const vectors = byIndex(arrayMember(o, "data", NAME), NAME).map((v, i) =>
      typeof v === "string" ? decodeFloat32Base64(v, NAME, `data[${i}].embedding`) : floatVector(v, NAME, `data[${i}].embedding`),
    );
    return { vectors, model: modelEcho(o["model"]), inputTokens: counter(dig(o, "usage", "prompt_tokens")), responseId: responseId(o["id"]) };
  },
  mapError: mapHttpError(NAME),
  readyRequest: (model, endpoint) => get(endpoint, `/v1/models/${encodeURIComponent(model)}`),
};
