/** §5.10 Value matchers: format tokens and assertion sub-keys. */
import { expect } from "chai";
import { Matchers, match, parseToken, withShape, Shapes } from "../../../src/conformance/matcher/index.ts";
import { fails, passes } from "./expect-match.ts";

const V4 = "3b241101-e2bb-4255-8caf-4136c566a962";

describe("matcher §5.10 value matchers", () => {
  describe("token recognition", () => {
    it("parses format tokens, suffixed <uuid-hex-…> labels and binding tokens", () => {
      expect(parseToken("<uuid>")).to.deep.include({ kind: "format", format: "uuid" });
      expect(parseToken("<uuid-hex-5-a>")).to.deep.include({ kind: "format", format: "uuid-hex" });
      expect(parseToken("<trace_id_parent>")).to.deep.include({ kind: "binding" });
      expect(parseToken("<corr_id_1>")).to.deep.include({ kind: "binding" });
      expect(parseToken("*")).to.equal(undefined);
      expect(parseToken("<int>")).to.equal(undefined);
      expect(parseToken("prefix <uuid>")).to.equal(undefined);
    });
  });

  describe("<uuid>", () => {
    it("matches a canonical UUIDv4", () => {
      passes(match({ id: "<uuid>" }, { id: V4 }));
    });
    it("rejects uppercase, a v1 UUID, the dashless form, a bad variant and non-strings", () => {
      for (const bad of [V4.toUpperCase(), "3b241101-e2bb-1255-8caf-4136c566a962", V4.replace(/-/g, ""), "3b241101-e2bb-4255-1caf-4136c566a962", 42]) {
        fails(match({ id: "<uuid>" }, { id: bad }), { path: "expected.id", code: "format", message: "a canonical UUIDv4" });
      }
    });
  });

  describe("<uuid-hex> and labeled forms", () => {
    const hex = V4.replace(/-/g, "");
    it("matches 32 lowercase hex characters", () => {
      passes(match({ id: "<uuid-hex>" }, { id: hex }));
    });
    it("rejects uppercase hex, the dashed form and 31 characters", () => {
      for (const bad of [hex.toUpperCase(), V4, hex.slice(1)]) {
        fails(match({ id: "<uuid-hex>" }, { id: bad }), { path: "expected.id", code: "format" });
      }
    });
    it("suffixed labels do not bind: two labels may hold different or equal values", () => {
      const other = "0".repeat(32);
      passes(match({ a: "<uuid-hex-1>", b: "<uuid-hex-1>", c: "<uuid-hex-5-a>" }, { a: hex, b: other, c: hex }));
      fails(match({ a: "<uuid-hex-1>" }, { a: "xyz" }), { path: "expected.a", code: "format" });
    });
  });

  describe("<any-string>", () => {
    it("matches any non-empty string", () => {
      passes(match({ s: "<any-string>" }, { s: "x" }));
    });
    it('rejects "" and non-strings', () => {
      fails(match({ s: "<any-string>" }, { s: "" }), {
        path: "expected.s",
        code: "format",
        message: 'expected <any-string> (a non-empty string), got ""',
      });
      fails(match({ s: "<any-string>" }, { s: 3 }), { path: "expected.s", code: "format" });
    });
    it("does not match a missing field", () => {
      fails(match({ s: "<any-string>" }, {}), { path: "expected.s", code: "missing_key" });
    });
  });

  describe("<timestamp>", () => {
    it("matches a Date, an epoch number and RFC 3339 strings", () => {
      for (const ok of [new Date(), 1_700_000_000_000, "2024-02-29T12:00:00Z", "2024-01-01T00:00:00.123+02:00"]) {
        passes(match({ t: "<timestamp>" }, { t: ok }));
      }
    });
    it("rejects null, an invalid Date, a date without time and impossible dates", () => {
      for (const bad of [null, new Date(Number.NaN), "2024-01-01", "2023-02-29T00:00:00Z", "yesterday"]) {
        fails(match({ t: "<timestamp>" }, { t: bad }), { path: "expected.t", code: "format" });
      }
    });
  });

  describe("assertion sub-keys", () => {
    const params = { parameters: { implementation_name: "openarmature-ts" } };
    it("non_empty_string: true", () => {
      passes(match({ v: { non_empty_string: true } }, { v: "1.0.0" }));
      fails(match({ v: { non_empty_string: true } }, { v: "" }), { path: "expected.v", code: "format" });
    });
    it("harness_parameterized: hit", () => {
      passes(
        match(
          { name: { harness_parameterized: "implementation_name", non_empty_string: true } },
          { name: "openarmature-ts" },
          {},
          params,
        ),
      );
    });
    it("harness_parameterized: miss is an equality failure, not a wildcard", () => {
      fails(match({ name: { harness_parameterized: "implementation_name" } }, { name: "openarmature" }, {}, params), {
        path: "expected.name",
        code: "value",
        message: 'expected harness parameter implementation_name = "openarmature-ts", got "openarmature"',
      });
    });
    it("harness_parameterized: an unknown name is an error the caller sees, never a pass", () => {
      const m = fails(match({ name: { harness_parameterized: "nope" } }, { name: "x" }, {}, params), {
        path: "expected.name",
        code: "unknown_parameter",
      });
      expect(m.message).to.include('"nope"').and.include("implementation_name");
    });
  });

  describe("programmatic matchers (directive code)", () => {
    it("Matchers.present() accepts any present non-null value", () => {
      passes(match({ a: Matchers.present() }, { a: 0 }));
      fails(match({ a: Matchers.present() }, { a: null }), { path: "expected.a", code: "format" });
    });
    it("Matchers.oneOf", () => {
      passes(match({ s: Matchers.oneOf(["in_flight", "completed"]) }, { s: "completed" }));
      fails(match({ s: Matchers.oneOf(["in_flight", "completed"]) }, { s: "not_started" }), { path: "expected.s", code: "format" });
    });
    it("withShape overrides the shape at one node", () => {
      const e = { attrs: { extras: withShape({ a: 1 }, Shapes.json()) } };
      passes(match(e, { attrs: { extras: '{"a":1}' } }));
      fails(match(e, { attrs: { extras: '{"a":1,"b":2}' } }), { path: "expected.attrs.extras.b", code: "unexpected_key" });
    });
  });
});
