/**
 * Caller-supplied invocation metadata (observability §3.4): validation of keys and values, the
 * copy-on-write cell the engine keeps per async context, and `setInvocationMetadata` /
 * `getInvocationMetadata`.
 *
 * The cell lives in the engine's `AsyncLocalStorage` store. The outermost graph run and serial
 * subgraphs share one cell (an augmentation flows forward); each fan-out instance, parallel branch
 * and retry attempt gets a copy taken at its dispatch, so a write there never reaches a sibling, a
 * later attempt or the parent after the join.
 */

/** An OpenTelemetry attribute value: a scalar or a homogeneous array of scalars (§3.4). */
export type AttributeValue = string | number | boolean | readonly string[] | readonly number[] | readonly boolean[];

/** The metadata mapping: string keys, {@link AttributeValue} values. */
export type InvocationMetadata = Readonly<Record<string, AttributeValue>>;

/** Exact key names reserved by §3.4 (OA-emitted backend metadata keys). */
export const RESERVED_METADATA_KEYS: ReadonlySet<string> = new Set([
  "correlation_id", "entry_node", "spec_version", "detached_child_trace_ids", "namespace", "step",
  "attempt_index", "fan_out_index", "subgraph_name", "fan_out_item_count", "fan_out_concurrency",
  "fan_out_error_policy", "fan_out_parent_node_name", "prompt_group_name", "request_extras",
  "finish_reason", "system", "response_model", "response_id", "prompt", "invocation_id", "branch_name",
  "detached", "detached_from_invocation_id", "implementation_name", "implementation_version",
  "parallel_branches_branch_count", "parallel_branches_error_policy", "parallel_branches_parent_node_name",
]);

/** Key prefixes reserved by §3.4. */
export const RESERVED_METADATA_PREFIXES: readonly string[] = ["openarmature.", "gen_ai."];

function scalarKind(v: unknown): string | null {
  if (typeof v === "string" || typeof v === "boolean") return typeof v;
  if (typeof v === "number") return Number.isFinite(v) ? "number" : null;
  return null;
}

/**
 * Validate a metadata mapping (§3.4): string keys outside the reserved namespaces and names,
 * OTel-scalar or homogeneous-array values. Throws a `RangeError` naming `where` and the key.
 */
export function validateMetadata(entries: unknown, where: string): InvocationMetadata {
  if (typeof entries !== "object" || entries === null || Array.isArray(entries)) {
    throw new TypeError(`${where}: invocation metadata must be a plain object of key/value entries`);
  }
  const out: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
    const prefix = RESERVED_METADATA_PREFIXES.find((p) => key.startsWith(p));
    if (prefix !== undefined) {
      throw new RangeError(`${where}: metadata key "${key}" uses the reserved namespace "${prefix}*" (observability §3.4)`);
    }
    if (RESERVED_METADATA_KEYS.has(key)) {
      throw new RangeError(`${where}: metadata key "${key}" is reserved for openarmature's own backend metadata (observability §3.4)`);
    }
    if (key.length === 0) throw new RangeError(`${where}: metadata keys must be non-empty strings`);
    if (Array.isArray(value)) {
      const kinds = new Set(value.map(scalarKind));
      if (kinds.has(null) || kinds.size > 1) {
        throw new RangeError(`${where}: metadata "${key}" must be a homogeneous array of strings, numbers or booleans`);
      }
      out[key] = Object.freeze([...value]) as AttributeValue;
    } else if (scalarKind(value) !== null) {
      out[key] = value as AttributeValue;
    } else {
      const shown = value === null ? "null" : typeof value;
      throw new RangeError(`${where}: metadata "${key}" is ${shown}; values must be strings, finite numbers, booleans or homogeneous arrays of them`);
    }
  }
  return out;
}

/** @internal the copy-on-write metadata of one async context. */
export class MetadataCell {
  values: InvocationMetadata;
  constructor(values: InvocationMetadata) {
    this.values = values;
  }
  /** A fresh copy for a dispatch boundary (fan-out instance, branch, retry attempt). */
  fork(): MetadataCell {
    return new MetadataCell(this.values);
  }
}

const EMPTY_METADATA: InvocationMetadata = Object.freeze({});

/** @internal */
export function emptyMetadata(): InvocationMetadata {
  return EMPTY_METADATA;
}
