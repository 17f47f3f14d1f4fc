/**
 * The llm-provider case directives (conformance-adapter §5.11, §5.15-style construction): the
 * mock provider, the wire mapping under test, and the `call:` / `calls:` blocks whose keys
 * (`operation`, `messages`, `tools`, `config`, `response_schema`, `tool_choice`, `retry`,
 * `stream`, `retry_middleware`) are the `complete()` / `ready()` inputs.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { Expected } from "../general/expected.ts";
import { CALL_INPUT, LLM_CASE, llmExecutor } from "../../harness/llm/case.ts";
import type { MockProviderSpec } from "../../harness/llm/mock-provider.ts";
import { BACKOFF_SCHEMA, CONFIG_SCHEMA, MESSAGE_SCHEMA, TOOL_CHOICE_SCHEMA, TOOL_SCHEMA } from "../../harness/llm/record-schemas.ts";

const HOME = "llm-provider";
/** Position of the keys inside a `call:` / `calls[]` entry. */
export const CALL_POSITION = "llm_call";

const entry = {
  type: "object",
  additionalProperties: false,
  properties: {
    body: {},
    status: { type: "integer", minimum: 100, maximum: 599 },
    headers: { type: "object", additionalProperties: { type: "string" } },
    stream_body: { type: "array" },
    connection_failure: { type: "boolean" },
  },
} as const;

/**
 * `mock_provider: {responses, capabilities, health_endpoint}` (§5.11: a §5 directive, so general —
 * recognized in every directory). Which capability flags the case's `mapping:` defines is checked
 * when the provider is stood up (harness/llm/mock-capabilities.ts), once both keys are read.
 */
@directive({ name: "mock_provider", at: "case", home: "general", summary: "the mock provider's responses and capability flags" })
export class MockProviderDirective {
  readonly schema = {
    type: "object",
    additionalProperties: false,
    properties: {
      responses: { type: "array", items: entry },
      capabilities: {
        type: "object",
        additionalProperties: false,
        properties: {
          supports_native_response_format: { type: "boolean" },
          supports_native_structured_output: { type: "boolean" },
          supports_image_input: { type: "boolean" },
        },
      },
      health_endpoint: { ...entry, properties: { ...entry.properties, path: { type: "string" } } },
    },
  };
  configure(value: MockProviderSpec, ctx: ConfigureContext): void {
    const state = ctx.slot(LLM_CASE);
    state.mock = value;
    state.mockPath = ctx.self.path;
  }
}

/** `mapping: <name>` — the §8.x wire mapping under test (default: openai, §8.1). */
@directive({ name: "mapping", at: "case", home: HOME, summary: "the wire mapping under test" })
export class MappingDirective {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    const state = ctx.slot(LLM_CASE);
    state.mapping = value;
    state.mappingPath = ctx.self.path;
  }
}

/** `call: {...}` — the case's single operation; its `expected:` is the case's. */
@directive({ name: "call", at: "case", home: HOME, summary: "one provider operation" })
export class CallDirective {
  readonly schema = { type: "object", required: ["operation"] };
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    ctx.setExecutor(llmExecutor);
    await ctx.configureAll(ctx.resolve(CALL_POSITION, value, ctx.self.path));
  }
}

/** `calls: [...]` — operations in order, each with its own `expected:`. */
@directive({ name: "calls", at: "case", home: HOME, summary: "provider operations in order" })
export class CallsDirective {
  readonly schema = { type: "array", minItems: 1, items: { type: "object", required: ["operation"] } };
  async configure(value: Record<string, unknown>[], ctx: ConfigureContext): Promise<void> {
    ctx.setExecutor(llmExecutor);
    const state = ctx.slot(LLM_CASE);
    for (const [i, call] of value.entries()) {
      const path = [...ctx.self.path, i];
      const plan = ctx.newPlan(`calls[${i}]`, path, "llm_call");
      state.callPlans.push(plan);
      await ctx.configureAll(ctx.resolve(CALL_POSITION, call, path), plan);
    }
  }
}

/** One input key of a call: stored on the call's plan for the runner. */
abstract class CallInput {
  configure(value: unknown, ctx: ConfigureContext): void {
    const input = ctx.plan.input<Record<string, unknown>>(CALL_INPUT) ?? {};
    ctx.plan.setInput(CALL_INPUT, { ...input, [ctx.self.key]: value });
  }
}

@directive({ name: "operation", at: CALL_POSITION, home: HOME, summary: "complete or ready" })
export class Operation extends CallInput {
  readonly schema = { enum: ["complete", "ready"] };
}
@directive({ name: "messages", at: CALL_POSITION, home: HOME, summary: "the §3 message list (passed as written)" })
export class Messages extends CallInput {
  readonly schema = { type: "array", items: MESSAGE_SCHEMA };
}
@directive({ name: "tools", at: CALL_POSITION, home: HOME, summary: "the §4 tools list" })
export class Tools extends CallInput {
  readonly schema = { type: "array", items: TOOL_SCHEMA };
}
@directive({ name: "config", at: CALL_POSITION, home: HOME, summary: "the §6 RuntimeConfig (declared fields + extras)" })
export class Config extends CallInput {
  readonly schema = CONFIG_SCHEMA;
}
@directive({ name: "response_schema", at: CALL_POSITION, home: HOME, summary: "the §5 response schema" })
export class ResponseSchema extends CallInput {
  readonly schema = { type: "object" };
}
@directive({ name: "tool_choice", at: CALL_POSITION, home: HOME, summary: "the §5 tool_choice" })
export class ToolChoiceInput extends CallInput {
  readonly schema = TOOL_CHOICE_SCHEMA;
}
@directive({ name: "stream", at: CALL_POSITION, home: HOME, summary: "complete(stream=…)" })
export class Stream extends CallInput {
  readonly schema = { type: "boolean" };
}

const retryRecord = {
  type: "object",
  additionalProperties: false,
  properties: {
    max_attempts: { type: "integer", minimum: 1 },
    backoff: BACKOFF_SCHEMA,
    classifier: { enum: ["default"] },
    per_attempt_override: { type: "array", items: CONFIG_SCHEMA },
    reask: { type: "object", required: ["template"], additionalProperties: false, properties: { template: { type: "string" } } },
  },
} as const;

@directive({ name: "retry", at: CALL_POSITION, home: HOME, summary: "call-level retry (§7.1, §5.11)" })
export class Retry extends CallInput {
  readonly schema = retryRecord;
}
@directive({ name: "retry_middleware", at: CALL_POSITION, home: HOME, summary: "the call inside a node wrapped in the §6.1 retry middleware" })
export class RetryMiddleware extends CallInput {
  readonly schema = { ...retryRecord, properties: { max_attempts: retryRecord.properties.max_attempts, backoff: BACKOFF_SCHEMA, classifier: retryRecord.properties.classifier } };
}

/** `expected:` inside a `calls[]` entry: the general block, at the call's position. */
@directive({ name: "expected", at: CALL_POSITION, home: HOME, summary: "assertions on this call" })
export class CallExpected extends Expected {}
