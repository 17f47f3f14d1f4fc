/**
 * `SamplingConfig` and `TokenBudget` (prompt-management §3, §5). `SamplingConfig` has the shape of
 * llm-provider §6 `RuntimeConfig` (seven declared fields + `extras`), so `result.sampling` is passed
 * to `provider.complete(..., { config })` as it is (§12 RuntimeConfig wiring).
 */

import { DECLARED_CONFIG_FIELDS, type RuntimeConfig } from "../llm/config.ts";

/** The llm-provider §6 `RuntimeConfig` itself: a prompt's sampling is a call's config. */
export type SamplingConfig = RuntimeConfig;

export interface TokenBudget {
  /** Ceiling on the call's input (prompt) tokens. */
  readonly input_max_tokens?: number;
  /** Ceiling on input + output tokens. */
  readonly total_max_tokens?: number;
}

export const SAMPLING_FIELDS = DECLARED_CONFIG_FIELDS;

const NUMBER_FIELDS = new Set<string>(["temperature", "top_p", "frequency_penalty", "presence_penalty"]);
const INTEGER_FIELDS = new Set<string>(["max_tokens", "seed"]);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Project a sourced config (a sidecar, a vendor config) onto `SamplingConfig` (§5): the declared
 * fields with their `RuntimeConfig` types, every other key under `extras` (an explicit `extras`
 * mapping merges in). `token_budget` is not sampling and is left out. Throws a `TypeError` naming
 * the field when a declared field has the wrong type; returns `undefined` for an empty config.
 */
export function samplingConfigFrom(raw: unknown): SamplingConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isRecord(raw)) throw new TypeError(`a sampling config must be a JSON object, got ${JSON.stringify(raw)}`);
  const out: Record<string, unknown> = {};
  const extras: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === "token_budget") continue;
    if (k === "extras") {
      if (v === null || v === undefined) continue;
      if (!isRecord(v)) throw new TypeError(`sampling 'extras' must be a JSON object`);
      Object.assign(extras, v);
      continue;
    }
    if ((SAMPLING_FIELDS as readonly string[]).includes(k)) {
      if (v !== null && v !== undefined) {
        if (NUMBER_FIELDS.has(k) && typeof v !== "number") throw new TypeError(`sampling '${k}' must be a number, got ${JSON.stringify(v)}`);
        if (INTEGER_FIELDS.has(k) && !Number.isInteger(v)) throw new TypeError(`sampling '${k}' must be an integer, got ${JSON.stringify(v)}`);
        if (k === "stop_sequences" && !(Array.isArray(v) && v.every((s) => typeof s === "string"))) {
          throw new TypeError(`sampling 'stop_sequences' must be a list of strings`);
        }
      }
      out[k] = v;
      continue;
    }
    extras[k] = v;
  }
  if (Object.keys(extras).length > 0) out["extras"] = extras;
  return Object.keys(out).length > 0 ? (out as SamplingConfig) : undefined;
}

/**
 * Parse a sourced `token_budget` config (§5, proposal 0109): only the recognized bounds are kept,
 * an unrecognized key is dropped, and a malformed config or bound never throws — the budget is
 * advisory, so an unusable bound is dropped (and an unusable config yields no budget).
 */
export function tokenBudgetFrom(raw: unknown): TokenBudget | undefined {
  if (!isRecord(raw)) return undefined;
  const out: { input_max_tokens?: number; total_max_tokens?: number } = {};
  for (const k of ["input_max_tokens", "total_max_tokens"] as const) {
    const v = raw[k];
    if (typeof v === "number" && Number.isInteger(v) && v >= 0) out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
