/**
 * The test tiers of package.json "scripts" (README "Test"): `npm test` runs every test file;
 * `npm run test:unit` leaves out, by `--ignore`, the files that spawn processes, drive Chromium,
 * need Postgres or take seconds; and `.mocharc.json` names no spec, so `npx mocha <file>` runs
 * that file alone (a `spec` there is merged with the command line's files).
 */
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
const mocharc = JSON.parse(readFileSync(join(ROOT, ".mocharc.json"), "utf8")) as Record<string, unknown>;

const TEST_FILES = (readdirSync(join(ROOT, "test"), { recursive: true }) as string[])
  .map((f) => `test/${f.split("\\").join("/")}`)
  .filter((f) => f.endsWith(".test.ts"))
  .sort();

/** A mocha glob (`*`, `**`, `{a,b}`) as a RegExp over repository-relative paths. */
function globRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (glob.startsWith("**", i)) {
      re += ".*";
      i++;
    } else if (c === "*") re += "[^/]*";
    else if (c === "{") re += "(?:";
    else if (c === "}") re += ")";
    else if (c === ",") re += "|";
    else re += c.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

const UNIT_IGNORES = [...pkg.scripts["test:unit"]!.matchAll(/--ignore '([^']+)'/g)].map((m) => m[1]!);
const ignored = (file: string): boolean => UNIT_IGNORES.some((g) => globRegExp(g).test(file));

describe("test tiers (package.json scripts, .mocharc.json)", () => {
  it(".mocharc.json names no spec: `npx mocha <file>` runs only that file", () => {
    expect(mocharc).to.not.have.property("spec");
  });

  it("npm test runs every test file: typecheck, build, then mocha over test/**/*.test.ts", () => {
    expect(pkg.scripts["test"]).to.equal("npm run typecheck && npm run build && mocha 'test/**/*.test.ts'");
  });

  it("npm run test:unit is the same glob minus --ignore patterns, each of which matches a test file", () => {
    expect(pkg.scripts["test:unit"]).to.match(/^mocha 'test\/\*\*\/\*\.test\.ts'( --ignore '[^']+')+$/);
    for (const g of UNIT_IGNORES) expect(TEST_FILES.filter((f) => globRegExp(g).test(f)), `--ignore '${g}' matches no test file`).to.not.be.empty;
    expect(TEST_FILES.filter((f) => !ignored(f)).length, "the unit tier keeps most files").to.be.greaterThan(TEST_FILES.length / 2);
  });

  it("test:unit leaves out every test file that spawns a process or drives a browser", () => {
    const heavy = TEST_FILES.filter((f) => /from "(node:child_process|playwright-core)"/.test(readFileSync(join(ROOT, f), "utf8")));
    expect(heavy).to.not.be.empty;
    expect(heavy.filter((f) => !ignored(f))).to.deep.equal([]);
  });
});
