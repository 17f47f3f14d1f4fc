/**
 * Declarative rules (ADR-0052 D2): {@link Rule} checks one field of a form and returns an error
 * string or `null`; {@link RuleSet} applies its rules in insertion order and collects every error.
 * A rule never throws on a value: a bad parameter (unknown type name, invalid regex, missing
 * callable) or a custom check that throws is reported as that rule's error.
 */
import { FormError } from "./errors.ts";
import { FIELD_TYPES, isFieldType, typeName, type FieldType } from "./field-spec.ts";
import type { WorkForm } from "./work-form.ts";

export const CHECK_KINDS = ["required", "type", "range", "pattern", "custom"] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

/** Longest string a `pattern` rule searches (ADR-0052 D6): longer input is a rule error, not a search. */
export const PATTERN_INPUT_LIMIT = 4096;

/** A custom check: return `false` to fail (anything else passes); a throw becomes the rule's error. */
export type CustomCheck = (value: unknown, form: WorkForm) => unknown;

export interface RuleInit {
  readonly ruleId: string;
  readonly field: string;
  readonly check: CheckKind;
  /**
   * `type`: `{ type: FieldType }`; `range`: `{ min?, max? }` (inclusive); `pattern`:
   * `{ pattern, flags? }` (flags: a JS flag string of `imsu`, or Python `re` bits I=2, M=8, S=16);
   * `custom`: `{ callable, error? }`.
   */
  readonly params?: { readonly [key: string]: unknown };
  readonly message?: string | null;
  readonly enabled?: boolean;
}

const INIT_KEYS = new Set(["ruleId", "field", "check", "params", "message", "enabled"]);
const PY_FLAGS: ReadonlyArray<[number, string]> = [
  [2, "i"],
  [8, "m"],
  [16, "s"],
];

export class Rule {
  readonly ruleId: string;
  readonly field: string;
  readonly check: CheckKind;
  readonly params: { readonly [key: string]: unknown };
  readonly message: string | null;
  readonly enabled: boolean;

  constructor(init: RuleInit) {
    for (const key of Object.keys(init)) if (!INIT_KEYS.has(key)) throw new FormError("form_field_invalid", `Rule: unknown key '${key}'`);
    if (typeof init.ruleId !== "string" || init.ruleId === "") throw new FormError("form_field_invalid", "Rule: ruleId must be a non-empty string");
    if (typeof init.field !== "string") throw new FormError("form_field_invalid", `Rule '${init.ruleId}': field must be a string`);
    if (!(CHECK_KINDS as ReadonlyArray<string>).includes(init.check)) throw new FormError("form_field_invalid", `Rule '${init.ruleId}': unknown check ${JSON.stringify(init.check)} (one of ${CHECK_KINDS.join(", ")})`);
    this.ruleId = init.ruleId;
    this.field = init.field;
    this.check = init.check;
    this.params = { ...init.params };
    this.message = init.message ?? null;
    this.enabled = init.enabled ?? true;
  }

  /** This rule's error for `form`, or `null` when it passes (or is disabled). */
  apply(form: WorkForm): string | null {
    if (!this.enabled) return null;
    const value = form.values[this.field];
    const fail = (generated: string): string => this.message ?? `${this.ruleId}: ${this.field} ${generated}`;
    switch (this.check) {
      case "required":
        return value === null || value === undefined ? fail("is required") : null;
      case "type": {
        if (value === null || value === undefined) return null;
        const expected = this.params["type"];
        if (!(FIELD_TYPES as ReadonlyArray<unknown>).includes(expected)) return `${this.ruleId}: unknown type ${JSON.stringify(expected)} (one of ${FIELD_TYPES.join(", ")})`;
        return isFieldType(expected as FieldType, value) ? null : fail(`must be ${String(expected)}, got ${typeName(value)}`);
      }
      case "range": {
        if (value === null || value === undefined) return null;
        if (typeof value !== "number") return fail(`must be numeric, got ${typeName(value)}`);
        const { min, max } = this.params as { min?: unknown; max?: unknown };
        if (typeof min === "number" && value < min) return fail(`must be >= ${min}, got ${value}`);
        if (typeof max === "number" && value > max) return fail(`must be <= ${max}, got ${value}`);
        return null;
      }
      case "pattern": {
        if (value === null || value === undefined) return null;
        if (typeof value !== "string") return fail(`must be a string to match a pattern, got ${typeName(value)}`);
        if (value.length > PATTERN_INPUT_LIMIT) return fail(`is ${value.length} characters, over the ${PATTERN_INPUT_LIMIT}-character pattern input limit`);
        let re: RegExp;
        try {
          re = new RegExp(String(this.params["pattern"] ?? ""), regexFlags(this.params["flags"]));
        } catch (e) {
          return `${this.ruleId}: invalid pattern ${JSON.stringify(this.params["pattern"])}: ${(e as Error).message}`;
        }
        // Search semantics (Python re.search): a match anywhere in the value, not a full match.
        return re.test(value) ? null : fail(`does not match pattern ${JSON.stringify(this.params["pattern"])}`);
      }
      case "custom": {
        const callable = this.params["callable"];
        if (typeof callable !== "function") return `${this.ruleId}: a custom rule needs params.callable (a function)`;
        let ok: unknown;
        try {
          ok = (callable as CustomCheck)(value, form);
        } catch (e) {
          return `${this.ruleId}: custom check raised ${(e as Error)?.name ?? "an error"}: ${(e as Error)?.message ?? String(e)}`;
        }
        if (ok !== false) return null;
        const err = this.params["error"];
        return this.message ?? (typeof err === "string" ? err : `${this.ruleId}: custom check failed for ${this.field}`);
      }
    }
  }
}

/** JS flags from a flag string or Python `re` integer bits; anything else throws (a rule error). */
function regexFlags(flags: unknown): string {
  if (flags === undefined || flags === null || flags === 0 || flags === "") return "";
  if (typeof flags === "string") {
    if (!/^[imsu]*$/.test(flags)) throw new SyntaxError(`unsupported flags '${flags}' (i, m, s, u)`);
    return flags;
  }
  if (typeof flags === "number" && Number.isInteger(flags)) {
    let rest = flags;
    let out = "";
    for (const [bit, f] of PY_FLAGS) if (rest & bit) {
      out += f;
      rest &= ~bit;
    }
    if (rest !== 0) throw new SyntaxError(`unsupported integer flags ${flags} (re.I=2, re.M=8, re.S=16)`);
    return out;
  }
  throw new SyntaxError(`flags must be a string or integer, got ${typeName(flags)}`);
}

export class RuleSet {
  readonly #rules = new Map<string, Rule>();

  constructor(rules: Iterable<Rule | RuleInit> = []) {
    for (const r of rules) this.add(r);
  }

  /** Add a rule (chainable); a duplicate `ruleId` throws `form_rule_duplicate`. */
  add(rule: Rule | RuleInit): this {
    const r = rule instanceof Rule ? rule : new Rule(rule);
    if (this.#rules.has(r.ruleId)) throw new FormError("form_rule_duplicate", `RuleSet: a rule '${r.ruleId}' is already present`);
    this.#rules.set(r.ruleId, r);
    return this;
  }
  remove(ruleId: string): boolean {
    return this.#rules.delete(ruleId);
  }
  get(ruleId: string): Rule | null {
    return this.#rules.get(ruleId) ?? null;
  }
  /** A shallow copy of the rules, in insertion order. */
  rules(): Rule[] {
    return [...this.#rules.values()];
  }
  /** Every rule's error, in insertion order (never short-circuits). */
  applyAll(form: WorkForm): string[] {
    const errors: string[] = [];
    for (const r of this.#rules.values()) {
      const e = r.apply(form);
      if (e !== null) errors.push(e);
    }
    return errors;
  }
}
