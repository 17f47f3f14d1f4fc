/**
 * ajv validation of directive values. Schemas are compiled once per directive class; a violation
 * is `fixture_schema_invalid` naming the file, line and the key path down to the offending value.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { FixtureSchemaInvalid } from "./errors.ts";
import type { Directive } from "./directive.ts";
import type { FixtureSource, KeyPath } from "./source.ts";

// verbose: each error carries the schema node it failed, whose `description` (when a directive
// gives one) is the rule to quote in the message.
const ajv = new Ajv({ allErrors: false, strict: false, allowUnionTypes: true, verbose: true });

/**
 * `retiredKeys: {<key>: <why>}` in a directive schema: a key an earlier spec defined and the
 * governing one retired. Present, it is `fixture_schema_invalid` saying why, instead of a bare
 * "unknown key" — the same answer in every directory (a retired key is never quietly accepted).
 * A closed schema also lists the key under `properties` (as `true`), so that `additionalProperties`
 * does not report it first.
 */
ajv.addKeyword({
  keyword: "retiredKeys",
  type: "object",
  schemaType: "object",
  error: {
    message: (cxt) => `has the retired key '${String((cxt.params as { key?: unknown } | undefined)?.key ?? "?")}'`,
  },
  validate: function retired(schema: Record<string, string>, data: Record<string, unknown>): boolean {
    const key = Object.keys(schema).find((k) => Object.prototype.hasOwnProperty.call(data, k));
    if (key === undefined) return true;
    (retired as unknown as { errors: Partial<ErrorObject>[] }).errors = [{ keyword: "retiredKeys", params: { key, why: schema[key] } }];
    return false;
  },
});
const compiled = new WeakMap<object, ValidateFunction>();

export function validateDirectiveValue(d: Directive, value: unknown, path: KeyPath, source: FixtureSource, name: string): void {
  const schema = d.schema;
  if (schema === undefined || schema === true) return;
  let validate = compiled.get(d.constructor);
  if (validate === undefined) {
    validate = ajv.compile(schema as object);
    compiled.set(d.constructor, validate);
  }
  if (validate(value)) return;
  const err = mostSpecific(validate.errors ?? []);
  const sub = err ? pointerToPath(err.instancePath) : [];
  throw new FixtureSchemaInvalid(`'${name}' ${describe(err)}`, source.locate([...path, ...sub]));
}

/**
 * Whether `schema` accepts `value`: null when it does, else what is wrong (as a fixture error
 * would say it). For listings that check the forms a spec defines against a directive's schema.
 */
export function schemaRejects(schema: unknown, value: unknown): string | null {
  if (schema === undefined || schema === true) return null;
  const validate = ajv.compile(schema as object);
  return validate(value) ? null : describe(mostSpecific(validate.errors ?? []));
}

/** Keywords that only summarize their branches' errors (`oneOf`: "must match exactly one schema"). */
const SUMMARY = new Set(["oneOf", "anyOf", "if"]);

/**
 * The error a person should read: the deepest one, preferring a named key (unknown / missing) over
 * a type mismatch and either over a branch summary — so a value that fails every `oneOf` branch
 * reports what is wrong inside the branch it almost matched, not that it is not a string.
 */
function mostSpecific(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const rank = (e: ErrorObject): number => (SUMMARY.has(e.keyword) ? 0 : e.keyword === "type" ? 1 : 2);
  let best: ErrorObject | undefined;
  for (const e of errors) {
    if (best === undefined) best = e;
    else {
      const depth = e.instancePath.split("/").length - best.instancePath.split("/").length;
      if (depth > 0 || (depth === 0 && rank(e) > rank(best))) best = e;
    }
  }
  return best;
}

function pointerToPath(ptr: string): Array<string | number> {
  if (ptr === "") return [];
  return ptr.slice(1).split("/").map((s) => {
    const k = s.replace(/~1/g, "/").replace(/~0/g, "~");
    return /^\d+$/.test(k) ? Number(k) : k;
  });
}

function describe(err: ErrorObject | undefined): string {
  if (!err) return "is invalid";
  const hint = (err.parentSchema as { description?: unknown } | undefined)?.description;
  const base = describeKeyword(err);
  return typeof hint === "string" ? `${base}: ${hint}` : base;
}

function describeKeyword(err: ErrorObject): string {
  const at = err.instancePath ? ` at ${err.instancePath}` : "";
  switch (err.keyword) {
    case "additionalProperties":
      return `has an unknown key '${String((err.params as { additionalProperty: string }).additionalProperty)}'${at}`;
    case "required":
      return `is missing required key '${String((err.params as { missingProperty: string }).missingProperty)}'${at}`;
    case "type":
      return `must be ${String((err.params as { type: string }).type)}${at}`;
    case "retiredKeys": {
      const p = err.params as { key: string; why: string };
      return `has the retired key '${p.key}'${at}: ${p.why}`;
    }
    case "minItems":
      return (err.params as { limit: number }).limit === 1 ? `must be a non-empty list${at}` : `${err.message ?? "is invalid"}${at}`;
    case "enum":
      return `must be one of ${JSON.stringify((err.params as { allowedValues: unknown[] }).allowedValues)}${at}`;
    default:
      return `${err.message ?? "is invalid"}${at}`;
  }
}
