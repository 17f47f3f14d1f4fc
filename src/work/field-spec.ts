/**
 * {@link FieldSpec} (ADR-0052 D1): one declared form field — a name matching
 * `[A-Za-z_][A-Za-z0-9_]*`, a {@link FieldType}, `required`, a default validated at construction,
 * and `coerce()`, the D1 coercion table.
 */
import { randomUUID } from "node:crypto";
import { FormError } from "./errors.ts";

export const FIELD_TYPES = ["str", "int", "float", "bool", "list", "dict"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The TypeScript type of a value of a field type. */
export type FieldValue<T extends FieldType> = T extends "str"
  ? string
  : T extends "int" | "float"
    ? number
    : T extends "bool"
      ? boolean
      : T extends "list"
        ? unknown[]
        : { [key: string]: unknown };

/** A field declaration (what `FieldSpec` is constructed from, without the name). */
export interface FieldDecl<T extends FieldType = FieldType> {
  readonly type?: T;
  readonly required?: boolean;
  readonly default?: FieldValue<T> | null;
  readonly description?: string;
}

export interface FieldSpecInit<T extends FieldType = FieldType> extends FieldDecl<T> {
  readonly name: string;
  readonly id?: string;
  readonly metadata?: { readonly [key: string]: unknown };
}

export const FIELD_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INIT_KEYS = new Set(["name", "type", "required", "default", "description", "id", "metadata"]);

/** Is `value` already an instance of `type`? (`int` is an integral number; `float` any number.) */
export function isFieldType(type: FieldType, value: unknown): boolean {
  switch (type) {
    case "str":
      return typeof value === "string";
    case "int":
      return typeof value === "number" && Number.isInteger(value);
    case "float":
      return typeof value === "number";
    case "bool":
      return typeof value === "boolean";
    case "list":
      return Array.isArray(value);
    case "dict":
      return typeof value === "object" && value !== null && !Array.isArray(value);
  }
}

/** The type name of a value, in the field-type vocabulary where one applies. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return "str";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "list";
  return typeof value === "object" ? "dict" : typeof value;
}

const TRUE_WORDS = new Set(["true", "1", "yes"]);
const FALSE_WORDS = new Set(["false", "0", "no"]);
const INT_STRING = /^\s*[+-]?\d+\s*$/;
const FLOAT_STRING = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;
const SPECIAL_FLOATS: Readonly<Record<string, number>> = { inf: Infinity, "+inf": Infinity, "-inf": -Infinity, infinity: Infinity, "+infinity": Infinity, "-infinity": -Infinity, nan: NaN, "+nan": NaN, "-nan": NaN };

export class FieldSpec<T extends FieldType = FieldType> {
  /** Element identity: a UUID. */
  readonly id: string;
  readonly metadata: { readonly [key: string]: unknown };
  readonly name: string;
  readonly type: T;
  readonly required: boolean;
  readonly default: FieldValue<T> | null;
  readonly description: string;

  constructor(init: FieldSpecInit<T>) {
    if (typeof init !== "object" || init === null) throw new FormError("form_field_invalid", "FieldSpec: expected a declaration record");
    const label = typeof init.name === "string" ? `field '${init.name}'` : "FieldSpec";
    for (const key of Object.keys(init)) if (!INIT_KEYS.has(key)) throw new FormError("form_field_invalid", `${label}: unknown key '${key}' (allowed: type, required, default, description)`);
    if (typeof init.name !== "string" || !FIELD_NAME_PATTERN.test(init.name)) {
      throw new FormError("form_field_invalid", `FieldSpec: invalid field name ${JSON.stringify(init.name)}: must match [A-Za-z_][A-Za-z0-9_]*`);
    }
    const type = (init.type ?? "str") as T;
    if (!(FIELD_TYPES as ReadonlyArray<string>).includes(type)) throw new FormError("form_field_invalid", `${label}: unknown type ${JSON.stringify(type)} (one of ${FIELD_TYPES.join(", ")})`);
    if (init.required !== undefined && typeof init.required !== "boolean") throw new FormError("form_field_invalid", `${label}: required must be a boolean`);
    if (init.description !== undefined && typeof init.description !== "string") throw new FormError("form_field_invalid", `${label}: description must be a string`);
    const dflt = init.default ?? null;
    // Defaults are validated now, never coerced later (an int default is a number, so fine for float).
    if (dflt !== null && !isFieldType(type, dflt)) {
      throw new FormError("form_field_invalid", `${label}: default ${JSON.stringify(dflt)} is ${typeName(dflt)}, not ${type}`);
    }
    this.id = init.id ?? randomUUID();
    this.metadata = { ...init.metadata };
    this.name = init.name;
    this.type = type;
    this.required = init.required ?? true;
    this.default = dflt as FieldValue<T> | null;
    this.description = init.description ?? "";
  }

  /**
   * The D1 coercion table: `null` / `undefined` → `null`; an instance of the type passes through
   * (an int is a float); `true/1/yes` and `false/0/no` strings (any case) become booleans; numeric
   * strings become int / float. Anything else throws a `TypeError` naming field, expected type,
   * actual type and value.
   */
  coerce(value: unknown): FieldValue<T> | null {
    if (value === null || value === undefined) return null;
    if (isFieldType(this.type, value)) return value as FieldValue<T>;
    if (typeof value === "string") {
      const s = value.trim().toLowerCase();
      if (this.type === "bool") {
        if (TRUE_WORDS.has(s)) return true as FieldValue<T>;
        if (FALSE_WORDS.has(s)) return false as FieldValue<T>;
      } else if (this.type === "int" && INT_STRING.test(value)) {
        return Number.parseInt(value, 10) as FieldValue<T>;
      } else if (this.type === "float") {
        if (FLOAT_STRING.test(value)) return Number.parseFloat(value) as FieldValue<T>;
        if (Object.hasOwn(SPECIAL_FLOATS, s)) return SPECIAL_FLOATS[s] as FieldValue<T>;
      }
    }
    throw new TypeError(`field '${this.name}': expected ${this.type}, got ${typeName(value)} (${preview(value)})`);
  }

  toJSON(): Record<string, unknown> {
    return { id: this.id, metadata: this.metadata, name: this.name, type: this.type, required: this.required, default: this.default, description: this.description };
  }
}

function preview(value: unknown): string {
  let s: string;
  try {
    s = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    s = String(value);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
