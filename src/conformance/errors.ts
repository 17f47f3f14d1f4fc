/**
 * Conformance-adapter §9 error categories, as typed errors.
 *
 * Every failure the adapter raises carries a category (one of the four §9 defines, or one of
 * the project's: `assertion_failed` for a written assertion that did not hold, `fixture_too_large`
 * for a fixture file over the size limit — §9 lets an adapter add its own) and the location in
 * the fixture it came from. They fail the case's test with that
 * category; none of them is ever turned into a skip.
 */

import { didYouMean } from "./suggest.ts";
import { skippedBundleFiles } from "./bundles.ts";

/** A place in a fixture file: the file, a 1-based line/column when known, and the key path. */
export interface FixtureLocation {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly path: ReadonlyArray<string | number>;
}

/** The categories §9 defines, plus the project's own `assertion_failed` and `fixture_too_large`. */
export type AdapterErrorCategory =
  | "fixture_directive_unknown"
  | "fixture_schema_invalid"
  | "fixture_version_unsupported"
  | "harness_primitive_missing"
  | "assertion_failed"
  | "fixture_too_large";

/** `a.b[2].c` for a key path. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? seg : `.${seg}`;
  }
  return out;
}

/** `spec/x/conformance/001-a.yaml:12:5 (nodes.a.update)` */
export function formatLocation(loc: FixtureLocation): string {
  const pos = loc.line !== undefined ? `:${loc.line}${loc.column !== undefined ? `:${loc.column}` : ""}` : "";
  const path = loc.path.length > 0 ? ` (${formatPath(loc.path)})` : "";
  return `${loc.file}${pos}${path}`;
}

/** Base class of every adapter-layer error. */
export class ConformanceError extends Error {
  constructor(
    readonly category: AdapterErrorCategory,
    message: string,
    readonly location: FixtureLocation,
    options?: { cause?: unknown },
  ) {
    super(`${category}: ${message} at ${formatLocation(location)}`, options);
    this.name = "ConformanceError";
  }
  /** The message without the category prefix and location suffix. */
  get detail(): string {
    const prefix = `${this.category}: `;
    const suffix = ` at ${formatLocation(this.location)}`;
    let m = this.message;
    if (m.startsWith(prefix)) m = m.slice(prefix.length);
    if (m.endsWith(suffix)) m = m.slice(0, -suffix.length);
    return m;
  }
}

/** A key no directive recognizes, with the nearest known names at that position (maybe none). */
export interface UnknownDirective {
  readonly name: string;
  readonly position: string;
  readonly location: FixtureLocation;
  readonly suggestions?: ReadonlyArray<string>;
  /** Set for retired vocabulary refused under --strict-vocabulary: why, and what to write instead. */
  readonly retired?: string;
}

function why(d: UnknownDirective): string {
  return d.retired !== undefined ? `: ${d.retired}` : didYouMean(d.suggestions ?? []);
}

/**
 * When directive files were skipped for a missing optional peer (bundles.ts), an unknown key may be
 * one of theirs: say which peers to install, so the failure is actionable where it is read.
 */
function unloadedBundlesHint(): string {
  const peers = [...new Set(skippedBundleFiles.map((s) => s.missingPackage))].sort();
  if (peers.length === 0) return "";
  return ` (${skippedBundleFiles.length} directive file(s) were not loaded because the optional peer dependencies ${peers.join(", ")} are not installed: npm install ${peers.join(" ")})`;
}

/** §9: a directive the adapter does not recognize at that position in that directory. */
export class FixtureDirectiveUnknown extends ConformanceError {
  constructor(
    readonly directives: ReadonlyArray<UnknownDirective>,
  ) {
    const first = directives[0];
    if (first === undefined) throw new RangeError("FixtureDirectiveUnknown needs at least one directive");
    const rest = directives
      .slice(1)
      .map((d) => `\n  also '${d.name}' at position '${d.position}'${why(d)} at ${formatLocation(d.location)}`)
      .join("");
    super(
      "fixture_directive_unknown",
      `no directive '${first.name}' is recognized at position '${first.position}'${why(first)}${rest === "" ? "" : `${rest}\n `}${unloadedBundlesHint()}`,
      first.location,
    );
    this.name = "FixtureDirectiveUnknown";
  }
}

/** §9: the YAML is structurally broken, a parameter is malformed, or a co-occurrence rule is violated. */
export class FixtureSchemaInvalid extends ConformanceError {
  constructor(message: string, location: FixtureLocation, options?: { cause?: unknown }) {
    super("fixture_schema_invalid", message, location, options);
    this.name = "FixtureSchemaInvalid";
  }
}

/**
 * Project category `fixture_too_large`: the fixture file is larger than the limit
 * (`--max-fixture-bytes`, {@link DEFAULT_MAX_FIXTURE_BYTES} by default). Checked before the file
 * is read, so a huge file fails in milliseconds instead of exhausting the heap in the YAML parser
 * (which needs about 100 MB of heap and a second per MB of YAML).
 */
export class FixtureTooLarge extends ConformanceError {
  constructor(readonly bytes: number, readonly maxBytes: number, location: FixtureLocation) {
    super(
      "fixture_too_large",
      `the fixture file is ${bytes} bytes, over the ${maxBytes}-byte limit; split it, or raise the limit with --max-fixture-bytes`,
      location,
    );
    this.name = "FixtureTooLarge";
  }
}

/** The default per-fixture size limit: 4 MiB, a hundred times the largest upstream fixture (41 KB). */
export const DEFAULT_MAX_FIXTURE_BYTES = 4 * 1024 * 1024;

/** §9 / §4.4: the fixture declares a conformance_version above the adapter's. */
export class FixtureVersionUnsupported extends ConformanceError {
  constructor(readonly fixtureVersion: string, readonly adapterVersion: string, location: FixtureLocation) {
    super(
      "fixture_version_unsupported",
      `fixture declares conformance_version ${fixtureVersion}, above this adapter's ${adapterVersion}`,
      location,
    );
    this.name = "FixtureVersionUnsupported";
  }
}

/** §9: the fixture names a harness primitive (backend, observer kind, ...) the adapter does not provide. */
export class HarnessPrimitiveMissing extends ConformanceError {
  constructor(readonly primitive: string, message: string, location: FixtureLocation) {
    super("harness_primitive_missing", message, location);
    this.name = "HarnessPrimitiveMissing";
  }
}

/** A written assertion did not hold; carries every mismatch found in the case. */
export class AssertionFailed extends ConformanceError {
  /** `location`: where the first mismatch points (each mismatch text names its own line). */
  constructor(readonly mismatches: ReadonlyArray<string>, location: FixtureLocation) {
    const distinct = [...countDistinct(mismatches)].map(([m, n]) => (n > 1 ? `${m}\n    (reported ${n} times: once per call this check read)` : m));
    const shown = distinct.slice(0, 20);
    const more = distinct.length > shown.length ? `\n  ... and ${distinct.length - shown.length} more` : "";
    super(
      "assertion_failed",
      `${mismatches.length} assertion mismatch${mismatches.length === 1 ? "" : "es"}:\n  ${shown.join("\n  ")}${more}\n`,
      location,
    );
    this.name = "AssertionFailed";
  }
}

/** Each distinct text with how often it occurs, in first-seen order. */
function countDistinct(texts: ReadonlyArray<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** A case skipped because a §5.17 capability gate is not met. Not an error: a recognized skip. */
export class CapabilitySkip extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "CapabilitySkip";
  }
}
