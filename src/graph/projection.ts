/**
 * Subgraph projection (graph-engine §2 *Subgraph*, *Explicit input/output mapping*, *Declared
 * same-name projection boundary*, *Reducer round-trip warning*).
 *
 * A subgraph-as-node declares at most one of three forms:
 *
 * - **default** (nothing declared): no projection in (the subgraph starts from its own defaults);
 *   out by field-name matching (every declared subgraph field that is also a declared parent field).
 * - **maps**: `inputs` (subgraph field → parent field; additive over the subgraph's defaults) and/or
 *   `outputs` (parent field → subgraph field; *replaces* name matching). Each is independent.
 * - **declared same-name sets**: `projectsIn` / `projectsOut` — a complete boundary; an omitted set
 *   is empty; no name-matching fallback.
 *
 * Projection out always merges through the parent's reducers.
 */
import type { NodeCompileContext } from "./extension.ts";
import type { StateSchema } from "./state-schema.ts";
import type { StateRecord } from "./state-types.ts";

/** How a subgraph-as-node projects state across its boundary. */
export interface SubgraphProjection {
  /** Subgraph field → parent field: the parent's value is copied in at entry. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** Parent field → subgraph field: the subgraph's final value is merged out via the parent's reducer. */
  readonly outputs?: Readonly<Record<string, string>>;
  /** Declared same-name in-set (fields copied in by the same name). */
  readonly projectsIn?: readonly string[];
  /** Declared same-name out-set (fields merged out by the same name). */
  readonly projectsOut?: readonly string[];
}

/** Which of the three §2 forms a projection uses. */
export type ProjectionForm = "default" | "maps" | "declared";

/** A projection resolved against both schemas. */
export interface ResolvedProjection {
  readonly form: ProjectionForm;
  /** `[subgraphField, parentField]` pairs copied in at entry. */
  readonly inPairs: readonly (readonly [string, string])[];
  /** `[parentField, subgraphField]` pairs merged out at exit. */
  readonly outPairs: readonly (readonly [string, string])[];
}

function isStringMap(v: unknown): v is Record<string, string> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");
}

function isStringList(v: unknown): v is readonly string[] {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

/** The form a projection declares (without validating it). */
export function projectionForm(p: SubgraphProjection): ProjectionForm {
  const maps = p.inputs !== undefined || p.outputs !== undefined;
  const sets = p.projectsIn !== undefined || p.projectsOut !== undefined;
  if (sets) return "declared";
  return maps ? "maps" : "default";
}

/**
 * Validate `p` for the node being compiled and resolve it; records compile errors
 * (`conflicting_projection_forms`, `mapping_references_undeclared_field`, `invalid_node`) and the
 * `projection_reducer_round_trip` warning on `ctx`. Returns `undefined` when invalid.
 */
export function resolveProjection(
  p: SubgraphProjection,
  parent: StateSchema<StateRecord, unknown>,
  sub: StateSchema<StateRecord, unknown>,
  ctx: NodeCompileContext,
): ResolvedProjection | undefined {
  const maps = p.inputs !== undefined || p.outputs !== undefined;
  const sets = p.projectsIn !== undefined || p.projectsOut !== undefined;
  if (maps && sets) {
    ctx.error(
      "conflicting_projection_forms",
      `subgraph node "${ctx.nodeName}" declares both the same-name projection sets and an explicit inputs/outputs mapping`,
    );
    return undefined;
  }
  let ok = true;
  const undeclared = (side: "parent" | "subgraph", field: string, via: string): void => {
    ok = false;
    ctx.error(
      "mapping_references_undeclared_field",
      `subgraph node "${ctx.nodeName}": ${via} names ${side} field "${field}", which is not declared in the ${side} state schema`,
      { field },
    );
  };
  const malformed = (what: string): void => {
    ok = false;
    ctx.error("invalid_node", `subgraph node "${ctx.nodeName}": ${what}`);
  };

  const inPairs: [string, string][] = [];
  const outPairs: [string, string][] = [];
  let form: ProjectionForm;

  if (sets) {
    form = "declared";
    const projectsIn = p.projectsIn ?? [];
    const projectsOut = p.projectsOut ?? [];
    if (!isStringList(projectsIn)) malformed("projectsIn must be a list of field names");
    if (!isStringList(projectsOut)) malformed("projectsOut must be a list of field names");
    if (!ok) return undefined;
    for (const [via, list, pairs] of [
      ["projectsIn", projectsIn, inPairs],
      ["projectsOut", projectsOut, outPairs],
    ] as const) {
      for (const f of list) {
        let fine = true;
        if (!parent.has(f)) (undeclared("parent", f, via), (fine = false));
        if (!sub.has(f)) (undeclared("subgraph", f, via), (fine = false));
        if (fine) pairs.push([f, f]);
      }
    }
    if (!ok) return undefined;
    const outSet = new Set(projectsOut);
    for (const f of new Set(projectsIn)) if (outSet.has(f)) roundTrip(ctx, f, "it is named in both projectsIn and projectsOut");
  } else if (maps) {
    form = "maps";
    if (p.inputs !== undefined && !isStringMap(p.inputs)) malformed("inputs must map subgraph field names to parent field names");
    if (p.outputs !== undefined && !isStringMap(p.outputs)) malformed("outputs must map parent field names to subgraph field names");
    if (!ok) return undefined;
    for (const [s, par] of Object.entries(p.inputs ?? {})) {
      let fine = true;
      if (!sub.has(s)) (undeclared("subgraph", s, "inputs"), (fine = false));
      if (!parent.has(par)) (undeclared("parent", par, "inputs"), (fine = false));
      if (fine) inPairs.push([s, par]);
    }
    if (p.outputs !== undefined) {
      for (const [par, s] of Object.entries(p.outputs)) {
        let fine = true;
        if (!parent.has(par)) (undeclared("parent", par, "outputs"), (fine = false));
        if (!sub.has(s)) (undeclared("subgraph", s, "outputs"), (fine = false));
        if (fine) outPairs.push([par, s]);
      }
    } else {
      for (const f of sub.fieldNames) if (parent.has(f)) outPairs.push([f, f]);
    }
    if (!ok) return undefined;
    // §2 round-trip cases (b) and (c).
    const outBySub = new Map<string, string[]>();
    for (const [par, s] of outPairs) {
      const list = outBySub.get(s);
      if (list) list.push(par);
      else outBySub.set(s, [par]);
    }
    const warned = new Set<string>();
    for (const [s, par] of inPairs) {
      if (warned.has(par)) continue;
      if ((outBySub.get(s) ?? []).includes(par)) {
        warned.add(par);
        roundTrip(
          ctx,
          par,
          p.outputs !== undefined
            ? `it is copied into subgraph field "${s}" and merged back out of it`
            : `it is copied into the same-named subgraph field and merged back out by field-name matching`,
        );
      }
    }
  } else {
    form = "default";
    for (const f of sub.fieldNames) if (parent.has(f)) outPairs.push([f, f]);
  }
  return { form, inPairs, outPairs };
}

function roundTrip(ctx: NodeCompileContext, parentField: string, why: string): void {
  const r = ctx.reducerFor(parentField);
  if (r.roundTripIdempotent === false) {
    const name = r.reducerName ?? (r.name || "custom reducer");
    ctx.warn(
      "projection_reducer_round_trip",
      `subgraph node "${ctx.nodeName}" round-trips parent field "${parentField}" (${why}) into reducer ${name}, ` +
        `which is not round-trip-idempotent: the unchanged value is merged a second time`,
      { field: parentField },
    );
  }
}

/** Build the subgraph's input from the parent state. */
export function projectIn(p: ResolvedProjection, state: Readonly<StateRecord>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [s, par] of p.inPairs) {
    const v = state[par];
    if (v !== undefined) input[s] = v;
  }
  return input;
}

/** Build the parent's partial update from the subgraph's final state. */
export function projectOut(p: ResolvedProjection, final: Readonly<StateRecord>): Record<string, unknown> {
  const update: Record<string, unknown> = {};
  for (const [par, s] of p.outPairs) {
    const v = final[s];
    if (v !== undefined) update[par] = v;
  }
  return update;
}
