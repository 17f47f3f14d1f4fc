/**
 * The case-level matcher: collects the checks of one case and resolves them together, because
 * one binding scope covers a whole case (conformance-adapter §5.10 binding tokens, §8.4).
 *
 * `resolve()` proceeds in stages, each cheaper than the next:
 *
 * 1. Loose comparison of every check (tokens as "any present non-null value"). Its mismatches
 *    fail the case under any assignment, so they are reported as they are.
 * 2. No binding tokens: the case passes.
 * 3. First occurrence binds: if that assignment satisfies every check the case passes.
 * 4. The joint search ({@link BindingSearch}) over all token-bearing checks. A found assignment
 *    is re-verified by a deterministic comparison before the case passes.
 * 5. No assignment: the mismatches of the best attempt (the assignment that satisfied the most
 *    checks), followed by an `unsatisfiable` summary, or a `search_limit` one when the step cap
 *    cut the search short.
 */
import { EMPTY_ENV, hasTokens, tokensOf, valuesOf, type Binding, type Env } from "./bindings.ts";
import { Comparer } from "./compare.ts";
import { mismatch, type Mismatch } from "./mismatch.ts";
import { BindingSearch, SearchLimitReached } from "./search.ts";
import { rootPosition, type Position, type Shape } from "./shape.ts";

/** Options of a {@link CaseMatcher}. */
export interface MatchOptions {
  /** Harness-injected parameters for §5.10 `harness_parameterized` (e.g. `implementation_name`). */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /** Step cap of the binding-token search. Default 100 000. */
  readonly maxSearchSteps?: number;
  /** Path used for case-level mismatches (`search_limit`, `unsatisfiable`). Default `"case"`. */
  readonly caseLabel?: string;
}

/** The outcome of matching (conformance-adapter §8.4). */
export interface MatchResult {
  readonly ok: boolean;
  readonly mismatches: readonly Mismatch[];
  /** The binding-token assignment (token string → value) that satisfied the case, or the best attempt's. */
  readonly bindings: ReadonlyMap<string, unknown>;
  /** Steps the binding-token search took (0 when it was not needed). */
  readonly searchSteps: number;
}

interface Check {
  readonly label: string;
  readonly expected: unknown;
  readonly observed: unknown;
  readonly pos: Position;
  readonly comparer: Comparer;
}

/** The default step cap of the binding-token search. */
export const DEFAULT_MAX_SEARCH_STEPS = 100_000;

/**
 * One case's binding scope (§5.10): add every assertion of the case with {@link check}, then
 * {@link resolve} them jointly. The case passes if some assignment of binding tokens makes every
 * check hold.
 *
 * ```ts
 * const m = new CaseMatcher({ parameters: { implementation_name: "openarmature-ts" } });
 * m.check("expected.span_tree", writtenSpans, observedSpans, spanTreeShape);
 * m.check("expected.log_records", writtenLogs, observedLogs, Shapes.list("existence"));
 * const { ok, mismatches } = m.resolve();
 * ```
 */
export class CaseMatcher {
  private readonly checks: Check[] = [];
  private readonly parameters: Readonly<Record<string, unknown>>;

  constructor(private readonly options: MatchOptions = {}) {
    this.parameters = options.parameters ?? {};
  }

  /**
   * Adds one assertion: `expected` (the written value) against `observed`, under `shape`.
   * `label` roots the mismatch paths, e.g. `"expected.final_state"`. Expected values are
   * treated as immutable from here on.
   */
  check(label: string, expected: unknown, observed: unknown, shape: Shape = {}): this {
    this.checks.push({ label, expected, observed, pos: rootPosition(shape), comparer: new Comparer(this.parameters) });
    return this;
  }

  /** Resolves every check jointly (see the module documentation for the stages). */
  resolve(): MatchResult {
    const loose = this.checks.flatMap((ch) => ch.comparer.compare(ch.expected, ch.observed, ch.pos, ch.label, null));
    if (loose.length > 0) return result(loose, EMPTY_ENV, 0);
    const withTokens = this.checks.filter((ch) => hasTokens(ch.expected));
    if (withTokens.length === 0) return result([], EMPTY_ENV, 0);

    const first = report(withTokens, EMPTY_ENV);
    if (first.mismatches.length === 0) return result([], first.env, 0);

    const search = new BindingSearch(this.options.maxSearchSteps ?? DEFAULT_MAX_SEARCH_STEPS);
    let best: { score: number; env: Env } = { score: -1, env: EMPTY_ENV };
    const note = (k: number, env: Env): void => {
      const score = k * 1_000_000 + env.size;
      if (score > best.score) best = { score, env };
    };
    let found: Env | undefined;
    let limited = false;
    try {
      const run = function* (k: number, env: Env): Generator<Env> {
        note(k, env);
        const ch = withTokens[k];
        for (const next of search.solve(ch.comparer, ch.expected, ch.observed, ch.pos, ch.label, env)) {
          note(k + 1, next);
          yield next;
        }
      };
      for (const env of search.all(withTokens.map((_, k) => k), EMPTY_ENV, run)) {
        found = env;
        break;
      }
    } catch (err) {
      if (!(err instanceof SearchLimitReached)) throw err;
      limited = true;
    }

    if (found) {
      const verified = report(withTokens, found);
      return result(verified.mismatches, verified.env, search.steps);
    }
    const attempt = report(withTokens, best.env);
    if (attempt.mismatches.length === 0) return result([], attempt.env, search.steps);
    const chosen = attempt.mismatches.length <= first.mismatches.length ? attempt : first;
    const label = this.options.caseLabel ?? "case";
    const all = [...new Set(withTokens.flatMap((ch) => [...tokensOf(ch.expected)]))];
    const tokens = all.length > 8 ? `${all.slice(0, 8).join(", ")}, … ${all.length - 8} more` : all.join(", ");
    const summary =
      limited || search.truncated
        ? mismatch(
            "search_limit",
            label,
            undefined,
            undefined,
            `the binding-token search (${tokens}) stopped after ${search.steps} steps without finding an assignment that makes every assertion hold; the mismatches above are from its best attempt`,
          )
        : mismatch(
            "unsatisfiable",
            label,
            undefined,
            undefined,
            `no assignment of the binding tokens (${tokens}) makes every assertion hold; the mismatches above are from the best attempt`,
          );
    return result([...chosen.mismatches, summary], chosen.env, search.steps);
  }
}

/**
 * Matches one expected value against one observed value (a case with a single check).
 * `label` roots the mismatch paths (default `"expected"`).
 */
export function match(
  expected: unknown,
  observed: unknown,
  shape: Shape = {},
  options: MatchOptions & { readonly label?: string } = {},
): MatchResult {
  return new CaseMatcher(options).check(options.label ?? "expected", expected, observed, shape).resolve();
}

function report(checks: readonly Check[], env: Env): { mismatches: Mismatch[]; env: Env } {
  const state = new Map<string, Binding>(env);
  const mismatches = checks.flatMap((ch) => ch.comparer.compare(ch.expected, ch.observed, ch.pos, ch.label, state));
  return { mismatches, env: state };
}

function result(mismatches: readonly Mismatch[], env: Env, steps: number): MatchResult {
  return { ok: mismatches.length === 0, mismatches, bindings: valuesOf(env), searchSteps: steps };
}
