/** §5.10 binding tokens: one scope per case, present non-null values, equality across occurrences,
 * and joint resolution with the unordered pairing search (first occurrence does not decide). */
import { expect } from "chai";
import { CaseMatcher, Shapes, match } from "../../../src/conformance/matcher/index.ts";
import { fails, passes } from "./expect-match.ts";

describe("matcher §5.10 binding tokens", () => {
  describe("within one assertion", () => {
    it("a token occurring once matches any present non-null value", () => {
      const r = match({ trace_id: "<trace_id_parent>" }, { trace_id: "abc" });
      passes(r);
      expect(r.bindings.get("<trace_id_parent>")).to.equal("abc");
    });
    it("a token never matches null or a missing value", () => {
      fails(match({ id: "<invocation_id_a>" }, { id: null }), {
        path: "expected.id",
        code: "binding",
        message: "expected <invocation_id_a> (a present non-null value), got null",
      });
      fails(match({ id: "<invocation_id_a>" }, {}), { path: "expected.id", code: "missing_key" });
    });
    it("repeated occurrences of the same token must be equal", () => {
      passes(match({ a: "<corr_id_1>", b: ["<corr_id_1>"] }, { a: "c1", b: ["c1"] }));
      fails(match({ a: "<corr_id_1>", b: "<corr_id_1>" }, { a: "c1", b: "c2" }, {}, { label: "expected.metadata" }), {
        path: "expected.metadata.b",
        code: "binding",
        message: 'expected <corr_id_1> = "c1" (bound at expected.metadata.a), got "c2"',
      });
    });
    it("different tokens may hold equal values", () => {
      passes(match({ a: "<trace_id_main>", b: "<trace_id_detached>" }, { a: "t", b: "t" }));
    });
    it("a bound value compares by value, not identity (numbers by value)", () => {
      passes(match({ a: "<n_x>", b: "<n_x>" }, { a: 1, b: 1.0 }));
      passes(match({ a: "<o_x>", b: "<o_x>" }, { a: { k: [1] }, b: { k: [1] } }));
      fails(match({ a: "<o_x>", b: "<o_x>" }, { a: { k: [1] }, b: { k: [2] } }), { path: "expected.b", code: "binding" });
    });
  });

  describe("joint resolution", () => {
    it("across two checks, where the first-occurrence choice would be wrong", () => {
      // log_records (existence): the first matching record binds <span_id_node_a> to "s1", but
      // the span tree needs "s2". Some assignment makes both hold, so the case passes.
      const m = new CaseMatcher()
        .check("expected.log_records", [{ body: "hello", span_id: "<span_id_node_a>" }], [
          { body: "hello", span_id: "s1" },
          { body: "hello", span_id: "s2" },
        ], Shapes.list("existence"))
        .check("expected.span_tree", [{ name: "a", span_id: "<span_id_node_a>" }], [{ name: "a", span_id: "s2" }], Shapes.list("unordered"));
      const r = m.resolve();
      passes(r);
      expect(r.bindings.get("<span_id_node_a>")).to.equal("s2");
      expect(r.searchSteps, "first occurrence alone must not decide this case").to.be.above(0);
    });
    it("fails when no assignment satisfies both checks, showing the best attempt", () => {
      const r = new CaseMatcher()
        .check("expected.log_records", [{ body: "hello", span_id: "<span_id_node_a>" }], [
          { body: "hello", span_id: "s1" },
          { body: "hello", span_id: "s2" },
        ], Shapes.list("existence"))
        .check("expected.span_tree", [{ name: "a", span_id: "<span_id_node_a>" }], [{ name: "a", span_id: "s3" }], Shapes.list("unordered"))
        .resolve();
      fails(r, { path: "expected.span_tree[0].span_id", code: "binding", message: "expected <span_id_node_a> = " });
      fails(r, { path: "case", code: "unsatisfiable", message: "<span_id_node_a>" });
    });
    it("resolves tokens together with an unordered pairing", () => {
      // The first-occurrence pairing binds <id_a>=1, <id_b>=2; the second check needs <id_b>=1.
      const spans = [{ name: "s", id: "<id_a>" }, { name: "s", id: "<id_b>" }];
      const observed = [{ name: "s", id: 1 }, { name: "s", id: 2 }];
      const ok = new CaseMatcher()
        .check("expected.span_tree", spans, observed, Shapes.list("unordered"))
        .check("expected.traces", { first: "<id_b>" }, { first: 1 })
        .resolve();
      passes(ok);
      expect(ok.bindings.get("<id_a>")).to.equal(2);
      const bad = new CaseMatcher()
        .check("expected.span_tree", spans, observed, Shapes.list("unordered"))
        .check("expected.traces", { first: "<id_b>", second: "<id_b>" }, { first: 1, second: 2 })
        .resolve();
      fails(bad, { path: "case", code: "unsatisfiable" });
      expect(bad.mismatches.some((m) => m.code === "binding" && m.path.startsWith("expected.traces."))).to.equal(true);
    });
    it("a token inside an existence list takes whichever candidate the rest of the case needs", () => {
      const records = [
        { level: "WARNING", trace_id: "t1" },
        { level: "WARNING", trace_id: "t2" },
        { level: "INFO", trace_id: "t3" },
      ];
      const written = [{ level: "WARNING", trace_id: "<trace_id_x>" }, { level: "INFO", trace_id: "<trace_id_y>" }];
      const r = new CaseMatcher()
        .check("expected.log_records", written, records, Shapes.list("existence"))
        .check("expected.traces", [{ trace_id: "<trace_id_x>" }, { trace_id: "<trace_id_y>" }], [{ trace_id: "t3" }, { trace_id: "t2" }], Shapes.list("unordered"))
        .resolve();
      passes(r);
      expect(r.bindings.get("<trace_id_x>")).to.equal("t2");
      const no = new CaseMatcher()
        .check("expected.log_records", written, records, Shapes.list("existence"))
        .check("expected.traces", [{ trace_id: "<trace_id_x>" }], [{ trace_id: "t3" }], Shapes.list("unordered"))
        .resolve();
      fails(no, { path: "case", code: "unsatisfiable" });
    });
    it("tokens are resolved through nested unordered children", () => {
      const span = Shapes.recursive((self) => Shapes.named({ keys: { children: Shapes.list("unordered", self) } }));
      const tree = Shapes.list("unordered", span);
      const written = [
        { name: "inv", trace_id: "<trace_id_a>", children: [{ name: "c", trace_id: "<trace_id_a>" }] },
        { name: "inv", trace_id: "<trace_id_b>", children: [{ name: "c" }] },
      ];
      const observed = [
        { name: "inv", trace_id: "T1", children: [{ name: "c", trace_id: "T2" }] },
        { name: "inv", trace_id: "T2", children: [{ name: "c", trace_id: "T2" }] },
      ];
      const r = match(written, observed, tree, { label: "expected.span_tree" });
      passes(r);
      expect(r.bindings.get("<trace_id_a>")).to.equal("T2");
      const broken = structuredClone(observed);
      broken[1].children[0].trace_id = "T3";
      fails(match(written, broken, tree, { label: "expected.span_tree" }), { path: "case", code: "unsatisfiable" });
    });
    it("tokens in a set list are resolved too", () => {
      const r = new CaseMatcher()
        .check("expected.a", ["<v_1>", "<v_2>"], ["x", "y"], Shapes.list("set"))
        .check("expected.b", { first: "<v_2>", second: "<v_1>" }, { first: "x", second: "y" })
        .resolve();
      passes(r);
      // First occurrence binds both tokens to "x", leaving "y" uncovered; the search must not.
      const cover = new CaseMatcher()
        .check("expected.a", ["<v_1>", "<v_2>"], ["x", "y"], Shapes.list("set"))
        .check("expected.b", { a: "<v_1>" }, { a: "x" })
        .resolve();
      passes(cover);
      expect(cover.bindings.get("<v_2>")).to.equal("y");
      const bad = new CaseMatcher()
        .check("expected.a", ["<v_1>"], ["x", "y"], Shapes.list("set"))
        .resolve();
      fails(bad, { path: "expected.a", code: "unpaired_item" });
    });
    it("the loose pass reports token-independent failures directly", () => {
      const r = new CaseMatcher()
        .check("expected.span_tree", [{ name: "a", trace_id: "<trace_id_parent>" }], [{ name: "b", trace_id: "t" }], Shapes.list("unordered"))
        .resolve();
      fails(r, { path: "expected.span_tree[0].name", code: "value" });
      expect(r.mismatches.some((m) => m.code === "unsatisfiable")).to.equal(false);
    });
  });

  describe("bounded search", () => {
    it("a case of normal size resolves quickly (30 spans sharing <corr_id_1>, shuffled)", () => {
      const n = 30;
      const written = Array.from({ length: n }, (_, i) => ({ name: `n${i % 3}`, step: i, correlation_id: "<corr_id_1>", id: `<span_id_${i}>` }));
      const observed = Array.from({ length: n }, (_, i) => ({ name: `n${(n - 1 - i) % 3}`, step: n - 1 - i, correlation_id: "c", id: `s${i}` }));
      const start = Date.now();
      const r = new CaseMatcher()
        .check("expected.span_tree", written, observed, Shapes.list("unordered"))
        .check("expected.links", ["<span_id_0>", "<span_id_29>"], ["s29", "s0"])
        .resolve();
      passes(r);
      expect(Date.now() - start).to.be.below(500);
      const bad = observed.map((o, i) => (i === 7 ? { ...o, correlation_id: "other" } : o));
      const rb = new CaseMatcher().check("expected.span_tree", written, bad, Shapes.list("unordered")).resolve();
      fails(rb, { path: "case", code: "unsatisfiable" });
    });
    it("reports a search_limit mismatch instead of hanging when the cap is hit", () => {
      // Eight independent tokens over ten candidates each: 10^8 assignments, none satisfying the
      // second check.
      const written = Array.from({ length: 8 }, (_, i) => ({ v: `<x_${i}>` }));
      const observed = Array.from({ length: 10 }, (_, i) => ({ v: i }));
      const start = Date.now();
      const r = new CaseMatcher({ maxSearchSteps: 2_000 })
        .check("expected.log_records", written, observed, Shapes.list("existence"))
        .check("expected.other", { a: "<x_0>", b: "<x_7>" }, { a: 1, b: 100 })
        .resolve();
      fails(r, { path: "case", code: "search_limit", message: "stopped after" });
      expect(Date.now() - start).to.be.below(1000);
    });
  });
});
