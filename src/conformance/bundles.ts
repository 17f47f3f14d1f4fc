/**
 * Bundles: a bundle is a folder of directive files; loading it imports every file in it, and each
 * file's `@directive` classes register themselves. Adding a directive is dropping in a file.
 */
import { readdirSync, statSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const loaded = new Set<string>();

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
    await import(pathToFileURL(f).href);
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
