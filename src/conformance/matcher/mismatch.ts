/**
 * Mismatches are data (conformance-adapter §8.4): every failed comparison is reported as a
 * {@link Mismatch} naming the expected-side path, the two values and a readable message, so a
 * failing fixture tells its reader exactly where it failed.
 */

/**
 * What kind of rule a mismatch broke. Directive tests name these (ESLint-style message ids).
 *
 * - `value`: same type, different value (§8.4 Single values).
 * - `type`: different kinds of value, e.g. boolean vs number, string vs number, list vs mapping.
 * - `numeric_type`: span-attribute typing, int vs double (§8.4 Single values, span attributes).
 * - `missing_key`: a key the expected mapping names is missing from the observed mapping.
 * - `unexpected_key`: an observed key the written mapping omits, at an exact position (§8.4 Mappings).
 * - `not_absent`: a key listed in `absent_keys` / `<key>_absent_keys` is present (§8.4 Absence).
 * - `not_null`: a written null ("not set") met a set value (§8.4 Null).
 * - `length`: list lengths differ where the list is complete (§8.4 Lists).
 * - `unpaired_entry`: an entry of an unordered list / set / existence list matches no observed item.
 * - `unpaired_item`: an observed item of an unordered list / set is matched by no entry.
 * - `format`: a §5.10 format matcher or assertion sub-key did not accept the value.
 * - `binding`: a §5.10 binding token met a null/missing value or a value different from its binding.
 * - `json_decode`: a JSON-encoded position holds a string that is not JSON (§8.4 Single values).
 * - `unknown_parameter`: `harness_parameterized` names a parameter the harness did not inject.
 *   This is an error in the fixture or the harness, never a pass (§5.10).
 * - `invalid_expected`: the written value is malformed (e.g. `absent_keys` not a list of strings).
 * - `search_limit`: the binding-token search hit its step cap before finding an assignment.
 * - `unsatisfiable`: no assignment of binding tokens makes every assertion of the case hold.
 */
export type MismatchCode =
  | "value"
  | "type"
  | "numeric_type"
  | "missing_key"
  | "unexpected_key"
  | "not_absent"
  | "not_null"
  | "length"
  | "unpaired_entry"
  | "unpaired_item"
  | "format"
  | "binding"
  | "json_decode"
  | "unknown_parameter"
  | "invalid_expected"
  | "search_limit"
  | "unsatisfiable";

/**
 * One failed comparison (conformance-adapter §8.4).
 *
 * `path` names the expected-side position, rooted at the label the caller passed, e.g.
 * `expected.observer_events.obs[2].post_state.v`. `causes` carries the inner mismatches that
 * explain a list-level mismatch (e.g. the closest candidate of an unpaired entry).
 */
export interface Mismatch {
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly message: string;
  readonly code: MismatchCode;
  readonly causes?: readonly Mismatch[];
}

/** Builds a {@link Mismatch}; `causes` is omitted when empty. */
export function mismatch(
  code: MismatchCode,
  path: string,
  expected: unknown,
  actual: unknown,
  message: string,
  causes?: readonly Mismatch[],
): Mismatch {
  return causes && causes.length > 0
    ? { path, expected, actual, message, code, causes }
    : { path, expected, actual, message, code };
}

/**
 * Renders a mismatch as `path: message`, e.g.
 * `expected.observer_events.obs[2].post_state.v: expected 20, got 10`, followed by its causes
 * indented on their own lines.
 */
export function formatMismatch(m: Mismatch, indent = ""): string {
  const head = `${indent}${m.path}: ${m.message}`;
  if (!m.causes || m.causes.length === 0) return head;
  return [head, ...m.causes.map((c) => formatMismatch(c, `${indent}    `))].join("\n");
}

/** Renders several mismatches, one per line (see {@link formatMismatch}). */
export function formatMismatches(ms: readonly Mismatch[]): string {
  return ms.map((m) => formatMismatch(m)).join("\n");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends a mapping key to a path: `.key` for identifiers, `["a.b"]` otherwise. */
export function keyPath(base: string, key: string): string {
  return IDENTIFIER.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** Appends a list index to a path: `base[i]`. */
export function indexPath(base: string, index: number): string {
  return `${base}[${index}]`;
}

/** Describes a value with its kind, for type-mismatch messages: `boolean true`, `list [1]`. */
export function describe(v: unknown): string {
  if (v === null || v === undefined) return render(v);
  return `${kindOf(v)} ${render(v)}`;
}

function kindOf(v: unknown): string {
  if (Array.isArray(v)) return "list";
  if (v instanceof Date) return "Date";
  if (typeof v === "bigint") return "number";
  if (typeof v === "object") return "mapping";
  return typeof v;
}

const MAX_RENDER = 80;

/** A short, readable rendering of a value for messages. `undefined` renders as `nothing`. */
export function render(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") return truncate(JSON.stringify(value));
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "boolean") return String(value);
  if (typeof value === "function") return "[function]";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (typeof value === "object" && "describe" in value && typeof value.describe === "function") {
    const d: unknown = value.describe();
    if (typeof d === "string") return d;
  }
  try {
    const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
    return truncate(json ?? String(value));
  } catch {
    return Array.isArray(value) ? "[list]" : "[mapping]";
  }
}

function truncate(s: string): string {
  return s.length > MAX_RENDER ? `${s.slice(0, MAX_RENDER - 1)}…` : s;
}
