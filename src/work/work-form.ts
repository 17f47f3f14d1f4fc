/**
 * {@link WorkForm} (ADR-0052 D1): a typed value container with a lifecycle status. It is not a
 * work engine: nothing here submits, dispatches, persists or completes a form — `submitted` and
 * `completed` are transitions of the model only. Immutable by convention: `transitionTo()`,
 * `fillForm()` and `validateForm()` return copies (same `id`); the records are not frozen.
 */
import { randomUUID } from "node:crypto";
import { FormError } from "./errors.ts";
import { FieldSpec, type FieldDecl, type FieldType, type FieldValue } from "./field-spec.ts";

export const FORM_STATUSES = ["draft", "filled", "validated", "error", "submitted", "completed"] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

/** The declared transition graph; `completed` is terminal. */
export const FORM_TRANSITIONS: Readonly<Record<FormStatus, ReadonlyArray<FormStatus>>> = Object.freeze({
  draft: ["filled"],
  filled: ["validated", "error"],
  validated: ["submitted", "error"],
  error: ["draft"],
  submitted: ["completed", "error"],
  completed: [],
});

/** A form's field specs by name. */
export type FieldSpecs = { readonly [name: string]: FieldSpec };

/** The typed values of a form: each declared field optional with its field type, undeclared keys open. */
export type FormValues<F extends FieldSpecs> = { readonly [K in keyof F]?: F[K] extends FieldSpec<infer T> ? FieldValue<T> | null : unknown } & {
  readonly [key: string]: unknown;
};

/** The field spec type a declaration (or spec) produces. */
export type SpecOf<D> = D extends FieldSpec<infer T> ? FieldSpec<T> : D extends { readonly type: infer T extends FieldType } ? FieldSpec<T> : FieldSpec<"str">;

export interface WorkFormInit<F extends FieldSpecs> {
  readonly title?: string;
  readonly fields?: F;
  readonly values?: { readonly [key: string]: unknown };
  readonly status?: FormStatus;
  readonly validationErrors?: ReadonlyArray<string>;
  readonly id?: string;
  readonly metadata?: { readonly [key: string]: unknown };
}

const INIT_KEYS = new Set(["title", "fields", "values", "status", "validationErrors", "id", "metadata"]);

export class WorkForm<F extends FieldSpecs = FieldSpecs> {
  /** Element identity: a UUID (see {@link formId}). */
  readonly id: string;
  readonly metadata: { readonly [key: string]: unknown };
  readonly title: string;
  readonly fields: F;
  readonly values: FormValues<F>;
  readonly status: FormStatus;
  readonly validationErrors: ReadonlyArray<string>;

  constructor(init: WorkFormInit<F> = {}) {
    if (typeof init !== "object" || init === null) throw new FormError("form_field_invalid", "WorkForm: expected an init record");
    for (const key of Object.keys(init)) if (!INIT_KEYS.has(key)) throw new FormError("form_field_invalid", `WorkForm: unknown key '${key}' (allowed: ${[...INIT_KEYS].join(", ")})`);
    if (init.title !== undefined && typeof init.title !== "string") throw new FormError("form_field_invalid", "WorkForm: title must be a string");
    const fields = init.fields ?? ({} as F);
    for (const [name, spec] of Object.entries(fields)) {
      if (!(spec instanceof FieldSpec)) throw new FormError("form_field_invalid", `WorkForm: fields.${name} is not a FieldSpec (use WorkForm.create to declare fields as records)`);
    }
    if (init.values !== undefined && (typeof init.values !== "object" || init.values === null || Array.isArray(init.values))) {
      throw new FormError("form_field_invalid", "WorkForm: values must be a record");
    }
    const status = init.status ?? "draft";
    if (!(FORM_STATUSES as ReadonlyArray<string>).includes(status)) throw new FormError("form_field_invalid", `WorkForm: unknown status ${JSON.stringify(status)} (one of ${FORM_STATUSES.join(", ")})`);
    this.id = init.id ?? randomUUID();
    this.metadata = { ...init.metadata };
    this.title = init.title ?? "";
    this.fields = { ...fields };
    this.values = { ...init.values } as FormValues<F>;
    this.status = status;
    this.validationErrors = [...(init.validationErrors ?? [])];
  }

  /**
   * Declare a form from field records (or specs), keyed by field name; each record becomes
   * `new FieldSpec({ name: key, ...record })`, so the values are typed from the declarations:
   *
   * ```ts
   * const form = WorkForm.create({ fields: { age: { type: "int" } } });
   * form.get("age"); // number | null | undefined
   * ```
   */
  static create<const D extends { readonly [name: string]: FieldDecl | FieldSpec }>(
    init: Omit<WorkFormInit<FieldSpecs>, "fields"> & { readonly fields?: D },
  ): WorkForm<{ readonly [K in keyof D]: SpecOf<D[K]> }> {
    const fields: Record<string, FieldSpec> = {};
    for (const [name, decl] of Object.entries(init.fields ?? {})) {
      if (decl instanceof FieldSpec) fields[name] = decl;
      else if (typeof decl !== "object" || decl === null || Array.isArray(decl)) throw new FormError("form_field_invalid", `WorkForm: fields.${name} must be a declaration record`);
      else fields[name] = new FieldSpec({ ...(decl as FieldDecl), name });
    }
    return new WorkForm({ ...init, fields: fields as { readonly [K in keyof D]: SpecOf<D[K]> } });
  }

  /** The string form of the element UUID. */
  get formId(): string {
    return this.id;
  }

  /** A value by name, or `fallback` when absent. */
  get<K extends keyof F & string>(name: K): FormValues<F>[K] | undefined;
  get(name: string, fallback?: unknown): unknown;
  get(name: string, fallback?: unknown): unknown {
    return Object.hasOwn(this.values, name) ? this.values[name] : fallback;
  }

  /** Declared field names, in declaration order. */
  fieldNames(): Array<keyof F & string> {
    return Object.keys(this.fields);
  }

  /** `validated` or `completed` (not `submitted`): a readiness convenience, not proof work happened. */
  isComplete(): boolean {
    return this.status === "validated" || this.status === "completed";
  }

  /** A copy in `status`; only the transition table is checked (repeated and outgoing-from-completed are invalid). */
  transitionTo(status: FormStatus): WorkForm<F> {
    const allowed = FORM_TRANSITIONS[this.status];
    if (!allowed.includes(status)) {
      throw new FormError(
        "form_transition_invalid",
        `WorkForm ${this.id}: cannot transition ${this.status} -> ${String(status)}; allowed: ${allowed.length > 0 ? allowed.join(", ") : "(none: completed is terminal)"}`,
      );
    }
    return this.copy({ status });
  }

  /** A copy with some parts replaced (same identity). */
  copy(changes: { readonly values?: { readonly [key: string]: unknown }; readonly status?: FormStatus; readonly validationErrors?: ReadonlyArray<string> } = {}): WorkForm<F> {
    return new WorkForm<F>({
      id: this.id,
      metadata: this.metadata,
      title: this.title,
      fields: this.fields,
      values: changes.values ?? this.values,
      status: changes.status ?? this.status,
      validationErrors: changes.validationErrors ?? this.validationErrors,
    });
  }

  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      metadata: this.metadata,
      title: this.title,
      fields: Object.fromEntries(Object.entries(this.fields).map(([k, f]) => [k, f.toJSON()])),
      values: this.values,
      status: this.status,
      validation_errors: this.validationErrors,
    };
  }
}
