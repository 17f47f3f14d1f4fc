/**
 * §8.4 Lists: ordered (complete and in order; also every list inside data), unordered (complete,
 * one-to-one pairing found by a full search, never greedy), set (unordered, repeats do not
 * count) and existence lists (each entry matches some observed item; not exhaustive).
 */
import type { BindingState, Comparing } from "./compare.ts";
import { describe, indexPath, mismatch, render, type Mismatch } from "./mismatch.ts";
import { maxMatching } from "./pairing.ts";
import { itemPosition, type Position } from "./shape.ts";

function items(n: number): string {
  return n === 1 ? "1 item" : `${n} items`;
}

function fork(env: BindingState): BindingState {
  return env === null ? null : new Map(env);
}

/** Compares a written list with an observed value under the list mode of `pos`. */
export function compareList(
  c: Comparing,
  e: readonly unknown[],
  a: unknown,
  pos: Position,
  path: string,
  env: BindingState,
): Mismatch[] {
  if (!Array.isArray(a)) {
    return [mismatch("type", path, e, a, `expected a list of ${items(e.length)}, got ${describe(a)}`)];
  }
  const observed = a as readonly unknown[];
  const ipos = itemPosition(pos);
  switch (pos.shape.list ?? "ordered") {
    case "ordered":
      return ordered(c, e, observed, ipos, path, env);
    case "unordered":
      return unordered(c, e, observed, ipos, path, env);
    case "set":
      return set(c, e, observed, ipos, path, env);
    case "existence":
      return existence(c, e, observed, ipos, path, env);
  }
}

function lengthMismatch(path: string, e: readonly unknown[], a: readonly unknown[]): Mismatch {
  const n = Math.min(e.length, a.length);
  const detail =
    e.length > a.length
      ? `entry [${n}] ${render(e[n])} has no observed item`
      : `observed item [${n}] ${render(a[n])} is unexpected`;
  return mismatch("length", path, e, a, `expected ${items(e.length)}, got ${a.length} (${detail})`);
}

/** Complete and in order: the length, then each index (§8.4 Lists: Order). */
function ordered(
  c: Comparing,
  e: readonly unknown[],
  a: readonly unknown[],
  ipos: Position,
  path: string,
  env: BindingState,
): Mismatch[] {
  const out: Mismatch[] = [];
  if (e.length !== a.length) out.push(lengthMismatch(path, e, a));
  const n = Math.min(e.length, a.length);
  for (let i = 0; i < n; i++) out.push(...c.compare(e[i], a[i], ipos, indexPath(path, i), env));
  return out;
}

/** Every entry against every item, with bindings forked so trial comparisons do not bind. */
function table(
  c: Comparing,
  e: readonly unknown[],
  a: readonly unknown[],
  ipos: Position,
  path: string,
  env: BindingState,
): (readonly Mismatch[])[][] {
  return e.map((x, i) => a.map((y) => c.compare(x, y, ipos, indexPath(path, i), fork(env))));
}

/**
 * The `unpaired_entry` mismatch for entry `i`, explained by its closest observed item (fewest
 * mismatches, preferring items no other entry took).
 */
function unpairedEntry(
  path: string,
  i: number,
  e: unknown,
  a: readonly unknown[],
  row: readonly (readonly Mismatch[])[],
  taken: (j: number) => boolean,
  note: string,
): Mismatch {
  const base = `no observed item matches entry [${i}]`;
  if (a.length === 0) return mismatch("unpaired_entry", path, e, a, `${base} (the observed list is empty)`);
  const matches = row.flatMap((ms, j) => (ms.length === 0 ? [j] : []));
  if (matches.length > 0) {
    const list = matches.map((j) => `[${j}]`).join(", ");
    return mismatch(
      "unpaired_entry",
      path,
      e,
      matches.map((j) => a[j]),
      `${base} one-to-one: the items it matches (${list}) are each needed by another entry`,
    );
  }
  let best = 0;
  row.forEach((ms, j) => {
    const better = ms.length < row[best].length || (ms.length === row[best].length && !taken(j) && taken(best));
    if (better) best = j;
  });
  return mismatch("unpaired_entry", path, e, a[best], `${base}${note}; closest is observed item [${best}]`, row[best]);
}

/**
 * Unordered: complete, one-to-one. A maximum bipartite matching (not a greedy assignment) decides
 * the pairing, so a general entry never steals the item a more specific entry needs.
 */
function unordered(
  c: Comparing,
  e: readonly unknown[],
  a: readonly unknown[],
  ipos: Position,
  path: string,
  env: BindingState,
): Mismatch[] {
  const rows = table(c, e, a, ipos, path, env);
  const m = maxMatching(e.length, a.length, (i, j) => rows[i][j].length === 0);
  const out: Mismatch[] = [];
  if (e.length !== a.length) {
    out.push(mismatch("length", path, e, a, `expected ${items(e.length)}, got ${a.length} (unordered)`));
  }
  const taken = (j: number): boolean => m.itemToEntry[j] >= 0;
  e.forEach((entry, i) => {
    const j = m.entryToItem[i];
    if (j < 0) out.push(unpairedEntry(path, i, entry, a, rows[i], taken, ""));
    else if (env !== null) out.push(...c.compare(entry, a[j], ipos, indexPath(path, i), env));
  });
  a.forEach((item, j) => {
    if (m.itemToEntry[j] < 0) {
      out.push(mismatch("unpaired_item", path, undefined, item, `observed item [${j}] ${render(item)} is not paired with any entry`));
    }
  });
  return out;
}

/** Set: every entry matches some item and every item is matched by some entry; repeats do not count. */
function set(
  c: Comparing,
  e: readonly unknown[],
  a: readonly unknown[],
  ipos: Position,
  path: string,
  env: BindingState,
): Mismatch[] {
  const rows = table(c, e, a, ipos, path, env);
  const out: Mismatch[] = [];
  e.forEach((entry, i) => {
    const j = rows[i].findIndex((ms) => ms.length === 0);
    if (j < 0) out.push(unpairedEntry(path, i, entry, a, rows[i], () => false, " (set)"));
    else if (env !== null) out.push(...c.compare(entry, a[j], ipos, indexPath(path, i), env));
  });
  // Coverage is judged under the bindings the entries made (in binding mode).
  const covers = (i: number, j: number): boolean =>
    env === null ? rows[i][j].length === 0 : c.compare(e[i], a[j], ipos, indexPath(path, i), fork(env)).length === 0;
  a.forEach((item, j) => {
    if (!e.some((_, i) => covers(i, j))) {
      out.push(mismatch("unpaired_item", path, undefined, item, `observed item [${j}] ${render(item)} matches no entry of the set`));
    }
  });
  return out;
}

/** Existence: each entry matches some observed item; entries may share an item; not exhaustive. */
function existence(
  c: Comparing,
  e: readonly unknown[],
  a: readonly unknown[],
  ipos: Position,
  path: string,
  env: BindingState,
): Mismatch[] {
  const out: Mismatch[] = [];
  e.forEach((entry, i) => {
    const p = indexPath(path, i);
    const row: (readonly Mismatch[])[] = [];
    let found = -1;
    for (let j = 0; j < a.length && found < 0; j++) {
      const ms = c.compare(entry, a[j], ipos, p, fork(env));
      row.push(ms);
      if (ms.length === 0) found = j;
    }
    if (found < 0) out.push(unpairedEntry(path, i, entry, a, row, () => false, " (existence list)"));
    else if (env !== null) out.push(...c.compare(entry, a[found], ipos, p, env));
  });
  return out;
}
