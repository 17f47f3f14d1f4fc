/**
 * The floor: what the same work costs with no framework — async node functions called in a plain
 * loop, each partial update merged into a new state object through the same per-field reducer
 * semantics (last-write-wins by default, `append` = list concatenation). No validation, no
 * freezing, no events.
 */

export type FloorReducer = (prior: unknown, update: unknown) => unknown;

/** `append` semantics: `prior + update` as a new list. */
export const floorAppend: FloorReducer = (prior, update) => (prior as readonly unknown[]).concat(update as readonly unknown[]);

/** Merge `update` into a copy of `state`; fields without a reducer are last-write-wins. */
export function floorMerge<S extends object>(state: S, update: Partial<S> | undefined, reducers: Readonly<Record<string, FloorReducer>>): S {
  if (update === undefined) return state;
  const next: Record<string, unknown> = { ...(state as Readonly<Record<string, unknown>>) };
  for (const key in update) {
    const value = (update as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const r = reducers[key];
    next[key] = r === undefined ? value : r(next[key], value);
  }
  return next as S;
}
