/**
 * The named migration functions of the state-migration fixtures (pipeline-utilities note,
 * fixtures 039–047 `migrations: [{from_version, to_version, migrate: <name>}]`), each as its
 * fixture's comment defines it. Unknown names are `harness_primitive_missing`.
 */
import type { SerializedState } from "../../src/checkpoint/index.ts";

/** The exception `raises_keyerror` raises (Python's KeyError, by name). */
export class KeyError extends Error {
  override name = "KeyError";
}

export const MIGRATION_MOCKS: Readonly<Record<string, (s: SerializedState) => SerializedState>> = {
  /** 039 / 043: adds `{new_field: "v2_default"}`. */
  add_new_field_default: (s) => ({ ...s, new_field: "v2_default" }),
  /** 040: adds `{v2_field: "v2_default"}`. */
  add_v2_field: (s) => ({ ...s, v2_field: "v2_default" }),
  /** 040: adds `{v3_field: "v3_default"}`. */
  add_v3_field: (s) => ({ ...s, v3_field: "v3_default" }),
  /** 044: a buggy migration that returns its input unchanged (adds no required field). */
  identity_passthrough: (s) => s,
  /** 045: unrelated to the needed path; returns its input unchanged. */
  irrelevant: (s) => s,
  /** 046: raises a KeyError mid-execution. */
  raises_keyerror: (s) => {
    const missing = "legacy_key";
    if (!(missing in s)) throw new KeyError(`'${missing}'`);
    return s;
  },
};
