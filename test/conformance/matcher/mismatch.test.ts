/** Mismatches are data with readable paths and messages (§8.4). */
import { expect } from "chai";
import { Shapes, formatMismatch, formatMismatches, keyPath, match, render } from "../../../src/conformance/matcher/index.ts";
import { fails, passes } from "./expect-match.ts";

describe("matcher mismatches", () => {
  it("carry path, expected, actual, code and message", () => {
    const r = match({ obs: [{}, {}, { post_state: { v: 20 } }] }, { obs: [{}, {}, { post_state: { v: 10 } }] }, {}, {
      label: "expected.observer_events",
    });
    expect(r.mismatches).to.deep.equal([
      {
        path: "expected.observer_events.obs[2].post_state.v",
        expected: 20,
        actual: 10,
        code: "value",
        message: "expected 20, got 10",
      },
    ]);
    expect(formatMismatch(r.mismatches[0])).to.equal("expected.observer_events.obs[2].post_state.v: expected 20, got 10");
  });

  it("format causes indented under their list-level mismatch", () => {
    const r = match([{ name: "a", status: "OK" }], [{ name: "a", status: "ERROR" }], Shapes.list("unordered"), {
      label: "expected.span_tree",
    });
    expect(formatMismatches(r.mismatches)).to.equal(
      [
        "expected.span_tree: no observed item matches entry [0]; closest is observed item [0]",
        '    expected.span_tree[0].status: expected "OK", got "ERROR"',
        'expected.span_tree: observed item [0] {"name":"a","status":"ERROR"} is not paired with any entry',
      ].join("\n"),
    );
  });

  it("render values readably and truncate long ones", () => {
    expect(render("x")).to.equal('"x"');
    expect(render(undefined)).to.equal("nothing");
    expect(render(null)).to.equal("null");
    expect(render(3n)).to.equal("3n");
    expect(render("y".repeat(200)).length).to.equal(80);
    expect(keyPath("a", "b")).to.equal("a.b");
    expect(keyPath("a", "b.c")).to.equal('a["b.c"]');
  });

  it("the same repeated items: unordered counts repeats, a set does not", () => {
    passes(match(["w"], ["w", "w"], Shapes.list("set")));
    fails(match(["w"], ["w", "w"], Shapes.list("unordered")), { path: "expected", code: "length", message: "expected 1 item, got 2" });
  });
});
