/**
 * Placing `RuntimeConfig.extras` on a wire body under the managed-field collision rules
 * (llm-provider §6): an unmanaged key passes through untouched; a managed non-additive key must
 * equal the managed value (decoded-value deep equality) or the call is refused pre-send with
 * `provider_invalid_request`; a managed list-shaped key merges (mapping's values first,
 * de-duplicated, first occurrence wins), a malformed caller list counting as absent.
 */
import { deepEqual } from "./canonical-json.ts";
import { invalidRequest } from "./errors.ts";

export interface ManagedFields {
  /** Non-additive managed keys and the value the mapping manages (emitted or not). */
  readonly exclusive: ReadonlyMap<string, unknown>;
  /** List-shaped managed keys; `coerce` turns a caller value into a list (or undefined: malformed). */
  readonly additive: ReadonlyMap<string, (value: unknown) => unknown[] | undefined>;
}

/** Merge `extras` into `body` (mutated) under `managed`; keys in sorted order (byte stability). */
export function placeExtras(body: Record<string, unknown>, extras: Readonly<Record<string, unknown>> | null | undefined, managed: ManagedFields, provider: string): void {
  if (!extras) return;
  for (const key of Object.keys(extras).sort()) {
    const value = extras[key];
    if (managed.exclusive.has(key)) {
      if (!deepEqual(value, managed.exclusive.get(key))) {
        throw invalidRequest(
          `config.extras.${key}`,
          `conflicts with the '${key}' the ${provider} mapping manages (${JSON.stringify(managed.exclusive.get(key))}); set it through its declared field or remove the extra`,
        );
      }
      continue;
    }
    const coerce = managed.additive.get(key);
    if (coerce) {
      const list = coerce(value);
      if (list === undefined) continue; // malformed for the merge: treated as absent, no diagnostic
      const merged: unknown[] = [];
      for (const item of [...((body[key] as unknown[] | undefined) ?? []), ...list]) if (!merged.some((m) => deepEqual(m, item))) merged.push(item);
      body[key] = merged;
      continue;
    }
    body[key] = value;
  }
}

/** A caller `stop`-style value as a list of strings: a string becomes a one-element list. */
export function stringList(value: unknown): string[] | undefined {
  if (typeof value === "string") return [value];
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? (value as string[]) : undefined;
}
