/**
 * Assertions inside a call's `expected:` (prompt-management fixtures; conformance-adapter §5.8
 * `raises`, §5.13 `carries`): the returned `prompt` / `prompt_result`, a raised error, and the
 * fetch counts the manager's backends received.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { describeCall } from "../../harness/prompts/facets.ts";
import { callRecord, matchPromptRecord, returned } from "../../harness/prompts/reading.ts";
import { CALL_EXPECTED } from "./case.ts";

const HOME = "prompt-management";

/** `prompt: {...}` — the fetched `Prompt` (§3), by named keys plus the `_present` / `_absent` claims. */
@directive({ name: "prompt", at: CALL_EXPECTED, home: HOME, summary: "the Prompt the call returned" })
export class PromptAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1 };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const v = returned(callRecord(obs, ctx), ctx);
    if (v !== undefined) matchPromptRecord(value, v, ctx);
  }
}

/** `prompt_result: {...}` — the rendered `PromptResult` (§4). */
@directive({ name: "prompt_result", at: CALL_EXPECTED, home: HOME, summary: "the PromptResult the call returned" })
export class PromptResultAssertion extends PromptAssertion {}

function fieldOf(error: unknown, field: string): unknown {
  return typeof error === "object" && error !== null ? (error as Record<string, unknown>)[field] : undefined;
}

/**
 * `carries` (conformance-adapter §5.13): a bare field is exact (a subset match for a mapping), the
 * `_present` suffix asserts presence, `_mentions` a substring (or each of a non-empty list).
 */
export function checkCarries(error: unknown, carries: Readonly<Record<string, unknown>>, ctx: CheckContext, base: string): void {
  for (const [key, expected] of Object.entries(carries)) {
    const label = `${base}.${key}`;
    if (key.endsWith("_present")) {
      const field = key.slice(0, -"_present".length);
      const v = fieldOf(error, field);
      const isPresent = v !== undefined && v !== null;
      if (isPresent !== expected) ctx.fail(`expected the error's '${field}' to be ${expected ? "present" : "absent"}`, { path: label, expected, actual: v ?? null });
    } else if (key.endsWith("_mentions")) {
      const field = key.slice(0, -"_mentions".length);
      const list = Array.isArray(expected) ? expected : [expected];
      if (list.length === 0) throw new FixtureSchemaInvalid(`'${key}' needs a non-empty list of substrings`, ctx.locate([...ctx.self.path, "carries", key]));
      const v = fieldOf(error, field);
      for (const s of list) {
        if (typeof v !== "string" || !v.includes(String(s))) ctx.fail(`expected the error's '${field}' to mention ${JSON.stringify(s)}`, { path: label, expected: s, actual: v ?? null });
      }
    } else if (!(typeof error === "object" && error !== null && key in error)) {
      ctx.fail(`the raised error exposes no field '${key}'`, { path: label });
    } else {
      ctx.match(expected, fieldOf(error, key), Shapes.record(), label);
    }
  }
}

/** `raises: {category, carries?}` — the operation raised a categorized error instead of returning. */
@directive({ name: "raises", at: CALL_EXPECTED, home: HOME, summary: "the call raised a categorized error" })
export class RaisesAssertion {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    required: ["category"],
    additionalProperties: false,
    properties: { category: { type: "string" }, carries: { type: "object", minProperties: 1 } },
  };
  check(value: { category: string; carries?: Record<string, unknown> }, obs: Observation, ctx: CheckContext): void {
    const r = callRecord(obs, ctx);
    if (r.error === undefined) {
      ctx.fail(`expected the ${r.operation} to raise ${value.category}, but it returned`, { path: ctx.label, expected: value.category, actual: null });
      return;
    }
    const category = fieldOf(r.error, "category");
    if (category !== value.category) {
      ctx.fail(`expected category ${value.category}, but ${describeCall(r)}`, { path: `${ctx.label}.category`, expected: value.category, actual: category ?? null });
    }
    if (value.carries) checkCarries(r.error, value.carries, ctx, `${ctx.label}.carries`);
  }
}

/** `backend_call_counts: {<backend>: <int>}` — fetches each named backend received so far. */
@directive({ name: "backend_call_counts", at: CALL_EXPECTED, home: HOME, summary: "fetches each backend received" })
export class BackendCallCounts {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "integer", minimum: 0 } };
  check(value: Record<string, number>, obs: Observation, ctx: CheckContext): void {
    const counts = callRecord(obs, ctx).backendCalls;
    for (const [name, want] of Object.entries(value)) {
      if (!(name in counts)) ctx.fail(`no backend named '${name}' was declared`, { path: `${ctx.label}.${name}` });
      else ctx.match(want, counts[name], null, `${ctx.label}.${name}`);
    }
  }
}

/** `<backend>_backend_call_count: <int>` — fetches one backend received so far (008's `secondary_…`). */
@directive({ name: /(?<backend>.+)_backend_call_count/, at: CALL_EXPECTED, home: HOME, summary: "fetches one backend received" })
export class BackendCallCount {
  readonly scope = "call" as const;
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const name = ctx.self.groups["backend"] as string;
    const counts = callRecord(obs, ctx).backendCalls;
    if (!(name in counts)) ctx.fail(`no backend named '${name}' was declared`, { path: ctx.label });
    else ctx.match(value, counts[name], null, ctx.label);
  }
}
