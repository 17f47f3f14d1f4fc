/**
 * §5.10 Value matchers: inline value-tokens (format matchers and binding tokens) and assertion
 * sub-keys. A token is recognized only when it is the whole written string.
 */
import { isPlainMapping } from "./values.ts";

/** The §5.10 format matchers. */
export type FormatName = "uuid" | "uuid-hex" | "any-string" | "timestamp";

/** A parsed inline value-token (§5.10). `text` is the token exactly as written. */
export type ValueToken =
  | { readonly kind: "format"; readonly format: FormatName; readonly text: string }
  | { readonly kind: "binding"; readonly text: string };

const UUID_HEX_TOKEN = /^<uuid-hex(?:-[A-Za-z0-9]+)*>$/;
/** `<name_X>`: a lowercase-led word followed by one or more `_suffix` parts. */
const BINDING_TOKEN = /^<[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+>$/;

/**
 * Parses a written string as a §5.10 inline token, or returns undefined for a literal.
 *
 * - `<uuid>`, `<any-string>`, `<timestamp>`: format matchers.
 * - `<uuid-hex>` and suffixed labels `<uuid-hex-1>`, `<uuid-hex-5-a>`: the same format matcher;
 *   the suffix does not bind.
 * - `<name_X>` (e.g. `<trace_id_parent>`, `<corr_id_1>`): a binding token.
 * - Anything else, including a bare `"*"`, is a literal.
 */
export function parseToken(s: string): ValueToken | undefined {
  if (s.length < 3 || s[0] !== "<" || s[s.length - 1] !== ">") return undefined;
  switch (s) {
    case "<uuid>":
      return { kind: "format", format: "uuid", text: s };
    case "<any-string>":
      return { kind: "format", format: "any-string", text: s };
    case "<timestamp>":
      return { kind: "format", format: "timestamp", text: s };
  }
  if (UUID_HEX_TOKEN.test(s)) return { kind: "format", format: "uuid-hex", text: s };
  if (BINDING_TOKEN.test(s)) return { kind: "binding", text: s };
  return undefined;
}

/** True when `s` is a §5.10 binding token such as `<trace_id_parent>`. */
export function isBindingToken(s: string): boolean {
  return parseToken(s)?.kind === "binding";
}

/** Canonical UUIDv4 text form: lowercase, 8-4-4-4-12, version 4, RFC 9562 variant. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UUID_HEX = /^[0-9a-f]{32}$/;
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** What each format matcher accepts, for messages. */
export const FORMAT_DESCRIPTIONS: Readonly<Record<FormatName, string>> = {
  uuid: "a canonical UUIDv4",
  "uuid-hex": "a 32-character lowercase hex string",
  "any-string": "a non-empty string",
  timestamp: "a timestamp (Date, epoch number or RFC 3339 string)",
};

/**
 * Applies a §5.10 format matcher.
 *
 * - `uuid`: a canonical UUIDv4 — the lowercase 8-4-4-4-12 text form (RFC 9562 §4), version
 *   nibble 4, variant 8/9/a/b. Uppercase hex is not canonical and fails.
 * - `uuid-hex`: exactly 32 lowercase hex characters.
 * - `any-string`: a string that is not "".
 * - `timestamp`: a valid `Date`, a finite epoch number or bigint, or an RFC 3339 date-time
 *   string (`T` separator, `Z` or numeric offset, valid field ranges). Presence and form only.
 */
export function checkFormat(format: FormatName, actual: unknown): boolean {
  switch (format) {
    case "uuid":
      return typeof actual === "string" && UUID_V4.test(actual);
    case "uuid-hex":
      return typeof actual === "string" && UUID_HEX.test(actual);
    case "any-string":
      return typeof actual === "string" && actual.length > 0;
    case "timestamp":
      return isTimestamp(actual);
  }
}

function isTimestamp(v: unknown): boolean {
  if (v instanceof Date) return !Number.isNaN(v.getTime());
  if (typeof v === "number") return Number.isFinite(v);
  if (typeof v === "bigint") return true;
  if (typeof v !== "string") return false;
  const m = RFC3339.exec(v);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, oh, om] = m.map(Number);
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return (
    mo >= 1 &&
    mo <= 12 &&
    d >= 1 &&
    d <= daysInMonth &&
    h <= 23 &&
    mi <= 59 &&
    s <= 60 &&
    (Number.isNaN(oh) || (oh <= 23 && om <= 59))
  );
}

/** The §5.10 assertion sub-keys. */
export const ASSERTION_SUB_KEYS: ReadonlySet<string> = new Set([
  "non_empty_string",
  "harness_parameterized",
]);

/**
 * True when a written mapping is a §5.10 assertion mapping: every key is an assertion sub-key
 * (`non_empty_string`, `harness_parameterized`), e.g.
 * `{harness_parameterized: implementation_name, non_empty_string: true}`. All sub-keys must hold.
 */
export function isAssertionMapping(e: unknown): e is Record<string, unknown> {
  if (!isPlainMapping(e)) return false;
  const keys = Object.keys(e);
  return keys.length > 0 && keys.every((k) => ASSERTION_SUB_KEYS.has(k));
}
