/**
 * §8.4 Mappings and Absence: a mapping asserts the keys it names (at every depth) unless its
 * position is exact, where the written mapping is the whole value. `absent_keys` and
 * `<key>_absent_keys` are absence lists, never data keys.
 */
import { absenceTarget, checkAbsent, isReservedKey, readAbsentList } from "./absence.ts";
import type { BindingState, Comparing } from "./compare.ts";
import { describe, keyPath, mismatch, render, type Mismatch } from "./mismatch.ts";
import { childPosition, type Position } from "./shape.ts";
import { isMapping, presentKeys, readKey } from "./values.ts";

/** The written data keys of an expected mapping (reserved absence keys and `undefined` values excluded). */
export function dataKeys(e: Record<string, unknown>): string[] {
  return Object.keys(e).filter((k) => !isReservedKey(k) && e[k] !== undefined);
}

/**
 * Compares a written mapping with an observed value.
 *
 * - `{}` at a named position matches any present non-null value (§8.4: "{} matches any non-null
 *   entry"); any other written mapping needs an observed mapping (a null or missing value cannot
 *   satisfy a nested mapping, §8.4 Null).
 * - Each data key is compared at its child position; a missing key is a `missing_key` mismatch,
 *   except that a written null follows the null rule of the child position.
 * - `absent_keys: [k…]` — those keys are absent from this observed mapping; `<key>_absent_keys:
 *   [k…]` — absent from the observed mapping under `<key>` (§8.4 Absence). On a record a null
 *   field counts as absent.
 * - At an exact position every other present observed key is an `unexpected_key` mismatch.
 */
export function compareMapping(
  c: Comparing,
  e: Record<string, unknown>,
  a: unknown,
  pos: Position,
  path: string,
  env: BindingState,
): Mismatch[] {
  const keys = dataKeys(e);
  const reserved = Object.keys(e).filter(isReservedKey);
  if (a === null) {
    return [mismatch("type", path, e, a, `expected a mapping ${render(e)}, got null`)];
  }
  if (!isMapping(a)) {
    if (keys.length === 0 && reserved.length === 0 && pos.mapping === "named") return [];
    return [mismatch("type", path, e, a, `expected a mapping ${render(e)}, got ${describe(a)}`)];
  }
  const out: Mismatch[] = [];
  for (const k of keys) {
    out.push(...c.compare(e[k], readKey(a, k), childPosition(pos, k), keyPath(path, k), env));
  }
  const absentHere = new Set<string>();
  for (const rk of reserved) {
    const listPath = keyPath(path, rk);
    const read = readAbsentList(e[rk], listPath);
    if ("error" in read) {
      out.push(read.error);
      continue;
    }
    const list = read.keys;
    const target = absenceTarget(rk);
    if (target === undefined) {
      for (const k of list) absentHere.add(k);
      out.push(...checkAbsent(list, a, path, pos.nulls, rk));
    } else {
      const tpos = childPosition(pos, target);
      out.push(...checkAbsent(list, readKey(a, target), keyPath(path, target), tpos.nulls, rk));
    }
  }
  if (pos.mapping === "exact") {
    const written = new Set(keys);
    for (const k of presentKeys(a, pos.nulls)) {
      if (written.has(k) || absentHere.has(k)) continue;
      out.push(
        mismatch("unexpected_key", keyPath(path, k), undefined, a[k], `unexpected key at an exact position, got ${render(a[k])}`),
      );
    }
  }
  return out;
}
