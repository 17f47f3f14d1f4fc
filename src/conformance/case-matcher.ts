/**
 * The case-wide matcher the interpreter hands assertions: every check of one case is resolved
 * together, so binding tokens share one scope and are resolved jointly with list pairings
 * (conformance-adapter §5.10, §8.4). Direct failures (`fail`) are kept beside it.
 */
import { CaseMatcher as Matcher, formatMismatch, type Shape } from "./matcher/index.ts";

export interface CaseMatcher {
  check(label: string, expected: unknown, actual: unknown, shape: unknown): void;
  fail(path: string, message: string, expected?: unknown, actual?: unknown): void;
  /** Formatted mismatches; empty when every check holds. */
  resolve(): string[];
}

export function createCaseMatcher(parameters: Readonly<Record<string, unknown>>): CaseMatcher {
  const matcher = new Matcher({ parameters: { ...parameters } });
  const direct: string[] = [];
  return {
    check(label, expected, actual, shape) {
      matcher.check(label, expected, actual, (shape ?? undefined) as Shape | undefined);
    },
    fail(path, message) {
      direct.push(`${path}: ${message}`);
    },
    resolve() {
      const r = matcher.resolve();
      return [...direct, ...r.mismatches.map((m) => formatMismatch(m))];
    },
  };
}
