/**
 * The llm-provider case runner (conformance-adapter §5.11–§5.16): builds the real provider for the
 * case's `mapping:` from the provider registry, bound to the mock's `fetch`, and makes each
 * `call:` / `calls[]` operation (`complete` or `ready`), recording an {@link LlmCall} per call.
 *
 * Harness conventions (llm-provider fixture header of 001): the provider is bound to the model the
 * first mock response names (`test-model` when none does; `gemini-test` under `mapping: gemini`,
 * whose bodies carry no model), with API key {@link MOCK_API_KEY} at
 * base URL {@link MOCK_BASE_URL}. Mock capability flags map to the provider's constructor
 * capabilities; a flag the case's mapping does not define is `fixture_schema_invalid`
 * (mock-capabilities.ts).
 */
import { SlotKey, type CallRecord, type CaseExecutor, type RunContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid, HarnessPrimitiveMissing } from "../../src/conformance/errors.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { providers, type Provider, type ProviderCapabilities, type Response, type StreamEvent } from "../../src/llm/index.ts";
import { isCancellation } from "../../src/pipeline/middleware/index.ts";
import { callRetry, type RetrySpec } from "./call-spec.ts";
import { LlmCallFacet, LlmCallsFacet, type LlmCall } from "./facets.ts";
import { mockCapabilities } from "./mock-capabilities.ts";
import { MockProvider, type MockProviderSpec } from "./mock-provider.ts";
import { completeUnderRetryMiddleware } from "./retry-middleware.ts";

export const MOCK_API_KEY = "test-api-key";
export const MOCK_BASE_URL = "https://mock-provider.openarmature.test/v1";
/** The model a case binds when no mock response names one, per mapping. */
export const DEFAULT_MODEL: Readonly<Record<string, string>> = { gemini: "gemini-test" };
const FALLBACK_MODEL = "test-model";

/** Plan input holding the call's keys as the fixture wrote them. */
export const CALL_INPUT = "llm_call";

export class LlmCaseState {
  mock: MockProviderSpec = {};
  /** Where `mock_provider:` sits (its capability flags are located under it). */
  mockPath: KeyPath = [];
  mapping = "openai";
  mappingPath: KeyPath = [];
  /** `calls[]` plans in order (empty in the single `call:` form). */
  readonly callPlans: InvocationPlan[] = [];
  /**
   * Runs each `complete` call traced (conformance-adapter §5.11 `llm_spans`: inside a one-node
   * invocation with the OTel observer attached), resolving with what the call did and the spans it
   * produced. Set by the directive that needs the spans; absent, calls run bare.
   */
  traced: ((run: () => Promise<Response>) => Promise<{ readonly response?: Response; readonly error?: unknown; readonly spans: ReadonlyArray<unknown> }>) | undefined;
}
export const LLM_CASE = new SlotKey("llm-provider case", () => new LlmCaseState());

/** The `mapping:` names this adapter stands a provider up for. */
const MAPPINGS: ReadonlyArray<string> = ["openai", "anthropic", "gemini", "streaming_unsupported_stub"];

/** The mapping name → how to stand up the real provider for it. */
function providerFor(state: LlmCaseState, mock: MockProvider, ctx: RunContext): Provider {
  if (!MAPPINGS.includes(state.mapping)) {
    throw new HarnessPrimitiveMissing(`mapping:${state.mapping}`, `the '${state.mapping}' wire mapping is not implemented yet (this adapter has ${MAPPINGS.join(", ")})`, ctx.locate(state.mappingPath));
  }
  const first = state.mock.responses?.find((r) => typeof (r.body as { model?: unknown } | undefined)?.model === "string");
  const model = ((first?.body as { model?: string } | undefined)?.model ?? DEFAULT_MODEL[state.mapping] ?? FALLBACK_MODEL) as string;
  const capabilities: ProviderCapabilities = mockCapabilities(state.mapping, state.mock.capabilities ?? {}, "mock_provider", (flag) => ctx.locate([...state.mockPath, "capabilities", flag]));
  const config = { model, apiKey: MOCK_API_KEY, baseUrl: MOCK_BASE_URL, fetch: mock.fetch };
  switch (state.mapping) {
    case "openai":
    case "anthropic":
    case "gemini":
      return providers.create(state.mapping, { ...config, capabilities });
    default:
      // streaming_unsupported_stub (§5 *Provider streaming support*): the OpenAI-compatible
      // mapping with streaming switched off.
      return providers.create("openai", { ...config, capabilities: { ...capabilities, streaming: false } });
  }
}

async function runCall(provider: Provider, mock: MockProvider, plan: InvocationPlan, index: number, ctx: RunContext): Promise<LlmCall> {
  const input = plan.input<Record<string, unknown>>(CALL_INPUT) ?? {};
  const where = ctx.locate(plan.path);
  const operation = (input["operation"] ?? "complete") as LlmCall["operation"];
  const messages = structuredClone(input["messages"] ?? []) as never;
  const config = input["config"] === undefined ? undefined : (structuredClone(input["config"]) as never);
  const messagesBefore = JSON.stringify(messages);
  const configBefore = JSON.stringify(config ?? null);
  const events: StreamEvent[] = [];
  const sleeps: number[] = [];
  const firstRequest = mock.requests.length;
  const firstServed = mock.served.length;
  let response: Response | undefined;
  let error: unknown;
  let spans: ReadonlyArray<unknown> | undefined;
  try {
    if (operation === "ready") await provider.ready({ signal: ctx.signal });
    else if (operation === "complete") {
      const options = {
        ...(input["tools"] !== undefined ? { tools: input["tools"] as never } : {}),
        ...(config !== undefined ? { config } : {}),
        ...(input["response_schema"] !== undefined ? { responseSchema: input["response_schema"] as never } : {}),
        ...(input["tool_choice"] !== undefined ? { toolChoice: input["tool_choice"] as never } : {}),
        ...(input["retry"] !== undefined ? { retry: callRetry(input["retry"] as RetrySpec, sleeps, where) } : {}),
        ...(input["stream"] === true ? { stream: true, onEvent: (e: StreamEvent) => events.push(e) } : {}),
        signal: ctx.signal,
      };
      const run = (): Promise<Response> =>
        input["retry_middleware"] !== undefined
          ? completeUnderRetryMiddleware(provider, messages, options, input["retry_middleware"] as RetrySpec, where)
          : provider.complete(messages, options);
      const traced = ctx.slot(LLM_CASE).traced;
      if (traced === undefined) response = await run();
      else {
        const t = await traced(run);
        spans = t.spans;
        if (t.error !== undefined) throw t.error;
        response = t.response;
      }
    } else throw new FixtureSchemaInvalid(`unknown operation '${String(operation)}' (complete or ready)`, where);
  } catch (e) {
    if (e instanceof FixtureSchemaInvalid || (ctx.signal.aborted && isCancellation(e))) throw e;
    error = e;
  }
  return {
    operation,
    index,
    mapping: ctx.slot(LLM_CASE).mapping,
    response,
    error,
    requests: mock.requests.slice(firstRequest),
    served: mock.served.slice(firstServed),
    events,
    sleeps,
    messagesBefore,
    messagesAfter: JSON.stringify(messages),
    configBefore,
    configAfter: JSON.stringify(config ?? null),
    input,
    ...(spans !== undefined ? { spans } : {}),
  };
}

/** Runs the case's calls in order against one mock provider. */
export const llmExecutor: CaseExecutor = {
  name: "llm-provider",
  async run(ctx: RunContext): Promise<CallRecord[]> {
    const state = ctx.slot(LLM_CASE);
    const mock = new MockProvider(state.mock);
    const provider = providerFor(state, mock, ctx);
    if (state.callPlans.length === 0) {
      const call = await runCall(provider, mock, ctx.casePlan, 0, ctx);
      return [{ plan: ctx.casePlan, observation: new Observation(null).set(LlmCallFacet, call).set(LlmCallsFacet, [call]) }];
    }
    const records: CallRecord[] = [];
    const calls: LlmCall[] = [];
    for (const [i, plan] of state.callPlans.entries()) {
      const call = await runCall(provider, mock, plan, i, ctx);
      calls.push(call);
      records.push({ plan, observation: new Observation(plan.name).set(LlmCallFacet, call).set(LlmCallsFacet, [call]) });
    }
    const all = Observation.aggregate(records.map((r) => r.observation)).set(LlmCallsFacet, calls);
    records.push({ plan: ctx.casePlan, observation: all });
    return records;
  },
};
