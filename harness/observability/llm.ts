/**
 * The observability suite's LLM harness (conformance-adapter §5.1 `calls_llm` /
 * `calls_llm_from_wrapper`, §5.5 `mock_llm` / `mock_llm_stream` / `provider`): the case's real
 * OpenAI-compatible provider from the registry, bound to the mock `fetch` (the network edge),
 * and the fixture message synthesis primitives (`content_repeat`, `base64_data_synthetic`).
 *
 * The provider is bound to the call's `model:`, else the model the first mock response names —
 * the alias when it names a dated snapshot (a provider answers `gpt-4o` with `gpt-4o-2024-08-06`,
 * fixture 068; 144 / 149 bind `test-model` under a body echoing `test-model-2026-07-15`) — else
 * `test-model`, or `gpt-test` in a `mock_llm_stream` case (what the streamed fixtures 111-118
 * assert; their chunks name no model). One mock serves the whole case: every wire attempt of every
 * call takes the next entry.
 */
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { Facet } from "../../src/conformance/observation.ts";
import { GraphCaseHooksSlot } from "../graph/extensions.ts";
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import { providers, type CompleteOptions, type Message, type Provider, type ProviderCapabilities, type Response, type RuntimeConfig, type Tool } from "../../src/llm/index.ts";
import { callRetry, type RetrySpec } from "../llm/call-spec.ts";
import { MOCK_API_KEY, MOCK_BASE_URL } from "../llm/case.ts";
import { MockProvider, type MockEntry } from "../llm/mock-provider.ts";
import { repeatMessage } from "../retrieval/case.ts";

/** The model a `mock_llm` case binds (fixture 144 binds it under a body naming `test-model-2026-07-15`). */
export const DEFAULT_MODEL = "test-model";
/** The model a `mock_llm_stream` case binds (the streamed fixtures 111-118 assert it; their chunks name none). */
export const DEFAULT_STREAM_MODEL = "gpt-test";

/** A `mock_llm` entry: a wire response, optionally with a `raises` override of the vendor error. */
export interface MockLlmEntry {
  readonly status?: number;
  readonly body?: unknown;
  readonly raises?: { readonly error_type?: string; readonly message?: string; readonly message_repeat?: RepeatSpec };
}

export interface RepeatSpec {
  readonly char: string;
  readonly bytes: number;
}

export class ObsLlmState {
  readonly entries: MockEntry[] = [];
  /** The responses the case's calls received, in order (reset per call by `useLlmResponses`). */
  readonly responses: Response[] = [];
  /** From `mock_llm.capabilities` (the OpenAI mapping's §5.11 flags, harness/llm/mock-capabilities.ts). */
  capabilities: ProviderCapabilities = {};
  /** `provider: {genai_system}` — the `gen_ai.system` override. */
  system: string | undefined;
  recording = false;
  /** The model a call without `model:` is bound to (see the module comment). */
  defaultModel = DEFAULT_MODEL;
  #mock: MockProvider | undefined;
  readonly #providers = new Map<string, Provider>();

  get mock(): MockProvider {
    return (this.#mock ??= new MockProvider({ responses: this.entries }));
  }

  /**
   * The alias the first mock response's `model` is a dated snapshot of (`test-model-2026-07-15` →
   * `test-model`), or that model itself; undefined when no response names one.
   */
  namedModel(): string | undefined {
    for (const e of this.entries) {
      const m = (e.body as { model?: unknown } | undefined)?.model;
      if (typeof m === "string") return m.replace(/-\d{4}-\d{2}-\d{2}$/, "");
    }
    return undefined;
  }

  /** The provider bound to `model` (or the case default), over the mock. */
  provider(model: string | undefined): Provider {
    const m = model ?? this.namedModel() ?? this.defaultModel;
    let p = this.#providers.get(m);
    if (!p) {
      p = providers.create("openai", {
        model: m,
        apiKey: MOCK_API_KEY,
        baseUrl: MOCK_BASE_URL,
        fetch: this.mock.fetch,
        capabilities: this.capabilities,
        ...(this.system !== undefined ? { system: this.system } : {}),
      });
      this.#providers.set(m, p);
    }
    return p;
  }
}

export const ObsLlmSlot = new SlotKey<ObsLlmState>("observability LLM mock", () => new ObsLlmState());

/** The responses the call's `complete()` calls returned, in order. */
export const LlmResponses = new Facet<readonly Response[]>("LLM responses of the call");

/** Record each call's LLM responses as its {@link LlmResponses} facet (once per case). */
export function useLlmResponses(ctx: ConfigureContext): void {
  const state = ctx.slot(ObsLlmSlot);
  if (state.recording) return;
  state.recording = true;
  const hooks = ctx.slot(GraphCaseHooksSlot);
  hooks.beforeCall.push(() => void (state.responses.length = 0));
  hooks.afterCall.push((call) => void call.observation.set(LlmResponses, [...state.responses]));
}

/** `char` repeated while the UTF-8 length stays within `bytes` (§5.1 `content_repeat`, §5.15 `message_repeat`). */
export function repeatTo(spec: RepeatSpec): string {
  return repeatMessage(spec.char, spec.bytes);
}

/** A base64 blob of exactly `bytes` characters (§5.1 `base64_data_synthetic`; no valid image needed). */
export function base64Synthetic(bytes: number): string {
  return "A".repeat(bytes);
}

/**
 * The base64 blobs the case's messages synthesize (`base64_data_synthetic`), collected while the
 * graph is built: §5.8's span-entry `attribute_does_not_contain: {forbidden_substring_kind:
 * synthetic_base64_prefix}` reads the first 64 characters of each.
 */
export const SyntheticBase64Slot = new SlotKey<Set<string>>("synthesized base64 data (§5.1 base64_data_synthetic)", () => new Set());

/** The base64 blobs `messages` synthesize (none when no block carries `base64_data_synthetic`). */
export function syntheticBase64Of(messages: readonly Record<string, unknown>[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (!Array.isArray(m["content"])) continue;
    for (const b of m["content"] as Record<string, unknown>[]) {
      const synth = (b?.["source"] as Record<string, unknown> | undefined)?.["base64_data_synthetic"] as { bytes?: unknown } | undefined;
      if (b?.["type"] === "image" && typeof synth?.bytes === "number") out.push(base64Synthetic(synth.bytes));
    }
  }
  return out;
}

/** A `mock_llm` entry as the wire entry the mock serves (a `raises` override shapes the vendor error body). */
export function mockEntry(e: MockLlmEntry, where: FixtureLocation): MockEntry {
  if (e.raises === undefined) return { ...(e.status !== undefined ? { status: e.status } : {}), ...(e.body !== undefined ? { body: e.body } : {}) };
  const r = e.raises;
  if (r.message !== undefined && r.message_repeat !== undefined) throw new FixtureSchemaInvalid("mock_llm raises: message and message_repeat are mutually exclusive", where);
  const status = e.status ?? 500;
  if (status < 300) throw new FixtureSchemaInvalid("mock_llm raises: only a non-2xx entry may carry raises", where);
  const message = r.message_repeat !== undefined ? repeatTo(r.message_repeat) : (r.message ?? "");
  return { status, body: { ...((e.body as object | undefined) ?? {}), error: { ...(r.error_type !== undefined ? { type: r.error_type } : {}), message } } };
}

/**
 * A message list as the fixture writes it, with `content_repeat` / `base64_data_synthetic`
 * expanded (content and content_repeat together are `fixture_schema_invalid`).
 */
export function synthesizeMessages(messages: readonly Record<string, unknown>[], where: FixtureLocation): Message[] {
  return messages.map((m) => {
    const out: Record<string, unknown> = { ...m };
    if (m["content_repeat"] !== undefined) {
      if (m["content"] !== undefined) throw new FixtureSchemaInvalid("a message carries both content and content_repeat", where);
      delete out["content_repeat"];
      out["content"] = repeatTo(m["content_repeat"] as RepeatSpec);
    }
    if (Array.isArray(out["content"])) out["content"] = (out["content"] as Record<string, unknown>[]).map((b) => synthesizeBlock(b));
    return out as unknown as Message;
  });
}

function synthesizeBlock(b: Record<string, unknown>): Record<string, unknown> {
  const source = b["source"] as Record<string, unknown> | undefined;
  if (b["type"] !== "image" || source === undefined || source["base64_data_synthetic"] === undefined) return b;
  const { base64_data_synthetic: synth, ...rest } = source;
  return { ...b, source: { ...rest, type: rest["type"] ?? "inline", base64_data: base64Synthetic((synth as { bytes: number }).bytes) } };
}

/** The keys a fixture LLM call carries (`calls_llm`, `calls_llm_from_wrapper`). */
export interface LlmCallSpec {
  readonly messages: readonly Record<string, unknown>[];
  readonly model?: string;
  readonly response_schema?: Record<string, unknown>;
  readonly config?: Record<string, unknown>;
  readonly retry?: RetrySpec;
  readonly stream?: boolean;
  readonly tools?: readonly unknown[];
}

/** The messages and options of a fixture call, ready for `complete()`. */
export function callOptions(spec: LlmCallSpec, where: FixtureLocation): { messages: Message[]; options: CompleteOptions } {
  const messages = synthesizeMessages(spec.messages, where);
  const options: CompleteOptions = {
    ...(spec.config !== undefined ? { config: structuredClone(spec.config) as RuntimeConfig } : {}),
    ...(spec.response_schema !== undefined ? { responseSchema: spec.response_schema as never } : {}),
    ...(spec.retry !== undefined ? { retry: callRetry(spec.retry, [], where) } : {}),
    ...(spec.stream === true ? { stream: true } : {}),
    ...(spec.tools !== undefined ? { tools: spec.tools.map(toolOf) } : {}),
  };
  return { messages, options };
}

/**
 * A tool as the fixture writes it — the §4 record, or the OpenAI wire form `{type: function,
 * function: {name, description?, parameters}}` the observability fixtures use (no description: "").
 */
function toolOf(t: unknown): Tool {
  const w = t as { type?: unknown; function?: { name?: unknown; description?: unknown; parameters?: unknown } };
  if (w.type !== "function" || typeof w.function !== "object" || w.function === null) return t as Tool;
  const f = w.function;
  return { name: f.name as string, description: typeof f.description === "string" ? f.description : "", parameters: (f.parameters ?? { type: "object" }) as Tool["parameters"] };
}

export const LLM_CALL_SCHEMA = {
  type: "object",
  required: ["messages"],
  properties: {
    messages: { type: "array", items: { type: "object" } },
    model: { type: "string", minLength: 1 },
    response_schema: { type: "object" },
    config: { type: "object" },
    retry: { type: "object" },
    stream: { type: "boolean" },
    tools: { type: "array" },
  },
};
