import { invalidRequest } from "./errors.ts";

/**
 * `RuntimeConfig` (llm-provider §6): the declared per-call sampling fields plus `extras`, the
 * undeclared pass-through a mapping places on the wire untouched.
 */

export interface RuntimeConfig {
  readonly temperature?: number | null;
  readonly max_tokens?: number | null;
  readonly top_p?: number | null;
  readonly seed?: number | null;
  readonly frequency_penalty?: number | null;
  readonly presence_penalty?: number | null;
  readonly stop_sequences?: ReadonlyArray<string> | null;
  /** Undeclared fields, forwarded verbatim at the mapping's extras placement. */
  readonly extras?: { readonly [key: string]: unknown } | null;
}

/** The declared field names, in spec order. */
export const DECLARED_CONFIG_FIELDS = [
  "temperature",
  "max_tokens",
  "top_p",
  "seed",
  "frequency_penalty",
  "presence_penalty",
  "stop_sequences",
] as const;
export type DeclaredConfigField = (typeof DECLARED_CONFIG_FIELDS)[number];

const NUMBER_FIELDS = ["temperature", "top_p", "frequency_penalty", "presence_penalty"] as const;
const INTEGER_FIELDS = ["max_tokens", "seed"] as const;

/** Validate a RuntimeConfig's declared field types (`provider_invalid_request` naming the field). */
export function validateConfig(config: unknown, at = "config"): asserts config is RuntimeConfig | undefined {
  if (config === undefined || config === null) return;
  if (typeof config !== "object" || Array.isArray(config)) throw invalidRequest(at, "must be a RuntimeConfig record");
  const c = config as Record<string, unknown>;
  for (const f of NUMBER_FIELDS) if (c[f] !== undefined && c[f] !== null && (typeof c[f] !== "number" || !Number.isFinite(c[f]))) throw invalidRequest(`${at}.${f}`, "must be a number");
  for (const f of INTEGER_FIELDS) if (c[f] !== undefined && c[f] !== null && !Number.isInteger(c[f])) throw invalidRequest(`${at}.${f}`, "must be an integer");
  const stops = c["stop_sequences"];
  if (stops !== undefined && stops !== null && !(Array.isArray(stops) && stops.every((s) => typeof s === "string"))) throw invalidRequest(`${at}.stop_sequences`, "must be a list of strings");
  const extras = c["extras"];
  if (extras !== undefined && extras !== null && (typeof extras !== "object" || Array.isArray(extras))) throw invalidRequest(`${at}.extras`, "must be a record of extra wire fields");
}

/** The declared fields that are set (null-skip: `null` / `undefined` means "not supplied"). */
export function declaredFields(config: RuntimeConfig | undefined): Partial<Record<DeclaredConfigField, unknown>> {
  const out: Partial<Record<DeclaredConfigField, unknown>> = {};
  if (!config) return out;
  for (const k of DECLARED_CONFIG_FIELDS) {
    const v = config[k];
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out;
}

/**
 * `base` with `override` shallow-merged per key (§7.1 `per_attempt_override`): a set field
 * replaces the base's, an unset one inherits; extras merge by the same per-key rule.
 */
export function mergeConfig(base: RuntimeConfig | undefined, override: RuntimeConfig | undefined): RuntimeConfig {
  const out: Record<string, unknown> = { ...(base ?? {}) };
  if (!override) return out as RuntimeConfig;
  for (const k of DECLARED_CONFIG_FIELDS) {
    const v = override[k];
    if (v !== undefined && v !== null) out[k] = v;
  }
  if (override.extras) {
    const extras: Record<string, unknown> = { ...(base?.extras ?? {}) };
    for (const [k, v] of Object.entries(override.extras)) if (v !== undefined && v !== null) extras[k] = v;
    out["extras"] = extras;
  }
  return out as RuntimeConfig;
}
