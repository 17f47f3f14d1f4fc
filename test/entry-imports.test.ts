/**
 * No library entry loads `tsyringe` or `reflect-metadata`: only the conformance adapter (its
 * decorator-registered directives) needs them, so `openarmature/conformance` and
 * `openarmature/internal` are the only entries allowed to. Every other entry of package.json
 * "exports" is imported in a fresh child process with a resolve hook (test/support/import-log)
 * that logs each resolved module; the test fails naming the entry and the import chain that
 * reached either package. Run from the sources (the `openarmature-source` condition, through tsx)
 * and, when `dist/` is built, from dist as users get it.
 */
import { expect } from "chai";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./support/temp-dir.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const REGISTER = join(ROOT, "test", "support", "import-log", "register.mjs");
const ADAPTER_ONLY = /\/node_modules\/(tsyringe|reflect-metadata)\//;
const ALLOWED = new Set(["./conformance", "./internal", "./package.json"]);
const MARK = "#entry ";

const { exports } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };
const ENTRIES = Object.keys(exports).filter((e) => !ALLOWED.has(e));

interface Loaded {
  /** entry → resolved URLs first resolved while importing it, with the URL that imported each. */
  readonly byEntry: Map<string, Array<{ parent: string; url: string }>>;
  readonly reflectMetadata: boolean;
}

/** Imports every entry (in order) in one child process; resolutions after each marker line are the entry's. */
function importEntries(nodeArgs: ReadonlyArray<string>): Promise<Loaded> {
  const log = join(tempDir("oa-imports-"), "resolved.log");
  const script = `
    import { appendFileSync } from "node:fs";
    for (const entry of ${JSON.stringify(ENTRIES)}) {
      appendFileSync(process.env.OA_IMPORT_LOG, ${JSON.stringify(MARK)} + entry + "\\n");
      await import("openarmature" + entry.slice(1));
    }
    process.stdout.write(JSON.stringify({ reflectMetadata: typeof Reflect.getMetadata === "function" }));`;
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [...nodeArgs, "--import", REGISTER, "--input-type=module", "-e", script],
      { cwd: ROOT, env: { ...process.env, OA_IMPORT_LOG: log }, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) return fail(new Error(`importing the entries failed: ${err.message}\n${stderr}`));
        const byEntry = new Map<string, Array<{ parent: string; url: string }>>();
        let current: Array<{ parent: string; url: string }> | undefined;
        for (const line of readFileSync(log, "utf8").split("\n")) {
          if (line.startsWith(MARK)) byEntry.set(line.slice(MARK.length), (current = []));
          else if (line && current) {
            const [parent = "", url = ""] = line.split(" ");
            current.push({ parent, url });
          }
        }
        done({ byEntry, reflectMetadata: (JSON.parse(stdout) as { reflectMetadata: boolean }).reflectMetadata });
      },
    );
  });
}

/** Each entry's loads of tsyringe / reflect-metadata, as "entry: a -> b -> package" chains. */
function offenders(loaded: Loaded): string[] {
  const found: string[] = [];
  for (const [entry, resolutions] of loaded.byEntry) {
    const parentOf = new Map(resolutions.map((r) => [r.url, r.parent]));
    for (const { url } of resolutions.filter((r) => ADAPTER_ONLY.test(r.url))) {
      const chain = [url];
      for (let at = parentOf.get(url); at !== undefined && !chain.includes(at); at = parentOf.get(at)) chain.unshift(at);
      found.push(`${entry}: ${chain.map((u) => u.replace(`file://${ROOT}`, "")).join(" -> ")}`);
    }
  }
  return found;
}

describe("library entries do not load the adapter's tsyringe / reflect-metadata", function () {
  this.timeout(90_000);

  it("lists every entry but ./conformance and ./internal", () => {
    expect(ENTRIES).to.include.members([".", "./graph", "./llm", "./testing"]);
    expect(ENTRIES).to.not.include.members(["./conformance", "./internal"]);
  });

  it("from the sources", async () => {
    const loaded = await importEntries(["--conditions=openarmature-source", "--import", "tsx"]);
    expect([...loaded.byEntry.keys()]).to.deep.equal(ENTRIES);
    expect(offenders(loaded)).to.deep.equal([]);
    expect(loaded.reflectMetadata, "Reflect.getMetadata is defined: reflect-metadata ran").to.equal(false);
  });

  it("from dist/ (skipped until `npm run build`)", async function () {
    if (!existsSync(join(ROOT, "dist", "src", "index.js"))) this.skip();
    const loaded = await importEntries([]);
    expect([...loaded.byEntry.keys()]).to.deep.equal(ENTRIES);
    expect(offenders(loaded)).to.deep.equal([]);
    expect(loaded.reflectMetadata, "Reflect.getMetadata is defined: reflect-metadata ran").to.equal(false);
  });
});
