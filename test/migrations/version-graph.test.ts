/**
 * Property: the migration version graph's chain search (pipeline-utilities §10.12.2, sessions §7)
 * agrees with brute force over every simple path — `missing` exactly when no chain exists,
 * `ambiguous` exactly when two shortest chains exist, else the one shortest chain — and
 * `firstAmbiguity` finds a pair exactly when some pair is ambiguous.
 */
import { expect } from "chai";
import fc from "fast-check";
import { VersionGraph, type VersionEdge } from "../../src/migrations/version-graph.ts";

const VERSIONS = ["v0", "v1", "v2", "v3", "v4", "v5"];

/** Every simple path from → to, as edge lists. */
function paths(edges: readonly VersionEdge[], from: string, to: string): VersionEdge[][] {
  const out: VersionEdge[][] = [];
  const walk = (at: string, seen: Set<string>, path: VersionEdge[]): void => {
    if (at === to && path.length > 0) {
      out.push([...path]);
      return;
    }
    for (const e of edges) {
      if (e.fromVersion !== at || seen.has(e.toVersion)) continue;
      seen.add(e.toVersion);
      path.push(e);
      walk(e.toVersion, seen, path);
      path.pop();
      seen.delete(e.toVersion);
    }
  };
  walk(from, new Set([from]), []);
  return out;
}

/** Brute force: the shortest simple paths from → to (all of that length). */
function shortest(edges: readonly VersionEdge[], from: string, to: string): VersionEdge[][] {
  const all = paths(edges, from, to);
  const min = Math.min(...all.map((p) => p.length));
  return all.filter((p) => p.length === min);
}

const edgeSet = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...VERSIONS), fc.constantFrom(...VERSIONS)), {
    maxLength: 12,
    selector: ([a, b]) => `${a}>${b}`,
  })
  .map((pairs) => pairs.filter(([a, b]) => a !== b).map(([fromVersion, toVersion]) => ({ fromVersion, toVersion })));

describe("migrations/version-graph: chain search agrees with brute force", () => {
  it("chain(from, to) is missing / ambiguous / the unique shortest chain exactly as enumeration says", () => {
    fc.assert(
      fc.property(edgeSet, fc.constantFrom(...VERSIONS), fc.constantFrom(...VERSIONS), (edges, from, to) => {
        const g = new VersionGraph<VersionEdge>();
        for (const e of edges) expect(g.add(e)).to.equal(true);
        const r = g.chain(from, to);
        if (from === to) {
          expect(r).to.deep.equal({ status: "found", chain: [] });
          return;
        }
        const best = shortest(edges, from, to);
        if (best.length === 0) expect(r.status).to.equal("missing");
        else if (best.length > 1) expect(r.status).to.equal("ambiguous");
        else {
          expect(r.status).to.equal("found");
          expect(r.status === "found" && r.chain).to.deep.equal(best[0]);
        }
      }),
      { numRuns: 1500, seed: 42 },
    );
  });

  it("firstAmbiguity() is non-null exactly when some pair has two shortest chains, and names the first in version order", () => {
    fc.assert(
      fc.property(edgeSet, (edges) => {
        const g = new VersionGraph<VersionEdge>();
        for (const e of edges) g.add(e);
        const ambiguous = VERSIONS.flatMap((a) => VERSIONS.filter((b) => b !== a && shortest(edges, a, b).length > 1).map((b) => ({ from: a, to: b })));
        const found = g.firstAmbiguity();
        if (ambiguous.length === 0) expect(found).to.equal(null);
        else expect(found).to.deep.equal(ambiguous[0]); // the first pair in version order
      }),
      { numRuns: 800, seed: 43 },
    );
  });

  it("a pair registered twice is refused", () => {
    const g = new VersionGraph<VersionEdge>();
    expect(g.add({ fromVersion: "a", toVersion: "b" })).to.equal(true);
    expect(g.add({ fromVersion: "a", toVersion: "b" })).to.equal(false);
    expect(g.size).to.equal(1);
  });
});
