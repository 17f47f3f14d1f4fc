/**
 * State schemas (graph-engine §2 *State*): a record of named, typed fields with defaults, required
 * fields and one reducer per field, compiled to JSON Schema and validated with ajv at invoke entry,
 * subgraph entry and every merge boundary (the validators compile once per schema).
 *
 * Two equal ways to declare one:
 *
 * - typed: `defineState({ count: field.int().default(0), ... })` — the state type is inferred;
 * - type strings: `stateSchema({ fields: { count: { type: "int", default: 0 } }, records })` — the
 *   document form (YAML / JSON) the conformance fixtures use.
 */
import { compileError } from "./compile-errors.ts";
import { StateValidationError, type ValidationIssue } from "./errors.ts";
import { FieldBuilder, RecordType, type AnyFieldBuilder, type FieldConfig, type UpdatesOf, type ValuesOf } from "./fields.ts";
import { deepFreeze, frozenCopy } from "./freeze.ts";
import { lastWriteWins, resolveReducer, type Reducer, type ReducerSpec } from "./reducers.ts";
import type { StateRecord } from "./state-types.ts";
import type { StateFromSpec, UpdateFromSpec } from "./type-inference.ts";
import {
  collectRecordNames,
  parseTypeString,
  typeNodeToJsonSchema,
  typeNodeToString,
  type JsonSchema,
  type TypeNode,
} from "./type-strings.ts";
import { compileValidator, type Validator } from "./validation.ts";
import { canonicalCopier, spreadCopy, type StateCopier } from "./state-copy.ts";
import { editDistance } from "./edit-distance.ts";

/** A resolved field of a {@link StateSchema} (or of a record type). */
export interface FieldDefinition {
  readonly name: string;
  readonly type: TypeNode;
  /** Canonical type string (`list<string>`). */
  readonly typeString: string;
  readonly hasDefault: boolean;
  /** The (deep-frozen) default value, when {@link hasDefault}. */
  readonly default: unknown;
  /** True when the field has no default and is not optional: initial state must supply it. */
  readonly required: boolean;
  /** Reducers declared on the field (0 = default `last_write_wins`; >1 fails compile). */
  readonly declaredReducers: readonly Reducer<unknown, unknown>[];
  /** The effective reducer (the declared one, else `last_write_wins`). */
  readonly reducer: Reducer<unknown, unknown>;
  readonly description?: string;
}

/** A named record type within a schema. */
export interface RecordDefinition {
  readonly name: string;
  readonly fields: ReadonlyMap<string, FieldDefinition>;
}

/** Options common to both declaration forms. */
export interface StateSchemaOptions {
  /** Schema name (diagnostics). */
  readonly name?: string;
  /**
   * Undeclared fields in initial state, node updates and resume payloads: `"forbid"` (default — a
   * misspelled field name is refused before anything runs: `state_validation_error`, or
   * `suspension_resume_payload_invalid` for a signal payload) or `"allow"` (an open schema: extras
   * are kept in state, merged last-write-wins, unvalidated; a signal payload's extras are dropped,
   * suspension §6). The literal also types the schema: an open schema's state admits any key.
   */
  readonly extraFields?: "allow" | "forbid";
  /** User-controlled schema version (read by checkpointing, pipeline-utilities §10.2). */
  readonly schemaVersion?: string;
}

/** Document-form field declaration. */
export interface FieldSpec {
  /** A type string: `string int float bool any list list<T> dict dict<K,V>` or a record name. */
  readonly type: string;
  readonly default?: unknown;
  /** The field's reducer (spec form or function). */
  readonly reducer?: ReducerSpec;
  /** Several reducer declarations (more than one is a `conflicting_reducers` compile error). */
  readonly reducers?: readonly ReducerSpec[];
  /** Force required / not-required (default: required iff no default). */
  readonly required?: boolean;
  readonly nullable?: boolean;
  readonly description?: string;
}

/** Document-form record declaration. */
export interface RecordSpec {
  readonly fields: Readonly<Record<string, FieldSpec | string>>;
}

/** Document-form state declaration. */
export interface StateSpec extends StateSchemaOptions {
  readonly fields: Readonly<Record<string, FieldSpec | string>>;
  /** Named record types referenced by bareword type strings. */
  readonly records?: Readonly<Record<string, RecordSpec | RecordType<unknown>>>;
}

const EMPTY_ISSUES: readonly ValidationIssue[] = Object.freeze([]);


/** The issue message for undeclared field `name`, naming the closest declared field when one is near. */
function undeclaredMessage(name: string, declared: readonly string[]): string {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  for (const d of declared) {
    const dist = editDistance(name.toLowerCase(), d.toLowerCase());
    if (dist <= bestDistance && (best === undefined || dist < bestDistance)) [best, bestDistance] = [d, dist];
  }
  return best === undefined ? "is not a declared field" : `is not a declared field (did you mean "${best}"?)`;
}

function fieldFromConfig(name: string, c: FieldConfig): FieldDefinition {
  const def: FieldDefinition = {
    name,
    type: c.type,
    typeString: typeNodeToString(c.type),
    hasDefault: c.hasDefault,
    default: c.hasDefault ? deepFreeze(structuredCloneSafe(c.default)) : undefined,
    required: !c.hasDefault && !c.optional,
    declaredReducers: c.reducers,
    reducer: c.reducers[0] ?? (lastWriteWins as Reducer<unknown, unknown>),
    ...(c.description !== undefined ? { description: c.description } : {}),
  };
  return def;
}

function structuredCloneSafe(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  try {
    return structuredClone(v);
  } catch {
    return v;
  }
}

function fieldFromSpec(name: string, spec: FieldSpec | string): FieldDefinition {
  const s: FieldSpec = typeof spec === "string" ? { type: spec } : spec;
  if (typeof s !== "object" || s === null || typeof s.type !== "string") {
    throw compileError("invalid_state_schema", `field "${name}": a type string is required`, { field: name });
  }
  let type = parseTypeString(s.type);
  if (s.nullable) type = { kind: "nullable", inner: type };
  const reducerSpecs: ReducerSpec[] = [];
  if (s.reducer !== undefined) reducerSpecs.push(s.reducer);
  if (s.reducers) reducerSpecs.push(...s.reducers);
  const reducers = reducerSpecs.map((r) => resolveReducer(r));
  const hasDefault = Object.prototype.hasOwnProperty.call(s, "default");
  const optional = s.required === false && !hasDefault;
  const def = fieldFromConfig(name, {
    type,
    hasDefault,
    ...(hasDefault ? { default: s.default } : {}),
    reducers,
    optional,
    recordTypes: [],
    ...(s.description !== undefined ? { description: s.description } : {}),
  });
  return s.required === true ? { ...def, required: true } : def;
}

function recordJsonSchema(rec: RecordDefinition, closed: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of rec.fields.values()) {
    properties[f.name] = typeNodeToJsonSchema(f.type);
    if (f.required) required.push(f.name);
  }
  return { type: "object", properties, ...(required.length ? { required } : {}), ...(closed ? { additionalProperties: false } : {}) };
}

/**
 * A compiled state schema. `S` is the state type, `U` the partial-update type nodes return.
 * Immutable; validators are compiled lazily once and memoized.
 */
export class StateSchema<S extends StateRecord = StateRecord, U = Partial<S>> {
  /** Phantom types (never assigned): carry `S` and `U` for `StateOf` / `UpdateOf`. */
  declare readonly __state?: S;
  declare readonly __update?: U;
  readonly name: string | undefined;
  readonly fields: ReadonlyMap<string, FieldDefinition>;
  readonly fieldNames: readonly string[];
  readonly records: ReadonlyMap<string, RecordDefinition>;
  readonly extraFields: "allow" | "forbid";
  readonly schemaVersion: string | undefined;
  /** The full-state JSON Schema (with `$defs` for record types). */
  readonly jsonSchema: JsonSchema;
  /** Frozen record of every field's default. */
  readonly defaults: Readonly<Partial<S>>;

  #defs: Record<string, JsonSchema>;
  #full: Validator | undefined;
  #perField = new Map<string, Validator | null>();
  #defaultsChecked = false;
  #copier: StateCopier | undefined;

  /** @internal use {@link defineState} / {@link stateSchema}. */
  constructor(
    fields: ReadonlyMap<string, FieldDefinition>,
    records: ReadonlyMap<string, RecordDefinition>,
    options: StateSchemaOptions = {},
  ) {
    this.name = options.name;
    this.fields = fields;
    this.fieldNames = Object.freeze([...fields.keys()]);
    this.records = records;
    this.extraFields = options.extraFields ?? "forbid";
    this.schemaVersion = options.schemaVersion;

    const referenced = new Set<string>();
    for (const f of fields.values()) collectRecordNames(f.type, referenced);
    for (const r of records.values()) for (const f of r.fields.values()) collectRecordNames(f.type, referenced);
    for (const n of referenced) {
      if (!records.has(n)) {
        throw compileError("invalid_state_schema", `unknown type or record "${n}" in state schema`);
      }
    }
    this.#defs = {};
    for (const r of records.values()) this.#defs[r.name] = recordJsonSchema(r, this.extraFields === "forbid");

    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const defaults: Record<string, unknown> = {};
    for (const f of fields.values()) {
      properties[f.name] = typeNodeToJsonSchema(f.type);
      if (f.required) required.push(f.name);
      if (f.hasDefault) defaults[f.name] = f.default;
    }
    this.jsonSchema = Object.freeze({
      type: "object",
      properties,
      ...(required.length ? { required } : {}),
      ...(this.extraFields === "forbid" ? { additionalProperties: false } : {}),
      ...(records.size ? { $defs: this.#defs } : {}),
    });
    this.defaults = Object.freeze(defaults) as Readonly<Partial<S>>;
  }

  /**
   * @internal A fresh, unfrozen copy of `state`, a state this schema built (`create()` or a merge of
   * one): with every field defaulted and undeclared fields refused, such states all have the
   * declared keys in declaration order, and a generated copier copies them (state-copy.ts).
   */
  copyState(state: Readonly<StateRecord>): Record<string, unknown> {
    this.#copier ??=
      this.extraFields === "forbid" && [...this.fields.values()].every((f) => f.hasDefault) ? canonicalCopier(this.fieldNames) : spreadCopy;
    return this.#copier(state);
  }

  /** Is `name` a declared field? */
  has(name: string): boolean {
    return this.fields.has(name);
  }

  /** Validate a whole state record; returns the issues (empty when valid). */
  validate(state: unknown): readonly ValidationIssue[] {
    this.#full ??= compileValidator(this.jsonSchema);
    if (typeof state !== "object" || state === null || Array.isArray(state)) {
      return [{ field: "(state)", path: "", message: "state must be a mapping" }];
    }
    const issues = this.#full(state);
    if (issues.length === 0 || this.extraFields === "allow") return issues;
    return issues.map((i) => (i.path === `/${i.field}` && !this.fields.has(i.field) ? { ...i, message: undeclaredMessage(i.field, this.fieldNames) } : i));
  }

  /**
   * Validate one field's value (the merge-boundary check: only changed fields are re-validated).
   * Undeclared names are issues only when `extraFields` is `"forbid"`.
   */
  validateField(name: string, value: unknown): readonly ValidationIssue[] {
    let v = this.#perField.get(name);
    if (v === undefined) {
      const f = this.fields.get(name);
      if (!f) {
        // Not cached: undeclared names are unbounded.
        return this.extraFields === "forbid" ? [{ field: name, path: `/${name}`, message: undeclaredMessage(name, this.fieldNames) }] : EMPTY_ISSUES;
      }
      if (f.type.kind === "any") v = null;
      else {
        const s = typeNodeToJsonSchema(f.type);
        v = compileValidator(this.records.size ? { ...s, $defs: this.#defs } : s, name);
      }
      this.#perField.set(name, v);
    }
    return v === null ? EMPTY_ISSUES : v(value);
  }

  /**
   * Check the schema's own defaults against its types (called by `compile()`); a mismatch is an
   * `invalid_state_schema` compile error.
   */
  checkDefaults(): void {
    if (this.#defaultsChecked) return;
    const issues = this.validate(this.defaults).filter((i) => this.fields.get(i.field)?.hasDefault);
    if (issues.length) {
      const i = issues[0]!;
      throw compileError("invalid_state_schema", `default of field "${i.field}" does not match its type: ${i.path} ${i.message}`, {
        field: i.field,
      });
    }
    this.#defaultsChecked = true;
  }

  /**
   * Build a validated, frozen state from defaults plus `initial` (invoke / subgraph entry). The
   * caller's plain arrays / objects are copied (deep-frozen copies), never frozen in place; values
   * that are already frozen are shared. Throws `StateValidationError` naming the offending fields.
   */
  create(initial?: Readonly<Record<string, unknown>>, boundary = "invoke entry"): Readonly<S> {
    if (initial !== undefined && (typeof initial !== "object" || initial === null || Array.isArray(initial))) {
      throw new StateValidationError([{ field: "(state)", path: "", message: "initial state must be a mapping" }], {
        boundary,
      });
    }
    const out: Record<string, unknown> = { ...(this.defaults as Record<string, unknown>) };
    if (initial) {
      for (const k of Object.keys(initial)) {
        const v = initial[k];
        if (v !== undefined) out[k] = frozenCopy(v); // the caller's objects stay theirs (and mutable)
      }
    }
    const issues = this.validate(out);
    Object.freeze(out);
    if (issues.length) throw new StateValidationError(issues, { state: out, invalidState: out, boundary });
    return out as Readonly<S>;
  }
}

/**
 * What an open schema (`extraFields: "allow"`) adds to its state and update types: any other key.
 * A closed schema (the default) adds nothing, so TypeScript refuses an unknown key in an initial
 * state or signal payload literal — the runtime refuses it too.
 */
export type OpenIf<O> = O extends { readonly extraFields: "allow" } ? StateRecord : unknown;

/** State type of a schema. */
export type StateOf<X> = X extends StateSchema<infer S, infer _U> ? S : never;
/** Partial-update type of a schema. */
export type UpdateOf<X> = X extends StateSchema<infer _S, infer U> ? U : never;

function collectRecordTypes(configs: Iterable<FieldConfig>, into: Map<string, RecordType<unknown>>): void {
  for (const c of configs) {
    for (const r of c.recordTypes) {
      const prev = into.get(r.name);
      if (prev && prev !== r) {
        throw compileError("invalid_state_schema", `two different record types are named "${r.name}"`);
      }
      if (!prev) {
        into.set(r.name, r);
        collectRecordTypes(Object.values(r.fields).map((f) => f.config), into);
      }
    }
  }
}

function recordFromType(r: RecordType<unknown>): RecordDefinition {
  const fields = new Map<string, FieldDefinition>();
  for (const [n, b] of Object.entries(r.fields)) fields.set(n, fieldFromConfig(n, b.config));
  return { name: r.name, fields };
}

/**
 * Declare a state schema with typed field builders; the state and update types are inferred.
 *
 * ```ts
 * const State = defineState({ count: field.int().default(0), log: field.list(field.string()).default([]).reducer(append) });
 * ```
 */
export function defineState<F extends Record<string, AnyFieldBuilder>, const O extends StateSchemaOptions = {}>(
  fields: F,
  options: O = {} as O,
): StateSchema<ValuesOf<F> & OpenIf<O>, UpdatesOf<F> & OpenIf<O>> {
  const defs = new Map<string, FieldDefinition>();
  for (const [name, b] of Object.entries(fields)) {
    if (!(b instanceof FieldBuilder)) {
      throw compileError("invalid_state_schema", `field "${name}" is not a field builder`, { field: name });
    }
    defs.set(name, fieldFromConfig(name, b.config));
  }
  const recordTypes = new Map<string, RecordType<unknown>>();
  collectRecordTypes(Object.values(fields).map((f) => f.config), recordTypes);
  const records = new Map<string, RecordDefinition>();
  for (const r of recordTypes.values()) records.set(r.name, recordFromType(r));
  return new StateSchema(defs, records, options) as StateSchema<ValuesOf<F> & OpenIf<O>, UpdatesOf<F> & OpenIf<O>>;
}

/**
 * Declare a state schema in the document form (type strings, spec-form reducers, named records):
 *
 * ```ts
 * stateSchema({ fields: { log: { type: "list<error_entry>", reducer: "append", default: [] } },
 *               records: { error_entry: { fields: { code: { type: "int" } } } } });
 * ```
 */
export function stateSchema<const Spec extends StateSpec>(spec: Spec): StateSchema<StateFromSpec<Spec>, UpdateFromSpec<Spec>> {
  if (typeof spec !== "object" || spec === null || typeof spec.fields !== "object" || spec.fields === null) {
    throw compileError("invalid_state_schema", "a state spec needs a `fields` mapping");
  }
  const defs = new Map<string, FieldDefinition>();
  for (const [name, f] of Object.entries(spec.fields)) defs.set(name, fieldFromSpec(name, f));
  const records = new Map<string, RecordDefinition>();
  for (const [name, r] of Object.entries(spec.records ?? {})) {
    if (r instanceof RecordType) {
      const map = new Map<string, RecordType<unknown>>([[name, r]]);
      collectRecordTypes(Object.values(r.fields).map((f) => f.config), map);
      for (const rt of map.values()) records.set(rt.name, recordFromType(rt));
      continue;
    }
    if (typeof r !== "object" || r === null || typeof r.fields !== "object") {
      throw compileError("invalid_state_schema", `record "${name}" needs a \`fields\` mapping`);
    }
    const fields = new Map<string, FieldDefinition>();
    for (const [fn, fs] of Object.entries(r.fields)) fields.set(fn, fieldFromSpec(fn, fs));
    records.set(name, { name, fields });
  }
  const { fields: _f, records: _r, ...options } = spec;
  return new StateSchema(defs, records, options) as unknown as StateSchema<StateFromSpec<Spec>, UpdateFromSpec<Spec>>;
}
