/**
 * OpenAI strict mode (llm-provider §8.1.5): does a `response_schema` satisfy the constraints of
 * OpenAI's schema-constrained decoding? The mapping sends `json_schema.strict: true` only when it
 * does, and `strict: false` otherwise (the §8.1.5 SHOULDs); either way the response is validated
 * against the schema after receipt, so a wrong answer here changes the decoding path, never the
 * §6 / §7 contract.
 *
 * The constraints, as OpenAI documents its supported-schema subset:
 * - the root is an object schema (`type: "object"`), not an `anyOf`;
 * - every object schema sets `additionalProperties: false` and lists every property in `required`;
 * - only the supported keywords appear: `type` (string, number, integer, boolean, object, array,
 *   null, or a list of them), `properties`, `required`, `additionalProperties`, `items` (one schema),
 *   `enum`, `const`, `anyOf`, `$ref` (local, `#...`), `$defs` / `definitions`, `title`,
 *   `description`, string `pattern` / `format` (date-time, time, date, duration, email, hostname,
 *   ipv4, ipv6, uuid), numeric `minimum` / `maximum` / `exclusiveMinimum` / `exclusiveMaximum` /
 *   `multipleOf`, array `minItems` / `maxItems` — so `allOf`, `oneOf`, `not`, `if` / `then` /
 *   `else`, `patternProperties`, `minLength`, `uniqueItems`, `default`, ... are not;
 * - at most 10 levels of object nesting, 5000 properties and 1000 enum values in total.
 */
const SUPPORTED_KEYWORDS = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs", "definitions",
  "title", "description", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
]);
const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
export const STRICT_MAX_NESTING = 10;
export const STRICT_MAX_PROPERTIES = 5000;
export const STRICT_MAX_ENUM_VALUES = 1000;

type Node = Record<string, unknown>;

function isNode(v: unknown): v is Node {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** RFC 6901 escaping of one pointer segment. */
function seg(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}

class Walk {
  properties = 0;
  enumValues = 0;

  /** The first violation under `s` at `path` (a JSON Pointer), or null. `depth`: enclosing objects. */
  schema(s: unknown, path: string, depth: number): string | null {
    if (!isNode(s)) return `${path || "/"}: a strict-mode schema must be an object (got ${JSON.stringify(s)})`;
    for (const key of Object.keys(s)) {
      if (!SUPPORTED_KEYWORDS.has(key)) return `${path || "/"}: keyword '${key}' is not supported in strict mode`;
    }
    const types = s["type"] === undefined ? [] : Array.isArray(s["type"]) ? s["type"] : [s["type"]];
    for (const t of types) if (typeof t !== "string" || !TYPES.has(t)) return `${path}/type: '${String(t)}' is not a strict-mode type`;
    if (s["format"] !== undefined && !FORMATS.has(s["format"] as string)) return `${path}/format: '${String(s["format"])}' is not a strict-mode format`;
    if (s["$ref"] !== undefined && !(typeof s["$ref"] === "string" && s["$ref"].startsWith("#"))) return `${path}/$ref: only local references ('#...') are supported in strict mode`;
    if (Array.isArray(s["enum"])) {
      this.enumValues += s["enum"].length;
      if (this.enumValues > STRICT_MAX_ENUM_VALUES) return `${path}/enum: more than ${STRICT_MAX_ENUM_VALUES} enum values in the schema`;
    }
    if (types.includes("object") || s["properties"] !== undefined) {
      const r = this.object(s, path, depth + 1);
      if (r !== null) return r;
    }
    if (s["items"] !== undefined) {
      if (!isNode(s["items"])) return `${path}/items: must be a single schema in strict mode (tuple forms are not supported)`;
      const r = this.schema(s["items"], `${path}/items`, depth);
      if (r !== null) return r;
    }
    if (s["anyOf"] !== undefined) {
      if (!Array.isArray(s["anyOf"])) return `${path}/anyOf: must be a list of schemas`;
      for (const [i, sub] of s["anyOf"].entries()) {
        const r = this.schema(sub, `${path}/anyOf/${i}`, depth);
        if (r !== null) return r;
      }
    }
    for (const defs of ["$defs", "definitions"] as const) {
      if (s[defs] === undefined) continue;
      if (!isNode(s[defs])) return `${path}/${defs}: must be a mapping of schemas`;
      for (const [name, sub] of Object.entries(s[defs])) {
        const r = this.schema(sub, `${path}/${defs}/${seg(name)}`, depth);
        if (r !== null) return r;
      }
    }
    return null;
  }

  object(s: Node, path: string, depth: number): string | null {
    if (depth > STRICT_MAX_NESTING) return `${path || "/"}: objects nest deeper than ${STRICT_MAX_NESTING} levels`;
    if (s["additionalProperties"] !== false) return `${path || "/"}: an object schema must set additionalProperties: false in strict mode`;
    const props = s["properties"] ?? {};
    if (!isNode(props)) return `${path}/properties: must be a mapping of schemas`;
    const names = Object.keys(props);
    this.properties += names.length;
    if (this.properties > STRICT_MAX_PROPERTIES) return `${path}/properties: more than ${STRICT_MAX_PROPERTIES} properties in the schema`;
    const required = new Set(Array.isArray(s["required"]) ? s["required"] : []);
    const optional = names.find((n) => !required.has(n));
    if (optional !== undefined) return `${path}/required: property '${optional}' is not required (strict mode requires every property; express optional as a union with null)`;
    for (const name of names) {
      const r = this.schema(props[name], `${path}/properties/${seg(name)}`, depth);
      if (r !== null) return r;
    }
    return null;
  }
}

/**
 * Why `schema` does not meet OpenAI's strict-mode constraints — the JSON Pointer of the first
 * offending place and the rule it breaks — or `null` when it does.
 */
export function strictModeViolation(schema: unknown): string | null {
  if (!isNode(schema)) return `/: a strict-mode schema must be an object`;
  if (schema["type"] !== "object") return `/type: the root of a strict-mode schema must be type: "object"`;
  return new Walk().schema(schema, "", 0);
}

/** Does `schema` meet OpenAI's strict-mode constraints (§8.1.5)? See {@link strictModeViolation}. */
export function isStrictCompatible(schema: unknown): boolean {
  return strictModeViolation(schema) === null;
}
