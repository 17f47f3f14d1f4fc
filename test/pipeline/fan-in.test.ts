import { expect } from "chai";
import fc from "fast-check";
import {
  append,
  boundedAppend,
  concatFlatten,
  dedupeAppend,
  defineReducer,
  lastWriteWins,
  merge,
  mergeAll,
  mergeByKey,
  type Reducer,
} from "../../src/graph/index.ts";
import { combineContributions } from "../../src/internal.ts";

/** The §9.3 / §11.4 contract: one combined update equals applying every contribution in order. */
function sequential(r: Reducer<unknown, unknown>, prior: unknown, cs: readonly unknown[]): unknown {
  return cs.reduce((acc, c) => r(acc, c), prior);
}

function check(r: Reducer<unknown, unknown>, prior: fc.Arbitrary<unknown>, contribution: fc.Arbitrary<unknown>): void {
  fc.assert(
    fc.property(prior, fc.array(contribution, { minLength: 1, maxLength: 6 }), (p, cs) => {
      expect(r(p, combineContributions(r, cs))).to.deep.equal(sequential(r, p, cs));
    }),
    { numRuns: 200 },
  );
}

const small = fc.integer({ min: 0, max: 5 });
const list = fc.array(small, { maxLength: 5 });
const rec = fc.record({ id: small, v: fc.string({ maxLength: 2 }) });
const dict = fc.dictionary(fc.constantFrom("a", "b", "c"), small, { maxKeys: 3 });

describe("pipeline/fan-in: combining ordered contributions to one field (§9.3, §11.4)", () => {
  it("last_write_wins: the last contribution", () => check(lastWriteWins as Reducer<unknown, unknown>, small, small));
  it("append", () => check(append as Reducer<unknown, unknown>, list, list));
  it("bounded_append", () => check(boundedAppend(4) as Reducer<unknown, unknown>, list, list));
  it("dedupe_append", () => check(dedupeAppend() as Reducer<unknown, unknown>, list, list));
  it("merge_by_key", () => check(mergeByKey("id") as Reducer<unknown, unknown>, fc.array(rec, { maxLength: 4 }), fc.array(rec, { maxLength: 4 })));
  it("concat_flatten", () => check(concatFlatten as Reducer<unknown, unknown>, list, fc.array(list, { maxLength: 3 })));
  it("merge_all", () => check(mergeAll as Reducer<unknown, unknown>, dict, fc.array(dict, { maxLength: 3 })));
  it("merge", () => check(merge as Reducer<unknown, unknown>, dict, dict));
  it("an associative custom reducer", () => {
    const sum = defineReducer<number>("sum", (a, b) => a + b);
    check(sum as Reducer<unknown, unknown>, small, small);
  });

  it("passes a mis-shaped contribution through so the reducer raises for it", () => {
    const bad = combineContributions(append as Reducer<unknown, unknown>, [[1], "oops", [2]]);
    expect(bad).to.equal("oops");
    expect(() => (append as Reducer<unknown, unknown>)([], bad)).to.throw(TypeError);
    expect(combineContributions(merge as Reducer<unknown, unknown>, [{ a: 1 }, 3])).to.equal(3);
  });

  it("returns a single contribution unchanged", () => {
    const c = [1, 2];
    expect(combineContributions(append as Reducer<unknown, unknown>, [c])).to.equal(c);
  });
});
