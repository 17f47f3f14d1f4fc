/**
 * The deterministic comparison of one expected value with one observed value under a shape
 * (conformance-adapter §8.4, §5.10). It runs in two modes:
 *
 * - loose (`env === null`): binding tokens accept any present non-null value. A loose failure is
 *   a failure under every assignment of tokens, so it is final. Results are memoized.
 * - binding (`env` a mutable map): a token's first occurrence (in traversal order) binds it and
 *   later occurrences must equal the binding. A run with no mismatch proves the assertion holds
 *   under the resulting bindings; `search.ts` supplies the bindings when first occurrence fails.
 */
import { checkAbsent, readAbsentList } from "./absence.ts";
import type { Binding } from "./bindings.ts";
import { Shaped, ValueMatcher } from "./expected.ts";
import { compareList } from "./lists.ts";
import { compareMapping } from "./mappings.ts";
import { describe, mismatch, render, type Mismatch } from "./mismatch.ts";
import { decodedPosition, overridePosition, type Position } from "./shape.ts";
import { FORMAT_DESCRIPTIONS, checkFormat, isAssertionMapping, parseToken } from "./tokens.ts";
import {
  TypedValue,
  asTyped,
  isMapping,
  numbersEqual,
  valuesEqual,
  type AttributeType,
} from "./values.ts";

/** Mutable bindings of a binding-mode comparison, or null for a loose one. */
export type BindingState = Map<string, Binding> | null;

/** What `lists.ts` and `mappings.ts` need from the comparer. */
export interface Comparing {
  compare(e: unknown, a: unknown, pos: Position, path: string, env: BindingState): readonly Mismatch[];
}

/** An expected/observed pair after shape overrides, JSON decoding and attribute unwrapping. */
export type Prepared =
  | { readonly done: true; readonly mismatches: readonly Mismatch[] }
  | {
      readonly done: false;
      readonly e: unknown;
      readonly a: unknown;
      readonly pos: Position;
      readonly observedType: AttributeType | undefined;
    };

type Decoded = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

const NO_MISMATCHES: readonly Mismatch[] = Object.freeze([]);

/**
 * A `keysAbsent` position (§8.4 Absence): the written list of key names checked against the
 * observed mapping, named after the list's own key (the last segment of `path`).
 */
function absentFrom(e: unknown, a: unknown, path: string): readonly Mismatch[] {
  const list = readAbsentList(e, path);
  if ("error" in list) return [list.error];
  const name = /(?:\.([A-Za-z_$][\w$]*)|\["([^"]*)"\])$/.exec(path);
  return checkAbsent(list.keys, a, path, "json", name?.[1] ?? name?.[2] ?? "absence list");
}

/** A `type` mismatch: `expected number 1, got boolean true`. */
export function typeMismatch(path: string, e: unknown, a: unknown): Mismatch {
  return mismatch("type", path, e, a, `expected ${describe(e)}, got ${describe(a)}`);
}

/**
 * Compares values for one check. Holds the harness parameters (§5.10 `harness_parameterized`)
 * and the memo of loose comparisons, keyed by observed value and expected path; one instance
 * serves one check (paths are unique within a check).
 */
export class Comparer implements Comparing {
  private readonly memo = new Map<unknown, Map<string, readonly Mismatch[]>>();
  private readonly decoded = new Map<string, Decoded>();

  constructor(readonly parameters: Readonly<Record<string, unknown>>) {}

  /** True when the loose comparison finds no mismatch (memoized). */
  looseOk(e: unknown, a: unknown, pos: Position, path: string): boolean {
    return this.compare(e, a, pos, path, null).length === 0;
  }

  compare(e: unknown, a: unknown, pos: Position, path: string, env: BindingState): readonly Mismatch[] {
    if (env !== null || typeof e !== "object" || e === null) return this.compareOnce(e, a, pos, path, env);
    let byPath = this.memo.get(a);
    if (!byPath) this.memo.set(a, (byPath = new Map()));
    const hit = byPath.get(path);
    if (hit) return hit;
    const result = this.compareOnce(e, a, pos, path, null);
    byPath.set(path, result);
    return result;
  }

  /**
   * Applies what happens at a position before values are compared, in this order: `withShape`
   * overrides, the shape's `equivalent` (§8.4 directive-specific comparison), span-attribute
   * unwrapping (§8.4 span attributes) and JSON decoding (§8.4 JSON-encoded strings).
   */
  prepare(e0: unknown, a0: unknown, pos0: Position, path: string): Prepared {
    let e = e0;
    let a = a0;
    let pos = pos0;
    while (e instanceof Shaped) {
      pos = overridePosition(pos, e.shape);
      e = e.value;
    }
    if (pos.shape.keysAbsent) return { done: true, mismatches: absentFrom(e, a, path) };
    if (pos.shape.equivalent?.(e, a)) return { done: true, mismatches: NO_MISMATCHES };
    // Span-attribute unwrapping comes first: a JSON-encoded attribute arrives as a tagged string.
    let observedType: AttributeType | undefined;
    if (pos0.numbers === "typed" || pos.numbers === "typed" || e instanceof TypedValue) {
      const tv = asTyped(a);
      if (tv) {
        if (tv.type.endsWith("[]") && Array.isArray(tv.value)) {
          const element = tv.type.slice(0, -2) as AttributeType;
          a = tv.value.map((x: unknown) => new TypedValue(element, x));
        } else {
          a = tv.value;
          observedType = tv.type;
        }
      }
    }
    if (pos.shape.decode === "json") {
      pos = decodedPosition(pos);
      let decodeObserved = true;
      if (typeof e === "string") {
        const d = parseToken(e) ? undefined : this.decode(e);
        if (d?.ok) e = d.value;
        else decodeObserved = false; // a token or a non-JSON literal compares with the raw string
      }
      if (decodeObserved && typeof a === "string") {
        const d = this.decode(a);
        if (!d.ok) {
          return {
            done: true,
            mismatches: [
              mismatch("json_decode", path, e, a, `expected a JSON-encoded string, got ${render(a)} (${d.error})`),
            ],
          };
        }
        a = d.value;
        observedType = undefined;
      }
    }
    return { done: false, e, a, pos, observedType };
  }

  private decode(s: string): Decoded {
    let d = this.decoded.get(s);
    if (!d) {
      try {
        d = { ok: true, value: JSON.parse(s) as unknown };
      } catch (err) {
        d = { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
      this.decoded.set(s, d);
    }
    return d;
  }

  private compareOnce(e0: unknown, a0: unknown, pos0: Position, path: string, env: BindingState): readonly Mismatch[] {
    const p = this.prepare(e0, a0, pos0, path);
    if (p.done) return p.mismatches;
    const { e, a, pos } = p;
    if (e === null || e === undefined) return this.nullLeaf(a, pos, path);
    if (e instanceof ValueMatcher) {
      return e.test(a) ? NO_MISMATCHES : [mismatch("format", path, e, a, `expected ${e.description}, got ${render(a)}`)];
    }
    if (a === undefined) {
      return [mismatch("missing_key", path, e, a, `expected ${render(e)}, got nothing (missing)`)];
    }
    if (e instanceof TypedValue) return this.typedLeaf(e, a, pos, path, env, p.observedType);
    switch (typeof e) {
      case "string":
        return this.stringLeaf(e, a, path, env);
      case "number":
      case "bigint":
        return this.numberLeaf(e, a, pos, path, p.observedType, undefined);
      case "boolean":
        if (typeof a !== "boolean") return [typeMismatch(path, e, a)];
        return a === e ? NO_MISMATCHES : [valueMismatch(path, e, a)];
    }
    if (Array.isArray(e)) return compareList(this, e, a, pos, path, env);
    if (e instanceof Date) return valuesEqual(e, a) ? NO_MISMATCHES : [valueMismatch(path, e, a)];
    if (isAssertionMapping(e)) return this.assertionMapping(e, a, path);
    if (isMapping(e)) return compareMapping(this, e, a, pos, path, env);
    return valuesEqual(e, a) ? NO_MISMATCHES : [valueMismatch(path, e, a)];
  }

  /** §8.4 Null: a written null matches null, and on a record also a missing field. */
  private nullLeaf(a: unknown, pos: Position, path: string): readonly Mismatch[] {
    if (a === null) return NO_MISMATCHES;
    if (a === undefined) {
      return pos.nulls === "record"
        ? NO_MISMATCHES
        : [mismatch("missing_key", path, null, a, "expected null, got nothing (missing; a JSON document's null is not missing)")];
    }
    return [mismatch("not_null", path, null, a, `expected null (not set), got ${render(a)}`)];
  }

  /** §8.4 strings (case-sensitive) and §5.10 format matchers and binding tokens. */
  private stringLeaf(e: string, a: unknown, path: string, env: BindingState): readonly Mismatch[] {
    const tok = parseToken(e);
    if (tok?.kind === "format") {
      return checkFormat(tok.format, a)
        ? NO_MISMATCHES
        : [mismatch("format", path, e, a, `expected ${e} (${FORMAT_DESCRIPTIONS[tok.format]}), got ${render(a)}`)];
    }
    if (tok?.kind === "binding") {
      if (a === null) {
        return [mismatch("binding", path, e, a, `expected ${e} (a present non-null value), got null`)];
      }
      if (env === null) return NO_MISMATCHES;
      const bound = env.get(e);
      if (!bound) {
        env.set(e, { value: a, path });
        return NO_MISMATCHES;
      }
      return valuesEqual(bound.value, a)
        ? NO_MISMATCHES
        : [
            mismatch(
              "binding",
              path,
              e,
              a,
              `expected ${e} = ${render(bound.value)} (bound at ${bound.path}), got ${render(a)}`,
            ),
          ];
    }
    if (typeof a !== "string") return [typeMismatch(path, e, a)];
    return a === e ? NO_MISMATCHES : [valueMismatch(path, e, a)];
  }

  /**
   * §8.4 numbers: by numeric value, never a boolean or a string. Under span-attribute typing a
   * double (a non-whole number, or `typed("double")`) needs a double attribute and `typed("int")`
   * an int one; a whole plain number compares by value.
   */
  private numberLeaf(
    e: number | bigint,
    a: unknown,
    pos: Position,
    path: string,
    observedType: AttributeType | undefined,
    expectedType: AttributeType | undefined,
  ): readonly Mismatch[] {
    if (typeof a !== "number" && typeof a !== "bigint") return [typeMismatch(path, e, a)];
    if (pos.numbers === "typed" || expectedType) {
      const wanted = expectedType ?? (typeof e === "number" && !Number.isInteger(e) ? "double" : undefined);
      const got =
        observedType ?? (typeof a === "number" && !Number.isInteger(a) ? "double" : undefined);
      if ((wanted === "double" && got === "int") || (wanted === "int" && got === "double")) {
        return [
          mismatch(
            "numeric_type",
            path,
            e,
            a,
            `expected ${wanted === "int" ? "an int" : "a double"} attribute ${render(e)}, got ${got} ${render(a)}`,
          ),
        ];
      }
    }
    return numbersEqual(e, a) ? NO_MISMATCHES : [valueMismatch(path, e, a)];
  }

  private typedLeaf(
    e: TypedValue,
    a: unknown,
    pos: Position,
    path: string,
    env: BindingState,
    observedType: AttributeType | undefined,
  ): readonly Mismatch[] {
    if ((e.type === "int" || e.type === "double") && (typeof e.value === "number" || typeof e.value === "bigint")) {
      return this.numberLeaf(e.value, a, pos, path, observedType, e.type);
    }
    return this.compare(e.value, a, pos, path, env);
  }

  /** §5.10 assertion sub-keys: `non_empty_string: true`, `harness_parameterized: <name>`. */
  private assertionMapping(e: Record<string, unknown>, a: unknown, path: string): readonly Mismatch[] {
    const out: Mismatch[] = [];
    for (const [k, v] of Object.entries(e)) {
      if (k === "non_empty_string") {
        if (v !== true) {
          out.push(mismatch("invalid_expected", path, e, a, `non_empty_string must be true, got ${render(v)}`));
        } else if (typeof a !== "string" || a.length === 0) {
          out.push(mismatch("format", path, e, a, `expected a non-empty string (non_empty_string: true), got ${render(a)}`));
        }
      } else if (k === "harness_parameterized") {
        if (typeof v !== "string") {
          out.push(mismatch("invalid_expected", path, e, a, `harness_parameterized must name a parameter, got ${render(v)}`));
        } else if (!Object.hasOwn(this.parameters, v)) {
          const known = Object.keys(this.parameters);
          out.push(
            mismatch(
              "unknown_parameter",
              path,
              e,
              a,
              `unknown harness parameter ${JSON.stringify(v)} (harness_parameterized); the harness injects ${known.length > 0 ? known.join(", ") : "no parameters"}`,
            ),
          );
        } else if (!valuesEqual(this.parameters[v], a)) {
          out.push(
            mismatch(
              "value",
              path,
              this.parameters[v],
              a,
              `expected harness parameter ${v} = ${render(this.parameters[v])}, got ${render(a)}`,
            ),
          );
        }
      }
    }
    return out;
  }
}

function valueMismatch(path: string, e: unknown, a: unknown): Mismatch {
  return mismatch("value", path, e, a, `expected ${render(e)}, got ${render(a)}`);
}
