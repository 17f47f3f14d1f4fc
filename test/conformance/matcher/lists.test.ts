/** §8.4 Lists: complete + ordered by default, unordered (full pairing search), set, existence. */
import { expect } from "chai";
import { Shapes, formatMismatch, match } from "../../../src/conformance/matcher/index.ts";
import { fails, passes } from "./expect-match.ts";

describe("matcher §8.4 lists", () => {
  describe("ordered (default) and lists inside data", () => {
    it("passes in order and complete", () => {
      passes(match([1, "a", { b: true }], [1, "a", { b: true, extra: 1 }]));
      passes(match([], []));
    });
    it("a different order fails per index", () => {
      const r = match(["a", "b"], ["b", "a"], {}, { label: "expected.execution_order" });
      fails(r, { path: "expected.execution_order[0]", code: "value", message: 'expected "a", got "b"' });
      fails(r, { path: "expected.execution_order[1]", code: "value" });
    });
    it("a shorter observed list fails with a length mismatch naming the missing entry", () => {
      fails(match(["a", "b", "c"], ["a", "b"]), {
        path: "expected",
        code: "length",
        message: 'expected 3 items, got 2 (entry [2] "c" has no observed item)',
      });
    });
    it("[] asserts there are none", () => {
      fails(match([], [{ phase: "started" }]), { path: "expected", code: "length", message: "expected 0 items, got 1" });
    });
    it("reports per-index inner mismatches", () => {
      const r = match({ obs: [{ v: 1 }, { v: 2 }, { post_state: { v: 20 } }] }, { obs: [{ v: 1 }, { v: 2 }, { post_state: { v: 10 } }] }, {}, { label: "expected.observer_events" });
      const m = fails(r, { path: "expected.observer_events.obs[2].post_state.v", code: "value" });
      expect(formatMismatch(m)).to.equal("expected.observer_events.obs[2].post_state.v: expected 20, got 10");
    });
    it("a list inside data stays ordered even below an unordered list", () => {
      const shape = Shapes.list("unordered");
      passes(match([{ vec: [1, 2] }, { vec: [3] }], [{ vec: [3] }, { vec: [1, 2] }], shape));
      fails(match([{ vec: [1, 2] }], [{ vec: [2, 1] }], shape), { path: "expected", code: "unpaired_entry" });
    });
    it("a list where a mapping was written is a type mismatch", () => {
      fails(match({ a: [1] }, { a: { x: 1 } }), { path: "expected.a", code: "type", message: "expected a list of 1 item, got mapping" });
    });
  });

  describe("unordered", () => {
    const shape = Shapes.list("unordered");
    it("pairs regardless of order", () => {
      passes(match([{ name: "a" }, { name: "b" }], [{ name: "b" }, { name: "a" }], shape));
    });
    it("finds the pairing where greedy assignment fails", () => {
      // Greedy gives entry [0] (general) item [0], leaving entry [1] (specific) nothing.
      const written = [{ name: "n" }, { name: "n", step: 1 }];
      const observed = [{ name: "n", step: 1 }, { name: "n", step: 2 }];
      passes(match(written, observed, shape));
      const three = [{ k: "x" }, { k: "x", a: 1 }, { k: "x", a: 1, b: 2 }];
      passes(match(three, [{ k: "x", a: 1, b: 2 }, { k: "x", a: 1, b: 3 }, { k: "x", a: 9 }], shape));
    });
    it("fails when no complete one-to-one pairing exists, naming the entry", () => {
      const r = match([{ name: "n", step: 1 }, { name: "n", step: 1 }], [{ name: "n", step: 1 }, { name: "n", step: 2 }], shape, {
        label: "expected.span_tree",
      });
      fails(r, { path: "expected.span_tree", code: "unpaired_entry", message: /no observed item matches entry \[1\] one-to-one/ });
      fails(r, { path: "expected.span_tree", code: "unpaired_item", message: "observed item [1]" });
    });
    it("explains an unpaired entry by its closest item", () => {
      const r = match([{ name: "a" }, { name: "b", status: "OK" }], [{ name: "a" }, { name: "b", status: "ERROR" }], shape, {
        label: "expected.span_tree",
      });
      const m = fails(r, { path: "expected.span_tree", code: "unpaired_entry", message: "no observed item matches entry [1]; closest is observed item [1]" });
      expect(m.causes?.[0]?.path).to.equal("expected.span_tree[1].status");
      fails(r, { path: "expected.span_tree[1].status", code: "value", message: 'expected "OK", got "ERROR"' });
    });
    it("repeats count: an item observed twice must be written twice", () => {
      passes(match(["w", "w"], ["w", "w"], shape));
      fails(match(["w"], ["w", "w"], shape), { path: "expected", code: "length" });
      fails(match(["w", "w"], ["w"], shape), { path: "expected", code: "unpaired_entry" });
    });
    it("nested unordered children pair recursively", () => {
      const span = Shapes.recursive((self) => Shapes.named({ keys: { children: Shapes.list("unordered", self) } }));
      const tree = Shapes.list("unordered", span);
      const written = [{ name: "inv", children: [{ name: "b", children: [] }, { name: "a" }] }];
      const observed = [{ name: "inv", children: [{ name: "a", children: [{ name: "x" }] }, { name: "b", children: [] }] }];
      passes(match(written, observed, tree));
      const wrong = [{ name: "inv", children: [{ name: "a", children: [] }, { name: "b", children: [] }] }];
      fails(match(wrong, observed, tree), { path: "expected[0].children", code: "unpaired_entry" });
    });
  });

  describe("set", () => {
    const shape = Shapes.list("set");
    it("repeats do not count", () => {
      passes(match(["w"], ["w", "w", "w"], shape));
      passes(match(["w", "w"], ["w"], shape));
      passes(match(["a", "b"], ["b", "a", "b"], shape));
      passes(match([], [], shape));
    });
    it("every observed item must be matched by an entry", () => {
      fails(match(["a"], ["a", "b"], shape), { path: "expected", code: "unpaired_item", message: 'observed item [1] "b" matches no entry of the set' });
      fails(match([], ["a"], shape), { path: "expected", code: "unpaired_item" });
    });
    it("every entry must match an observed item", () => {
      fails(match(["a", "c"], ["a"], shape), { path: "expected", code: "unpaired_entry", message: "no observed item matches entry [1] (set)" });
    });
  });

  describe("existence", () => {
    const shape = Shapes.list("existence");
    it("is not exhaustive and entries may share an item", () => {
      passes(match([{ level: "WARNING" }, { level: "WARNING", body: "x" }], [{ level: "INFO" }, { level: "WARNING", body: "x" }], shape));
      passes(match([], [{ level: "INFO" }], shape));
    });
    it("fails when an entry matches no item", () => {
      const r = match([{ level: "ERROR" }], [{ level: "INFO" }, { level: "WARNING" }], shape, { label: "expected.log_records" });
      fails(r, { path: "expected.log_records", code: "unpaired_entry", message: "no observed item matches entry [0] (existence list)" });
      fails(r, { path: "expected.log_records[0].level", code: "value" });
    });
    it("fails against an empty observed list", () => {
      fails(match([{ level: "INFO" }], [], shape), { path: "expected", code: "unpaired_entry", message: "(the observed list is empty)" });
    });
  });
});
