/**
 * Value helpers for conformance-adapter §8.4 Single values: reading observed mappings, the
 * presence rule of §8.4 Null, deep value equality (used for binding tokens and harness
 * parameters), and span-attribute typing.
 */
import type { NullMode } from "./shape.ts";

/**
 * A span attribute's OpenTelemetry type (§8.4 Single values, span attributes). Hosts whose
 * attribute model has one numeric type may report plain numbers instead.
 */
export type AttributeType =
  | "int"
  | "double"
  | "string"
  | "boolean"
  | "int[]"
  | "double[]"
  | "string[]"
  | "boolean[]";

const ATTRIBUTE_TYPES: ReadonlySet<string> = new Set<AttributeType>([
  "int",
  "double",
  "string",
  "boolean",
  "int[]",
  "double[]",
  "string[]",
  "boolean[]",
]);

/**
 * A value tagged with its span-attribute type (§8.4 Single values, span attributes).
 *
 * - Observed side, at a `numbers: "typed"` position: an attribute may be reported as a
 *   `TypedValue` or as a plain `{ type, value }` object with a known {@link AttributeType}, or as
 *   a plain value.
 * - Expected side: a plain JS number cannot tell YAML `1` from `1.0`, so a non-whole number is a
 *   double and a whole number compares by value (what §8.4 allows on single-numeric-type hosts).
 *   A loader that keeps the YAML form can write `typed("int", 1)` / `typed("double", 1)` to
 *   demand the type.
 *
 * Rule: an expected double (non-whole, or `typed("double", …)`) fails against an observed `int`;
 * an expected `typed("int", …)` fails against an observed `double` or a non-whole plain number.
 */
export class TypedValue {
  constructor(
    readonly type: AttributeType,
    readonly value: unknown,
  ) {}
  describe(): string {
    return `${this.type} ${JSON.stringify(this.value)}`;
  }
}

/** Tags a value with its span-attribute type (see {@link TypedValue}). */
export function typed(type: AttributeType, value: unknown): TypedValue {
  return new TypedValue(type, value);
}

/** Reads a tagged attribute: a {@link TypedValue} or a plain `{type, value}` with a known type. */
export function asTyped(v: unknown): TypedValue | undefined {
  if (v instanceof TypedValue) return v;
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== 2 || !("type" in v) || !("value" in v)) return undefined;
  const t = (v as { type: unknown }).type;
  if (typeof t !== "string" || !ATTRIBUTE_TYPES.has(t)) return undefined;
  return new TypedValue(t as AttributeType, (v as { value: unknown }).value);
}

/** True for a non-null object that is not a list, a Date or a tagged/matcher value. */
export function isMapping(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Date) &&
    !(v instanceof TypedValue)
  );
}

/** True for a plain (prototype Object or null) object: how YAML/JSON mappings arrive. */
export function isPlainMapping(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Reads `key` of an observed mapping: an own property, or a getter on a class prototype (so
 * implementation records with accessors read naturally). Never reads `Object.prototype`.
 */
export function readKey(obj: Record<string, unknown>, key: string): unknown {
  if (Object.hasOwn(obj, key)) return obj[key];
  let proto: unknown = Object.getPrototypeOf(obj);
  while (proto !== null && proto !== Object.prototype && typeof proto === "object") {
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (d) return d.get ? d.get.call(obj) : d.value;
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}

/**
 * §8.4 Null / Absence: whether a field value counts as present. `undefined` is never present; on
 * a record (`nulls: "record"`) null counts as absent too; on a JSON document null is present.
 */
export function isPresent(v: unknown, nulls: NullMode): boolean {
  return v !== undefined && !(nulls === "record" && v === null);
}

/** The own enumerable keys of an observed mapping whose values count as present. */
export function presentKeys(obj: Record<string, unknown>, nulls: NullMode): string[] {
  return Object.keys(obj).filter((k) => isPresent(obj[k], nulls));
}

/** §8.4 numbers compare by numeric value; binary64 exactly (bigint observed values allowed). */
export function numbersEqual(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === "bigint" && typeof b === "bigint") return a === b;
  if (typeof a === "bigint" || typeof b === "bigint") {
    const [big, num] = typeof a === "bigint" ? [a, b as number] : [b as bigint, a as number];
    return Number.isInteger(num) && BigInt(num) === big;
  }
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

function isNumeric(v: unknown): v is number | bigint {
  return typeof v === "number" || typeof v === "bigint";
}

/**
 * Deep value equality (§5.10 binding tokens: "equality with every other occurrence"; §5.10
 * `harness_parameterized`: "equals the harness-injected parameter"). Numbers by value, Dates by
 * time, lists in order, mappings by their present keys.
 */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (isNumeric(a) && isNumeric(b)) return numbersEqual(a, b);
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]));
  }
  if (isMapping(a) && isMapping(b)) {
    const ka = presentKeys(a, "json");
    const kb = presentKeys(b, "json");
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && valuesEqual(a[k], b[k]));
  }
  if (a instanceof TypedValue && b instanceof TypedValue) {
    return a.type === b.type && valuesEqual(a.value, b.value);
  }
  return false;
}

/** A stable string for a value (sorted keys), used to key binding environments. */
export function stableKey(v: unknown): string {
  if (v === undefined) return "u";
  if (typeof v === "bigint") return `n${v}`;
  if (typeof v === "number") return `n${Object.is(v, -0) ? 0 : v}`;
  if (typeof v === "string") return JSON.stringify(v);
  if (v === null || typeof v === "boolean") return String(v);
  if (v instanceof Date) return `d${v.getTime()}`;
  if (Array.isArray(v)) return `[${v.map(stableKey).join(",")}]`;
  if (typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableKey(o[k])}`)
      .join(",")}}`;
  }
  return String(v);
}
