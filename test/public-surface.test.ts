/**
 * The public surface, pinned: every `exports` entry of package.json and the names (values and types)
 * it exports, compared with test/public-surface.json. Adding, removing or moving a name — between
 * entries, or to the unstable `openarmature/internal` — fails here until the snapshot is updated in
 * the same commit, so a change to what users can import is a decision. To accept a change:
 * `OA_UPDATE_SURFACE=1 npx mocha test/public-surface.test.ts`, then review the diff.
 */
import { expect } from "chai";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const snapshotFile = join(root, "test", "public-surface.json");

type ExportsMap = Record<string, string | Record<string, string>>;

/** entry → sorted exported names, read by the TypeScript checker from each entry's source. */
function surface(): Record<string, string[]> {
  const { exports } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: ExportsMap };
  const entries: [string, string][] = [];
  for (const [entry, target] of Object.entries(exports)) {
    if (typeof target === "string") continue; // ./package.json
    const source = target["openarmature-source"];
    if (source === undefined) throw new Error(`exports["${entry}"] has no openarmature-source condition`);
    entries.push([entry, join(root, source)]);
  }
  const program = ts.createProgram(
    entries.map(([, f]) => f),
    {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      noEmit: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      types: ["node"],
      customConditions: ["openarmature-source"],
    },
  );
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [entry, file] of entries) {
    const sf = program.getSourceFile(file);
    const moduleSymbol = sf === undefined ? undefined : checker.getSymbolAtLocation(sf);
    if (moduleSymbol === undefined) throw new Error(`exports["${entry}"]: ${file} is not a module`);
    out[entry] = checker.getExportsOfModule(moduleSymbol).map((s) => s.name).sort();
  }
  return out;
}

describe("public surface: each package entry's export list is pinned", function () {
  this.timeout(60_000);
  let actual: Record<string, string[]> = {};
  before(() => {
    actual = surface();
  });

  it("matches test/public-surface.json", () => {
    if (process.env.OA_UPDATE_SURFACE === "1") writeFileSync(snapshotFile, `${JSON.stringify(actual, null, 2)}\n`);
    const pinned = JSON.parse(readFileSync(snapshotFile, "utf8")) as Record<string, string[]>;
    expect(Object.keys(actual), "entries").to.deep.equal(Object.keys(pinned));
    for (const entry of Object.keys(pinned)) {
      const added = actual[entry]!.filter((n) => !pinned[entry]!.includes(n));
      const removed = pinned[entry]!.filter((n) => !actual[entry]!.includes(n));
      expect({ entry, added, removed }, "a public export changed: update test/public-surface.json deliberately").to.deep.equal({ entry, added: [], removed: [] });
    }
  });

  it("keeps the engine's internal hooks out of every public entry", () => {
    const internalOnly = ["encodeValue", "decodeValue", "beginFanOutCheckpoint", "RECORD_TYPE_KEY", "PAUSED_RECORD_KEY", "toRecordDocument", "toSpecEvent", "INTERNALS"];
    for (const [entry, names] of Object.entries(actual)) {
      if (entry === "./internal") {
        expect(names).to.include.members(internalOnly.filter((n) => n !== "INTERNALS"));
        continue;
      }
      expect(names.filter((n) => internalOnly.includes(n)), entry).to.deep.equal([]);
    }
  });
});
