/**
 * The testing-capability directives (spec/testing/conformance/README.md, the harness note): the
 * case's `script:` (the provider source the general `call:` and this note's `calls:` are answered
 * by), `response` (the llm-provider assertion, read from the same call facet), `recorded_calls` and
 * `stream_event_types`. `raises` under `expected:` is the general §5.8 one.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { configureCallList } from "../llm-provider/case.ts";
import { llmCall } from "../../harness/llm/reading.ts";
import { LLM_CASE } from "../../harness/llm/case.ts";
import { ScriptedCallsFacet, scriptSource } from "../../harness/testing/case.ts";
import { ResponseAssertion } from "../llm-provider/response.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { Script, ScriptInvalidError, type ScriptData } from "../../src/testing/index.ts";

const HOME = "testing";

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
    ctx.slot(LLM_CASE).sources.push(scriptSource(value, ctx.self.path));
  }
}

/** `calls: [...]` — calls in order on one scripted provider (its cursor carries over); each entry takes the general `call:` keys. */
@directive({ name: "calls", at: "case", home: HOME, summary: "calls on one scripted provider, in order" })
export class ScriptedCalls {
  readonly schema = { type: "array", minItems: 1, items: { type: "object" } };
  async configure(value: Record<string, unknown>[], ctx: ConfigureContext): Promise<void> {
    await configureCallList(value, ctx);
  }
}

@directive({ name: "response", at: "expected", home: HOME, summary: "the returned Response" })
export class TestingResponse extends ResponseAssertion {}

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
