/**
 * Compile-time checks shared by fan-out (pipeline-utilities §9 *Configuration*) and parallel
 * branches (§11.2, §11.9), reported through the engine's `NodeKind.validate` context so that
 * `GraphBuilder.compile()` fails with every finding at once.
 */
import {
  CompiledGraph,
  type NodeCompileContext,
  type StateRecord,
  type StateSchema,
  type TypeNode,
} from "../graph/index.ts";
import { isListType } from "../graph/type-strings.ts";

/** Which side of a projection a field lives on. */
export type Side = "parent" | "subgraph";

/** Is `g` a compiled graph (the thing `GraphBuilder.compile()` returns)? */
export function isCompiledGraph(g: unknown): g is CompiledGraph<StateRecord, unknown> {
  return g instanceof CompiledGraph;
}

/** Is `m` a mapping of field names to field names? */
export function isFieldMap(m: unknown): m is Readonly<Record<string, string>> {
  return typeof m === "object" && m !== null && !Array.isArray(m) && Object.values(m).every((v) => typeof v === "string");
}

/**
 * Check that `field` is declared on `schema`; record `mapping_references_undeclared_field`
 * otherwise (§9: "All `*_field` references ... MUST refer to declared fields"). Returns whether it is.
 */
export function requireDeclared(
  ctx: NodeCompileContext,
  schema: StateSchema<StateRecord, unknown>,
  side: Side,
  field: unknown,
  via: string,
): field is string {
  if (typeof field === "string" && schema.has(field)) return true;
  ctx.error(
    "mapping_references_undeclared_field",
    `node "${ctx.nodeName}": ${via} names ${side} field ${JSON.stringify(field)}, which is not declared in the ${side} state schema`,
    typeof field === "string" ? { field } : {},
  );
  return false;
}

function unwrap(t: TypeNode): TypeNode {
  return t.kind === "nullable" ? unwrap(t.inner) : t;
}

/** The declared type of a field (`undefined` when undeclared). */
export function fieldType(schema: StateSchema<StateRecord, unknown>, field: string): TypeNode | undefined {
  return schema.fields.get(field)?.type;
}

/** Is the declared field list-typed? */
export function isListField(schema: StateSchema<StateRecord, unknown>, field: string): boolean {
  const t = fieldType(schema, field);
  return t !== undefined && isListType(t);
}

/** Is the declared field int-typed? */
export function isIntField(schema: StateSchema<StateRecord, unknown>, field: string): boolean {
  const t = fieldType(schema, field);
  return t !== undefined && unwrap(t).kind === "int";
}

/** Reducers that replace rather than extend: an errors field needs an extending one (§9.5). */
const NON_EXTENDING = new Set(["last_write_wins", "merge", "merge_all"]);

/**
 * Check an errors field (§9.5 / §11.1 `errors_field`): declared on the parent, list-typed
 * (`fan_out_field_not_list`), with an extending reducer (`invalid_node` otherwise).
 */
export function checkErrorsField(ctx: NodeCompileContext, field: unknown, via: string): boolean {
  if (!requireDeclared(ctx, ctx.schema, "parent", field, via)) return false;
  if (!isListField(ctx.schema, field)) {
    ctx.error("fan_out_field_not_list", `node "${ctx.nodeName}": ${via} "${field}" must be a list-typed field`, { field });
    return false;
  }
  const r = ctx.reducerFor(field);
  if (r.canonical && r.reducerName !== undefined && NON_EXTENDING.has(r.reducerName)) {
    ctx.error(
      "invalid_node",
      `node "${ctx.nodeName}": ${via} "${field}" needs an extending reducer (e.g. append), not ${r.reducerName}`,
      { field },
    );
    return false;
  }
  return true;
}

/** Record `invalid_node` for a malformed option. */
export function invalid(ctx: NodeCompileContext, message: string, field?: string): void {
  ctx.error("invalid_node", `node "${ctx.nodeName}": ${message}`, field !== undefined ? { field } : {});
}

/** Is `v` a non-negative integer? */
export function isNonNegativeInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 0;
}

/** Is `v` a positive integer? */
export function isPositiveInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}

/** Describe a value for a diagnostic. */
export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return typeof v;
}
