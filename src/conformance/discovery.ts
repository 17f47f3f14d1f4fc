/**
 * Fixture discovery (conformance-adapter §3.1, §8.1): every `*.yaml` under
 * `<root>/<capability>/conformance/` (recursively), for any number of roots.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

export interface DiscoveredFixture {
  /** Absolute path of the YAML file. */
  readonly absPath: string;
  /** The root it was found under. */
  readonly root: string;
  /** The capability directory name (`graph-engine`, ...). */
  readonly capability: string;
  /** `<capability>/<NNN-name>`, the fixture's id in reports. */
  readonly id: string;
  /** Path reported in errors: relative to the working directory. */
  readonly displayPath: string;
}

export interface DiscoveryFilter {
  /** Only these capability directories. */
  readonly capabilities?: ReadonlyArray<string>;
  /** Only fixtures whose id matches. */
  readonly grep?: RegExp;
}

/** Walk each root; results are sorted by capability then file name, so runs are stable. */
export function discoverFixtures(roots: ReadonlyArray<string>, filter: DiscoveryFilter = {}): DiscoveredFixture[] {
  const out: DiscoveredFixture[] = [];
  for (const rootArg of roots) {
    const root = resolve(rootArg);
    if (!isDirectory(root)) {
      throw new Error(`fixture root '${rootArg}' is not a directory`);
    }
    for (const capability of capabilitiesUnder(root)) {
      if (filter.capabilities && !filter.capabilities.includes(capability)) continue;
      const confDir = join(root, capability, "conformance");
      for (const absPath of walkYaml(confDir)) {
        const rel = relative(confDir, absPath).split(sep).join("/");
        const id = `${capability}/${rel.replace(/\.yaml$/, "")}`;
        if (filter.grep && !filter.grep.test(id)) continue;
        out.push({ absPath, root, capability, id, displayPath: relative(process.cwd(), absPath) || absPath });
      }
    }
  }
  return out;
}

/** The capability directories of a root: its sub-folders holding a `conformance/` folder, sorted. */
export function capabilitiesUnder(root: string): string[] {
  if (!isDirectory(root)) return [];
  return readdirSync(root).sort().filter((name) => isDirectory(join(root, name, "conformance")));
}

export function isDirectory(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

function walkYaml(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walkYaml(p));
    else if (entry.isFile() && entry.name.endsWith(".yaml")) files.push(p);
  }
  return files;
}

/** Roots from `--spec` flags, else `OA_SPEC_ROOTS` (path-delimited), else the project's own `spec/`. */
export function resolveRoots(flags: ReadonlyArray<string>, env: string | undefined, projectSpec: string): string[] {
  if (flags.length > 0) return [...flags];
  if (env !== undefined && env.trim() !== "") return env.split(process.platform === "win32" ? ";" : ":").filter((s) => s !== "");
  return [projectSpec];
}
