/**
 * The `carries` block of a raised-error assertion (conformance-adapter §5.13), shared by every
 * directive that takes one: keys name fields the raised error exposes, read by their TypeScript
 * names (`from_version` → `fromVersion`), with the closed flavor set — a bare name (exact; a
 * mapping-valued field matches by the keys written), `_present` (non-null presence) and
 * `_mentions` (contains each substring). Every flavor needs the error to expose the stem's field:
 * the stem set is closed (§5.13), so `<coined>_present: false` fails rather than reading as absent.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
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

/** A field the error exposes: its TypeScript name (`fromVersion`) or the spec's (`from_version`). */
function exposed(err: unknown, field: string): { has: boolean; value: unknown } {
  if (typeof err !== "object" || err === null) return { has: false, value: undefined };
  const e = err as Record<string, unknown>;
  const c = camel(field);
  if (c in e) return { has: true, value: e[c] };
  if (field in e) return { has: true, value: e[field] };
  return { has: false, value: undefined };
}

/**
 * Check `carries` (§5.13) against the fields `err` exposes; mismatches are labelled `<label>.<key>`.
 * The one implementation behind every raised-error assertion (`expected_error`, `raises`, ...): a
 * bare field is exact, a mapping-valued one by the keys written (a record, §8.4); `_present` is
 * non-null presence; `_mentions` contains each substring (an empty list is a fixture error).
 */
export function checkCarries(carries: Readonly<Record<string, unknown>>, err: unknown, ctx: CheckContext, label: string): void {
  const what = err instanceof Error ? err.name : "raised error";
  for (const [key, want] of Object.entries(carries)) {
    const sub = `${label}.${key}`;
    const flavor = key.endsWith("_present") ? "present" : key.endsWith("_mentions") ? "mentions" : "value";
    const field = flavor === "value" ? key : key.slice(0, key.lastIndexOf("_"));
    const { has, value: got } = exposed(err, field);
    if (flavor === "present") {
      // §5.13: a key MUST NOT coin a stem naming no field the error exposes, so `_present: false`
      // asserts an exposed field is null — not that some unheard-of field is missing. The adapter
      // holds no per-capability field catalog, so a stem the error does not expose is a mismatch
      // (the fixture coined it, or the error lacks a field its spec defines), as for the other flavors.
      if (!has) {
        ctx.fail(`the ${what} exposes no field '${field}' (§5.13: a carries key names a field the error exposes; '${key}' asserts that field's presence)`, { path: sub, expected: want });
        continue;
      }
      const present = got !== null && got !== undefined;
      if (present !== want) ctx.fail(`expected the error's '${field}' to be ${want === true ? "present" : "absent"}`, { path: sub, expected: want, actual: got ?? null });
      continue;
    }
    if (flavor === "mentions") {
      const list = Array.isArray(want) ? want : [want];
      if (list.length === 0) throw new FixtureSchemaInvalid(`'${key}' needs a non-empty list of substrings (§5.13)`, ctx.locate(ctx.self.path));
      if (!has) ctx.fail(`the ${what} exposes no field '${field}'`, { path: sub, expected: want });
      else for (const m of list) if (typeof got !== "string" || !got.includes(String(m))) ctx.fail(`expected the error's '${field}' to mention ${JSON.stringify(m)}`, { path: sub, expected: m, actual: got ?? null });
      continue;
    }
    if (!has) ctx.fail(`the ${what} exposes no field '${field}'`, { path: sub, expected: want });
    else ctx.match(want, got, Shapes.record(), sub);
  }
}

/** The category identifier an error carries itself (`raises` compares it; not the §5.8 rule). */
export function ownCategory(err: unknown): string | null {
  const c = typeof err === "object" && err !== null ? (err as { category?: unknown }).category : undefined;
  return typeof c === "string" ? c : null;
}

/**
 * `raises: {category, carries}` (conformance-adapter §5.8) on an operation that raised `err`: the
 * error's own category identifier equals `category`, and `carries` follows §5.13. One
 * implementation for every directory that asserts an operation's raise (llm-provider, testing,
 * prompt-management); each reads its operation's error and reports "it returned" itself.
 */
export function checkRaises(value: { readonly category: string; readonly carries?: Readonly<Record<string, unknown>> }, err: unknown, ctx: CheckContext, label = ctx.label): void {
  ctx.match(value.category, ownCategory(err), null, `${label}.category`);
  if (value.carries !== undefined) checkCarries(value.carries, err, ctx, `${label}.carries`);
}

/** The schema of `raises: {category, carries?}`: no other sub-key is defined (§5.8). */
export const RAISES_SCHEMA = {
  type: "object",
  required: ["category"],
  additionalProperties: false,
  properties: { category: { type: "string", minLength: 1 }, carries: CARRIES_SCHEMA },
} as const;
