/** §8.4 Mappings, Absence and Null. */
import { expect } from "chai";
import { Shapes, match, formatMismatch } from "../../../src/conformance/matcher/index.ts";
import { fails, passes } from "./expect-match.ts";

describe("matcher §8.4 mappings", () => {
  describe("named keys (default)", () => {
    it("checks only the written keys, at every depth", () => {
      passes(match({ a: 1, nested: { b: 2 } }, { a: 1, extra: true, nested: { b: 2, more: [1] } }));
    });
    it("a missing key fails with a readable message", () => {
      const m = fails(match({ usage: { prompt_tokens: 3 } }, { usage: {} }, {}, { label: "expected.event" }), {
        path: "expected.event.usage.prompt_tokens",
        code: "missing_key",
      });
      expect(formatMismatch(m)).to.equal("expected.event.usage.prompt_tokens: expected 3, got nothing (missing)");
    });
    it("{} matches any present non-null entry, never null", () => {
      passes(match([{}, {}], [{ a: 1 }, "err"]));
      fails(match([{}], [null]), { path: "expected[0]", code: "type" });
    });
    it("a nested mapping needs a present record: null or missing cannot satisfy it", () => {
      fails(match({ usage: { prompt_tokens: null } }, { usage: null }), { path: "expected.usage", code: "type", message: "got null" });
      fails(match({ usage: { prompt_tokens: null } }, {}), { path: "expected.usage", code: "missing_key" });
      passes(match({ usage: { prompt_tokens: null } }, { usage: {} }));
    });
    it("keys that are not identifiers are bracketed in paths", () => {
      fails(match({ "openarmature.node.name": "a" }, { "openarmature.node.name": "b" }), {
        path: 'expected["openarmature.node.name"]',
        code: "value",
      });
    });
    it("prototype keys of Object are never read as observed fields", () => {
      fails(match({ constructor: "x" }, {}), { path: "expected.constructor", code: "missing_key" });
    });
    it("reads getters of implementation records", () => {
      class Event {
        get phase(): string {
          return "completed";
        }
      }
      passes(match({ phase: "completed" }, new Event()));
      fails(match({ phase: "started" }, new Event()), { path: "expected.phase", code: "value" });
    });
  });

  describe("exact positions vs named nested", () => {
    const state = { count: 1, nested: { a: 1 } };
    it("exact: the written mapping is the whole value", () => {
      passes(match(state, { count: 1, nested: { a: 1 } }, Shapes.exact()));
    });
    it("exact: an omitted top-level key fails", () => {
      fails(match(state, { count: 1, nested: { a: 1 }, extra: 2 }, Shapes.exact(), { label: "expected.final_state" }), {
        path: "expected.final_state.extra",
        code: "unexpected_key",
        message: "unexpected key at an exact position, got 2",
      });
    });
    it("exact applies at every depth, while named ignores the nested extra key", () => {
      const observed = { count: 1, nested: { a: 1, b: 2 } };
      fails(match(state, observed, Shapes.exact()), { path: "expected.nested.b", code: "unexpected_key" });
      passes(match(state, observed, Shapes.named()));
    });
    it("exact: a written key must be present", () => {
      fails(match(state, { count: 1 }, Shapes.exact()), { path: "expected.nested", code: "missing_key" });
    });
    it("a record inside an exact position still matches by named keys", () => {
      const shape = Shapes.exact({ keys: { response: Shapes.record({ keys: { raw: Shapes.document() } }) } });
      const written = { response: { model: "m", raw: { id: 1 } } };
      passes(match(written, { response: { model: "m", usage: { t: 1 }, raw: { id: 1 } } }, shape));
      fails(match(written, { response: { model: "m", raw: { id: 1, extra: 0 } } }, shape), {
        path: "expected.response.raw.extra",
        code: "unexpected_key",
      });
      fails(match(written, { response: { model: "m", raw: { id: 1 } }, other: 1 }, shape), {
        path: "expected.other",
        code: "unexpected_key",
      });
    });
    it("mapOf applies one shape to every value", () => {
      const shape = Shapes.mapOf(Shapes.list("ordered", Shapes.named({ keys: { post_state: Shapes.exact() } })));
      passes(match({ obs: [{ post_state: { v: 1 } }] }, { obs: [{ phase: "completed", post_state: { v: 1 } }] }, shape));
      fails(match({ obs: [{ post_state: { v: 1 } }] }, { obs: [{ post_state: { v: 1, w: 2 } }] }, shape), {
        path: "expected.obs[0].post_state.w",
        code: "unexpected_key",
      });
    });
  });

  describe("absence", () => {
    it("absent_keys inside a list entry: the entry's fields must be absent", () => {
      const written = [{ phase: "completed", absent_keys: ["post_state"] }];
      passes(match(written, [{ phase: "completed" }]));
      fails(match(written, [{ phase: "completed", post_state: { v: 1 } }], {}, { label: "expected.observer_events.obs" }), {
        path: "expected.observer_events.obs[0].post_state",
        code: "not_absent",
        message: "expected to be absent (absent_keys)",
      });
    });
    it("reserved keys are never compared as data keys, even at exact positions", () => {
      passes(match({ a: 1, absent_keys: ["b"], m_absent_keys: ["x"] }, { a: 1 }, Shapes.exact()));
    });
    it("<key>_absent_keys beside a mapping-valued key", () => {
      const written = { metadata: { a: 1 }, metadata_absent_keys: ["secret"] };
      passes(match(written, { metadata: { a: 1, other: 2 } }));
      fails(match(written, { metadata: { a: 1, secret: "s" } }), {
        path: "expected.metadata.secret",
        code: "not_absent",
        message: 'expected to be absent (metadata_absent_keys), got "s"',
      });
    });
    it("<key>_absent_keys without the key itself", () => {
      passes(match({ fields_absent_keys: ["error"] }, { fields: { a: 1 } }));
      fails(match({ fields_absent_keys: ["error"] }, { fields: { error: "e" } }), { path: "expected.fields.error", code: "not_absent" });
    });
    it("on a record a null field counts as absent; on a JSON document it is present", () => {
      const written = { body: {}, body_absent_keys: ["top_n"] };
      passes(match(written, { body: { top_n: null } }, Shapes.record()));
      fails(match(written, { body: { top_n: null } }, Shapes.document({ mapping: "named" })), {
        path: "expected.body.top_n",
        code: "not_absent",
        message: "got null",
      });
      fails(match(written, { body: { top_n: 3 } }, Shapes.record()), { path: "expected.body.top_n", code: "not_absent" });
    });
    it("a malformed absence list is an invalid_expected mismatch", () => {
      fails(match({ absent_keys: "x" }, {}), { path: "expected.absent_keys", code: "invalid_expected" });
    });
  });

  describe("null rule", () => {
    it("record: a written null matches null or missing", () => {
      passes(match({ error: null }, { error: null }, Shapes.record()));
      passes(match({ error: null }, {}, Shapes.record()));
      fails(match({ error: null }, { error: "boom" }, Shapes.record()), {
        path: "expected.error",
        code: "not_null",
        message: 'expected null (not set), got "boom"',
      });
    });
    it("json: a written null matches only null; missing is distinct", () => {
      passes(match({ error: null }, { error: null }, Shapes.document({ mapping: "named" })));
      fails(match({ error: null }, {}, Shapes.document({ mapping: "named" })), { path: "expected.error", code: "missing_key" });
    });
    it("record: a null observed field does not count as an extra key at an exact position", () => {
      passes(match({ a: 1 }, { a: 1, b: null }, Shapes.exact({ nulls: "record" })));
      fails(match({ a: 1 }, { a: 1, b: null }, Shapes.document()), { path: "expected.b", code: "unexpected_key" });
    });
    it("a written value does not match null", () => {
      fails(match({ a: 1 }, { a: null }), { path: "expected.a", code: "type", message: "expected number 1, got null" });
    });
  });

  describe("a beside-directive absence list (Shapes.keysAbsent)", () => {
    const shape = Shapes.named({ keys: { attributes_absent: Shapes.keysAbsent() } });
    it("passes when none of the keys is present; a missing target holds none", () => {
      passes(match({ attributes_absent: ["b", "c"] }, { attributes_absent: { a: 1 } }, shape));
      passes(match({ attributes_absent: ["b"] }, { attributes_absent: null }, shape));
    });
    it("names each present key, even one present as null", () => {
      const m = fails(match({ attributes_absent: ["a", "b", "c"] }, { attributes_absent: { a: 7, b: null } }, shape), {
        path: "expected.attributes_absent.a",
        code: "not_absent",
      });
      expect(formatMismatch(m)).to.equal("expected.attributes_absent.a: expected to be absent (attributes_absent), got 7");
      fails(match({ attributes_absent: ["b"] }, { attributes_absent: { b: null } }, shape), { path: "expected.attributes_absent.b", code: "not_absent" });
    });
    it("a written value that is not a list of key names is an invalid_expected mismatch", () => {
      fails(match({ attributes_absent: "a" }, { attributes_absent: {} }, shape), { path: "expected.attributes_absent", code: "invalid_expected" });
    });
  });

  describe("directive-specific equivalence", () => {
    it("tool_calls: null matching [] (a shape's equivalent)", () => {
      const nullIsEmpty = Shapes.equivalent((e, a) => e === null && Array.isArray(a) && a.length === 0);
      const shape = Shapes.named({ keys: { tool_calls: nullIsEmpty } });
      passes(match({ tool_calls: null }, { tool_calls: [] }, shape));
      fails(match({ tool_calls: null }, { tool_calls: [{ id: 1 }] }, shape), { path: "expected.tool_calls", code: "not_null" });
    });
  });
});
