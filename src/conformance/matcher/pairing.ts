/**
 * One-to-one pairing for unordered lists (conformance-adapter §8.4 Lists: "The adapter MUST search
 * for such a pairing and MUST NOT assign greedily"). A maximum bipartite matching by augmenting
 * paths (Kuhn's algorithm) finds a complete pairing whenever one exists.
 */

/** The result of {@link maxMatching}: `-1` marks an unpaired entry or item. */
export interface Matching {
  readonly entryToItem: readonly number[];
  readonly itemToEntry: readonly number[];
  readonly size: number;
}

/**
 * A maximum matching between `entries` (indices `0..n-1`) and `items` (`0..m-1`), where
 * `adj(i, j)` says whether entry `i` may pair with item `j`.
 */
export function maxMatching(n: number, m: number, adj: (i: number, j: number) => boolean): Matching {
  const candidates: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let j = 0; j < m; j++) if (adj(i, j)) row.push(j);
    candidates.push(row);
  }
  return matchCandidates(candidates, m);
}

/** {@link maxMatching} over precomputed candidate lists (`candidates[i]` = items entry i accepts). */
export function matchCandidates(candidates: readonly (readonly number[])[], m: number): Matching {
  const itemToEntry = new Array<number>(m).fill(-1);
  const augment = (i: number, seen: boolean[]): boolean => {
    for (const j of candidates[i]) {
      if (seen[j]) continue;
      seen[j] = true;
      if (itemToEntry[j] < 0 || augment(itemToEntry[j], seen)) {
        itemToEntry[j] = i;
        return true;
      }
    }
    return false;
  };
  let size = 0;
  for (let i = 0; i < candidates.length; i++) {
    if (augment(i, new Array<boolean>(m).fill(false))) size++;
  }
  const entryToItem = new Array<number>(candidates.length).fill(-1);
  itemToEntry.forEach((i, j) => {
    if (i >= 0) entryToItem[i] = j;
  });
  return { entryToItem, itemToEntry, size };
}
