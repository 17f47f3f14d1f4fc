/**
 * Session shape and projection (sessions §4).
 *
 * - `"full"` — §4.1 full-state sessions: the invoke state IS the session state (every field,
 *   including undeclared extras, is persisted).
 * - `{ fields, map }` — §4.2 projected sessions (the recommended form): the session record holds only
 *   the named slice. `fields` are same-name (session field = state field); `map` renames
 *   (`{ sessionField: "stateField" }`) — the subgraph-mapping convention of graph-engine §2: same
 *   name by default, explicit mapping when names differ. Every other state field is per-invoke
 *   scratch and is never written to (or read from) the store.
 *
 * The TypeScript `SessionState` type follows from the declaration ({@link SessionStateOf}).
 * There is deliberately no implicit default: `withSessions` requires `projection`, so nothing is
 * persisted by accident (§4 *Recommendation*).
 */
import { lastWriteWins, ReducerError, type StateRecord, type StateSchema } from "../graph/index.ts";
import { reducerNameOf } from "../graph/reducers.ts";
import type { SessionStateData } from "./record.ts";

/** The declared (non-index-signature) keys of `T`. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

/** A state field name of `S`: its declared fields when typed, any string for an untyped (document-form) state. */
export type StateFieldName<S> = [KnownKeys<S>] extends [never] ? string : KnownKeys<S> & string;

/** §4.2 projected-session declaration over the invoke state `S`. */
export interface SessionFieldProjection<S> {
  /** Same-name session fields. */
  readonly fields?: readonly StateFieldName<S>[];
  /** Renamed session fields: session field → state field. */
  readonly map?: Readonly<Record<string, StateFieldName<S>>>;
}

/** §4 projection: `"full"` (§4.1) or a field projection (§4.2). */
export type SessionProjection<S> = "full" | SessionFieldProjection<S>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The `SessionState` type a projection `P` declares over the invoke state `S`. */
export type SessionStateOf<S, P> = P extends "full"
  ? S
  : Simplify<
      (P extends { readonly fields: readonly (infer K)[] } ? { [F in Extract<K, keyof S>]: S[F] } : unknown) &
        (P extends { readonly map: infer M } ? { [F in keyof M]: M[F] extends keyof S ? S[M[F]] : never } : unknown)
    >;

/** A projection checked against the graph's schema. */
export class ResolvedSessionProjection {
  /** §4.1 full-state. */
  readonly full: boolean;
  /** `[sessionField, stateField]` pairs (§4.2). Empty for full-state. */
  readonly pairs: readonly (readonly [string, string])[];

  constructor(projection: SessionProjection<StateRecord>, schema: StateSchema<StateRecord, unknown>) {
    if (projection === "full") {
      this.full = true;
      this.pairs = Object.freeze([]);
      return;
    }
    if (typeof projection !== "object" || projection === null || Array.isArray(projection)) {
      throw new TypeError('projection must be "full" or { fields?, map? }');
    }
    const pairs: [string, string][] = [];
    const fields = projection.fields ?? [];
    if (!Array.isArray(fields)) throw new TypeError("projection.fields must be a list of state field names");
    for (const f of fields) pairs.push([f, f]);
    const map = projection.map ?? {};
    if (typeof map !== "object" || map === null || Array.isArray(map)) throw new TypeError("projection.map must be a mapping");
    for (const [s, f] of Object.entries(map)) pairs.push([s, f]);
    const sessionSeen = new Set<string>();
    const stateSeen = new Set<string>();
    for (const [s, f] of pairs) {
      if (typeof s !== "string" || s.length === 0 || typeof f !== "string") throw new TypeError("projection field names must be non-empty strings");
      if (!schema.has(f)) throw new RangeError(`projection names "${f}", which is not a declared state field`);
      if (sessionSeen.has(s)) throw new RangeError(`projection declares session field "${s}" twice`);
      if (stateSeen.has(f)) throw new RangeError(`projection maps state field "${f}" twice`);
      sessionSeen.add(s);
      stateSeen.add(f);
    }
    this.full = false;
    this.pairs = Object.freeze(pairs.map((p) => Object.freeze(p)));
  }

  /** The session fields (`null` = every field, full-state). */
  get sessionFields(): readonly string[] | null {
    return this.full ? null : this.pairs.map(([s]) => s);
  }

  /** Restrict a loaded session state to the declared session fields (what the graph will see). */
  restrict(data: SessionStateData): Record<string, unknown> {
    if (this.full) return { ...data };
    const out: Record<string, unknown> = {};
    for (const [s] of this.pairs) if (Object.prototype.hasOwnProperty.call(data, s) && data[s] !== undefined) out[s] = data[s];
    return out;
  }

  /** §4.2 inbound: session state → the state fields it populates. */
  inbound(data: SessionStateData): Record<string, unknown> {
    if (this.full) return { ...data };
    const out: Record<string, unknown> = {};
    for (const [s, f] of this.pairs) if (Object.prototype.hasOwnProperty.call(data, s) && data[s] !== undefined) out[f] = data[s];
    return out;
  }

  /** §4.2 outbound: invoke state → the session record's state. */
  outbound(state: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.full) {
      for (const [k, v] of Object.entries(state)) if (v !== undefined) out[k] = v;
      return out;
    }
    for (const [s, f] of this.pairs) if (state[f] !== undefined) out[s] = state[f];
    return out;
  }
}

/**
 * Merge `update` over `base` through the schema's field reducers (graph-engine §2 merge semantics;
 * undeclared fields last-write-wins). A field absent from `base` takes the update's value as is
 * (as `invoke()` entry does over defaults). A raising reducer is a `ReducerError`.
 */
export function mergeThroughReducers(
  schema: StateSchema<StateRecord, unknown>,
  base: Readonly<Record<string, unknown>>,
  update: Readonly<Record<string, unknown>>,
  nodeName?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const key of Object.keys(update)) {
    const value = update[key];
    if (value === undefined) continue;
    if (!Object.prototype.hasOwnProperty.call(base, key) || base[key] === undefined) {
      out[key] = value;
      continue;
    }
    const reducer = schema.fields.get(key)?.reducer ?? lastWriteWins;
    try {
      out[key] = (reducer as (p: unknown, u: unknown) => unknown)(base[key], value);
    } catch (cause) {
      throw new ReducerError(key, reducerNameOf(reducer), cause, nodeName === undefined ? {} : { nodeName });
    }
  }
  return out;
}
