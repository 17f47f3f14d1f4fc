/**
 * Shapes: how a directive tells the matcher the comparison mode of each position
 * (conformance-adapter §8.4 — "A definition MAY vary a rule only in the ways these rules allow:
 * declaring a list unordered, a set, or an existence list; declaring a mapping position exact; or
 * stating a directive-specific comparison").
 *
 * A {@link Shape} describes one position and, through `keys` / `values` / `items`, the positions
 * below it. Three modes are *inherited* by every position below unless a sub-shape overrides them:
 *
 * - `mapping`: `"named"` (default; a mapping asserts the keys it names, at every depth) or
 *   `"exact"` (the written mapping is the whole value: omitted keys must be absent, nested values
 *   compare exactly at every depth). A record inside an exact position is a sub-shape that sets
 *   `mapping: "named"` again ({@link Shapes.record}).
 * - `nulls`: `"record"` (default; an implementation-language record or event: a written null
 *   matches null or missing, a null field counts as absent) or `"json"` (a JSON document: null
 *   matches only null, missing is distinct).
 * - `numbers`: `"value"` (default; 1 matches 1.0) or `"typed"` (span-attribute typing; see
 *   {@link TypedValue} in `values.ts`).
 *
 * The other fields apply to their own position only:
 *
 * - `list`: how a list at this position compares; lists default to `"ordered"` (complete and in
 *   order), which is also how a list inside data compares (§8.4 Lists).
 * - `decode: "json"`: the observed value is a JSON-encoded string; both sides are decoded before
 *   comparison (§8.4 Single values).
 * - `equivalent`: a directive-specific equivalence (§8.4, e.g. `tool_calls: null` matching `[]`);
 *   when it returns true the position matches without further comparison.
 * - `keysAbsent`: the expected value is a list of key names, none of which the observed mapping
 *   may carry (a beside-directive absence list such as `attributes_absent` / `metadata_absent`,
 *   §8.4 Absence); a present key is a `not_absent` mismatch naming that key.
 */

/** §8.4 Lists: ordered (complete, in order), unordered (complete, one-to-one pairing), set
 * (unordered, repeats do not count), existence (each entry matches some item; not exhaustive). */
export type ListMode = "ordered" | "unordered" | "set" | "existence";
/** §8.4 Mappings: named keys (default) or an exact position. */
export type MappingMode = "named" | "exact";
/** §8.4 Null: an implementation-language record, or a JSON document. */
export type NullMode = "record" | "json";
/** §8.4 Single values: numbers by value, or span-attribute typing. */
export type NumberMode = "value" | "typed";

/** The comparison mode of one position and the positions below it (§8.4). */
export interface Shape {
  /** Inherited. See the module documentation. */
  readonly mapping?: MappingMode;
  /** Inherited. See the module documentation. */
  readonly nulls?: NullMode;
  /** Inherited. See the module documentation. */
  readonly numbers?: NumberMode;
  /** How a list at this position compares. Default `"ordered"`. */
  readonly list?: ListMode;
  /** The shape of each item of a list at this position. */
  readonly items?: Shape;
  /** The shape of the value under a given key of a mapping at this position. */
  readonly keys?: Readonly<Record<string, Shape>>;
  /** The shape of the value under every key not named in `keys`. */
  readonly values?: Shape;
  /** The observed value is a JSON-encoded string: decode both sides first. */
  readonly decode?: "json";
  /** Directive-specific equivalence: true means "matches", skipping further comparison. */
  readonly equivalent?: (expected: unknown, actual: unknown) => boolean;
  /** The expected value is a list of keys the observed mapping must not carry (§8.4 Absence). */
  readonly keysAbsent?: true;
}

/** A shape resolved at one position: the inherited modes plus the local shape. */
export interface Position {
  readonly mapping: MappingMode;
  readonly nulls: NullMode;
  readonly numbers: NumberMode;
  readonly shape: Shape;
}

const EMPTY: Shape = Object.freeze({});

function at(parent: Position | undefined, shape: Shape): Position {
  return {
    mapping: shape.mapping ?? parent?.mapping ?? "named",
    nulls: shape.nulls ?? parent?.nulls ?? "record",
    numbers: shape.numbers ?? parent?.numbers ?? "value",
    shape,
  };
}

/** The position at the root of a check. */
export function rootPosition(shape: Shape = EMPTY): Position {
  return at(undefined, shape);
}

/** The position of the value under `key` of a mapping at `p`. */
export function childPosition(p: Position, key: string): Position {
  const keys = p.shape.keys;
  const sub = keys && Object.hasOwn(keys, key) ? keys[key] : p.shape.values;
  return at(p, sub ?? EMPTY);
}

/** The position of an item of a list at `p`. */
export function itemPosition(p: Position): Position {
  return at(p, p.shape.items ?? EMPTY);
}

/** `p` with the fields `s` sets overriding the local shape and the inherited modes. */
export function overridePosition(p: Position, s: Shape): Position {
  return {
    mapping: s.mapping ?? p.mapping,
    nulls: s.nulls ?? p.nulls,
    numbers: s.numbers ?? p.numbers,
    shape: { ...p.shape, ...s },
  };
}

/** `p` without its `decode` flag (used once a JSON position has been decoded). */
export function decodedPosition(p: Position): Position {
  const { decode: _decode, ...rest } = p.shape;
  return { ...p, shape: rest };
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Shape constructors, so directive authors write little (conformance-adapter §8.4).
 *
 * ```ts
 * Shapes.exact()                                        // final_state
 * Shapes.list("ordered", Shapes.named({ keys: { post_state: Shapes.exact() } }))
 * Shapes.exact({ keys: { response: Shapes.record({ keys: { raw: Shapes.document() } }) } })
 * Shapes.recursive((span) => Shapes.named({ keys: { children: Shapes.list("unordered", span) } }))
 * ```
 */
export const Shapes = {
  /** Named keys (§8.4 Mappings, the default): only the written keys are checked, at every depth. */
  named(shape: Shape = EMPTY): Shape {
    return { ...shape, mapping: "named" };
  },
  /** An exact position (§8.4 Mappings): omitted keys must be absent, exact at every depth. */
  exact(shape: Shape = EMPTY): Shape {
    return { ...shape, mapping: "exact" };
  },
  /**
   * An implementation-language record (§8.4 Mappings and Null): named keys even inside an exact
   * position; a written null matches null or missing, and a null field counts as absent.
   */
  record(shape: Shape = EMPTY): Shape {
    return { ...shape, mapping: "named", nulls: "record" };
  },
  /**
   * A JSON document (§8.4 Null: wire bodies, `raw`, Langfuse field mappings): null matches only
   * null, missing is distinct. Exact by default; pass `{ mapping: "named" }` for an `_includes`
   * style position.
   */
  document(shape: Shape = EMPTY): Shape {
    return { mapping: "exact", numbers: "value", ...shape, nulls: "json" };
  },
  /**
   * A JSON-encoded string (§8.4 Single values, e.g. a tool call's arguments): both sides are
   * decoded, then compared as a JSON document, exact by default.
   */
  json(shape: Shape = EMPTY): Shape {
    return { mapping: "exact", numbers: "value", ...shape, nulls: "json", decode: "json" };
  },
  /** Span-attribute typing (§8.4 Single values): int only matches int, a float only a double. */
  typed(shape: Shape = EMPTY): Shape {
    return { ...shape, numbers: "typed" };
  },
  /** A list position (§8.4 Lists) whose items have shape `items`. */
  list(mode: ListMode, items?: Shape, shape: Shape = EMPTY): Shape {
    return items ? { ...shape, list: mode, items } : { ...shape, list: mode };
  },
  /** A mapping whose every value (e.g. `observer_events: {<observer>: [...]}`) has shape `values`. */
  mapOf(values: Shape, shape: Shape = EMPTY): Shape {
    return { ...shape, values };
  },
  /** A directive-specific equivalence (§8.4) layered on `shape`. */
  equivalent(test: (expected: unknown, actual: unknown) => boolean, shape: Shape = EMPTY): Shape {
    return { ...shape, equivalent: test };
  },
  /**
   * An absence list written beside a directive (`attributes_absent: [<key>, ...]`,
   * `metadata_absent`): the observed value is the mapping the keys must be missing from. A key
   * counts as present when the mapping has it at all (even as null); each present key is its own
   * `not_absent` mismatch.
   */
  keysAbsent(shape: Shape = EMPTY): Shape {
    return { ...shape, keysAbsent: true };
  },
  /** A recursive shape, e.g. span entries whose `children` are span entries. */
  recursive(build: (self: Shape) => Shape): Shape {
    const self: Mutable<Shape> = {};
    Object.assign(self, build(self));
    return self;
  },
} as const;
