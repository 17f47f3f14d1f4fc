/** Work forms (ADR-0052 D1, D2): field specs, coercion, transitions, fill / validate, rules. */
import { expect } from "chai";
import { FieldSpec, FormError, Rule, RuleSet, WorkForm, fillForm, validateForm, PATTERN_INPUT_LIMIT, type FormStatus } from "../../src/work/index.ts";

function category(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(FormError);
    return (e as FormError).category;
  }
  throw new Error("expected a FormError");
}

describe("work forms: FieldSpec (D1)", () => {
  it("field names must match [A-Za-z_][A-Za-z0-9_]*", () => {
    for (const ok of ["a", "_x", "A9_b"]) expect(new FieldSpec({ name: ok }).name).to.equal(ok);
    for (const bad of ["", "9a", "a-b", "a b", "é"]) expect(category(() => new FieldSpec({ name: bad })), bad).to.equal("form_field_invalid");
  });
  it("defaults are validated at construction (an int default is fine for float), never coerced later", () => {
    expect(new FieldSpec({ name: "f", type: "float", default: 3 }).default).to.equal(3);
    expect(category(() => new FieldSpec({ name: "n", type: "int", default: "3" as unknown as number }))).to.equal("form_field_invalid");
    expect(category(() => new FieldSpec({ name: "n", type: "int", default: 2.5 }))).to.equal("form_field_invalid");
    expect(category(() => new FieldSpec({ name: "l", type: "list", default: {} as unknown as unknown[] }))).to.equal("form_field_invalid");
    expect(new FieldSpec({ name: "s" }).type).to.equal("str");
    expect(new FieldSpec({ name: "s" }).required).to.equal(true);
  });
  it("extra keys and unknown types are rejected", () => {
    expect(category(() => new FieldSpec({ name: "a", colour: 1 } as never))).to.equal("form_field_invalid");
    expect(category(() => new FieldSpec({ name: "a", type: "date" } as never))).to.equal("form_field_invalid");
  });
  it("coerce follows the D1 table", () => {
    const f = (type: "str" | "int" | "float" | "bool" | "list" | "dict") => new FieldSpec({ name: "x", type });
    expect(f("int").coerce(null)).to.equal(null);
    expect(f("int").coerce(undefined)).to.equal(null);
    expect(f("int").coerce(7)).to.equal(7);
    expect(f("float").coerce(7)).to.equal(7);
    expect(f("int").coerce(" 42 ")).to.equal(42);
    expect(f("float").coerce("4.5")).to.equal(4.5);
    expect(f("float").coerce("1e3")).to.equal(1000);
    for (const t of ["true", "TRUE", "1", "Yes"]) expect(f("bool").coerce(t), t).to.equal(true);
    for (const t of ["false", "0", "NO"]) expect(f("bool").coerce(t), t).to.equal(false);
    const list = [1];
    expect(f("list").coerce(list)).to.equal(list);
    expect(f("str").coerce("s")).to.equal("s");
  });
  it("a coercion mismatch is a TypeError naming field, expected type, actual type and value", () => {
    const cases: Array<[string, unknown, string]> = [
      ["int", "4.5", "got str"],
      ["int", 4.5, "got float"],
      ["bool", "maybe", "got str"],
      ["bool", 1, "got int"],
      ["str", 3, "got int"],
      ["dict", [1], "got list"],
      ["list", "a,b", "got str"],
      ["float", "abc", "got str"],
    ];
    for (const [type, value, got] of cases) {
      const spec = new FieldSpec({ name: "age", type: type as "int" });
      expect(() => spec.coerce(value), `${type} <- ${String(value)}`).to.throw(TypeError, new RegExp(`field 'age': expected ${type}, ${got} \\(`));
    }
    expect(() => new FieldSpec({ name: "age", type: "int" }).coerce("abc")).to.throw(TypeError, /"abc"/);
  });
});

describe("work forms: WorkForm (D1)", () => {
  const form = () => WorkForm.create({ title: "t", fields: { name: {}, age: { type: "int", required: false } } });
  it("formId is the element id; get with default; fieldNames in insertion order", () => {
    const f = new WorkForm({ values: { a: 1 } });
    expect(f.formId).to.equal(f.id).and.match(/^[0-9a-f-]{36}$/);
    expect(f.get("a")).to.equal(1);
    expect(f.get("b", "d")).to.equal("d");
    expect(form().fieldNames()).to.deep.equal(["name", "age"]);
  });
  it("isComplete is true for validated and completed only", () => {
    const statuses: FormStatus[] = ["draft", "filled", "validated", "error", "submitted", "completed"];
    expect(statuses.filter((s) => new WorkForm({ status: s }).isComplete())).to.deep.equal(["validated", "completed"]);
  });
  it("transitionTo follows the declared graph and returns a copy", () => {
    const path: FormStatus[] = ["filled", "validated", "submitted", "completed"];
    let f = new WorkForm();
    for (const s of path) {
      const next = f.transitionTo(s);
      expect(next).to.not.equal(f);
      expect(next.id).to.equal(f.id);
      expect(f.status).to.not.equal(s);
      f = next;
    }
    expect(new WorkForm({ status: "error" }).transitionTo("draft").status).to.equal("draft");
    expect(new WorkForm({ status: "filled" }).transitionTo("error").status).to.equal("error");
    expect(new WorkForm({ status: "submitted" }).transitionTo("error").status).to.equal("error");
  });
  it("invalid, repeated and outgoing-from-completed transitions throw listing the allowed destinations", () => {
    expect(() => new WorkForm().transitionTo("validated")).to.throw(FormError, /draft -> validated; allowed: filled/);
    expect(() => new WorkForm({ status: "filled" }).transitionTo("filled")).to.throw(FormError, /allowed: validated, error/);
    expect(() => new WorkForm({ status: "completed" }).transitionTo("error")).to.throw(FormError, /none: completed is terminal/);
    expect(category(() => new WorkForm({ status: "validated" }).transitionTo("draft"))).to.equal("form_transition_invalid");
  });
  it("forbids extra keys and unknown statuses", () => {
    expect(category(() => new WorkForm({ owner: 1 } as never))).to.equal("form_field_invalid");
    expect(category(() => new WorkForm({ status: "running" as FormStatus }))).to.equal("form_field_invalid");
  });
  it("values are typed from the field specs", () => {
    const f = fillForm(form(), { name: "Ada", age: "36" });
    const age: number | null | undefined = f.values.age;
    const name: string | null | undefined = f.get("name");
    expect([name, age]).to.deep.equal(["Ada", 36]);
  });
});

describe("work forms: fillForm / validateForm (D2)", () => {
  const declared = () =>
    WorkForm.create({
      fields: {
        name: { type: "str" },
        age: { type: "int" },
        tags: { type: "list", required: false, default: ["x"] },
        score: { type: "float", required: false },
      },
    });
  it("never mutates the source form; supplied wins; defaults copied; undeclared keys propagated", () => {
    const src = declared();
    const before = JSON.stringify(src);
    const out = fillForm(src, { name: "Ada", age: "3", extra: { k: 1 } });
    expect(JSON.stringify(src)).to.equal(before);
    expect(out.status).to.equal("validated");
    expect(out.values).to.deep.equal({ name: "Ada", age: 3, tags: ["x"], extra: { k: 1 } });
    (out.values.tags as unknown[]).push("y");
    expect(src.fields.tags.default).to.deep.equal(["x"]);
    expect(fillForm(src, { name: "a", age: 1, tags: ["z"] }).values.tags).to.deep.equal(["z"]);
  });
  it("collects every field error in declaration order, then every rule error; an explicit null fails required", () => {
    const rules = new RuleSet().add({ ruleId: "r1", field: "name", check: "required" }).add({ ruleId: "r2", field: "age", check: "range", params: { min: 0 } });
    const out = fillForm(declared(), { name: null, age: "old", score: "high" }, { ruleset: rules });
    expect(out.status).to.equal("error");
    expect(out.validationErrors).to.have.length(5);
    expect(out.validationErrors[0]).to.match(/field 'name': required/);
    expect(out.validationErrors[1]).to.match(/field 'age': expected int, got str/);
    expect(out.validationErrors[2]).to.match(/field 'score': expected float/);
    expect(out.validationErrors[3]).to.match(/^r1: name is required/);
    expect(out.validationErrors[4]).to.match(/^r2: age must be numeric, got str/);
    // values that failed coercion are kept as given
    expect(out.values.age).to.equal("old");
  });
  it("rules see the coerced values; prior errors are cleared; status derives from this pass whatever the input status", () => {
    const rules = new RuleSet([{ ruleId: "adult", field: "age", check: "range", params: { min: 18 } }]);
    const bad = fillForm(declared(), { name: "a", age: "12" }, { ruleset: rules });
    expect(bad.validationErrors).to.deep.equal(["adult: age must be >= 18, got 12"]);
    const good = fillForm(bad, { age: "30" }, { ruleset: rules });
    expect(good.status).to.equal("validated");
    expect(good.validationErrors).to.deep.equal([]);
    const completed = new WorkForm({ ...declared(), status: "completed", values: { name: "x" }, fields: declared().fields, id: undefined, metadata: {} } as never);
    expect(validateForm(completed).status).to.equal("error"); // age missing
  });
  it("validateForm coerces without filling defaults and leaves optional absent fields alone", () => {
    const out = validateForm(declared().copy({ values: { name: "a", age: "5" } }));
    expect(out.status).to.equal("validated");
    expect(out.values).to.deep.equal({ name: "a", age: 5 });
  });
});

describe("work forms: rules (D2)", () => {
  const formWith = (values: Record<string, unknown>) => new WorkForm({ values });
  const rule = (check: Rule["check"], params: Record<string, unknown> = {}, extra: Partial<ConstructorParameters<typeof Rule>[0]> = {}) =>
    new Rule({ ruleId: "r", field: "v", check, params, ...extra });
  it("disabled rules return null; message overrides", () => {
    expect(rule("required", {}, { enabled: false }).apply(formWith({}))).to.equal(null);
    expect(rule("required", {}, { message: "need v" }).apply(formWith({}))).to.equal("need v");
  });
  it("required fails only on null / absent", () => {
    expect(rule("required").apply(formWith({ v: null }))).to.be.a("string");
    expect(rule("required").apply(formWith({}))).to.be.a("string");
    for (const v of [0, "", false, []]) expect(rule("required").apply(formWith({ v }))).to.equal(null);
  });
  it("type skips null, accepts int as float, reports an unknown type name as an error", () => {
    expect(rule("type", { type: "int" }).apply(formWith({ v: null }))).to.equal(null);
    expect(rule("type", { type: "float" }).apply(formWith({ v: 3 }))).to.equal(null);
    expect(rule("type", { type: "int" }).apply(formWith({ v: 3.5 }))).to.match(/must be int, got float/);
    expect(rule("type", { type: "dict" }).apply(formWith({ v: [] }))).to.match(/must be dict, got list/);
    expect(rule("type", { type: "date" }).apply(formWith({ v: 1 }))).to.match(/unknown type "date"/);
  });
  it("range skips null, rejects non-numbers, bounds are inclusive", () => {
    const r = rule("range", { min: 1, max: 3 });
    expect(r.apply(formWith({}))).to.equal(null);
    expect(r.apply(formWith({ v: "2" }))).to.match(/must be numeric/);
    expect(r.apply(formWith({ v: true }))).to.match(/must be numeric/);
    expect([0, 1, 3, 4].map((v) => r.apply(formWith({ v })) === null)).to.deep.equal([false, true, true, false]);
    expect(rule("range", { max: 0 }).apply(formWith({ v: -100 }))).to.equal(null);
  });
  it("pattern: search semantics, flags, non-strings, the 4,096 cap, invalid regex as an error", () => {
    expect(rule("pattern", { pattern: "b+" }).apply(formWith({ v: "abbbc" }))).to.equal(null);
    expect(rule("pattern", { pattern: "^b" }).apply(formWith({ v: "abc" }))).to.match(/does not match/);
    expect(rule("pattern", { pattern: "ABC" }).apply(formWith({ v: "xabc" }))).to.match(/does not match/);
    expect(rule("pattern", { pattern: "ABC", flags: 2 }).apply(formWith({ v: "xabc" }))).to.equal(null);
    expect(rule("pattern", { pattern: "ABC", flags: "i" }).apply(formWith({ v: "xabc" }))).to.equal(null);
    expect(rule("pattern", { pattern: "a", flags: 64 }).apply(formWith({ v: "a" }))).to.match(/invalid pattern.*unsupported integer flags/);
    expect(rule("pattern", { pattern: "a" }).apply(formWith({ v: null }))).to.equal(null);
    expect(rule("pattern", { pattern: "a" }).apply(formWith({ v: 1 }))).to.match(/must be a string/);
    expect(rule("pattern", { pattern: "a" }).apply(formWith({ v: "a".repeat(PATTERN_INPUT_LIMIT) }))).to.equal(null);
    expect(rule("pattern", { pattern: "a" }).apply(formWith({ v: "a".repeat(PATTERN_INPUT_LIMIT + 1) }))).to.match(/4096-character/);
    expect(rule("pattern", { pattern: "(" }).apply(formWith({ v: "a" }))).to.match(/^r: invalid pattern "\("/);
  });
  it("custom: needs a callable; false uses message, then params.error, then a fallback; a throw becomes an error", () => {
    expect(rule("custom").apply(formWith({ v: 1 }))).to.match(/needs params.callable/);
    expect(rule("custom", { callable: (v: unknown) => v === 1 }).apply(formWith({ v: 1 }))).to.equal(null);
    expect(rule("custom", { callable: () => false }).apply(formWith({ v: 1 }))).to.equal("r: custom check failed for v");
    expect(rule("custom", { callable: () => false, error: "E" }).apply(formWith({ v: 1 }))).to.equal("E");
    expect(rule("custom", { callable: () => false, error: "E" }, { message: "M" }).apply(formWith({ v: 1 }))).to.equal("M");
    expect(
      rule("custom", {
        callable: () => {
          throw new RangeError("boom");
        },
      }).apply(formWith({ v: 1 })),
    ).to.equal("r: custom check raised RangeError: boom");
  });
  it("RuleSet: chainable add, duplicate throws, remove / get / rules copy, applyAll in order without short-circuit", () => {
    const set = new RuleSet();
    expect(set.add({ ruleId: "a", field: "x", check: "required" })).to.equal(set);
    set.add({ ruleId: "b", field: "y", check: "required" }).add({ ruleId: "c", field: "z", check: "required", enabled: false });
    expect(category(() => set.add({ ruleId: "a", field: "q", check: "required" }))).to.equal("form_rule_duplicate");
    expect(set.applyAll(new WorkForm())).to.deep.equal(["a: x is required", "b: y is required"]);
    const copy = set.rules();
    copy.pop();
    expect(set.rules()).to.have.length(3);
    expect(set.get("zz")).to.equal(null);
    expect(set.get("b")?.field).to.equal("y");
    expect(set.remove("b")).to.equal(true);
    expect(set.remove("b")).to.equal(false);
    expect(category(() => new Rule({ ruleId: "x", field: "f", check: "length" as never }))).to.equal("form_field_invalid");
  });
});
