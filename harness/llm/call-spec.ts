/**
 * Translating a fixture call (conformance-adapter §5.11) into the library's call options:
 * `retry` (the §6.1 record plus `per_attempt_override` and the declarative `reask: {template}`),
 * `backoff` forms, and the `retry_middleware` record.
 */
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { CallRetry, RuntimeConfig, StructuredOutputInvalid } from "../../src/llm/index.ts";
import { constantBackoff, defaultClassifier, exponentialJitterBackoff, sleepSeconds, type BackoffFn } from "../../src/pipeline/middleware/index.ts";

export interface RetrySpec {
  readonly max_attempts?: number;
  readonly backoff?: { readonly type?: string; readonly seconds?: number } | number;
  readonly classifier?: string;
  readonly per_attempt_override?: ReadonlyArray<RuntimeConfig>;
  readonly reask?: { readonly template: string };
}

export function backoffOf(spec: RetrySpec["backoff"], where: FixtureLocation): BackoffFn | undefined {
  if (spec === undefined) return undefined;
  if (typeof spec === "number") return constantBackoff(spec);
  if (spec.type === "deterministic" || spec.type === "constant") return constantBackoff(spec.seconds ?? 0);
  if (spec.type === "exponential_jitter" || spec.type === "default") return exponentialJitterBackoff();
  throw new FixtureSchemaInvalid(`unknown backoff type '${String(spec.type)}'`, where);
}

/**
 * The reask builder a `reask: {template}` stands for: the template rendered with the error's
 * `output_content` / `error_message`, contributing no text of its own (§5.11).
 */
export function reaskBuilder(template: string): (e: StructuredOutputInvalid) => string {
  return (e) => template.replace(/\{(output_content|error_message)\}/g, (_m, k: string) => (k === "output_content" ? e.output_content : e.error_message));
}

/** The call-level retry record, recording each backoff sleep into `sleeps`. */
const RETRY_KEYS: readonly string[] = ["max_attempts", "backoff", "classifier", "per_attempt_override", "reask"];

export function callRetry(spec: RetrySpec, sleeps: number[], where: FixtureLocation): CallRetry {
  // The §5.11 call.retry record is closed (a calls_llm block's retry is not schema-checked key by key).
  for (const k of Object.keys(spec)) if (!RETRY_KEYS.includes(k)) throw new FixtureSchemaInvalid(`retry: unknown key '${k}' (the call.retry record has ${RETRY_KEYS.join(", ")})`, where);
  if (spec.classifier !== undefined && spec.classifier !== "default") throw new FixtureSchemaInvalid(`unknown classifier '${spec.classifier}'`, where);
  const backoff = backoffOf(spec.backoff, where);
  return {
    ...(spec.max_attempts !== undefined ? { maxAttempts: spec.max_attempts } : {}),
    classifier: defaultClassifier,
    ...(backoff !== undefined ? { backoff } : {}),
    sleep: (seconds, signal) => {
      sleeps.push(seconds);
      return sleepSeconds(seconds, signal);
    },
    ...(spec.per_attempt_override !== undefined ? { perAttemptOverride: spec.per_attempt_override } : {}),
    ...(spec.reask !== undefined ? { reask: reaskBuilder(spec.reask.template) } : {}),
  };
}
