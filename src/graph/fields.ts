/**
 * The typed way to declare state fields (graph-engine §2 *State*, *Reducer*):
 *
 * ```ts
 * const State = defineState({
 *   count: field.int().default(0),
 *   log: field.list(field.string()).default([]).reducer(append),
 * });
 * type S = StateOf<typeof State>;   // { count: number; log: readonly string[] }
 * ```
 *
 * Each builder carries the same {@link TypeNode} the type-string form parses to, so both forms
 * compile to identical JSON Schema. Builders are immutable: every method returns a new builder.
 */
import type { TypeNode } from "./type-strings.ts";
import { parseTypeString } from "./type-strings.ts";
import type { Reducer, ReducerFn, ReducerSpec } from "./reducers.ts";
import { resolveReducer } from "./reducers.ts";

/** Internal description a builder accumulates. */
export interface FieldConfig {
  readonly type: TypeNode;
  readonly hasDefault: boolean;
  readonly default?: unknown;
  /** Every reducer declared on the field, in declaration order (more than one is a compile error). */
  readonly reducers: readonly Reducer<unknown, unknown>[];
  readonly optional: boolean;
  readonly description?: string;
  /** Record types referenced by this field's type (typed form). */
  readonly recordTypes: readonly RecordType<unknown>[];
}

const EMPTY: readonly never[] = Object.freeze([]);

/**
 * A state-field declaration. `T` is the field's value type; `U` the type a node's partial update
 * carries for it (differs from `T` for reducers like `concat_flatten`).
 */
export class FieldBuilder<T, U = T> {
  /** @internal phantom types */
  declare readonly __value?: T;
  declare readonly __update?: U;
  readonly config: FieldConfig;

  constructor(config: FieldConfig) {
    this.config = config;
  }

  /** The field's parsed type. */
  get typeNode(): TypeNode {
    return this.config.type;
  }

  private with(patch: Partial<FieldConfig>): FieldBuilder<T, U> {
    return new FieldBuilder<T, U>({ ...this.config, ...patch });
  }

  /** Declare the default value (fields without a default — and not optional — are required). */
  default(value: T): FieldBuilder<T, U> {
    return this.with({ hasDefault: true, default: value });
  }

  /**
   * Declare the field's reducer: a reducer function (canonical or custom) or the spec form
   * (`"append"`, `{bounded_append: {max_len: 3}}`). Declaring a second reducer on the same field is a
   * `conflicting_reducers` compile error.
   */
  reducer(reducer: ReducerSpec): FieldBuilder<T, U>;
  /** With an explicit update type, e.g. `.reducer<readonly (readonly string[])[]>(concatFlatten)`. */
  reducer<U2>(reducer: ReducerFn<T, U2> | ReducerSpec): FieldBuilder<T, U2>;
  reducer(reducer: ReducerSpec): FieldBuilder<T, unknown> {
    const r = resolveReducer(reducer);
    return new FieldBuilder<T, unknown>({ ...this.config, reducers: [...this.config.reducers, r] });
  }

  /** Allow the field to be absent (no default, not required). */
  optional(): FieldBuilder<T | undefined, U> {
    return this.with({ optional: true }) as unknown as FieldBuilder<T | undefined, U>;
  }

  /** Allow `null` as a value. */
  nullable(): FieldBuilder<T | null, U | null> {
    return new FieldBuilder<T | null, U | null>({ ...this.config, type: { kind: "nullable", inner: this.config.type } });
  }

  /** Attach documentation. */
  describe(description: string): FieldBuilder<T, U> {
    return this.with({ description });
  }
}

/** Structural view of any field builder (used in constraints; builders are invariant in `T`). */
export interface AnyFieldBuilder {
  readonly config: FieldConfig;
}

/** Anything accepted where an element / value type is expected: a field builder or a record type. */
export type TypeLike = AnyFieldBuilder | RecordType<unknown>;

function typeOf(t: TypeLike): { type: TypeNode; records: readonly RecordType<unknown>[] } {
  if (t instanceof RecordType) return { type: t.typeNode, records: [t] };
  return { type: t.config.type, records: t.config.recordTypes };
}

function make<T>(type: TypeNode, recordTypes: readonly RecordType<unknown>[] = EMPTY): FieldBuilder<T, T> {
  return new FieldBuilder<T, T>({ type, hasDefault: false, reducers: EMPTY, optional: false, recordTypes });
}

/** A named, user-defined record type (the type-string form's "bareword" record types). */
export class RecordType<T> {
  declare readonly __value?: T;
  readonly name: string;
  readonly fields: Readonly<Record<string, AnyFieldBuilder>>;
  constructor(name: string, fields: Readonly<Record<string, AnyFieldBuilder>>) {
    this.name = name;
    this.fields = fields;
  }
  get typeNode(): TypeNode {
    return { kind: "record", name: this.name };
  }
}

/** Value type of a field map. Fields whose builder allows `undefined` may be absent. */
export type ValuesOf<F> = { [K in keyof F]: F[K] extends FieldBuilder<infer T, infer _U> ? T : never };

/** Update type of a field map. */
export type UpdatesOf<F> = { [K in keyof F]?: F[K] extends FieldBuilder<infer _T, infer U> ? U : never };

/** Define a named record type for use in `field.record(...)`, `field.list(...)`, `field.dict(...)`. */
export function defineRecord<F extends Record<string, AnyFieldBuilder>>(
  name: string,
  fields: F,
): RecordType<ValuesOf<F>> {
  return new RecordType<ValuesOf<F>>(name, fields);
}

type ElementOf<L> = L extends FieldBuilder<infer T, infer _U> ? T : L extends RecordType<infer R> ? Readonly<R> : unknown;

/** Field-builder constructors, one per type-string form. */
export const field = {
  /** `string` */
  string: (): FieldBuilder<string> => make<string>({ kind: "string" }),
  /** `int` (an integer-valued number) */
  int: (): FieldBuilder<number> => make<number>({ kind: "int" }),
  /** `float` */
  float: (): FieldBuilder<number> => make<number>({ kind: "float" }),
  /** `bool` */
  bool: (): FieldBuilder<boolean> => make<boolean>({ kind: "bool" }),
  /** `any` — no constraint. */
  any: <T = unknown>(): FieldBuilder<T> => make<T>({ kind: "any" }),
  /** `list` (no element constraint) or `list<T>`. */
  list: <L extends TypeLike | undefined = undefined>(
    item?: L,
  ): FieldBuilder<readonly (L extends undefined ? unknown : ElementOf<L>)[]> => {
    if (item === undefined) return make({ kind: "list" });
    const t = typeOf(item);
    return make({ kind: "list", item: t.type }, t.records);
  },
  /** `dict` (no constraint) or `dict<K,V>`. */
  dict: <V extends TypeLike | undefined = undefined>(
    key?: TypeLike,
    value?: V,
  ): FieldBuilder<Readonly<Record<string, V extends undefined ? unknown : ElementOf<V>>>> => {
    if (key === undefined || value === undefined) return make({ kind: "dict" });
    const k = typeOf(key);
    const v = typeOf(value);
    return make({ kind: "dict", key: k.type, value: v.type }, [...k.records, ...v.records]);
  },
  /** A user-defined record type. */
  record: <T>(record: RecordType<T>): FieldBuilder<Readonly<T>> => make<Readonly<T>>(record.typeNode, [record]),
  /** A field from a type string (`"list<dict<string,int>>"`, `"error_entry"`, ...). Untyped. */
  type: <T = unknown>(typeString: string): FieldBuilder<T> => make<T>(parseTypeString(typeString)),
};
