/**
 * Retired vocabulary (conformance-adapter 0.120.1): directives and forms the 0.109 corpus still
 * writes and the governing seed retires or rules out. The `legacy` bundle (directives/legacy/)
 * checks each through its replacement; every use is counted as a deprecation in the run summary,
 * and `--strict-vocabulary` (`OA_STRICT_VOCABULARY=1`) refuses it as `fixture_directive_unknown`
 * naming the replacement.
 */
import type { FixtureLocation } from "./errors.ts";

/** Why a directive or form is retired and what replaces it. */
export interface Retirement {
  /** What a fixture writes instead, e.g. `span_tree` or `event_count: {event_type, count: 0}`. */
  readonly replacement: string;
  /** The seed text that retires it, e.g. `conformance-adapter 0.120.1 §5.8`. */
  readonly section: string;
  /** Set for a spelling no spec version defined (the corpus used it anyway): "not defined by" instead of "retired by". */
  readonly neverDefined?: true;
}

/** One use of retired vocabulary in a case. */
export interface DeprecationUse extends Retirement {
  /** The key (or `key: form`) the fixture wrote. */
  readonly directive: string;
  /** `file:line:column (path)` of the use. */
  readonly location: string;
}

/** The environment switch the mocha entry (and `conform` by default) reads. */
export const STRICT_VOCABULARY_ENV = "OA_STRICT_VOCABULARY";

/** Whether `$OA_STRICT_VOCABULARY` asks for the strict vocabulary (`1` / `true` / `yes`). */
export function strictVocabularyFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|true|yes)$/i.test((env[STRICT_VOCABULARY_ENV] ?? "").trim());
}

/** The explanation a strict run gives for refusing a retired key. */
export function refusal(r: Retirement): string {
  return `${r.neverDefined ? "not defined by" : "retired by"} ${r.section}, refused under --strict-vocabulary; write ${r.replacement} instead`;
}

export type { FixtureLocation };
