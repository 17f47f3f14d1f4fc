/**
 * `openarmature/work`: typed work forms (ADR-0052 D1, D2) — field specs with a coercion table,
 * a lifecycle status graph, declarative rules, and non-mutating fill / validate that collect every
 * error. Value containers only: no scheduler, dispatcher or persistence.
 */
export { FieldSpec, FIELD_TYPES, FIELD_NAME_PATTERN, isFieldType } from "./field-spec.ts";
export type { FieldType, FieldValue, FieldDecl, FieldSpecInit } from "./field-spec.ts";
export { WorkForm, FORM_STATUSES, FORM_TRANSITIONS } from "./work-form.ts";
export type { FormStatus, FormValues, FieldSpecs, SpecOf, WorkFormInit } from "./work-form.ts";
export { Rule, RuleSet, CHECK_KINDS, PATTERN_INPUT_LIMIT } from "./rules.ts";
export type { CheckKind, CustomCheck, RuleInit } from "./rules.ts";
export { fillForm, validateForm } from "./fill.ts";
export type { FormOptions } from "./fill.ts";
export { FormError } from "./errors.ts";
export type { FormErrorCategory } from "./errors.ts";
