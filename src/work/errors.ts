/**
 * Work-form failures (ADR-0052 D1, D2). A construction or transition failure is a
 * {@link FormError}: a `CategorizedError` with one of the project categories below, its message
 * naming the field, rule or transition it came from. Coercion mismatches are `TypeError`s (D1),
 * and field / rule failures found while filling or validating are collected as strings on the
 * returned form's `validationErrors`, never thrown.
 */
import { CategorizedError } from "../pipeline/middleware/errors.ts";

/**
 * - `form_field_invalid`: a `FieldSpec` / `WorkForm` / `Rule` that cannot be constructed (bad
 *   field name, default of the wrong type, unknown key, unknown status or check kind);
 * - `form_transition_invalid`: `transitionTo()` outside the transition graph;
 * - `form_rule_duplicate`: `RuleSet.add()` of a `ruleId` already present.
 */
export type FormErrorCategory = "form_field_invalid" | "form_transition_invalid" | "form_rule_duplicate";

export class FormError extends CategorizedError {
  override name = "FormError";
  declare readonly category: FormErrorCategory;
  constructor(category: FormErrorCategory, message: string) {
    super(category, message, { transient: false });
  }
}
