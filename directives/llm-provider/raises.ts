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
import type { Observation } from "../../src/conformance/observation.ts";
import { describeCall, llmCall } from "../../harness/llm/reading.ts";
import { CARRIES_SCHEMA, checkCarries, checkRaises } from "../../harness/graph/carries.ts";

@directive({ name: "raises", at: "expected", home: "llm-provider", summary: "the operation raised a categorized error" })
export class RaisesAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "object", required: ["category"], properties: { category: { type: "string" }, carries: CARRIES_SCHEMA } };
  check(value: { category: string; carries?: Record<string, unknown> } & Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const call = llmCall(obs, ctx);
    if (call.error === undefined) {
      ctx.fail(`expected the call to raise ${value.category}, but ${describeCall(call)}`);
      return;
    }
    const { category, carries, ...fields } = value;
    checkRaises({ category }, call.error, ctx);
    // Keys beside category other than carries (fixture 004) are fields the error exposes, as carries reads them.
    const all = { ...fields, ...(carries ?? {}) };
    if (Object.keys(all).length > 0) checkCarries(all, call.error, ctx, ctx.label);
  }
}
