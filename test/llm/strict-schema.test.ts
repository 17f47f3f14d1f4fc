import { expect } from "chai";
import { isStrictCompatible, strictModeViolation } from "../../src/llm/index.ts";

const obj = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});

describe("llm: OpenAI strict-mode eligibility (§8.1.5)", () => {
  it("accepts schemas inside the strict-mode subset", () => {
    const eligible = [
      obj({ value: { type: "integer" } }),
      obj({}),
      obj({ name: { type: "string", description: "who", pattern: "^[a-z]+$" }, when: { type: "string", format: "date-time" } }, { title: "Person" }),
      obj({ n: { type: ["number", "null"], minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 } }),
      obj({ tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 1, maxItems: 3 } }),
      obj({ choice: { anyOf: [obj({ a: { type: "string" } }), { type: "null" }] }, k: { const: "x" } }),
      obj({ node: { $ref: "#/$defs/node" } }, { $defs: { node: obj({ next: { anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] } }) } }),
      // A property literally named like a keyword is a name, not a keyword.
      obj({ properties: { type: "string" }, default: { type: "boolean" } }),
    ];
    for (const s of eligible) expect([strictModeViolation(s), isStrictCompatible(s)], JSON.stringify(s)).to.deep.equal([null, true]);
  });

  it("names the first place that breaks a strict-mode constraint", () => {
    const cases: Array<[unknown, string]> = [
      [{ type: "object", properties: { v: { type: "integer" } }, required: ["v"] }, "/: an object schema must set additionalProperties: false"],
      [{ ...obj({ v: { type: "integer" } }), additionalProperties: true }, "/: an object schema must set additionalProperties: false"],
      [{ ...obj({ v: { type: "integer" }, w: { type: "string" } }), required: ["v"] }, "/required: property 'w' is not required"],
      [obj({ inner: { type: "object", properties: { x: { type: "string" } }, required: ["x"] } }), "/properties/inner: an object schema must set additionalProperties: false"],
      [obj({ list: { type: "array", items: { type: "object", properties: { x: { type: "string" } }, additionalProperties: false } } }), "/properties/list/items/required: property 'x' is not required"],
      [obj({ s: { type: "string", minLength: 1 } }), "/properties/s: keyword 'minLength' is not supported in strict mode"],
      [obj({ s: { type: "string", default: "x" } }), "/properties/s: keyword 'default' is not supported in strict mode"],
      [obj({ s: { allOf: [{ type: "string" }] } }), "/properties/s: keyword 'allOf' is not supported in strict mode"],
      [obj({ s: { oneOf: [{ type: "string" }] } }), "/properties/s: keyword 'oneOf' is not supported in strict mode"],
      [obj({}, { patternProperties: { "^x": { type: "string" } } }), "/: keyword 'patternProperties' is not supported in strict mode"],
      [obj({ s: { type: "string", format: "uri" } }), "/properties/s/format: 'uri' is not a strict-mode format"],
      [obj({ s: { type: "text" } }), "/properties/s/type: 'text' is not a strict-mode type"],
      [obj({ t: { type: "array", items: [{ type: "string" }] } }), "/properties/t/items: must be a single schema in strict mode"],
      [obj({ r: { $ref: "https://example.com/s.json" } }), "/properties/r/$ref: only local references"],
      [obj({ b: true }), "/properties/b: a strict-mode schema must be an object"],
      [obj({ "a/b": { type: "string", maxLength: 3 } }), "/properties/a~1b: keyword 'maxLength'"],
      [{ anyOf: [obj({})] }, "/type: the root of a strict-mode schema must be type: \"object\""],
      [{ type: "array", items: { type: "string" } }, "/type: the root of a strict-mode schema must be type: \"object\""],
      [obj({}, { $defs: { d: { type: "object", properties: {} } } }), "/$defs/d: an object schema must set additionalProperties: false"],
    ];
    for (const [schema, want] of cases) {
      const got = strictModeViolation(schema);
      expect(got, JSON.stringify(schema)).to.be.a("string").and.contain(want);
      expect(isStrictCompatible(schema)).to.equal(false);
    }
  });

  it("enforces the documented size limits (nesting, properties, enum values)", () => {
    let deep: Record<string, unknown> = obj({ leaf: { type: "string" } });
    for (let i = 0; i < 9; i++) deep = obj({ d: deep });
    expect(strictModeViolation(deep)).to.equal(null); // 10 levels of objects
    expect(strictModeViolation(obj({ d: deep }))).to.contain("objects nest deeper than 10 levels");
    const many = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: "integer" }]));
    expect(strictModeViolation(obj(many))).to.contain("more than 5000 properties");
    const values = Array.from({ length: 1001 }, (_, i) => `v${i}`);
    expect(strictModeViolation(obj({ e: { enum: values } }))).to.contain("more than 1000 enum values");
    expect(strictModeViolation(obj({ e: { enum: values.slice(0, 1000) } }))).to.equal(null);
  });
});
