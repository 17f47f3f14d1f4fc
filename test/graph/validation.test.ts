import { expect } from "chai";
import AjvModule from "ajv";
import { compileValidator } from "../../src/graph/validation.ts";

// The per-field validators answer "valid" for the commonest schemas without entering ajv (a perf
// fast path); every verdict must stay ajv's own, and every rejection keeps ajv's issue wording.
describe("compileValidator: the plain-JS fast path agrees with ajv", () => {
  const reference = new AjvModule.default({ allErrors: true, strict: false, validateFormats: false });
  const values: unknown[] = [
    0, -0, 1, -7, 1.5, 2 ** 53, Number.MAX_VALUE, Infinity, -Infinity, NaN, "", "1", true, false, null, undefined,
    [], ["a", "b"], ["a", 1], [1, 2], [1.5], [Infinity], [null], [["a"]], [[1, 2], [3]], [[1], ["x"]], { a: 1 },
    // A sparse list: its hole reads as undefined.
    (() => { const a: unknown[] = []; a[1] = "x"; return a; })(),
  ];
  const schemas: Record<string, unknown>[] = [
    { type: "string" }, { type: "integer" }, { type: "number" }, { type: "boolean" }, { type: "null" },
    { type: "array", items: { type: "string" } }, { type: "array", items: { type: "integer" } },
    { type: "array", items: { type: "array", items: { type: "integer" } } },
    // Not fast-pathed (extra keywords): still exactly ajv.
    { type: "integer", minimum: 0 }, { type: "array", items: { type: "string" }, maxItems: 1 },
  ];
  for (const schema of schemas) {
    it(`${JSON.stringify(schema)}: same verdict as ajv for every value, ajv's issues on rejection`, () => {
      const ours = compileValidator(schema, "f");
      const ajvFn = reference.compile(schema);
      for (const v of values) {
        const issues = ours(v);
        expect(issues.length === 0, `${JSON.stringify(schema)} on ${String(v)}`).to.equal(ajvFn(v));
        if (issues.length) expect(issues.map((i) => i.message)).to.deep.equal((ajvFn.errors ?? []).map((e) => e.message ?? e.keyword));
      }
    });
  }
});
