/**
 * `call: {...}` (conformance-adapter §5.11): the case's single provider operation — "llm-provider
 * call fixtures configure a complete() call under call:". One definition for every directory: its
 * keys are the operation's inputs (llm-provider §3–§7: `messages`, `tools`, `config`,
 * `response_schema`, `tool_choice`, `stream`, the §5.11 `retry` record with `per_attempt_override`
 * and `reask`; llm-provider's note adds `operation: complete | ready` and `retry_middleware`), resolved
 * at the `llm_call` position, and its `expected:` is the case's.
 *
 * What answers the call is what the case declares (harness/llm/case.ts, ProviderSource): the §5.11
 * mock (`mock_provider:`, under the case's `mapping:`) or a source a directory's note defines —
 * testing's `script:` (the registry-built scripted provider). No source, or two, is
 * `fixture_schema_invalid` when the case runs. The `calls:` lists that reuse these keys are the
 * notes' (llm-provider, testing): prompt-management's `calls:` means something else.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { Expected } from "./expected.ts";
import { CALL_INPUT, LLM_CASE, llmExecutor } from "../../harness/llm/case.ts";
import { usesProvider } from "../../harness/provider-context.ts";
import { BACKOFF_SCHEMA, CONFIG_SCHEMA, MESSAGE_SCHEMA, TOOL_CHOICE_SCHEMA, TOOL_SCHEMA } from "../../harness/llm/record-schemas.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/** Position of the keys inside a `call:` / `calls[]` entry. */
export const CALL_POSITION = "llm_call";

/** Configure one provider operation's keys on `plan` (the case's for `call:`, an entry's for `calls:`). */
export async function configureProviderCall(value: Record<string, unknown>, path: KeyPath, ctx: ConfigureContext, plan = ctx.plan): Promise<void> {
  ctx.setExecutor(llmExecutor);
  usesProvider(ctx, "llm");
  const state = ctx.slot(LLM_CASE);
  if (state.callPath.length === 0) state.callPath = ctx.self.path;
  await ctx.configureAll(ctx.resolve(CALL_POSITION, value, path), plan);
}

@directive({ name: "call", at: "case", home: "general", section: "conformance-adapter §5.11", summary: "one provider operation (complete / ready) on the provider the case declares" })
export class Call {
  readonly schema = { type: "object" };
  async configure(value: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    await configureProviderCall(value, ctx.self.path, ctx);
  }
}

/** One input key of a call: stored on the call's plan for the runner. */
abstract class CallInput {
  configure(value: unknown, ctx: ConfigureContext): void {
    const input = ctx.plan.input<Record<string, unknown>>(CALL_INPUT) ?? {};
    ctx.plan.setInput(CALL_INPUT, { ...input, [ctx.self.key]: value });
  }
}

const HOME = "general";
const SECTION = "conformance-adapter §5.11";

/** The operation's inputs (llm-provider §3–§6; `operation` from llm-provider's note), each stored as written. */
const INPUTS: ReadonlyArray<{ readonly name: string; readonly schema: Readonly<Record<string, unknown>>; readonly summary: string }> = [
  { name: "operation", schema: { enum: ["complete", "ready"] }, summary: "complete (default) or ready" },
  { name: "messages", schema: { type: "array", items: MESSAGE_SCHEMA }, summary: "the llm-provider §3 message list (passed as written)" },
  { name: "tools", schema: { type: "array", items: TOOL_SCHEMA }, summary: "the llm-provider §4 tools list" },
  { name: "config", schema: CONFIG_SCHEMA, summary: "the llm-provider §6 RuntimeConfig (declared fields + extras)" },
  { name: "response_schema", schema: { type: "object" }, summary: "the llm-provider §5 response schema" },
  { name: "tool_choice", schema: TOOL_CHOICE_SCHEMA, summary: "the llm-provider §5 tool_choice" },
  { name: "stream", schema: { type: "boolean" }, summary: "complete(stream=…)" },
];
for (const input of INPUTS) {
  class Input extends CallInput {
    readonly schema = input.schema;
  }
  Object.defineProperty(Input, "name", { value: `CallInput_${input.name}` });
  directive({ name: input.name, at: CALL_POSITION, home: HOME, section: SECTION, summary: input.summary })(Input);
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

@directive({ name: "retry", at: CALL_POSITION, home: HOME, section: SECTION, summary: "call-level retry (llm-provider §7.1; per_attempt_override, reask)" })
export class Retry extends CallInput {
  readonly schema = retryRecord;
}
@directive({ name: "retry_middleware", at: CALL_POSITION, home: HOME, section: SECTION, summary: "the call inside a node wrapped in the §6.1 retry middleware" })
export class RetryMiddleware extends CallInput {
  readonly schema = { ...retryRecord, properties: { max_attempts: retryRecord.properties.max_attempts, backoff: BACKOFF_SCHEMA, classifier: retryRecord.properties.classifier } };
}

/** `expected:` inside a `calls[]` entry: the general block, at the call's position. */
@directive({ name: "expected", at: CALL_POSITION, home: HOME, section: "conformance-adapter §5.8", summary: "assertions on this call" })
export class CallExpected extends Expected {}
