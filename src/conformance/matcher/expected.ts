/**
 * Expected-side helpers for directive code that builds expected values programmatically
 * (conformance-adapter §8.4: a definition may state "a directive-specific comparison").
 * None of these can be written in YAML; a fixture's own values never produce them.
 */
import type { Shape } from "./shape.ts";
import { valuesEqual } from "./values.ts";

/**
 * An expected value carrying its own shape: at this node, `shape` overrides the position's
 * shape and modes. Lets a directive rewrite a fixture value (e.g. mark one attribute as
 * `attribute_parses_as_object`) without building a parallel shape tree.
 */
export class Shaped {
  constructor(
    readonly value: unknown,
    readonly shape: Shape,
  ) {}
}

/** Wraps an expected value with a shape override (see {@link Shaped}). */
export function withShape(value: unknown, shape: Shape): Shaped {
  return new Shaped(value, shape);
}

/**
 * A programmatic leaf matcher. It never binds tokens. `test` receives the observed value
 * (`undefined` when missing); return true to accept it.
 */
export class ValueMatcher {
  constructor(
    readonly description: string,
    readonly test: (actual: unknown) => boolean,
  ) {}
  describe(): string {
    return this.description;
  }
}

/** Ready-made {@link ValueMatcher}s for directive code. */
export const Matchers = {
  /** Any present, non-null value (e.g. `attributes_present`). */
  present(): ValueMatcher {
    return new ValueMatcher("a present non-null value", (a) => a !== undefined && a !== null);
  },
  /** Any value deep-equal (numbers by value) to one of `values` (e.g. `state_one_of`). */
  oneOf(values: readonly unknown[]): ValueMatcher {
    return new ValueMatcher(`one of ${JSON.stringify(values)}`, (a) =>
      values.some((v) => valuesEqual(v, a)),
    );
  },
  /** A custom predicate with a description used in mismatch messages. */
  predicate(description: string, test: (actual: unknown) => boolean): ValueMatcher {
    return new ValueMatcher(description, test);
  },
} as const;
