/**
 * JSON-Schema validation through ajv (graph-engine §2 *State*: "validate state against the schema
 * at graph boundaries"). One shared ajv instance; each state schema compiles its validators once
 * (lazily, then memoized) — never per step.
 */
import AjvModule from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { ValidationIssue } from "./errors.ts";
import type { JsonSchema } from "./type-strings.ts";

const Ajv = AjvModule.default;
let shared: InstanceType<typeof Ajv> | undefined;

function ajv(): InstanceType<typeof Ajv> {
  shared ??= new Ajv({ allErrors: true, strict: false, validateFormats: false });
  return shared;
}

/** A compiled validator returning issues (empty when valid). */
export type Validator = (value: unknown) => readonly ValidationIssue[];

const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

function topField(e: ErrorObject, fixedField: string | undefined): { field: string; path: string } {
  const path = e.instancePath;
  // A record's undeclared key: point at the key itself, not at the record holding it.
  const inner = e.keyword === "additionalProperties" && (path !== "" || fixedField !== undefined)
    ? `/${String((e.params as { additionalProperty?: unknown }).additionalProperty ?? "")}`
    : "";
  if (fixedField !== undefined) return { field: fixedField, path: `/${fixedField}${path}${inner}` };
  if (e.keyword === "required" && path === "") {
    const missing = String((e.params as { missingProperty?: unknown }).missingProperty ?? "");
    return { field: missing, path: `/${missing}` };
  }
  if (e.keyword === "additionalProperties" && path === "") {
    const extra = String((e.params as { additionalProperty?: unknown }).additionalProperty ?? "");
    return { field: extra, path: `/${extra}` };
  }
  const seg = path.split("/")[1] ?? "";
  return { field: seg.replace(/~1/g, "/").replace(/~0/g, "~"), path: path + inner };
}

function messageFor(e: ErrorObject): string {
  if (e.keyword === "required") return "is required";
  if (e.keyword === "additionalProperties") return "is not a declared field";
  return e.message ?? e.keyword;
}

/** A predicate that is true only for values `schema` accepts (false: not sure, ask ajv). */
type SureCheck = (value: unknown) => boolean;

const SCALAR_CHECKS: Readonly<Record<string, SureCheck>> = {
  string: (v) => typeof v === "string",
  // ajv accepts more (without `strictNumbers`, ±Infinity as a number / integer): those go to ajv.
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  boolean: (v) => typeof v === "boolean",
  null: (v) => v === null,
};

/**
 * A plain-JS acceptance check for the commonest field schemas — exactly `{type: <scalar>}` or
 * `{type: "array", items: <such>}` — so a merge validates a changed `int` / `string` / `list[str]`
 * field without entering ajv (bench linear-chain: a third of the merge's cost). It only ever answers
 * "valid": a value it does not accept still goes to ajv, which decides and words the issues, so
 * results and messages are ajv's. Any other schema (keywords, `$defs`, unions) gets no check.
 */
function acceptsSurely(schema: JsonSchema): SureCheck | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return undefined;
  const s = schema as Readonly<Record<string, unknown>>;
  const keys = Object.keys(s);
  if (typeof s["type"] !== "string") return undefined;
  if (keys.length === 1) return Object.hasOwn(SCALAR_CHECKS, s["type"]) ? SCALAR_CHECKS[s["type"]] : undefined;
  if (keys.length !== 2 || s["type"] !== "array" || !("items" in s)) return undefined;
  const item = acceptsSurely(s["items"] as JsonSchema);
  if (item === undefined) return undefined;
  return (v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
    return true;
  };
}

/**
 * Compile a JSON schema into a {@link Validator}. With `field`, issues are attributed to that
 * top-level field (per-field validators); otherwise to the first path segment (whole-state).
 */
export function compileValidator(schema: JsonSchema, field?: string): Validator {
  const fn: ValidateFunction = ajv().compile(schema as Record<string, unknown>);
  const sure = acceptsSurely(schema);
  return (value: unknown) => {
    if ((sure !== undefined && sure(value)) || fn(value)) return NO_ISSUES;
    return (fn.errors ?? []).map((e) => {
      const { field: f, path } = topField(e, field);
      return { field: f, path, message: messageFor(e) };
    });
  };
}
