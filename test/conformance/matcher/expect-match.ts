/** Test helpers: a match must pass, or must fail with a named mismatch (path, code, message). */
import { expect } from "chai";
import {
  formatMismatches,
  type MatchResult,
  type Mismatch,
  type MismatchCode,
} from "../../../src/conformance/matcher/index.ts";

export function passes(r: MatchResult): void {
  expect(r.ok, `expected a pass, got:\n${formatMismatches(r.mismatches)}`).to.equal(true);
  expect(r.mismatches).to.have.length(0);
}

export interface Wanted {
  readonly path: string;
  readonly code: MismatchCode;
  /** A substring or pattern the message must contain. */
  readonly message?: string | RegExp;
}

function flatten(ms: readonly Mismatch[]): Mismatch[] {
  return ms.flatMap((m) => [m, ...flatten(m.causes ?? [])]);
}

/** Asserts the result failed with a mismatch at `path` of `code` (searching causes too). */
export function fails(r: MatchResult, wanted: Wanted): Mismatch {
  expect(r.ok, "expected a failure, got a pass").to.equal(false);
  const all = flatten(r.mismatches);
  const hit = all.find(
    (m) =>
      m.path === wanted.path &&
      m.code === wanted.code &&
      (wanted.message === undefined ||
        (typeof wanted.message === "string" ? m.message.includes(wanted.message) : wanted.message.test(m.message))),
  );
  expect(hit, `no ${wanted.code} mismatch at ${wanted.path}${wanted.message ? ` matching ${String(wanted.message)}` : ""}; got:\n${formatMismatches(r.mismatches)}`).to.not.equal(undefined);
  return hit as Mismatch;
}
