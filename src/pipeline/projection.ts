/**
 * Per-instance / per-branch projection (pipeline-utilities §9.1, §9.3, §11.2, §11.4), with the
 * same map shapes as graph-engine §2's subgraph `inputs` / `outputs`:
 *
 * - `inputs`: subgraph field → parent field, copied in at entry (additive over subgraph defaults);
 * - outputs (`extraOutputs` for fan-out, `outputs` for a branch): parent field → subgraph field,
 *   merged back through the parent's reducer.
 *
 * Also the graph-engine §2 `projection_reducer_round_trip` warning for a field that goes in and
 * comes back out through the same subgraph field into a non-round-trip-idempotent reducer.
 */
import type { NodeCompileContext, StateRecord, StateSchema } from "../graph/index.ts";
import { invalid, isFieldMap, requireDeclared } from "./validation.ts";

/** `[subgraphField, parentField]` — copied in at entry. */
export type InPair = readonly [sub: string, parent: string];
/** `[parentField, subgraphField]` — merged out at exit. */
export type OutPair = readonly [parent: string, sub: string];

/** Resolve an `inputs` map against both schemas (`undefined` when malformed or undeclared). */
export function resolveInputs(
  ctx: NodeCompileContext,
  map: unknown,
  sub: StateSchema<StateRecord, unknown>,
  via: string,
): InPair[] | undefined {
  if (map === undefined) return [];
  if (!isFieldMap(map)) {
    invalid(ctx, `${via} must map subgraph field names to parent field names`);
    return undefined;
  }
  let ok = true;
  const pairs: InPair[] = [];
  for (const [s, p] of Object.entries(map)) {
    const a = requireDeclared(ctx, sub, "subgraph", s, via);
    const b = requireDeclared(ctx, ctx.schema, "parent", p, via);
    if (a && b) pairs.push([s, p]);
    else ok = false;
  }
  return ok ? pairs : undefined;
}

/** Resolve an outputs map (parent field → subgraph field) against both schemas. */
export function resolveOutputs(
  ctx: NodeCompileContext,
  map: unknown,
  sub: StateSchema<StateRecord, unknown>,
  via: string,
): OutPair[] | undefined {
  if (map === undefined) return [];
  if (!isFieldMap(map)) {
    invalid(ctx, `${via} must map parent field names to subgraph field names`);
    return undefined;
  }
  let ok = true;
  const pairs: OutPair[] = [];
  for (const [p, s] of Object.entries(map)) {
    const a = requireDeclared(ctx, ctx.schema, "parent", p, via);
    const b = requireDeclared(ctx, sub, "subgraph", s, via);
    if (a && b) pairs.push([p, s]);
    else ok = false;
  }
  return ok ? pairs : undefined;
}

/** Default projection out (graph-engine §2): every subgraph field that is also a parent field. */
export function nameMatchingOutputs(ctx: NodeCompileContext, sub: StateSchema<StateRecord, unknown>): OutPair[] {
  return sub.fieldNames.filter((f) => ctx.schema.has(f)).map((f) => [f, f] as const);
}

/**
 * graph-engine §2 *Reducer round-trip warning*: warn when `parentField`'s reducer is not
 * round-trip-idempotent (`append`, `concat_flatten`, `bounded_append`, `merge_all`, or a custom
 * reducer declared non-idempotent).
 */
export function warnRoundTrip(ctx: NodeCompileContext, parentField: string, why: string): void {
  const r = ctx.reducerFor(parentField);
  if (r.roundTripIdempotent !== false) return;
  ctx.warn(
    "projection_reducer_round_trip",
    `node "${ctx.nodeName}" round-trips parent field "${parentField}" (${why}) into reducer ` +
      `${r.reducerName ?? (r.name || "custom reducer")}, which is not round-trip-idempotent: the value is merged again`,
    { field: parentField },
  );
}

/** Warn for every `inputs` entry whose subgraph field is projected back out into the same parent field. */
export function warnMapRoundTrips(ctx: NodeCompileContext, ins: readonly InPair[], outs: readonly OutPair[], outVia: string): void {
  const warned = new Set<string>();
  for (const [s, p] of ins) {
    if (warned.has(p)) continue;
    if (outs.some(([op, os]) => op === p && os === s)) {
      warned.add(p);
      warnRoundTrip(ctx, p, `copied into subgraph field "${s}" via inputs and merged back out of it via ${outVia}`);
    }
  }
}

/** Build a subgraph input from `state`: each `inputs` entry (subgraph field ← parent field). */
export function projectIn(pairs: readonly InPair[], state: Readonly<StateRecord>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [s, p] of pairs) {
    const v = state[p];
    if (v !== undefined) input[s] = v;
  }
  return input;
}
