/**
 * Type-level reading of the document form, so `stateSchema({ fields: { n: { type: "list<int>" } } })`
 * is typed (`{ n: readonly number[] }`) like the builder form. Falls back to `unknown` for type
 * strings that are not literals (e.g. loaded from YAML).
 */
import type { StateRecord } from "./state-types.ts";

type Trim<S extends string> = S extends ` ${infer R}` ? Trim<R> : S extends `${infer R} ` ? Trim<R> : S;

/** Records as declared in a spec: `{ name: { fields: {...} } }`. */
type RecordsSpec = { readonly [name: string]: { readonly fields: { readonly [f: string]: unknown } } | object };

/** Value type of a type string. */
export type TypeOfTypeString<S extends string, R = object> = string extends S
  ? unknown
  : ParseType<Trim<S>, R, [0, 0, 0, 0, 0, 0, 0, 0]>;

type ParseType<S extends string, R, Depth extends unknown[]> = Depth extends [unknown, ...infer Rest]
  ? S extends "string"
    ? string
    : S extends "int" | "float"
      ? number
      : S extends "bool"
        ? boolean
        : S extends "any"
          ? unknown
          : S extends "list"
            ? readonly unknown[]
            : S extends `list<${infer I}>`
              ? readonly ParseType<Trim<I>, R, Rest>[]
              : S extends "dict"
                ? Readonly<Record<string, unknown>>
                : S extends `dict<${infer _K},${infer V}>`
                  ? Readonly<Record<string, ParseType<Trim<V>, R, Rest>>>
                  : S extends keyof R
                    ? R[S] extends { readonly fields: infer F }
                      ? Readonly<RecordValue<F, R, Rest>>
                      : unknown
                    : unknown
  : unknown;

type RecordValue<F, R, Depth extends unknown[]> = {
  -readonly [K in keyof F]: F[K] extends string
    ? ParseType<Trim<F[K]>, R, Depth>
    : F[K] extends { readonly type: infer T extends string }
      ? ParseType<Trim<T>, R, Depth>
      : unknown;
};

type FieldValue<F, R> = F extends string
  ? TypeOfTypeString<F, R>
  : F extends { readonly type: infer T extends string }
    ? (F extends { readonly nullable: true } ? TypeOfTypeString<T, R> | null : TypeOfTypeString<T, R>) |
        (F extends { readonly required: false } ? (F extends { readonly default: unknown } ? never : undefined) : never)
    : unknown;

type FieldUpdate<F, R> = F extends { readonly reducer: "concat_flatten" }
  ? readonly FieldValue<F, R>[]
  : F extends { readonly reducer: "merge_all" }
    ? readonly Partial<FieldValue<F, R> & object>[]
    : FieldValue<F, R>;

type SpecRecords<Spec> = Spec extends { readonly records: infer R extends RecordsSpec } ? R : object;

/** Any other key, for an open spec (`extraFields: "allow"`); nothing for a closed one (the default). */
type SpecExtras<Spec> = Spec extends { readonly extraFields: "allow" } ? StateRecord : unknown;

/** State type of a document-form spec. */
export type StateFromSpec<Spec> = Spec extends { readonly fields: infer F }
  ? { -readonly [K in keyof F]: FieldValue<F[K], SpecRecords<Spec>> } & SpecExtras<Spec>
  : StateRecord;

/** Partial-update type of a document-form spec. */
export type UpdateFromSpec<Spec> = Spec extends { readonly fields: infer F }
  ? { -readonly [K in keyof F]?: FieldUpdate<F[K], SpecRecords<Spec>> } & SpecExtras<Spec>
  : StateRecord;
