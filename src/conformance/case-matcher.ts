/**
 * The case-wide matcher the interpreter hands assertions: every check of one case is resolved
 * together so binding tokens share one scope (conformance-adapter §5.10).
 * TEMPORARY: replaced by the §8.4 matcher module.
 */
export interface CaseMatcher {
  check(label: string, expected: unknown, actual: unknown, shape: unknown): void;
  fail(path: string, message: string, expected?: unknown, actual?: unknown): void;
  /** Formatted mismatches; empty when every check holds. */
  resolve(): string[];
}

export function createCaseMatcher(_parameters: Readonly<Record<string, unknown>>): CaseMatcher {
  const out: string[] = [];
  return {
    check(label, expected, actual) {
      if (JSON.stringify(expected) !== JSON.stringify(actual)) out.push(`${label}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    },
    fail(path, message) {
      out.push(`${path}: ${message}`);
    },
    resolve: () => out,
  };
}
