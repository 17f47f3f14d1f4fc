/**
 * The joint binding-token search (conformance-adapter §5.10: "The case passes if some assignment
 * of values to its tokens makes every assertion hold. First occurrence in document order does not
 * decide a token's value"; §8.4 Lists: "Binding tokens are resolved together with the pairing").
 *
 * The search yields, lazily and depth-first, every binding environment under which an expected
 * value matches an observed one. It stays bounded:
 *
 * - Loose comparison first: a subtree that fails with tokens as wildcards is pruned, and a
 *   token-free subtree is decided by one memoized loose comparison.
 * - It branches on *values*, not on items: for an entry of an unordered list, a set or an
 *   existence list it branches over the distinct bindings the entry's candidates offer (most
 *   constrained entry first, stopping at an entry with none). Once every entry's tokens are bound
 *   the pairing itself is decided by a maximum bipartite matching.
 * - Entry-versus-item solutions are memoized per projected environment.
 * - Every step counts against a cap; reaching it throws {@link SearchLimitReached}.
 */
import {
  delta,
  envKey,
  hasTokens,
  merge,
  project,
  tokensOf,
  type Binding,
  type Env,
} from "./bindings.ts";
import type { Comparer } from "./compare.ts";
import { dataKeys } from "./mappings.ts";
import { indexPath, keyPath } from "./mismatch.ts";
import { matchCandidates } from "./pairing.ts";
import { childPosition, itemPosition, type ListMode, type Position } from "./shape.ts";
import { isAssertionMapping, isBindingToken } from "./tokens.ts";
import { isMapping, readKey, valuesEqual } from "./values.ts";

/** Thrown when the search reaches its step cap. */
export class SearchLimitReached extends Error {
  constructor(readonly steps: number) {
    super(`binding-token search reached its cap of ${steps} steps`);
  }
}

/** Solutions kept per entry/item pair; more marks the search incomplete. */
const PAIR_CAP = 256;

/** One binding-token search over the checks of a case. */
export class BindingSearch {
  /** Steps taken so far. */
  steps = 0;
  /** True when a per-pair solution list was cut at its cap (the search is then incomplete). */
  truncated = false;
  private readonly pairs = new Map<Comparer, Map<unknown, Map<string, readonly Env[]>>>();

  constructor(readonly maxSteps: number) {}

  private tick(): void {
    if (++this.steps > this.maxSteps) throw new SearchLimitReached(this.maxSteps);
  }

  /** Conjunction: environments satisfying every part, threaded left to right, de-duplicated. */
  *all<T>(parts: readonly T[], env: Env, run: (part: T, env: Env) => Iterable<Env>, k = 0): Generator<Env> {
    if (k === parts.length) {
      yield env;
      return;
    }
    const seen = new Set<string>();
    for (const next of run(parts[k], env)) {
      const key = envKey(next);
      if (seen.has(key)) continue;
      seen.add(key);
      yield* this.all(parts, next, run, k + 1);
    }
  }

  /** Every extension of `env` under which `e` matches `a` at `pos`. */
  *solve(c: Comparer, e: unknown, a: unknown, pos: Position, path: string, env: Env): Generator<Env> {
    this.tick();
    if (!c.looseOk(e, a, pos, path)) return;
    if (!hasTokens(e)) {
      yield env;
      return;
    }
    const p = c.prepare(e, a, pos, path);
    if (p.done) {
      if (p.mismatches.length === 0) yield env;
      return;
    }
    const { e: x, a: y, pos: q } = p;
    if (typeof x === "string") {
      if (!isBindingToken(x)) {
        yield env;
        return;
      }
      const bound = env.get(x);
      if (!bound) yield merge(env, new Map<string, Binding>([[x, { value: y, path }]]));
      else if (valuesEqual(bound.value, y)) yield env;
      return;
    }
    if (Array.isArray(x) && Array.isArray(y)) {
      yield* this.solveList(c, x, y, q, path, env);
      return;
    }
    if (isMapping(x) && !isAssertionMapping(x) && isMapping(y)) {
      const keys = dataKeys(x).filter((k) => hasTokens(x[k]));
      yield* this.all(keys, env, (k, env2) =>
        this.solve(c, x[k], readKey(y, k), childPosition(q, k), keyPath(path, k), env2),
      );
      return;
    }
    yield env;
  }

  private *solveList(
    c: Comparer,
    e: readonly unknown[],
    a: readonly unknown[],
    pos: Position,
    path: string,
    env: Env,
  ): Generator<Env> {
    const ipos = itemPosition(pos);
    const mode: ListMode = pos.shape.list ?? "ordered";
    const withTokens = e.flatMap((x, i) => (hasTokens(x) ? [i] : []));
    if (mode === "ordered") {
      yield* this.all(withTokens, env, (i, env2) => this.solve(c, e[i], a[i], ipos, indexPath(path, i), env2));
      return;
    }
    const cands = e.map((x, i) => {
      const p = indexPath(path, i);
      return a.flatMap((y, j) => (c.looseOk(x, y, ipos, p) ? [j] : []));
    });
    const list: ListChoice = { c, e, a, ipos, path, mode, cands, withTokens: new Set(withTokens) };
    yield* this.choose(list, env, withTokens);
  }

  /** Binds the pending entries one at a time, most constrained first, then checks the list. */
  private *choose(list: ListChoice, env: Env, pending0: readonly number[]): Generator<Env> {
    this.tick();
    // An entry whose tokens are all bound has nothing left to choose; `complete` checks it.
    const pending = pending0.filter((i) => [...tokensOf(list.e[i])].some((t) => !env.has(t)));
    if (pending.length === 0) {
      if (this.complete(list, env)) yield env;
      return;
    }
    let best: { i: number; options: readonly Env[] } | undefined;
    for (const i of pending) {
      const options = this.options(list, i, env);
      if (options.length === 0) return;
      if (!best || options.length < best.options.length) best = { i, options };
      if (best.options.length === 1) break;
    }
    if (!best) return;
    const chosen = best.i;
    const rest = pending.filter((i) => i !== chosen);
    for (const d of best.options) yield* this.choose(list, merge(env, d), rest);
  }

  /** The distinct new bindings entry `i` can take from its candidate items. */
  private options(list: ListChoice, i: number, env: Env): readonly Env[] {
    const seen = new Set<string>();
    const out: Env[] = [];
    for (const j of list.cands[i]) {
      for (const d of this.pair(list, i, j, env)) {
        const key = envKey(d);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(d);
      }
    }
    return out;
  }

  /** Whether entry `i` matches item `j` under `env` without binding anything new. */
  private consistent(list: ListChoice, i: number, j: number, env: Env): boolean {
    if (!list.withTokens.has(i)) return true; // candidates are loose matches
    return this.pair(list, i, j, env).some((d) => d.size === 0);
  }

  /** The list-level condition once every entry's tokens are bound. */
  private complete(list: ListChoice, env: Env): boolean {
    const { e, a, cands, mode } = list;
    if (mode === "existence") return true;
    const adj = cands.map((row, i) => row.filter((j) => this.consistent(list, i, j, env)));
    if (mode === "unordered") {
      return e.length === a.length && matchCandidates(adj, a.length).size === e.length;
    }
    if (adj.some((row) => row.length === 0)) return false;
    const covered = new Array<boolean>(a.length).fill(false);
    for (const row of adj) for (const j of row) covered[j] = true;
    return covered.every(Boolean);
  }

  /**
   * The new bindings (deltas over `env`) under which entry `i` matches item `j`. Memoized per
   * entry path, item and the environment projected onto the entry's tokens.
   */
  private pair(list: ListChoice, i: number, j: number, env: Env): readonly Env[] {
    const { c, e, a, ipos, path } = list;
    const x = e[i];
    const y = a[j];
    const p = indexPath(path, i);
    const proj = project(env, tokensOf(x));
    const key = `${p}\u0000${envKey(proj)}`;
    let byItem = this.pairs.get(c);
    if (!byItem) this.pairs.set(c, (byItem = new Map()));
    let byKey = byItem.get(y);
    if (!byKey) byItem.set(y, (byKey = new Map()));
    const hit = byKey.get(key);
    if (hit) return hit;
    const seen = new Set<string>();
    const out: Env[] = [];
    for (const r of this.solve(c, x, y, ipos, p, proj)) {
      const d = delta(proj, r);
      const k = envKey(d);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(d);
      if (out.length >= PAIR_CAP) {
        this.truncated = true;
        break;
      }
    }
    byKey.set(key, out);
    return out;
  }
}

interface ListChoice {
  readonly c: Comparer;
  readonly e: readonly unknown[];
  readonly a: readonly unknown[];
  readonly ipos: Position;
  readonly path: string;
  readonly mode: ListMode;
  readonly cands: readonly (readonly number[])[];
  readonly withTokens: ReadonlySet<number>;
}
