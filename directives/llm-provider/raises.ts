/**
 * `expected.raises: {category, carries}` (conformance-adapter §5.8, §5.12, §5.13): the operation
 * raised an error of the §7 category. `carries` keys name the error's fields (the library exposes
 * them under the spec's names): a bare field is exact (a subset match for a mapping such as
 * `usage`), `_present` asserts presence, `_mentions` a substring (or each of a list). A key
 * beside `category` other than `carries` (fixture 004's `retry_after_seconds`) is read the same
 * way, as a field the error exposes.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { describeCall, llmCall } from "../../harness/llm/reading.ts";

function fieldOf(error: unknown, field: string): unknown {
  if (typeof error !== "object" || error === null) return undefined;
  return (error as Record<string, unknown>)[field];
}

export function checkCarries(error: unknown, carries: Readonly<Record<string, unknown>>, ctx: CheckContext, base: string): void {
  for (const [key, expected] of Object.entries(carries)) {
    const label = `${base}.${key}`;
    if (key.endsWith("_present")) {
      const v = fieldOf(error, key.slice(0, -"_present".length));
      const present = v !== undefined && v !== null;
      if (present !== expected) ctx.fail(`expected the error's '${key.slice(0, -8)}' to be ${expected ? "present" : "absent"}`, { path: label, expected, actual: v });
    } else if (key.endsWith("_mentions")) {
      const list = Array.isArray(expected) ? expected : [expected];
      if (list.length === 0) throw new FixtureSchemaInvalid(`'${key}' needs a non-empty list of substrings`, ctx.locate(ctx.self.path));
      const v = fieldOf(error, key.slice(0, -"_mentions".length));
      for (const s of list) if (typeof v !== "string" || !v.includes(String(s))) ctx.fail(`expected the error's '${key.slice(0, -9)}' to mention ${JSON.stringify(s)}`, { path: label, expected: s, actual: v });
    } else {
      if (!(typeof error === "object" && error !== null && key in error)) {
        ctx.fail(`the raised error exposes no field '${key}'`, { path: label });
        continue;
      }
      ctx.match(expected, fieldOf(error, key), Shapes.record(), label);
    }
  }
}

@directive({ name: "raises", at: "expected", home: "llm-provider", summary: "the operation raised a categorized error" })
export class RaisesAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "object", required: ["category"], properties: { category: { type: "string" }, carries: { type: "object" } } };
  check(value: { category: string; carries?: Record<string, unknown> } & Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const call = llmCall(obs, ctx);
    if (call.error === undefined) {
      ctx.fail(`expected the call to raise ${value.category}, but ${describeCall(call)}`);
      return;
    }
    ctx.match(value.category, fieldOf(call.error, "category") ?? null, null, `${ctx.label}.category`);
    const { category: _c, carries, ...fields } = value;
    checkCarries(call.error, { ...fields, ...(carries ?? {}) }, ctx, ctx.label);
  }
}
