/**
 * The package's root folder: the nearest ancestor of this module holding a `package.json` — the
 * repository when the adapter runs from `src/`, the installed package when it runs compiled from
 * `dist/src/`. `package.json` and the project's own `spec/` are read from here.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}: the openarmature package is incomplete`);
  }
}

export const PACKAGE_ROOT: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));
