/**
 * The conformance matcher: conformance-adapter §8.4 (Assertion: single values, lists, mappings,
 * absence, null) and §5.10 (value matchers and binding tokens), as one pure module. It knows
 * nothing about fixtures or directives; a directive describes each position with a {@link Shape}.
 *
 * ```ts
 * import { CaseMatcher, Shapes, formatMismatches } from "./conformance/matcher/index.ts";
 *
 * const event = Shapes.named({ keys: { pre_state: Shapes.exact(), post_state: Shapes.exact() } });
 * const m = new CaseMatcher({ parameters: { implementation_name: "openarmature-ts" } });
 * m.check("expected.final_state", written.final_state, outcome.state, Shapes.exact());
 * m.check("expected.observer_events.obs", written.observer_events.obs, events, Shapes.list("ordered", event));
 * const r = m.resolve();
 * if (!r.ok) throw new Error(formatMismatches(r.mismatches));
 * ```
 */
export { CaseMatcher, match, DEFAULT_MAX_SEARCH_STEPS, type MatchOptions, type MatchResult } from "./case.ts";
export {
  Shapes,
  type Shape,
  type ListMode,
  type MappingMode,
  type NullMode,
  type NumberMode,
} from "./shape.ts";
export {
  formatMismatch,
  formatMismatches,
  keyPath,
  indexPath,
  render,
  type Mismatch,
  type MismatchCode,
} from "./mismatch.ts";
export { Matchers, ValueMatcher, Shaped, withShape } from "./expected.ts";
export { TypedValue, typed, valuesEqual, isPresent, type AttributeType } from "./values.ts";
export {
  parseToken,
  isBindingToken,
  checkFormat,
  isAssertionMapping,
  FORMAT_DESCRIPTIONS,
  type FormatName,
  type ValueToken,
} from "./tokens.ts";
export { ABSENT_KEYS, isReservedKey, absenceTarget, checkAbsent } from "./absence.ts";
export { tokensOf, hasTokens } from "./bindings.ts";
