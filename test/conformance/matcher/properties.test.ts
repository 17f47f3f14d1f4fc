/** Properties of the matcher over generated JSON values (fast-check). */
import { expect } from "chai";
import fc from "fast-check";
import {
  Shapes,
  formatMismatches,
  indexPath,
  isReservedKey,
  keyPath,
  match,
  parseToken,
} from "../../../src/conformance/matcher/index.ts";

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const safeString = fc.string({ maxLength: 6 }).filter((s) => parseToken(s) === undefined);
const safeKey = fc
  .string({ minLength: 1, maxLength: 5 })
  .filter((k) => !isReservedKey(k) && k !== "non_empty_string" && k !== "harness_parameterized" && k !== "__proto__");

const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1000, max: 1000 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    safeString,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(safeKey, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Every leaf of `v` with its matcher path. */
function leaves(v: Json, path: string, out: { path: string; get: (root: Json) => Json; set: (root: Json, x: Json) => Json }[], trail: (string | number)[] = []): void {
  if (Array.isArray(v)) {
    v.forEach((x, i) => leaves(x, indexPath(path, i), out, [...trail, i]));
    return;
  }
  if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) leaves(v[k], keyPath(path, k), out, [...trail, k]);
    return;
  }
  out.push({
    path,
    get: (root) => trail.reduce<Json>((node, step) => (node as Record<string | number, Json>)[step], root),
    set: (root, x) => {
      if (trail.length === 0) return x;
      const parent = trail.slice(0, -1).reduce<Json>((node, step) => (node as Record<string | number, Json>)[step], root);
      (parent as Record<string | number, Json>)[trail[trail.length - 1]] = x;
      return root;
    },
  });
}

function mutate(x: Json): Json {
  if (x === null) return 0;
  if (typeof x === "boolean") return !x;
  if (typeof x === "number") return x === 0 ? 1 : -x;
  if (typeof x === "string") return `${x}~`;
  return x;
}

describe("matcher properties (fast-check)", () => {
  it("a value matches itself (a deep copy) under an exact shape", () => {
    fc.assert(
      fc.property(json, (v) => {
        const r = match(v, structuredClone(v), Shapes.exact());
        expect(r.ok, formatMismatches(r.mismatches)).to.equal(true);
      }),
      { numRuns: 300 },
    );
  });

  it("mutating any leaf fails, at that leaf's path", () => {
    fc.assert(
      fc.property(json, fc.nat(), (v, pick) => {
        const found: Parameters<typeof leaves>[2] = [];
        leaves(v, "expected", found);
        fc.pre(found.length > 0);
        const leaf = found[pick % found.length];
        const observed = leaf.set(structuredClone(v), mutate(leaf.get(v)));
        const r = match(v, observed, Shapes.exact());
        expect(r.ok).to.equal(false);
        expect(r.mismatches.map((m) => m.path)).to.include(leaf.path);
      }),
      { numRuns: 300 },
    );
  });

  it("named keys ignore observed keys the written mapping does not name; exact does not", () => {
    const mapping = fc.dictionary(safeKey, json, { minKeys: 0, maxKeys: 4 });
    fc.assert(
      fc.property(mapping, json, (v, extra) => {
        const observed = { ...structuredClone(v), zz_extra: extra };
        fc.pre(!Object.hasOwn(v, "zz_extra") && extra !== null);
        expect(match(v, observed).ok).to.equal(true);
        const exact = match(v, observed, Shapes.exact());
        expect(exact.mismatches.map((m) => [m.path, m.code])).to.deep.include(["expected.zz_extra", "unexpected_key"]);
      }),
      { numRuns: 200 },
    );
  });

  it("an unordered list matches any permutation of its items; an ordered one only if unchanged", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { minLength: 2, maxLength: 8 }), fc.nat(), (items, seed) => {
        const shuffled = [...items].sort((a, b) => ((a * 31 + seed) % 7) - ((b * 31 + seed) % 7));
        expect(match(items, shuffled, Shapes.list("unordered")).ok).to.equal(true);
        const same = shuffled.every((x, i) => x === items[i]);
        expect(match(items, shuffled).ok).to.equal(same);
      }),
      { numRuns: 200 },
    );
  });
});
