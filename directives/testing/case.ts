/**
 * The testing-capability directives (spec/testing/conformance/README.md, the harness note): the
 * case's `script:`, `call:` / `calls:` made on the scripted provider, their inputs, and the
 * assertions `response` / `raises` (the llm-provider ones, read from the same call facet),
 * `recorded_calls` and `stream_event_types`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { Expected } from "../general/expected.ts";
import { Messages, ResponseSchema, Stream, Tools } from "../llm-provider/case.ts";
import { llmCall } from "../../harness/llm/reading.ts";
import { ScriptedCallsFacet, TESTING_CASE, testingExecutor } from "../../harness/testing/case.ts";
import { ResponseAssertion } from "../llm-provider/response.ts";
import { RaisesAssertion } from "../llm-provider/raises.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { Script, ScriptInvalidError, type ScriptData } from "../../src/testing/index.ts";

const HOME = "testing";
const CALL_POSITION = "scripted_call";

/** `script: {version, mode, responses}` — the scripted provider's script (validated by the library). */
@directive({ name: "script", at: "case", home: HOME, summary: "the scripted provider's script" })
export class ScriptDirective {
  readonly schema = { type: "object" };
  configure(value: ScriptData, ctx: ConfigureContext): void {
    try {
      Script.coerce(value); // a malformed script is the fixture's error, found before anything runs
    } catch (e) {
      if (e instanceof ScriptInvalidError || e instanceof TypeError) throw new FixtureSchemaInvalid(`script: ${e.message}`, ctx.locate(ctx.self.path));
      throw e;
    }
    ctx.slot(TESTING_CASE).script = value;
  }
}

@directive({ name: "call", at: "case", home: HOME, summary: "one call on the scripted provider" })
export class ScriptedCall {
  readonly schema = { type: "object" };
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    ctx.setExecutor(testingExecutor);
    await ctx.configureAll(ctx.resolve(CALL_POSITION, value, ctx.self.path));
  }
}

@directive({ name: "calls", at: "case", home: HOME, summary: "calls on one scripted provider, in order" })
export class ScriptedCalls {
  readonly schema = { type: "array", minItems: 1, items: { type: "object" } };
  async configure(value: Record<string, unknown>[], ctx: ConfigureContext): Promise<void> {
    ctx.setExecutor(testingExecutor);
    const state = ctx.slot(TESTING_CASE);
    for (const [i, call] of value.entries()) {
      const path = [...ctx.self.path, i];
      const plan = ctx.newPlan(`calls[${i}]`, path, CALL_POSITION);
      state.callPlans.push(plan);
      await ctx.configureAll(ctx.resolve(CALL_POSITION, call, path), plan);
    }
  }
}

// The call inputs are the llm-provider ones (same keys, schemas and plan input), at this position.
@directive({ name: "messages", at: CALL_POSITION, home: HOME, summary: "the message list" })
export class ScriptedMessages extends Messages {}
@directive({ name: "tools", at: CALL_POSITION, home: HOME, summary: "the tools offered" })
export class ScriptedTools extends Tools {}
@directive({ name: "response_schema", at: CALL_POSITION, home: HOME, summary: "structured output schema" })
export class ScriptedResponseSchema extends ResponseSchema {}
@directive({ name: "stream", at: CALL_POSITION, home: HOME, summary: "complete(stream=…)" })
export class ScriptedStream extends Stream {}
@directive({ name: "expected", at: CALL_POSITION, home: HOME, summary: "assertions on this call" })
export class CallExpected extends Expected {}

@directive({ name: "response", at: "expected", home: HOME, summary: "the returned Response" })
export class TestingResponse extends ResponseAssertion {}
@directive({ name: "raises", at: "expected", home: HOME, summary: "the call raised a categorized error" })
export class TestingRaises extends RaisesAssertion {}

/** `recorded_calls: [{response_type, reason, streamed}]` — the provider's records after this call (all of them, in order). */
@directive({ name: "recorded_calls", at: "expected", home: HOME, summary: "the scripted provider's call records" })
export class RecordedCalls {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "object", additionalProperties: false, properties: { response_type: { type: "string" }, reason: { type: "string" }, streamed: { type: "boolean" }, index: { type: "integer" } } } };
  check(value: Array<Record<string, unknown>>, obs: Observation, ctx: CheckContext): void {
    const records = obs.get(ScriptedCallsFacet, ctx.locate(ctx.self.path)).map((c) => ({ index: c.index, response_type: c.responseType, reason: c.reason, streamed: c.streamed }));
    ctx.match(value, records, Shapes.list("ordered", Shapes.record()));
  }
}

/** `stream_event_types: [start, text_delta, ..., done]` — the event types a streamed call delivered. */
@directive({ name: "stream_event_types", at: "expected", home: HOME, summary: "the streamed event types, in order" })
export class StreamEventTypes {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    ctx.match(value, llmCall(obs, ctx).events.map((e) => e.type), Shapes.list("ordered"));
  }
}
