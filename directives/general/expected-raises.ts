/**
 * `raises: {category, carries?}` under a call's `expected:` (conformance-adapter §5.8, §5.12,
 * §5.13): the operation raised instead of returning. One definition for every directory, reading
 * the call its block belongs to (harness/raised-operation.ts): a provider call (`call:` /
 * `calls[]` — llm-provider's mock, testing's scripted provider) or a prompt-management call (at that
 * directory's call-expected position). `category` compares with the error's own category
 * identifier; `carries` follows §5.13 (§5.12's structured_output_invalid keys are its llm-provider
 * instance). A block whose case makes no such call is `fixture_schema_invalid` before anything runs
 * (a graph invocation's error is `expected_error`'s).
 *
 * "No other sub-key is defined" (§5.8): a field written beside `category` (llm-provider 004's
 * `retry_after_seconds`) is a form no version defines. It is read as the `carries` key it stands
 * for, counted as a deprecation, and refused under `--strict-vocabulary`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { Retirement } from "../../src/conformance/deprecation.ts";
import { CARRIES_SCHEMA, checkCarries, checkRaises } from "../../harness/graph/carries.ts";
import { callsProvider } from "../../harness/provider-context.ts";
import { notAnOperation, raisingOperation } from "../../harness/raised-operation.ts";

/** prompt-management resolves a call's `expected:` keys at its own position (its `calls[]` entries). */
export const PROMPT_CALL_EXPECTED = "prompt_call_expected";

const fieldBesideCategory = (key: string): Retirement => ({
  replacement: `carries: {${key}: ...}`,
  section: "conformance-adapter 0.120.1 §5.8 (raises: category and carries; \"no other sub-key is defined\")",
  neverDefined: true,
});

type RaisesValue = { readonly category: string; readonly carries?: Readonly<Record<string, unknown>> } & Readonly<Record<string, unknown>>;

@directive({ name: "raises", at: ["expected", PROMPT_CALL_EXPECTED], home: "general", section: "conformance-adapter §5.8, §5.12, §5.13", summary: "the call's operation raised a categorized error" })
export class ExpectedRaises {
  readonly scope = "call" as const;
  // Open beside category / carries only so the undefined beside-category form reaches configure (a deprecation).
  readonly schema = { type: "object", required: ["category"], properties: { category: { type: "string", minLength: 1 }, carries: CARRIES_SCHEMA } };
  configure(value: RaisesValue, ctx: ConfigureContext): void {
    for (const key of Object.keys(value)) {
      if (key !== "category" && key !== "carries") ctx.retiredForm(`raises.${key}`, fieldBesideCategory(key), [...ctx.self.path, key]);
    }
    if (ctx.self.position !== "expected") return; // a prompt-management call's block
    ctx.whenConfigured(() => {
      if (!callsProvider(ctx, "llm")) throw new FixtureSchemaInvalid(notAnOperation(ctx.self.key), ctx.locate(ctx.self.path));
    });
  }
  check(value: RaisesValue, obs: Observation, ctx: CheckContext): void {
    const op = raisingOperation(obs, ctx);
    if (op.error === undefined) {
      ctx.fail(`expected the ${op.name} to raise ${value.category}, but ${op.outcome}`, { path: `${ctx.label}.category`, expected: value.category, actual: null });
      return;
    }
    const { category, carries, ...beside } = value;
    checkRaises({ category, ...(carries !== undefined ? { carries } : {}) }, op.error, ctx);
    if (Object.keys(beside).length > 0) checkCarries(beside, op.error, ctx, ctx.label);
  }
}
