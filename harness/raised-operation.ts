/**
 * The operation a call's `expected: {raises}` reads (conformance-adapter §5.8: "under a call's
 * expected: in llm-provider and prompt-management fixtures. It asserts that the operation raised
 * instead of returning"), whichever call the block belongs to: a provider call (`call:` /
 * `calls[]`, answered by the mock or a note's scripted provider) or a prompt-management call.
 */
import type { CheckContext } from "../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../src/conformance/errors.ts";
import type { Observation } from "../src/conformance/observation.ts";
import { LlmCallFacet } from "./llm/facets.ts";
import { describeCall as describeLlmCall } from "./llm/reading.ts";
import { PromptCall, describeCall as describePromptCall } from "./prompts/facets.ts";

export interface RaisingOperation {
  /** `complete call`, `render`, ... for messages. */
  readonly name: string;
  /** What it raised; `undefined`: it returned. */
  readonly error: unknown;
  /** One line saying what it did. */
  readonly outcome: string;
}

/** The operation the block's call made; a block that belongs to no such call is the fixture's error. */
export function raisingOperation(obs: Observation, ctx: CheckContext): RaisingOperation {
  const llm = obs.tryGet(LlmCallFacet);
  const prompt = obs.tryGet(PromptCall);
  if (llm !== undefined && prompt !== undefined) {
    throw new FixtureSchemaInvalid(`'${ctx.self.key}' is ambiguous here: the block's call is both a provider call and a prompt-management call`, ctx.locate(ctx.self.path));
  }
  if (llm !== undefined) return { name: `${llm.operation} call`, error: llm.error, outcome: describeLlmCall(llm) };
  if (prompt !== undefined) return { name: prompt.operation, error: prompt.error, outcome: describePromptCall(prompt) };
  throw new FixtureSchemaInvalid(notAnOperation(ctx.self.key), ctx.locate(ctx.self.path));
}

/** Why `raises` cannot sit in a block that reads no provider / prompt call. */
export function notAnOperation(key: string): string {
  return `'${key}' under expected: asserts that a provider call (call: / calls:) or a prompt-management call raised (conformance-adapter §5.8), but this block's case makes no such call; an invocation's error is asserted with expected_error (§5.8)`;
}
