/**
 * The optional-peer guards of `openarmature/observability` and `openarmature/langfuse`
 * (src/peer-dependencies.ts): each guard entry re-exports every runtime export of its module, its
 * peer list is exactly the optional peers the module loads (its static import graph), with the
 * ranges package.json declares, and a missing peer is one error naming every missing one and the
 * install command. test/package.test.ts imports the entries from the packed tarball without them.
 */
import { expect } from "chai";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LANGFUSE_PEERS, MissingPeerDependencyError, OBSERVABILITY_PEERS, POSTGRES_PEERS, requirePeers, type PeerDependency } from "../src/peer-dependencies.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  exports: Record<string, Record<string, string>>;
};
const optional = Object.keys(pkg.peerDependenciesMeta).filter((n) => pkg.peerDependenciesMeta[n]!.optional === true);

/** The optional peers a source module loads: bare specifiers of value imports across its relative import graph. */
function peersLoadedBy(entry: string): string[] {
  const seen = new Set<string>();
  const found = new Set<string>();
  const stack = [resolve(root, entry)];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?["']([^"']+)["']/gm)) {
      const spec = m[1]!;
      if (spec.startsWith(".")) {
        const next = resolve(dirname(file), spec);
        if (existsSync(next)) stack.push(next);
        continue;
      }
      const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
      if (optional.includes(name)) found.add(name);
    }
  }
  return [...found].sort();
}

const GUARDS = [
  { entry: "./observability", guard: "src/observability/entry.ts", module: "src/observability/index.ts", peers: OBSERVABILITY_PEERS },
  { entry: "./langfuse", guard: "src/observability/langfuse-entry.ts", module: "src/observability/langfuse.ts", peers: LANGFUSE_PEERS },
] as const;

describe("optional peer dependencies: the guarded entries", function () {
  this.timeout(30_000);
  for (const g of GUARDS) {
    describe(`openarmature/${g.entry.slice(2)}`, () => {
      it("package.json points the entry's default condition at the guard, its types and source at the module", () => {
        const e = pkg.exports[g.entry]!;
        expect(e["default"]).to.equal(`./dist/${g.guard.replace(/\.ts$/, ".js")}`);
        expect(e["types"]).to.equal(`./dist/${g.module.replace(/\.ts$/, ".d.ts")}`);
        expect(e["openarmature-source"]).to.equal(`./${g.module}`);
      });

      it("the guard re-exports every runtime export of the module, the same objects", async () => {
        const guard = (await import(join(root, g.guard))) as Record<string, unknown>;
        const mod = (await import(join(root, g.module))) as Record<string, unknown>;
        expect(Object.keys(guard).sort()).to.deep.equal(Object.keys(mod).sort());
        for (const k of Object.keys(mod)) expect(guard[k], k).to.equal(mod[k]);
      });

      it("its peer list is exactly the optional peers the module loads, at package.json's ranges", () => {
        expect(g.peers.map((p) => p.name)).to.deep.equal(peersLoadedBy(g.module));
        for (const p of g.peers) expect(p.range, p.name).to.equal(pkg.peerDependencies[p.name]);
      });
    });
  }

  it("openarmature/postgres loads no optional peer at import (pg is required when a store opens a pool); its range is package.json's", () => {
    expect(peersLoadedBy("src/postgres/index.ts")).to.deep.equal([]);
    expect(POSTGRES_PEERS.map((p) => [p.name, p.range])).to.deep.equal([["pg", pkg.peerDependencies["pg"]]]);
  });

  it("openarmature/llm and the root entry load no optional peer", () => {
    expect(peersLoadedBy("src/llm/index.ts")).to.deep.equal([]);
    expect(peersLoadedBy("src/index.ts")).to.deep.equal([]);
  });

  describe("requirePeers", () => {
    const peers: PeerDependency[] = [
      { name: "@opentelemetry/api", range: "^1.9.0" },
      { name: "@opentelemetry/api-logs", range: "0.223.1" },
      { name: "@opentelemetry/sdk-trace-base", range: "^2.0.0" },
    ];
    const notFound = (missing: string[]) => (s: string): string => {
      if (missing.includes(s)) throw Object.assign(new Error(`Cannot find package '${s}'`), { code: "ERR_MODULE_NOT_FOUND" });
      return `file:///x/node_modules/${s}/index.js`;
    };

    it("passes when every peer resolves", () => {
      requirePeers("openarmature/observability", peers, notFound([]));
    });

    it("names every missing peer and the npm install command with the declared ranges", () => {
      let err: unknown;
      try {
        requirePeers("openarmature/observability", peers, notFound(["@opentelemetry/api", "@opentelemetry/sdk-trace-base"]));
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(MissingPeerDependencyError);
      const e = err as MissingPeerDependencyError;
      expect(e.code).to.equal("ERR_OPENARMATURE_MISSING_PEER");
      expect(e.missing.map((p) => p.name)).to.deep.equal(["@opentelemetry/api", "@opentelemetry/sdk-trace-base"]);
      expect(e.message).to.equal(
        "openarmature/observability needs the optional peer dependencies @opentelemetry/api, @opentelemetry/sdk-trace-base, which are not installed: " +
          "run `npm install @opentelemetry/api@^1.9.0 @opentelemetry/sdk-trace-base@^2.0.0`",
      );
    });

    it("one missing peer reads in the singular", () => {
      expect(() => requirePeers("openarmature/langfuse", peers, notFound(["@opentelemetry/api-logs"]))).to.throw(
        "openarmature/langfuse needs the optional peer dependency @opentelemetry/api-logs, which is not installed: run `npm install @opentelemetry/api-logs@0.223.1`",
      );
    });

    it("a resolution failure other than a missing package is not disguised as one", () => {
      const broken = (): string => {
        throw Object.assign(new Error("Invalid package config"), { code: "ERR_INVALID_PACKAGE_CONFIG" });
      };
      expect(() => requirePeers("openarmature/observability", peers, broken)).to.throw("Invalid package config");
    });
  });
});
