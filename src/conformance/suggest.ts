/**
 * "Did you mean ...?": the nearest known name to a misspelled one, by edit distance. Used for
 * unknown directive keys (fixture_directive_unknown) and for the CLI's unknown capability names.
 */

import { editDistance } from "../graph/edit-distance.ts";

export { editDistance };

/**
 * The candidates nearest to `word` (ties all returned, in candidate order), or none when even the
 * nearest is too far to be a typo: more than a third of the word's length (at least 2 edits
 * allowed, at most 4).
 */
export function nearest(word: string, candidates: Iterable<string>): string[] {
  const limit = Math.min(4, Math.max(2, Math.floor(word.length / 3)));
  let best = Infinity;
  let out: string[] = [];
  for (const c of new Set(candidates)) {
    if (c === word) continue;
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d > limit || d > best) continue;
    if (d < best) {
      best = d;
      out = [];
    }
    out.push(c);
  }
  return out;
}

/** ` (did you mean 'a' or 'b'?)` for up to three suggestions, or "" for none. */
export function didYouMean(suggestions: ReadonlyArray<string>): string {
  if (suggestions.length === 0) return "";
  return ` (did you mean ${suggestions.slice(0, 3).map((h) => `'${h}'`).join(" or ")}?)`;
}

/**
 * Concrete names a pattern family (e.g. `(?<node>.+)_node_events_count`) would accept that are
 * near `word`: the pattern's literal prefix or suffix put in place of the word's closest head or
 * tail, kept only when the pattern accepts the result (`a_node_event_count` →
 * `a_node_events_count`). Patterns with no literal end give none.
 */
export function patternCandidates(word: string, pattern: RegExp): string[] {
  const src = pattern.source;
  const prefix = /^[A-Za-z0-9_]*/.exec(src)?.[0] ?? "";
  const suffix = /[A-Za-z0-9_]*$/.exec(src)?.[0] ?? "";
  const out: string[] = [];
  const fullMatch = (s: string): boolean => {
    const m = new RegExp(src, pattern.flags.replace("g", "")).exec(s);
    return m !== null && m[0] === s;
  };
  const bestSplit = (lit: string, piece: (i: number) => string): number => {
    let best = -1;
    let bestD = Infinity;
    for (let i = 1; i < word.length; i++) {
      const d = editDistance(piece(i), lit);
      if (d < bestD) [best, bestD] = [i, d];
    }
    return best;
  };
  if (suffix.length >= 3 && suffix !== src) {
    const i = bestSplit(suffix, (k) => word.slice(k));
    if (i > 0) out.push(word.slice(0, i) + suffix);
  }
  if (prefix.length >= 3 && prefix !== src) {
    const j = bestSplit(prefix, (k) => word.slice(0, k));
    if (j > 0) out.push(prefix + word.slice(j));
  }
  return out.filter(fullMatch);
}
