/** §8.4 Single values: numbers by value, booleans and strings never numbers, exact floats,
 * case-sensitive strings, span-attribute typing and JSON-encoded strings. */
import { expect } from "chai";
import { Shapes, match, typed, formatMismatch, withShape } from "../../../src/conformance/matcher/index.ts";
import { fails, passes } from "./expect-match.ts";

describe("matcher §8.4 single values", () => {
  describe("numbers", () => {
    it("1 matches 1.0 (numbers compare by value)", () => {
      passes(match(1, 1.0));
      passes(match({ n: 1.0 }, { n: 1 }));
    });
    it("1 does not match 2", () => {
      fails(match({ v: 20 }, { v: 10 }, {}, { label: "expected.final_state" }), {
        path: "expected.final_state.v",
        code: "value",
        message: "expected 20, got 10",
      });
    });
    it("a boolean never matches a number", () => {
      fails(match(1, true), { path: "expected", code: "type", message: "expected number 1, got boolean true" });
      fails(match(true, 1), { path: "expected", code: "type", message: "expected boolean true, got number 1" });
      fails(match(0, false), { path: "expected", code: "type" });
    });
    it("a string never matches a number", () => {
      fails(match("1", 1), { path: "expected", code: "type", message: 'expected string "1", got number 1' });
      fails(match(1, "1"), { path: "expected", code: "type" });
    });
    it("floats compare exactly as binary64", () => {
      passes(match(0.1 + 0.2, 0.30000000000000004));
      fails(match(0.3, 0.1 + 0.2), { path: "expected", code: "value" });
    });
    it("an observed bigint compares by value", () => {
      passes(match(5, 5n));
      fails(match(5, 6n), { path: "expected", code: "value" });
    });
  });

  describe("strings and booleans", () => {
    it("strings compare case-sensitively", () => {
      passes(match("Done", "Done"));
      fails(match("Done", "done"), { path: "expected", code: "value", message: 'expected "Done", got "done"' });
    });
    it("booleans compare by value", () => {
      passes(match(false, false));
      fails(match(false, true), { path: "expected", code: "value" });
    });
    it("a bare \"*\" is a literal, not a matcher", () => {
      passes(match("*", "*"));
      fails(match("*", "anything"), { path: "expected", code: "value", message: 'expected "*", got "anything"' });
    });
  });

  describe("span-attribute typing (numbers: typed)", () => {
    const attrs = Shapes.typed();
    it("a YAML float matches only a double attribute", () => {
      passes(match({ x: 1.5 }, { x: { type: "double", value: 1.5 } }, attrs));
      fails(match({ x: 2.5 }, { x: typed("int", 2) }, attrs), { path: "expected.x", code: "numeric_type" });
    });
    it("typed(\"int\") matches only an int attribute", () => {
      passes(match({ x: typed("int", 3) }, { x: { type: "int", value: 3 } }, attrs));
      fails(match({ x: typed("int", 3) }, { x: { type: "double", value: 3 } }, attrs), {
        path: "expected.x",
        code: "numeric_type",
        message: "expected an int attribute 3, got double 3",
      });
    });
    it("typed(\"double\") rejects an int attribute", () => {
      passes(match({ x: typed("double", 3) }, { x: { type: "double", value: 3 } }, attrs));
      fails(match({ x: typed("double", 3) }, { x: { type: "int", value: 3 } }, attrs), {
        path: "expected.x",
        code: "numeric_type",
      });
    });
    it("a whole number compares by value against either type or a plain number", () => {
      passes(match({ x: 3 }, { x: { type: "int", value: 3 } }, attrs));
      passes(match({ x: 3 }, { x: { type: "double", value: 3 } }, attrs));
      passes(match({ x: 3 }, { x: 3 }, attrs));
      fails(match({ x: 3 }, { x: { type: "int", value: 4 } }, attrs), { path: "expected.x", code: "value" });
    });
    it("tagged strings, booleans and arrays unwrap", () => {
      passes(match({ s: "a", b: true, l: [1, 2] }, { s: { type: "string", value: "a" }, b: { type: "boolean", value: true }, l: { type: "int[]", value: [1, 2] } }, attrs));
      fails(match({ l: [1.5] }, { l: { type: "int[]", value: [1] } }, attrs), { path: "expected.l[0]", code: "numeric_type" });
      fails(match({ b: 1 }, { b: { type: "boolean", value: true } }, attrs), { path: "expected.b", code: "type" });
    });
    it("without typing, a {type, value} mapping is just a mapping", () => {
      fails(match({ x: 3 }, { x: { type: "int", value: 3 } }), { path: "expected.x", code: "type" });
    });
  });

  describe("JSON-encoded strings (decode: json)", () => {
    const args = Shapes.named({ keys: { arguments: Shapes.json() } });
    it("compares after decoding both sides, whatever the separators", () => {
      passes(match({ arguments: '{"a": 1, "b": [true]}' }, { arguments: '{"b":[true],"a":1}' }, args));
      passes(match({ arguments: { a: 1, b: [true] } }, { arguments: '{"a":1,"b":[true]}' }, args));
    });
    it("a decoded value differing fails at the inner path", () => {
      fails(match({ arguments: { a: 1 } }, { arguments: '{"a":2}' }, args), {
        path: "expected.arguments.a",
        code: "value",
      });
    });
    it("is exact by default: an extra member fails", () => {
      fails(match({ arguments: { a: 1 } }, { arguments: '{"a":1,"b":2}' }, args), {
        path: "expected.arguments.b",
        code: "unexpected_key",
      });
    });
    it("is a JSON document: null is not missing", () => {
      passes(match({ arguments: { a: null } }, { arguments: '{"a":null}' }, args));
      fails(match({ arguments: { a: null } }, { arguments: "{}" }, args), { path: "expected.arguments.a", code: "missing_key" });
    });
    it("an observed string that is not JSON is a json_decode mismatch", () => {
      const m = fails(match({ arguments: { a: 1 } }, { arguments: "{a:1" }, args), {
        path: "expected.arguments",
        code: "json_decode",
      });
      expect(formatMismatch(m)).to.match(/^expected\.arguments: expected a JSON-encoded string, got "\{a:1"/);
    });
    it("a JSON-encoded span attribute is unwrapped, then decoded (attribute_parses_as_object)", () => {
      const written = { extras: withShape({ a: 1, n: null }, Shapes.json()) };
      passes(match(written, { extras: { type: "string", value: '{"n":null,"a":1}' } }, Shapes.typed()));
      fails(match(written, { extras: { type: "string", value: '{"a":1}' } }, Shapes.typed()), {
        path: "expected.extras.n",
        code: "missing_key",
      });
    });
    it("a format token applies to the raw string", () => {
      passes(match({ arguments: "<any-string>" }, { arguments: "{}" }, args));
      fails(match({ arguments: "<any-string>" }, { arguments: "" }, args), { path: "expected.arguments", code: "format" });
    });
  });
});
