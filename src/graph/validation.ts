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

/**
 * Compile a JSON schema into a {@link Validator}. With `field`, issues are attributed to that
 * top-level field (per-field validators); otherwise to the first path segment (whole-state).
 */
export function compileValidator(schema: JsonSchema, field?: string): Validator {
  const fn: ValidateFunction = ajv().compile(schema as Record<string, unknown>);
  return (value: unknown) => {
    if (fn(value)) return NO_ISSUES;
    return (fn.errors ?? []).map((e) => {
      const { field: f, path } = topField(e, field);
      return { field: f, path, message: messageFor(e) };
    });
  };
}
