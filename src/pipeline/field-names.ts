/**
 * Field-name types for the typed configuration of fan-out and parallel branches: the declared
 * field names of a state type, so a misspelled `targetField` is a compile error.
 *
 * Engine state types carry an index signature (`{ count: number } & StateRecord`), whose `keyof`
 * is `string`; {@link FieldOf} keeps only the literal keys — and falls back to `string` for an
 * untyped state (a document-form schema loaded from YAML), where nothing can be checked statically
 * (graph compile still checks every name, pipeline-utilities §9 / §11.2).
 */

/** The literal (non-index-signature) keys of `T`. */
export type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: T[K] } &
  string;

/** A field name of state `T`: its declared names, or any string when `T` is untyped. */
export type FieldOf<T> = [KnownKeys<T>] extends [never] ? string : KnownKeys<T>;
