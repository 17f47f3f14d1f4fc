/** Shared state-shape types (graph-engine §2 *State*). */

/** The runtime shape of any state: a record of named fields. */
export type StateRecord = Record<string, unknown>;

/** A node's partial update for state `S`: any subset of fields. */
export type PartialUpdate<S> = { readonly [K in keyof S]?: S[K] };

/** A deeply read-only view, used for the state a node or observer receives. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;
