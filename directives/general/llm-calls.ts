/**
 * The LLM / tool call directives of the observability suite (conformance-adapter §5.1, §5.5):
 * `mock_llm` / `mock_llm_stream` / `provider` configure the case's mock OpenAI-compatible
 * provider; `calls_llm` makes one real `complete()` from the node body, `calls_llm_from_wrapper`
 * one from a middleware around it, `calls_tool` runs one instrumented tool execution through the
 * library's `runToolCall`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { NodeContext } from "../../src/graph/index.ts";
import { runToolCall, textOf } from "../../src/llm/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { mockCapabilities } from "../../harness/llm/mock-capabilities.ts";
import type { MockEntry } from "../../harness/llm/mock-provider.ts";
import { useOtelCapture } from "../../harness/observability/capture.ts";
import { MOCK_RAISES_SCHEMA } from "../../harness/retrieval/case.ts";
import { PromptContextSlot, renderedMessages, requireRendered } from "../../harness/prompts/rendered.ts";
import { callOptions, DEFAULT_STREAM_MODEL, SyntheticBase64Slot, syntheticBase64Of, LLM_CALL_SCHEMA, mockEntry, ObsLlmSlot, useLlmResponses, type LlmCallSpec, type MockLlmEntry } from "../../harness/observability/llm.ts";

const HOME = "general";
const ENTRY: JsonSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    status: { type: "integer" },
    body: {},
    raises: MOCK_RAISES_SCHEMA,
  },
};

/**
 * `mock_llm: [{status, body, raises?}, ...]` or `{capabilities, responses}` (conformance-adapter
 * §5.5): the canned OpenAI-compatible responses the case's mock serves, one per wire attempt;
 * `capabilities` takes the OpenAI mapping's §5.11 flags (harness/llm/mock-capabilities.ts).
 */
@directive({ name: "mock_llm", at: "case", home: HOME, section: "conformance-adapter §5.5", summary: "canned OpenAI-compatible responses for calls_llm (list, or {capabilities, responses})" })
export class MockLlm {
  readonly schema: JsonSchema = {
    oneOf: [
      { type: "array", items: ENTRY },
      {
        type: "object",
        additionalProperties: false,
        required: ["responses"],
        properties: { capabilities: { type: "object", additionalProperties: { type: "boolean" } }, responses: { type: "array", items: ENTRY } },
      },
    ],
  };
  configure(value: MockLlmEntry[] | { capabilities?: Record<string, boolean>; responses: MockLlmEntry[] }, ctx: ConfigureContext): void {
    composeCapture(ctx);
    const state = ctx.slot(ObsLlmSlot);
    const list = Array.isArray(value) ? value : value.responses;
    if (!Array.isArray(value) && value.capabilities) {
      // The mock presents an OpenAI-compatible provider: the OpenAI mapping's §5.11 flags.
      state.capabilities = mockCapabilities("openai", value.capabilities, "mock_llm", (flag) => ctx.locate([...ctx.self.path, "capabilities", flag]));
    }
    const base = Array.isArray(value) ? ctx.self.path : [...ctx.self.path, "responses"];
    list.forEach((e, i) => state.entries.push(mockEntry(e, ctx.locate([...base, i]))));
  }
}

/**
 * A case with an LLM mock is an LLM-observability case: it runs with the OTel observer and the
 * §6.3 capture composed (conformance-adapter §6.3: every observability case does), so its span
 * claims have spans to read and its calls' provider spans are rendered.
 */
function composeCapture(ctx: ConfigureContext): void {
  useOtelCapture(ctx);
  useLlmResponses(ctx);
}

type Chunk = Readonly<Record<string, unknown>>;
const isMarker = (c: Chunk): boolean => typeof c["error"] === "object" && c["error"] !== null && typeof (c["error"] as { status?: unknown }).status === "number";

/** One streamed wire attempt: chunks, a mid-stream failure marker dropping the connection, or (first) an HTTP error. */
function streamAttempt(chunks: readonly Chunk[]): MockEntry {
  const cut = chunks.findIndex(isMarker);
  if (cut === 0) return { status: (chunks[0]!["error"] as { status: number }).status, body: { error: { message: "mock stream failure" } } };
  if (cut < 0) return { stream_body: chunks };
  return { stream_body: chunks.slice(0, cut), stream_drops: true };
}

/**
 * `mock_llm_stream: [<call>, ...]` (observability fixture 111's header): per streamed call the SSE
 * chunks the mock yields — a list, or `{wire_attempts: [[...], ...]}` under call-level retry. A
 * `{error: {status}}` chunk fails the stream there: as the attempt's HTTP status when first, else
 * as a connection dropped after the chunks before it.
 */
@directive({ name: "mock_llm_stream", at: "case", home: HOME, section: "observability 111", summary: "streamed chunks per call (or wire_attempts) for stream: true calls" })
export class MockLlmStream {
  readonly schema: JsonSchema = {
    type: "array",
    items: {
      oneOf: [
        { type: "array", items: { type: "object" } },
        { type: "object", required: ["wire_attempts"], additionalProperties: false, properties: { wire_attempts: { type: "array", items: { type: "array", items: { type: "object" } } } } },
      ],
    },
  };
  configure(value: Array<Chunk[] | { wire_attempts: Chunk[][] }>, ctx: ConfigureContext): void {
    composeCapture(ctx);
    const state = ctx.slot(ObsLlmSlot);
    state.defaultModel = DEFAULT_STREAM_MODEL;
    for (const call of value) for (const attempt of Array.isArray(call) ? [call] : call.wire_attempts) state.entries.push(streamAttempt(attempt));
  }
}

/** `provider: {type: openai_compatible, genai_system}` (observability 020): the `gen_ai.system` override. */
@directive({ name: "provider", at: "case", home: "observability", section: "observability §5.5.3", summary: "the mock provider's gen_ai.system override" })
export class ProviderConfig {
  readonly schema: JsonSchema = {
    type: "object",
    additionalProperties: false,
    properties: { type: { const: "openai_compatible" }, genai_system: { type: "string", minLength: 1 } },
  };
  configure(value: { genai_system?: string }, ctx: ConfigureContext): void {
    if (value.genai_system !== undefined) ctx.slot(ObsLlmSlot).system = value.genai_system;
  }
}

/**
 * `calls_llm: {messages, stores_response_in?, model?, response_schema?, config?, retry?, stream?,
 * tools?}` (conformance-adapter §5.1): the node body makes one real `complete()` call against the
 * mock provider and stores the response content. After a `renders_prompt` step in the same node
 * (observability's harness notes, 106 / 126) the call runs in the library's prompt context of the
 * rendered prompt, and without `messages` it sends the rendered prompt's messages; without either
 * the call has nothing to send (`fixture_schema_invalid`).
 */
@directive({ name: "calls_llm", at: "node", home: HOME, section: "conformance-adapter §5.1", summary: "node makes one real complete() call against the mock provider" })
export class CallsLlm {
  readonly schema: JsonSchema = {
    ...LLM_CALL_SCHEMA,
    required: [],
    properties: { ...LLM_CALL_SCHEMA.properties, stores_response_in: { type: "string", minLength: 1 } },
    additionalProperties: false,
  };
  contribute(value: Partial<LlmCallSpec> & { stores_response_in?: string }, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const where = env.locate(at);
    const llm = env.slot(ObsLlmSlot);
    const prompts = env.slot(PromptContextSlot);
    const fromPrompt = value.messages === undefined;
    if (fromPrompt && !prompts.rendersBefore(node)) {
      throw new FixtureSchemaInvalid(
        "'calls_llm' is missing required key 'messages': a call sends its messages, or the messages of the prompt a renders_prompt step earlier in the node rendered (observability 106 / 126 harness notes)",
        where,
      );
    }
    if (!fromPrompt) {
      callOptions(value as LlmCallSpec, where); // synthesis errors surface at build time
      for (const blob of syntheticBase64Of(value.messages)) env.slot(SyntheticBase64Slot).add(blob);
    }
    node.steps.push(async (_s, ctx) => {
      const sent = fromPrompt ? renderedMessages(requireRendered(prompts, ctx, "calls_llm without messages", where)) : value.messages;
      const { messages, options } = callOptions({ ...value, messages: sent } as LlmCallSpec, where);
      const r = await prompts.within(ctx, () => llm.provider(value.model).complete(messages, { ...options, signal: ctx.signal }));
      llm.responses.push(r);
      return value.stores_response_in === undefined ? {} : { [value.stores_response_in]: textOf(r.message.content) };
    });
  }
}

/**
 * `calls_llm_from_wrapper: {phase: pre|post, messages, await_event_delivery?}` (conformance-adapter
 * §5.1): a middleware around the node makes one real `complete()` call before `next()` (pre) or
 * after it (post); the response is not written to state. With `await_event_delivery` the wrapper
 * resumes only once observer delivery of the events emitted so far — the call's provider event
 * among them — has completed (`ctx.drainEventsFor()`).
 */
@directive({ name: "calls_llm_from_wrapper", at: "node", home: HOME, section: "conformance-adapter §5.1", summary: "a middleware around the node makes one complete() call (pre or post)" })
export class CallsLlmFromWrapper {
  readonly schema: JsonSchema = {
    ...LLM_CALL_SCHEMA,
    properties: { ...LLM_CALL_SCHEMA.properties, phase: { enum: ["pre", "post"] }, await_event_delivery: { type: "boolean" } },
    additionalProperties: false,
  };
  contribute(value: LlmCallSpec & { phase?: "pre" | "post"; await_event_delivery?: boolean }, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const where = env.locate(at);
    const llm = env.slot(ObsLlmSlot);
    callOptions(value, where);
    for (const blob of syntheticBase64Of(value.messages)) env.slot(SyntheticBase64Slot).add(blob);
    const call = async (ctx: NodeContext): Promise<void> => {
      const { messages, options } = callOptions(value, where);
      await llm.provider(value.model).complete(messages, { ...options, signal: ctx.signal });
      if (value.await_event_delivery && (await ctx.drainEventsFor()).timeoutReached) throw new Error("calls_llm_from_wrapper: the event-delivery barrier did not complete");
    };
    node.middleware.push(async (s, next, ctx) => {
      if ((value.phase ?? "pre") === "pre") await call(ctx);
      const update = await next(s);
      if (value.phase === "post") await call(ctx);
      return update;
    });
  }
}

/**
 * `calls_tool: {tool_name, tool_call_id?, arguments?, mock_tool: {returns} | {raises: {error_type,
 * message}}, stores_result_in?}` (observability fixture 092's header): the node runs one tool
 * execution through the library's `runToolCall` instrumentation scope.
 */
@directive({ name: "calls_tool", at: "node", home: HOME, section: "observability §5.5.11", summary: "node runs one instrumented tool execution (runToolCall) with a mock tool" })
export class CallsTool {
  readonly schema: JsonSchema = {
    type: "object",
    required: ["tool_name", "mock_tool"],
    additionalProperties: false,
    properties: {
      tool_name: { type: "string", minLength: 1 },
      tool_call_id: { type: ["string", "null"] },
      arguments: { type: ["object", "null"] },
      stores_result_in: { type: "string", minLength: 1 },
      mock_tool: {
        oneOf: [
          { type: "object", required: ["returns"], additionalProperties: false, properties: { returns: {} } },
          {
            type: "object",
            required: ["raises"],
            additionalProperties: false,
            properties: { raises: { type: "object", additionalProperties: false, properties: { error_type: { type: "string", minLength: 1 }, message: { type: "string" } } } },
          },
        ],
      },
    },
  };
  contribute(
    value: { tool_name: string; tool_call_id?: string | null; arguments?: Record<string, unknown> | null; stores_result_in?: string; mock_tool: { returns?: unknown; raises?: { error_type?: string; message?: string } } },
    node: NodeAssembly,
    env: BuildEnv,
    at: KeyPath,
  ): void {
    if (value.stores_result_in !== undefined && !env.fieldNames.has(value.stores_result_in)) {
      throw new FixtureSchemaInvalid(`calls_tool.stores_result_in: '${value.stores_result_in}' is not a state field`, env.locate([...at, "stores_result_in"]));
    }
    const mock = value.mock_tool;
    node.steps.push(async () => {
      const result = await runToolCall({ name: value.tool_name, toolCallId: value.tool_call_id ?? null, arguments: value.arguments ?? null }, () => {
        if (mock.raises) throw toolError(mock.raises.error_type ?? "Error", mock.raises.message ?? "");
        return structuredClone(mock.returns);
      });
      return value.stores_result_in === undefined ? {} : { [value.stores_result_in]: result };
    });
  }
}

/** An error whose class name (the event's `error_type`) is `type`. */
function toolError(type: string, message: string): Error {
  const e = new Error(message);
  e.name = type;
  return e;
}
