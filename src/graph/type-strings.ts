/**
 * The field type-string language (graph-engine §2 *State*; conformance-adapter §5.2):
 *
 * - primitives: `string`, `int`, `float`, `bool`, `any`
 * - containers: `list`, `list<T>`, `dict`, `dict<K,V>` (recursive)
 * - user-defined record types: a bareword naming a record schema supplied alongside
 *
 * Parsed into a {@link TypeNode} tree, which {@link typeNodeToJsonSchema} compiles to JSON Schema.
 */
import { compileError } from "./compile-errors.ts";

/** Parsed form of a type string. */
export type TypeNode =
  | { readonly kind: "string" }
  | { readonly kind: "int" }
  | { readonly kind: "float" }
  | { readonly kind: "bool" }
  | { readonly kind: "any" }
  | { readonly kind: "list"; readonly item?: TypeNode }
  | { readonly kind: "dict"; readonly key?: TypeNode; readonly value?: TypeNode }
  | { readonly kind: "record"; readonly name: string }
  | { readonly kind: "nullable"; readonly inner: TypeNode };

const PRIMITIVES = new Set(["string", "int", "float", "bool", "any"]);

/**
 * Parse a type string. Throws a `CompileError` (`invalid_state_schema`) on malformed input.
 * Record names are not resolved here; {@link collectRecordNames} lists them for the schema to check.
 */
export function parseTypeString(source: string): TypeNode {
  let pos = 0;
  const fail = (why: string): never => {
    throw compileError("invalid_state_schema", `invalid type string ${JSON.stringify(source)}: ${why}`);
  };
  const skip = (): void => {
    while (pos < source.length && /\s/.test(source[pos]!)) pos++;
  };
  const ident = (): string => {
    skip();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(pos));
    if (!m) fail(`expected a type name at offset ${pos}`);
    pos += m![0].length;
    return m![0];
  };
  const expect = (ch: string): void => {
    skip();
    if (source[pos] !== ch) fail(`expected '${ch}' at offset ${pos}`);
    pos++;
  };
  const peek = (): string | undefined => {
    skip();
    return source[pos];
  };
  const type = (): TypeNode => {
    const name = ident();
    let node: TypeNode;
    if (PRIMITIVES.has(name)) {
      node = { kind: name as "string" | "int" | "float" | "bool" | "any" };
    } else if (name === "list") {
      if (peek() === "<") {
        expect("<");
        const item = type();
        expect(">");
        node = { kind: "list", item };
      } else node = { kind: "list" };
    } else if (name === "dict") {
      if (peek() === "<") {
        expect("<");
        const key = type();
        expect(",");
        const value = type();
        expect(">");
        node = { kind: "dict", key, value };
      } else node = { kind: "dict" };
    } else {
      node = { kind: "record", name };
    }
    return node;
  };
  const result = type();
  skip();
  if (pos !== source.length) fail(`unexpected trailing input at offset ${pos}`);
  return result;
}

/** Render a {@link TypeNode} back to its canonical type string. */
export function typeNodeToString(node: TypeNode): string {
  switch (node.kind) {
    case "list":
      return node.item ? `list<${typeNodeToString(node.item)}>` : "list";
    case "dict":
      return node.key && node.value ? `dict<${typeNodeToString(node.key)},${typeNodeToString(node.value)}>` : "dict";
    case "record":
      return node.name;
    case "nullable":
      return `${typeNodeToString(node.inner)}?`;
    default:
      return node.kind;
  }
}

/** Every record name referenced by a type tree. */
export function collectRecordNames(node: TypeNode, into: Set<string> = new Set()): Set<string> {
  switch (node.kind) {
    case "record":
      into.add(node.name);
      break;
    case "list":
      if (node.item) collectRecordNames(node.item, into);
      break;
    case "dict":
      if (node.key) collectRecordNames(node.key, into);
      if (node.value) collectRecordNames(node.value, into);
      break;
    case "nullable":
      collectRecordNames(node.inner, into);
      break;
  }
  return into;
}

/** A JSON Schema fragment (kept structural; ajv consumes it). */
export type JsonSchema = { readonly [key: string]: unknown };

/** JSON Schema for the *keys* of a `dict<K,V>` (JS object keys are strings). */
function keySchema(node: TypeNode): JsonSchema | undefined {
  switch (node.kind) {
    case "string":
    case "any":
      return undefined;
    case "int":
      return { pattern: "^-?[0-9]+$" };
    case "float":
      return { pattern: "^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$" };
    case "bool":
      return { enum: ["true", "false"] };
    default:
      throw compileError("invalid_state_schema", `dict keys cannot be of type ${typeNodeToString(node)}`);
  }
}

/** Compile a {@link TypeNode} to JSON Schema; records become `$ref`s into `#/$defs`. */
export function typeNodeToJsonSchema(node: TypeNode): JsonSchema {
  switch (node.kind) {
    case "string":
      return { type: "string" };
    case "int":
      return { type: "integer" };
    case "float":
      return { type: "number" };
    case "bool":
      return { type: "boolean" };
    case "any":
      return {};
    case "list":
      return node.item ? { type: "array", items: typeNodeToJsonSchema(node.item) } : { type: "array" };
    case "dict": {
      if (!node.key || !node.value) return { type: "object" };
      const ks = keySchema(node.key);
      return {
        type: "object",
        additionalProperties: typeNodeToJsonSchema(node.value),
        ...(ks ? { propertyNames: ks } : {}),
      };
    }
    case "record":
      return { $ref: `#/$defs/${node.name}` };
    case "nullable":
      return { anyOf: [{ type: "null" }, typeNodeToJsonSchema(node.inner)] };
  }
}

/** Is the type list-shaped (`list` / `list<T>`)? Useful to node kinds validating field references. */
export function isListType(node: TypeNode): boolean {
  return node.kind === "list" || (node.kind === "nullable" && isListType(node.inner));
}

/** Is the type mapping-shaped (`dict` / `dict<K,V>` / a record)? */
export function isMappingType(node: TypeNode): boolean {
  return node.kind === "dict" || node.kind === "record" || (node.kind === "nullable" && isMappingType(node.inner));
}
