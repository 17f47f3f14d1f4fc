/**
 * The provider-call case runner (conformance-adapter §5.11–§5.16): stands up the provider the case
 * declares — its {@link ProviderSource}: the §5.11 mock (`mock_provider:`; the real provider for the
 * case's `mapping:` from the provider registry, bound to the mock's `fetch`) or a source a
 * directory's note defines (testing's `script:`) — and makes each `call:` / `calls[]` operation
 * (`complete` or `ready`), recording an {@link LlmCall} per call. A case declaring two sources is
 * `fixture_schema_invalid`: which provider answers is never guessed; one declaring none gets the
 * §5.11 mock with no responses (the pre-send convention).
 *
 * Harness conventions (llm-provider fixture header of 001): the provider is bound to the model the
 * first mock response names (`test-model` when none does; `gemini-test` under `mapping: gemini`,
 * whose bodies carry no model), with API key {@link MOCK_API_KEY} at
 * base URL {@link MOCK_BASE_URL}. Mock capability flags map to the provider's constructor
 * capabilities; a flag the case's mapping does not define is `fixture_schema_invalid`
 * (mock-capabilities.ts).
 */
import { SlotKey, type CallRecord, type CaseExecutor, type RunContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid, HarnessPrimitiveMissing, formatPath } from "../../src/conformance/errors.ts";
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

/**
 * The llm-provider wire mappings `mapping:` may name for a provider call (llm-provider §8; the
 * `streaming_unsupported_stub` of its §5 *Provider streaming support* fixtures). Another name is an
 * unimplemented vendor (harness_primitive_missing when the case runs).
 */
export const LLM_MAPPINGS: ReadonlyArray<string> = ["openai", "anthropic", "gemini", "streaming_unsupported_stub"];

/** A provider stood up for one case. */
export interface OpenedProvider {
  readonly provider: Provider;
  /** The network edge the provider's `fetch` is bound to (what `requests` / `served` read); absent for a source with no wire. */
  readonly wire?: MockProvider;
  /** Facets the source adds to each call's observation (and the case-level one), read after the call. */
  annotate?(obs: Observation): void;
}

/** What answers a case's calls: declared by one case key (`mock_provider`, a note's `script`). */
export interface ProviderSource {
  /** The key that declared it (`mock_provider`, `script`). */
  readonly key: string;
  readonly path: KeyPath;
  open(state: LlmCaseState, ctx: RunContext): OpenedProvider;
}

export class LlmCaseState {
  mock: MockProviderSpec = {};
  /** Where `mock_provider:` sits (its capability flags are located under it). */
  mockPath: KeyPath = [];
  mapping = "openai";
  /** Where `mapping:` was written ([] when it was not: the openai default of llm-provider's note). */
  mappingPath: KeyPath = [];
  /** The provider sources the case declared (exactly one may answer its calls). */
  readonly sources: ProviderSource[] = [];
  /** The `call:` / `calls:` key. */
  callPath: KeyPath = [];
  /** `calls[]` plans in order (empty in the single `call:` form). */
  readonly callPlans: InvocationPlan[] = [];
  /**
   * Runs each `complete` call traced (conformance-adapter §5.11 `llm_spans`: inside a one-node
   * invocation with the OTel observer attached), resolving with what the call did and the spans it
   * produced. Set by the directive that needs the spans; absent, calls run bare.
   */
  traced: ((run: () => Promise<Response>) => Promise<{ readonly response?: Response; readonly error?: unknown; readonly spans: ReadonlyArray<unknown> }>) | undefined;
  /** Run before each call, and after it with the call's observation (e.g. the §6.3 log capture). */
  readonly beforeCall: Array<() => void> = [];
  readonly afterCall: Array<(observation: Observation) => Promise<void>> = [];
}
export const LLM_CASE = new SlotKey("llm-provider case", () => new LlmCaseState());

/** `mock_provider:` (§5.11): the real provider for the case's mapping, bound to the mock's fetch. */
export function mockProviderSource(path: KeyPath): ProviderSource {
  return {
    key: "mock_provider",
    path,
    open(state, ctx) {
      const mock = new MockProvider(state.mock);
      return { provider: providerFor(state, mock, ctx), wire: mock };
    },
  };
}

/**
 * The one source that answers the case's calls. None declared: the §5.11 mock with no responses —
 * the pre-send convention (a call rejected before sending mocks nothing; a request it does send
 * gets the mock's "no response left", and the wire assertions report it). Two: the fixture's error.
 */
function sourceOf(state: LlmCaseState, ctx: RunContext): ProviderSource {
  const [first, second] = state.sources;
  if (second !== undefined) {
    throw new FixtureSchemaInvalid(
      `the case declares two providers for its calls, '${first!.key}' (${formatPath(first!.path)}) and '${second.key}' (${formatPath(second.path)}): a call is answered by one`,
      ctx.locate(second.path),
    );
  }
  return first ?? mockProviderSource(state.callPath);
}

/** The mapping name → how to stand up the real provider for it. */
function providerFor(state: LlmCaseState, mock: MockProvider, ctx: RunContext): Provider {
  if (!LLM_MAPPINGS.includes(state.mapping)) {
    throw new HarnessPrimitiveMissing(`mapping:${state.mapping}`, `the '${state.mapping}' wire mapping is not implemented yet (this adapter has ${LLM_MAPPINGS.join(", ")})`, ctx.locate(state.mappingPath));
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

async function runCall(provider: Provider, wire: MockProvider | undefined, plan: InvocationPlan, index: number, ctx: RunContext): Promise<LlmCall> {
  const input = plan.input<Record<string, unknown>>(CALL_INPUT) ?? {};
  const where = ctx.locate(plan.path);
  const operation = (input["operation"] ?? "complete") as LlmCall["operation"];
  const messages = structuredClone(input["messages"] ?? []) as never;
  const config = input["config"] === undefined ? undefined : (structuredClone(input["config"]) as never);
  const messagesBefore = JSON.stringify(messages);
  const configBefore = JSON.stringify(config ?? null);
  const events: StreamEvent[] = [];
  const sleeps: number[] = [];
  const firstRequest = wire?.requests.length ?? 0;
  const firstServed = wire?.served.length ?? 0;
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
    requests: wire?.requests.slice(firstRequest) ?? [],
    wireCaptured: wire !== undefined,
    served: wire?.served.slice(firstServed) ?? [],
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

/** Runs the case's calls in order against the one provider the case declares. */
export const llmExecutor: CaseExecutor = {
  name: "provider call",
  async run(ctx: RunContext): Promise<CallRecord[]> {
    const state = ctx.slot(LLM_CASE);
    const { provider, wire, annotate } = sourceOf(state, ctx).open(state, ctx);
    const observe = async (plan: InvocationPlan, i: number, name: string | null): Promise<{ call: LlmCall; observation: Observation }> => {
      for (const before of state.beforeCall) before();
      const call = await runCall(provider, wire, plan, i, ctx);
      const observation = new Observation(name).set(LlmCallFacet, call).set(LlmCallsFacet, [call]);
      annotate?.(observation);
      for (const after of state.afterCall) await after(observation);
      return { call, observation };
    };
    if (state.callPlans.length === 0) return [{ plan: ctx.casePlan, observation: (await observe(ctx.casePlan, 0, null)).observation }];
    const records: CallRecord[] = [];
    const calls: LlmCall[] = [];
    for (const [i, plan] of state.callPlans.entries()) {
      const { call, observation } = await observe(plan, i, plan.name);
      calls.push(call);
      records.push({ plan, observation });
    }
    const all = Observation.aggregate(records.map((r) => r.observation)).set(LlmCallsFacet, calls);
    annotate?.(all);
    records.push({ plan: ctx.casePlan, observation: all });
    return records;
  },
};
