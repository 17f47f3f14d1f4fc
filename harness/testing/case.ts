/**
 * The testing-capability case runner (spec/testing/conformance/README.md): a `scripted` provider
 * created through the normal registry from the case's `script:`, and each `call:` / `calls[]`
 * operation made on it through the real request path. Each call records the llm-provider
 * {@link LlmCallFacet} (so the llm-provider `response` / `raises` assertions read it) and the
 * provider's records so far ({@link ScriptedCallsFacet}).
 */
import { SlotKey, type CallRecord, type CaseExecutor, type RunContext } from "../../src/conformance/directive.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import { Facet, Observation } from "../../src/conformance/observation.ts";
import { providers, type Response, type StreamEvent } from "../../src/llm/index.ts";
import { isCancellation } from "../../src/pipeline/middleware/index.ts";
import { scripted, scriptedConfig, type RecordedCall, type ScriptData } from "../../src/testing/index.ts";
import { LlmCallFacet, LlmCallsFacet, type LlmCall } from "../llm/facets.ts";
import { CALL_INPUT } from "../llm/case.ts";

export class TestingCaseState {
  script: ScriptData = {};
  readonly callPlans: InvocationPlan[] = [];
}
export const TESTING_CASE = new SlotKey("testing case", () => new TestingCaseState());
/** The scripted provider's call records after the call. */
export const ScriptedCallsFacet = new Facet<ReadonlyArray<RecordedCall>>("scripted provider call records");

async function runCall(provider: ReturnType<typeof scripted>, plan: InvocationPlan, index: number, ctx: RunContext): Promise<LlmCall> {
  const input = plan.input<Record<string, unknown>>(CALL_INPUT) ?? {};
  const messages = structuredClone(input["messages"] ?? []) as never;
  const events: StreamEvent[] = [];
  let response: Response | undefined;
  let error: unknown;
  try {
    response = await provider.complete(messages, {
      ...(input["tools"] !== undefined ? { tools: input["tools"] as never } : {}),
      ...(input["response_schema"] !== undefined ? { responseSchema: input["response_schema"] as never } : {}),
      ...(input["stream"] === true ? { stream: true, onEvent: (e: StreamEvent) => events.push(e) } : {}),
      signal: ctx.signal,
    });
  } catch (e) {
    if (ctx.signal.aborted && isCancellation(e)) throw e;
    error = e;
  }
  const json = JSON.stringify(messages);
  return { operation: "complete", index, mapping: "openai", response, error, requests: [], served: [], events, sleeps: [], messagesBefore: json, messagesAfter: json, configBefore: "null", configAfter: "null", input };
}

export const testingExecutor: CaseExecutor = {
  name: "testing",
  async run(ctx: RunContext): Promise<CallRecord[]> {
    const state = ctx.slot(TESTING_CASE);
    const provider = scripted(providers.create("scripted", scriptedConfig(state.script)));
    const observe = (name: string | null, call: LlmCall): Observation => new Observation(name).set(LlmCallFacet, call).set(LlmCallsFacet, [call]).set(ScriptedCallsFacet, provider.calls);
    if (state.callPlans.length === 0) return [{ plan: ctx.casePlan, observation: observe(null, await runCall(provider, ctx.casePlan, 0, ctx)) }];
    const records: CallRecord[] = [];
    const calls: LlmCall[] = [];
    for (const [i, plan] of state.callPlans.entries()) {
      const call = await runCall(provider, plan, i, ctx);
      calls.push(call);
      records.push({ plan, observation: observe(plan.name, call) });
    }
    records.push({ plan: ctx.casePlan, observation: Observation.aggregate(records.map((r) => r.observation)).set(LlmCallsFacet, calls).set(ScriptedCallsFacet, provider.calls) });
    return records;
  },
};
