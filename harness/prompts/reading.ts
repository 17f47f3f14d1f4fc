/** Reading helpers the prompt-management assertions share. */
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { describeCall, PromptCall, PromptCase, type PromptCallRecord, type PromptCaseRecord } from "./facets.ts";

export function callRecord(obs: Observation, ctx: CheckContext): PromptCallRecord {
  return obs.get(PromptCall, ctx.locate(ctx.self.path));
}
export function caseRecord(obs: Observation, ctx: CheckContext): PromptCaseRecord {
  return obs.get(PromptCase, ctx.locate(ctx.self.path));
}

/** The value a call returned; reports a mismatch (and returns undefined) when it raised. */
export function returned(r: PromptCallRecord, ctx: CheckContext, label = ctx.label): unknown {
  if (r.error !== undefined) {
    ctx.fail(`expected a returned value, but ${describeCall(r)}`, { path: label });
    return undefined;
  }
  return r.value;
}

/** The value captured under `label`, reporting a mismatch when there is none or the call raised. */
export function capturedValue(rec: PromptCaseRecord, label: string, ctx: CheckContext, path = ctx.label): unknown {
  const r = rec.captures.get(label);
  if (r === undefined) {
    ctx.fail(`no call was captured as '${label}'`, { path });
    return undefined;
  }
  return returned(r, ctx, path);
}

function fieldOf(v: unknown, key: string): unknown {
  return typeof v === "object" && v !== null ? (v as Record<string, unknown>)[key] : undefined;
}
function present(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/**
 * Match a Prompt / PromptResult record against the written mapping: named keys compare by the
 * §8.4 record rules; the claim keys `<field>_present: <bool>`, `<field>_absent: <bool>` and
 * `<field>_non_empty_string: true` assert presence, absence, and a non-empty string.
 */
export function matchPromptRecord(expected: Readonly<Record<string, unknown>>, actual: unknown, ctx: CheckContext, label = ctx.label): void {
  if (typeof actual !== "object" || actual === null) {
    ctx.fail("expected a record", { path: label, expected, actual });
    return;
  }
  const plain: Record<string, unknown> = {};
  for (const [key, want] of Object.entries(expected)) {
    const at = `${label}.${key}`;
    const claim = /^(?<field>.+)_(?<kind>present|absent|non_empty_string)$/.exec(key);
    if (claim?.groups && !(key in actual)) {
      const { field, kind } = claim.groups as { field: string; kind: string };
      const v = fieldOf(actual, field);
      if (kind === "non_empty_string") {
        if (want !== true) ctx.fail(`'${key}' only asserts true`, { path: at, expected: true, actual: want });
        else if (!(typeof v === "string" && v.length > 0)) ctx.fail(`expected '${field}' to be a non-empty string`, { path: at, expected: "a non-empty string", actual: v });
      } else {
        const wantPresent = kind === "present" ? want === true : want !== true;
        if (present(v) !== wantPresent) ctx.fail(`expected '${field}' to be ${wantPresent ? "present" : "absent"}`, { path: at, expected: wantPresent ? "present" : "absent", actual: v ?? null });
      }
      continue;
    }
    plain[key] = want;
  }
  if (Object.keys(plain).length > 0) ctx.match(plain, actual, Shapes.record(), label);
}
