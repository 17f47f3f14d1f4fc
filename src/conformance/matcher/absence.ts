/**
 * §8.4 Absence and §5 Reserved absence keys: `<key>_absent_keys: [...]` beside a mapping-valued
 * key, and `absent_keys: [...]` inside a list entry's mapping. Both are parameter lists, never
 * compared as data keys.
 */
import { keyPath, mismatch, render, type Mismatch } from "./mismatch.ts";
import type { NullMode } from "./shape.ts";
import { isMapping, isPresent, readKey } from "./values.ts";

/** The in-entry spelling (§8.4 Absence). */
export const ABSENT_KEYS = "absent_keys";
const SUFFIX = "_absent_keys";

/** True for `absent_keys` and every key ending in `_absent_keys` (§5 Reserved absence keys). */
export function isReservedKey(key: string): boolean {
  return key === ABSENT_KEYS || key.endsWith(SUFFIX);
}

/**
 * The sibling key a reserved key constrains: `"metadata"` for `metadata_absent_keys`, or
 * undefined for `absent_keys` (which constrains its own mapping).
 */
export function absenceTarget(key: string): string | undefined {
  return key === ABSENT_KEYS ? undefined : key.slice(0, -SUFFIX.length);
}

/** Reads a written absence list: a list of strings, or an `invalid_expected` mismatch. */
export function readAbsentList(
  value: unknown,
  path: string,
): { readonly keys: readonly string[] } | { readonly error: Mismatch } {
  if (Array.isArray(value) && value.every((k) => typeof k === "string")) return { keys: value as string[] };
  return { error: mismatch(
    "invalid_expected",
    path,
    value,
    undefined,
    `an absence list must be a list of key names, got ${render(value)}`,
  ) };
}

/**
 * Checks that none of `keys` is present in the observed mapping `target` (§8.4 Absence). A
 * missing or null `target` holds none of them. On a record, a null field counts as absent; on a
 * JSON document only a missing member does.
 *
 * Exported so directives can check their own beside-directive forms, e.g.
 * `expected_wire_request_absent_keys`.
 */
export function checkAbsent(
  keys: readonly string[],
  target: unknown,
  targetPath: string,
  nulls: NullMode,
  listName: string = ABSENT_KEYS,
): Mismatch[] {
  if (target === undefined || target === null) return [];
  if (!isMapping(target)) {
    return [
      mismatch(
        "type",
        targetPath,
        keys,
        target,
        `expected a mapping to check ${listName} against, got ${render(target)}`,
      ),
    ];
  }
  const out: Mismatch[] = [];
  for (const k of keys) {
    const v = readKey(target, k);
    if (isPresent(v, nulls)) {
      out.push(
        mismatch(
          "not_absent",
          keyPath(targetPath, k),
          undefined,
          v,
          `expected to be absent (${listName}), got ${render(v)}`,
        ),
      );
    }
  }
  return out;
}
