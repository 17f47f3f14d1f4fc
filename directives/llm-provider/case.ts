/**
 * The llm-provider case directives (conformance-adapter §5.11): the mock provider (§5, general) and
 * the note's `calls:` list, whose entries take the general `call:` keys (directives/general/call.ts)
 * at the `llm_call` position, each with its own `expected:`. `mapping:` is general
 * (directives/general/mapping.ts).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { LLM_CASE, mockProviderSource } from "../../harness/llm/case.ts";
import type { MockProviderSpec } from "../../harness/llm/mock-provider.ts";
import { CALL_POSITION, configureProviderCall } from "../general/call.ts";

const HOME = "llm-provider";

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
    state.sources.push(mockProviderSource(ctx.self.path));
  }
}

/** `calls: [...]` — operations in order, each with its own `expected:`. */
@directive({ name: "calls", at: "case", home: HOME, summary: "provider operations in order" })
export class CallsDirective {
  readonly schema = { type: "array", minItems: 1, items: { type: "object", required: ["operation"] } };
  async configure(value: Record<string, unknown>[], ctx: ConfigureContext): Promise<void> {
    await configureCallList(value, ctx);
  }
}

/** Each entry of a `calls:` list as its own plan (kind `llm_call`), with the general call keys. */
export async function configureCallList(value: Record<string, unknown>[], ctx: ConfigureContext): Promise<void> {
  const state = ctx.slot(LLM_CASE);
  for (const [i, call] of value.entries()) {
    const path = [...ctx.self.path, i];
    const plan = ctx.newPlan(`calls[${i}]`, path, CALL_POSITION);
    state.callPlans.push(plan);
    await configureProviderCall(call, path, ctx, plan);
  }
}
