/**
 * Fan-in (pipeline-utilities §9.3, §9.4; §11.4 buffered branch contributions, §11.8).
 *
 * Contributions are buffered while instances / branches run and merged once, at node completion,
 * in instance-index (branch insertion) order — never completion order — through the parent's
 * reducer for each field.
 *
 * - The `target_field` receives the whole collected list as ONE reducer update (§9.3: the reducer
 *   "MUST accept the engine-produced list of per-instance values as its update argument").
 * - A field receiving several separate contributions (fan-out `extra_outputs`, two branches writing
 *   the same field) is merged "via the parent's reducer in order": `r(…r(r(prior, c0), c1)…, cn)`.
 *   A node returns a single partial update, which the engine applies with one reducer call, so the
 *   contributions are first combined into one update `u` with `r(prior, u)` equal to that fold —
 *   exactly, for every canonical reducer (see {@link combineContributions}).
 */
import type { Reducer } from "../graph/index.ts";

/** Reducers whose update is a list and for which `r(r(p, a), b) == r(p, a ++ b)`. */
const LIST_CONCAT = new Set(["append", "bounded_append", "dedupe_append", "merge_by_key", "concat_flatten", "merge_all"]);

function isMapping(v: unknown): v is Readonly<Record<string, unknown>> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Combine the ordered contributions `cs` (≥ 1) to one field into a single update for `reducer`:
 *
 * - `last_write_wins` → the last contribution;
 * - `append`, `bounded_append`, `dedupe_append`, `merge_by_key`, `concat_flatten`, `merge_all` → the
 *   concatenation of the contributions;
 * - `merge` → the shallow merge of the contributions (later keys win);
 * - a custom reducer → `r(…r(c0, c1)…, cn)`, exact when the reducer is associative over updates
 *   (sums, maxima, list concatenation, …). Reducers whose update type differs from their value type
 *   are not combinable this way (exact sequential folding needs an engine seam for ordered multi-update merges).
 *
 * A contribution of the wrong shape is passed through on its own so the reducer itself raises the
 * engine's `ReducerError` for it (naming field, reducer and node).
 */
export function combineContributions(reducer: Reducer<unknown, unknown>, cs: readonly unknown[]): unknown {
  if (cs.length === 1) return cs[0];
  const name = reducer.canonical ? reducer.reducerName : undefined;
  if (name === "last_write_wins") return cs[cs.length - 1];
  if (name !== undefined && LIST_CONCAT.has(name)) {
    let total = 0;
    for (const c of cs) {
      if (!Array.isArray(c)) return c;
      total += c.length;
    }
    const out = new Array<unknown>(total);
    let k = 0;
    for (const c of cs as readonly (readonly unknown[])[]) for (let i = 0; i < c.length; i++) out[k++] = c[i];
    return out;
  }
  if (name === "merge") {
    const out: Record<string, unknown> = {};
    for (const c of cs) {
      if (!isMapping(c)) return c;
      Object.assign(out, c);
    }
    return out;
  }
  let acc = cs[0];
  for (let i = 1; i < cs.length; i++) acc = reducer(acc, cs[i]);
  return acc;
}

/**
 * Buffers per-field contributions in arrival order and produces the node's single partial update.
 * Callers add contributions in index / insertion order (the buffer does not sort).
 */
export class FanInBuffer {
  readonly #reducerFor: (field: string) => Reducer<unknown, unknown>;
  readonly #fields = new Map<string, unknown[]>();
  readonly #whole: Record<string, unknown> = {};

  constructor(reducerFor: (field: string) => Reducer<unknown, unknown>) {
    this.#reducerFor = reducerFor;
  }

  /** Add one contribution to `field` (merged with the field's other contributions, in order). */
  add(field: string, value: unknown): void {
    if (value === undefined) return;
    const list = this.#fields.get(field);
    if (list) list.push(value);
    else this.#fields.set(field, [value]);
  }

  /** Set `field`'s update to `value` as one reducer update (the target list, errors, the count). */
  set(field: string, value: unknown): void {
    this.#whole[field] = value;
  }

  /** The partial update: one entry per field that received anything. */
  toUpdate(): Record<string, unknown> {
    const update: Record<string, unknown> = { ...this.#whole };
    for (const [field, cs] of this.#fields) update[field] = combineContributions(this.#reducerFor(field), cs);
    return update;
  }
}
