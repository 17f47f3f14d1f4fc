/**
 * What the four retrieval mappings share: a POST with a canonical JSON body (sorted keys, so equal
 * calls send equal bytes), the bearer header, extras placed under the managed-field rules
 * (llm-provider §6, inherited per retrieval-provider §10), the client-side prefixes (§8.1 / §8.3)
 * and the §7 status table.
 */
import { canonicalJson } from "../llm/canonical-json.ts";
import type { LlmProviderError } from "../llm/errors.ts";
import { placeExtras } from "../llm/extras.ts";
import { errorBody, errorMessage, httpError } from "../llm/wire-errors.ts";
import { statusCategory } from "./errors.ts";
import type { EmbeddingBinding, Endpoint, WireRequest } from "./mapping.ts";

/**
 * The body with the caller's extras placed: `exclusive` maps each managed non-additive key to the
 * value the mapping manages (a conflicting extra is refused pre-send, a matching one is a no-op);
 * `additive` names list-shaped managed keys that merge (a malformed extra counts as absent).
 */
export function withExtras(
  body: Record<string, unknown>,
  extras: Readonly<Record<string, unknown>> | null | undefined,
  provider: string,
  exclusive: Record<string, unknown>,
  additive: Record<string, (v: unknown) => unknown[] | undefined> = {},
): Record<string, unknown> {
  placeExtras(body, extras, { exclusive: new Map(Object.entries(exclusive)), additive: new Map(Object.entries(additive)) }, provider);
  return body;
}

export function post(endpoint: Endpoint, path: string, body: Record<string, unknown>): WireRequest {
  return { method: "POST", url: `${endpoint.baseUrl}${path}`, headers: headers(endpoint, true), body: canonicalJson(body) };
}

export function get(endpoint: Endpoint, path: string): WireRequest {
  return { method: "GET", url: `${endpoint.baseUrl}${path}`, headers: headers(endpoint, false) };
}

function headers(endpoint: Endpoint, json: boolean): Record<string, string> {
  return {
    ...(json ? { "content-type": "application/json" } : {}),
    ...endpoint.headers,
    ...(endpoint.apiKey !== undefined ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
  };
}

/**
 * The shared §8 status table. The message is the provider's own message verbatim when its body has
 * one (as for the LLM mappings, `httpError`), else `<provider> answered HTTP <status>`; the status
 * and body stay on the error.
 */
export function mapHttpError(provider: string) {
  return (status: number, bodyText: string, hdrs: Headers): LlmProviderError => {
    const body = errorBody(bodyText);
    const detail = errorMessage(body) || (typeof body?.["detail"] === "string" ? (body["detail"] as string) : "");
    return httpError(provider, statusCategory(status), status, bodyText, detail, hdrs);
  };
}

/** §8.1 / §8.3 client-side prefixing: `input_type` selects the bound query / document prefix, if any. */
export function prefixed(input: ReadonlyArray<string>, binding: EmbeddingBinding, inputType: string | null | undefined): string[] {
  const prefix = inputType === "query" ? binding.queryPrefix : inputType === "document" ? binding.documentPrefix : undefined;
  return prefix === undefined ? [...input] : input.map((s) => prefix + s);
}

/** Set `key` only for a present value (`null` / `undefined` are "not set"). */
export function set(body: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined && value !== null) body[key] = value;
}
