/** Content hashes (prompt-management §3 `template_hash`, §4 `rendered_hash`): SHA-256 over canonical JSON. */
import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth; `undefined` members dropped (as JSON does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortKeys(x);
    }
    return out;
  }
  return v;
}

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function contentHash(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex")}`;
}
