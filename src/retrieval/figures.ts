/**
 * Reading wire values under retrieval-provider §7 *Malformed ancillary figures* and the §4 / §6
 * payload rules: an ancillary figure that is malformed is not reported (`null`), never coerced;
 * a payload value that is malformed raises `provider_invalid_response`.
 */
import { counter } from "../llm/response.ts";
import { isRecord } from "../llm/json.ts";
import { invalidResponse } from "./errors.ts";

export { counter, isRecord };

/** A response id: a non-empty string, else `null` (absent, empty or malformed — never coerced). */
export function responseId(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** A model echo: a non-empty string, else `undefined` (the bound model is used). */
export function modelEcho(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** A float vector: a JSON array whose every element is a finite number. */
export function floatVector(value: unknown, provider: string, where: string): number[] {
  if (!Array.isArray(value) || !value.every((x) => typeof x === "number" && Number.isFinite(x))) {
    throw invalidResponse(provider, `${where} is not an array of numbers`);
  }
  return value as number[];
}

/** Walk `path` through nested objects; `undefined` when any step is missing or not an object. */
export function dig(value: unknown, ...path: string[]): unknown {
  let v = value;
  for (const k of path) {
    if (!isRecord(v)) return undefined;
    v = v[k];
  }
  return v;
}

/** Require a JSON object response. */
export function objectBody(body: unknown, provider: string): Record<string, unknown> {
  if (!isRecord(body)) throw invalidResponse(provider, "the response is not a JSON object", body);
  return body;
}

/** Require an array member. */
export function arrayMember(body: Record<string, unknown>, key: string, provider: string): unknown[] {
  const v = body[key];
  if (!Array.isArray(v)) throw invalidResponse(provider, `the response's '${key}' is not an array`, body);
  return v;
}
