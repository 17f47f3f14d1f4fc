/**
 * Result verification: every implementation of a scenario must produce the same value. Values are
 * compared through a canonical JSON form (object keys sorted, `undefined` members dropped), so a
 * frozen array from our engine equals a plain one from LangGraph.
 */

function normalize(v: unknown, seen: Set<object>): unknown {
  if (v === null || typeof v !== "object") {
    if (typeof v === "bigint") return `${v}n`;
    if (typeof v === "number" && !Number.isFinite(v)) return String(v);
    return v;
  }
  if (seen.has(v)) throw new TypeError("cannot canonicalize a cyclic value");
  seen.add(v);
  try {
    if (Array.isArray(v)) return v.map((x) => normalize(x, seen));
    if (v instanceof Map) return { $map: [...v].map(([k, x]) => [normalize(k, seen), normalize(x, seen)]) };
    if (v instanceof Set) return { $set: [...v].map((x) => normalize(x, seen)) };
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined && typeof x !== "function") out[k] = normalize(x, seen);
    }
    return out;
  } finally {
    seen.delete(v);
  }
}

/** The canonical JSON text of a value. */
export function canonical(v: unknown): string {
  return JSON.stringify(normalize(v, new Set())) ?? "undefined";
}

/** The first path at which two canonical values differ (for the failure message). */
export function firstDifference(a: unknown, b: unknown, path = "$"): string | undefined {
  if (a === b) return undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return `${path}: ${short(a)} ≠ ${short(b)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: ${short(a)} ≠ ${short(b)}`;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return a.length !== b.length ? `${d} (lengths ${a.length} vs ${b.length})` : d;
    }
    return undefined;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    const d = firstDifference(ra[k], rb[k], `${path}.${k}`);
    if (d) return d;
  }
  return undefined;
}

function short(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** Thrown when implementations disagree: the benchmark would be comparing different work. */
export class VerificationError extends Error {
  override readonly name = "VerificationError";
}

/** Throw a {@link VerificationError} unless `actual` (canonical) equals `reference` (canonical). */
export function assertSame(scenario: string, who: string, actual: string, against: string, reference: string): void {
  if (actual === reference) return;
  const diff = firstDifference(JSON.parse(actual) as unknown, JSON.parse(reference) as unknown);
  throw new VerificationError(
    `scenario "${scenario}": ${who} produced a different result than ${against}: ${diff ?? "(canonical forms differ)"}`,
  );
}
