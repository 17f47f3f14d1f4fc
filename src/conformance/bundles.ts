/**
 * Bundles: a bundle is a folder of directive files; loading it imports every file in it, and each
 * file's `@directive` classes register themselves. Adding a directive is dropping in a file.
 */
import { readdirSync, readFileSync, statSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { PACKAGE_ROOT } from "./package-root.ts";

const loaded = new Set<string>();

/** A bundle file not loaded because an optional peer dependency it imports is not installed. */
export interface SkippedBundleFile {
  readonly file: string;
  readonly missingPackage: string;
}

/** Files skipped so far (their directives stay unknown: fixtures using them fail, located). */
export const skippedBundleFiles: SkippedBundleFile[] = [];

/** The optional peer dependencies declared in the package's package.json (e.g. the OTel SDK, pg). */
function optionalPeers(): ReadonlySet<string> {
  try {
    const meta = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { peerDependenciesMeta?: Record<string, { optional?: boolean }> };
    return new Set(Object.entries(meta.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional === true).map(([n]) => n));
  } catch {
    return new Set();
  }
}

/** The optional peer a failed import is missing, or undefined when the failure is anything else. */
export function missingOptionalPeer(err: unknown): string | undefined {
  if ((err as { code?: unknown } | null)?.code !== "ERR_MODULE_NOT_FOUND") return undefined;
  const name = /Cannot find package '([^']+)'/.exec(String((err as Error).message))?.[1];
  return name !== undefined && optionalPeers().has(name) ? name : undefined;
}

function isModule(name: string): boolean {
  return (/\.(ts|js|mjs)$/.test(name)) && !/\.d\.ts$/.test(name) && !/\.test\.(ts|js)$/.test(name);
}

/** Import every module under `dir` (recursively, in name order). Idempotent per file. */
export async function loadBundle(dir: string): Promise<string[]> {
  const abs = resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new Error(`bundle '${dir}' is not a directory`);
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (isModule(name)) files.push(p);
    }
  };
  walk(abs);
  for (const f of files) {
    if (loaded.has(f)) continue;
    try {
      await import(pathToFileURL(f).href);
    } catch (err) {
      // A bundle that needs an optional peer (the OpenTelemetry SDK for observability) is skipped,
      // loudly, when the peer is absent: the rest of the adapter still runs, and the fixtures that
      // use its directives fail as fixture_directive_unknown at their own lines.
      const missing = missingOptionalPeer(err);
      if (missing === undefined) throw err;
      if (!skippedBundleFiles.some((s) => s.missingPackage === missing)) {
        process.stderr.write(`openarmature: directives in ${f} not loaded: the optional peer dependency '${missing}' is not installed (npm install ${missing})\n`);
      }
      skippedBundleFiles.push({ file: f, missingPackage: missing });
    }
    loaded.add(f);
  }
  return files;
}

/** The project's directive bundles: `directives/general` first (it governs), then each home. */
export async function loadProjectBundles(directivesRoot: string): Promise<void> {
  const root = resolve(directivesRoot);
  await loadBundle(join(root, "general"));
  for (const name of readdirSync(root).sort()) {
    if (name === "general") continue;
    const p = join(root, name);
    if (statSync(p).isDirectory()) await loadBundle(p);
  }
}
