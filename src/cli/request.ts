/**
 * Checking what a `conform` command line asks for before anything runs: each fixture root holds
 * capability folders, each `--capability` names one of them, `--max-failures` is a count, the
 * `--json` file can be written, and the filters leave at least one fixture. A problem is a
 * {@link UsageError} saying what was looked for (exit 2), never an empty green run.
 */
import { accessSync, constants, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { capabilitiesUnder, isDirectory, type DiscoveredFixture } from "../conformance/discovery.ts";
import { didYouMean, nearest } from "../conformance/suggest.ts";

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/**
 * The capability directories found under all roots; throws when a root holds none. `origin` says
 * where the roots came from when not from --spec (e.g. `from $OA_SPEC_ROOTS`).
 */
export function surveyRoots(roots: ReadonlyArray<string>, origin?: string): string[] {
  const from = origin !== undefined ? ` (${origin})` : "";
  const known = new Set<string>();
  for (const root of roots) {
    const abs = resolve(root);
    if (!isDirectory(abs)) throw new UsageError(`fixture root '${root}'${from} is not a directory (${existsWhat(abs)})`);
    const caps = capabilitiesUnder(abs);
    if (caps.length === 0) {
      throw new UsageError(
        `fixture root '${root}'${from} holds no <capability>/conformance/ folder, so it has no fixtures${rootHint(abs, root)}`,
      );
    }
    for (const c of caps) known.add(c);
  }
  return [...known].sort();
}

function existsWhat(abs: string): string {
  try {
    statSync(abs);
    return "it is a file";
  } catch {
    return "it does not exist";
  }
}

/** A guess at the root the user meant: one folder down, or up from a capability folder. */
function rootHint(abs: string, given: string): string {
  const show = (p: string): string => relative(process.cwd(), p) || ".";
  if (isDirectory(join(abs, "conformance"))) {
    return `; '${given}' looks like a capability folder: did you mean --spec ${show(dirname(abs))} --capability ${basename(abs)}?`;
  }
  if (basename(abs) === "conformance" && isDirectory(dirname(abs))) {
    return `; '${given}' looks like a conformance folder: did you mean --spec ${show(dirname(dirname(abs)))} --capability ${basename(dirname(abs))}?`;
  }
  let below: string[] = [];
  try {
    below = readdirSync(abs).sort().filter((n) => capabilitiesUnder(join(abs, n)).length > 0);
  } catch {
    /* unreadable: no hint */
  }
  if (below.length > 0) return `; did you mean ${below.slice(0, 3).map((n) => `--spec ${show(join(abs, n))}`).join(" or ")}?`;
  return "";
}

/** Every `--capability` must name a capability folder of some root. */
export function checkCapabilities(asked: ReadonlyArray<string>, known: ReadonlyArray<string>, roots: ReadonlyArray<string>): void {
  const missing = asked.filter((c) => !known.includes(c));
  if (missing.length === 0) return;
  const lines = missing.map((c) => `--capability '${c}' names no capability folder${didYouMean(nearest(c, known))}`);
  throw new UsageError(`${lines.join("\n")}\n  known under ${roots.join(", ")}: ${known.join(", ")}`);
}

/** A run that found no fixture says what it looked for. */
export function checkSomethingFound(
  fixtures: ReadonlyArray<DiscoveredFixture>,
  request: { roots: ReadonlyArray<string>; capabilities: ReadonlyArray<string>; known: ReadonlyArray<string>; grep: RegExp | undefined },
  allIds: () => ReadonlyArray<string>,
): void {
  if (fixtures.length > 0) return;
  const caps = request.capabilities.length > 0 ? request.capabilities : request.known;
  const where = `${request.roots.join(", ")} (capabilities: ${caps.join(", ")})`;
  if (request.grep !== undefined) {
    const ids = allIds();
    const examples = ids.slice(0, 3).map((id) => `'${id}'`).join(", ");
    throw new UsageError(
      `--grep ${String(request.grep)} matched none of the ${ids.length} fixture ids under ${where}` +
        (ids.length > 0 ? `; ids look like ${examples}` : ""),
    );
  }
  throw new UsageError(`no *.yaml fixture under ${where}`);
}

/** `--max-failures N`: a non-negative whole number. */
export function parseCount(flag: string, text: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} must be a whole number >= 0, got '${text}'`);
  return Number(text.trim());
}

/** The `--json` file must be writable now, so a long run does not end in a failed write. */
export function checkWritable(flag: string, file: string): void {
  const abs = resolve(file);
  if (isDirectory(abs)) throw new UsageError(`${flag} '${file}' is a directory; give a file path`);
  const dir = dirname(abs);
  if (!isDirectory(dir)) throw new UsageError(`${flag} '${file}': folder '${dir}' does not exist`);
  try {
    accessSync(dir, constants.W_OK);
    if (existsFile(abs)) accessSync(abs, constants.W_OK);
  } catch (err) {
    throw new UsageError(`${flag} '${file}' cannot be written (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function existsFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
