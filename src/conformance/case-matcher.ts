/**
 * The case-wide matcher the interpreter hands assertions: every check of one case is resolved
 * together, so binding tokens share one scope and are resolved jointly with list pairings
 * (conformance-adapter §5.10, §8.4). Direct failures (`fail`) are kept beside it.
 *
 * Every check says which directive asserted it (its key path in the fixture), so each mismatch
 * is reported at the line of the YAML key or list item it is about — the asserting directive's
 * own key, or the entry inside its value the mismatch path names.
 */
import { formatLocation, formatPath, type FixtureLocation } from "./errors.ts";
import { CaseMatcher as Matcher, formatMismatch, type Shape } from "./matcher/index.ts";
import type { KeyPath } from "./source.ts";

/** The directive a check comes from: its key path, and the label its mismatch paths start with. */
export interface CheckOrigin {
  readonly path: KeyPath;
  readonly label: string;
}

/** One mismatch, formatted, and where in the fixture it points. */
export interface LocatedMismatch {
  readonly text: string;
  readonly location: FixtureLocation;
}

export interface CaseMatcher {
  check(label: string, expected: unknown, actual: unknown, shape: unknown, origin: CheckOrigin): void;
  fail(path: string, message: string, origin: CheckOrigin): void;
  /** Every mismatch; empty when every check holds. */
  resolve(): LocatedMismatch[];
}

export function createCaseMatcher(
  parameters: Readonly<Record<string, unknown>>,
  locate: (path: KeyPath) => FixtureLocation,
  caseLocation: FixtureLocation,
): CaseMatcher {
  const matcher = new Matcher({ parameters: { ...parameters } });
  const direct: LocatedMismatch[] = [];
  const origins = new Map<string, CheckOrigin>(); // check label -> the directive that made it
  const place = (mismatchPath: string, origin: CheckOrigin | undefined): FixtureLocation => {
    if (origin === undefined) return caseLocation;
    const rest = mismatchPath.startsWith(origin.label) ? parseMismatchPath(mismatchPath.slice(origin.label.length)) : [];
    return locate([...origin.path, ...rest]);
  };
  const located = (text: string, location: FixtureLocation): LocatedMismatch => {
    const [head, ...more] = text.split("\n");
    return { text: [`${head} (${formatLocation({ ...location, path: [] })})`, ...more].join("\n"), location };
  };
  return {
    check(label, expected, actual, shape, origin) {
      origins.set(label, origin);
      matcher.check(label, expected, actual, (shape ?? undefined) as Shape | undefined);
    },
    fail(path, message, origin) {
      direct.push(located(`${path}: ${message}`, place(path, origin)));
    },
    resolve() {
      const r = matcher.resolve();
      return [
        ...direct,
        ...r.mismatches.map((m) => located(formatMismatch(m), place(m.path, originOf(m.path, origins)))),
      ];
    },
  };
}

/** The origin of the longest check label the mismatch path starts with (at a segment boundary). */
function originOf(path: string, origins: ReadonlyMap<string, CheckOrigin>): CheckOrigin | undefined {
  let best: [string, CheckOrigin] | undefined;
  for (const [label, origin] of origins) {
    const boundary = path.length === label.length || path[label.length] === "." || path[label.length] === "[";
    if (path.startsWith(label) && boundary && (best === undefined || label.length > best[0].length)) best = [label, origin];
  }
  return best?.[1];
}

/**
 * Key path segments of a mismatch path's tail (`.a[2]["b.c"].d` → `a, 2, b.c, d`), as far as it
 * parses; the matcher writes keys with `.key`, `["key"]` and indexes with `[n]`.
 */
export function parseMismatchPath(tail: string): Array<string | number> {
  const out: Array<string | number> = [];
  const seg = /\.([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;
  let m: RegExpExecArray | null;
  while (seg.lastIndex < tail.length && (m = seg.exec(tail)) !== null) {
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(m[3] as string) as string);
  }
  return out;
}

/** The label of a directive's checks: its key path inside the case (`expected.final_state`). */
export function checkOrigin(path: KeyPath, casePath: KeyPath): CheckOrigin {
  return { path, label: formatPath(path.slice(casePath.length)) };
}
