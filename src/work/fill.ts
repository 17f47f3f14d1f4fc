/**
 * `fillForm` / `validateForm` (ADR-0052 D2): the functional API. Neither mutates its input nor
 * checks the status graph; both return a new form (same identity) whose status is `validated` or
 * `error` from this pass, with every field error then every rule error collected in order.
 */
import type { FieldSpecs, WorkForm } from "./work-form.ts";
import type { RuleSet } from "./rules.ts";

export interface FormOptions {
  readonly ruleset?: RuleSet | null;
}

/**
 * Fill `form` with `values` and validate. Declared fields first: a supplied value wins (the
 * form's current values count as supplied, `values` overriding them), else a non-null default is
 * copied; a required field with neither stays absent for validation to report. Every undeclared
 * key is then propagated unchanged — the direct API is an open-value container (the CLI closes it).
 */
export function fillForm<F extends FieldSpecs>(form: WorkForm<F>, values: { readonly [key: string]: unknown }, options: FormOptions = {}): WorkForm<F> {
  const supplied: Record<string, unknown> = { ...form.values, ...values };
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(form.fields)) {
    if (Object.hasOwn(supplied, name)) out[name] = supplied[name];
    else if (spec.default !== null) out[name] = structuredClone(spec.default);
  }
  for (const [key, value] of Object.entries(supplied)) if (!Object.hasOwn(form.fields, key)) out[key] = value;
  return validateForm(form.copy({ values: out, status: "filled", validationErrors: [] }), options);
}

/**
 * Validate `form`: a required field whose value is `null` / absent is an error; other non-null
 * declared values are coerced (a failure keeps the original value and records the error); the
 * ruleset then sees a copy with the coerced values and its errors follow the field errors.
 */
export function validateForm<F extends FieldSpecs>(form: WorkForm<F>, options: FormOptions = {}): WorkForm<F> {
  const errors: string[] = [];
  const values: Record<string, unknown> = { ...form.values };
  for (const [name, spec] of Object.entries(form.fields)) {
    const v = values[name];
    if (v === null || v === undefined) {
      if (spec.required) errors.push(`field '${name}': required but missing`);
      continue;
    }
    try {
      values[name] = spec.coerce(v);
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  const coerced = form.copy({ values });
  if (options.ruleset) errors.push(...options.ruleset.applyAll(coerced as unknown as WorkForm));
  return coerced.copy({ status: errors.length > 0 ? "error" : "validated", validationErrors: errors });
}
