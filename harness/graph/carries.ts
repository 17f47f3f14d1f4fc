/**
 * The `carries` block of a raised-error assertion (conformance-adapter §5.13), shared by every
 * directive that takes one: keys name fields the raised error exposes, read by their TypeScript
 * names (`from_version` → `fromVersion`), with the closed flavor set — a bare name (exact; a
 * mapping-valued field matches by the keys written), `_present` (non-null presence) and
 * `_mentions` (contains each substring).
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import { causeChain } from "./reading.ts";

/** JSON Schema of a `carries` block: a non-empty mapping; a `_mentions` key takes a string or a non-empty list. */
export const CARRIES_SCHEMA = {
  type: "object",
  minProperties: 1,
  patternProperties: {
    "_present$": { type: "boolean" },
    "_mentions$": { anyOf: [{ type: "string" }, { type: "array", minItems: 1, items: { type: "string" } }] },
  },
} as const;

/** `from_version` → `fromVersion`. */
function camel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The error the §5.8 category rule picks from `error`'s cause chain (the one `carries` reads). */
export function categorizedLink(error: unknown): Record<string, unknown> & Error {
  const chain = causeChain(error);
  const link = chain.find((l) => !l.carrier && l.category !== null) ?? chain.find((l) => !l.carrier) ?? chain[0]!;
  return link.error as Record<string, unknown> & Error;
}

/** Check `carries` against the fields of `err`; mismatches are labelled `<label>.<key>`. */
export function checkCarries(carries: Readonly<Record<string, unknown>>, err: Record<string, unknown> & Error, ctx: CheckContext, label: string): void {
  for (const [key, want] of Object.entries(carries)) {
    const sub = `${label}.${key}`;
    const flavor = key.endsWith("_present") ? "present" : key.endsWith("_mentions") ? "mentions" : "value";
    const field = flavor === "value" ? key : key.slice(0, key.lastIndexOf("_"));
    const has = camel(field) in err || field in err;
    const got = camel(field) in err ? err[camel(field)] : err[field];
    if (flavor === "present") ctx.match(want, has && got !== null && got !== undefined, null, sub);
    else if (!has) ctx.fail(`${sub}: the ${err.name} exposes no field '${field}'`, { path: sub, expected: want });
    else if (flavor === "mentions") {
      for (const m of Array.isArray(want) ? want : [want]) {
        if (!String(got).includes(String(m))) ctx.fail(`${sub}: ${JSON.stringify(got)} does not mention ${JSON.stringify(m)}`, { path: sub, expected: m, actual: got });
      }
    } else ctx.match(want, got, want !== null && typeof want === "object" && !Array.isArray(want) ? Shapes.named() : null, sub);
  }
}
