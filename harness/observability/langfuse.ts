/**
 * The Langfuse mock (conformance-adapter §6.4): a provider-faithful fake Langfuse client. Its
 * observations are OTel spans in the `langfuse.*` namespace going through the provider the client
 * is bound to (as a Langfuse v4+ client's are), and its recorded side is what Langfuse would ingest
 * from them: {@link decodeLangfuseSpans} rebuilds Traces and Observations from the exported spans.
 * It honours the SDK's per-credential singleton ({@link LangfuseFakeRegistry}), exposes its bound
 * provider, and tells payload-bearing observations from payload-free ones.
 *
 * Any directory may compose it: `useLangfuseCapture(ctx)` from a directive's `configure()`.
 */
import { trace, type HrTime, type TracerProvider } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { LangfuseOtelSpanAttributes as L } from "@langfuse/core";
import { setLangfuseTracerProvider } from "@langfuse/tracing";
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { Facet } from "../../src/conformance/observation.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { LangfuseObserver, type LangfuseClient, type LangfuseClientFactory, type LangfuseCredentials, type LangfuseObserverOptions } from "../../src/observability/langfuse.ts";
import { GraphCaseHooksSlot } from "../graph/extensions.ts";
import type { InvocationHooks } from "../../src/graph/index.ts";
import { currentSessionId } from "../../src/sessions/context.ts";
import { useOtelCapture, type OtelCaptureState } from "./capture.ts";
import { GlobalOtelSlot } from "./global-otel.ts";
import { ConstructionErrors } from "../graph/construction.ts";

/** A recorded Langfuse observation (the fields the §8 mapping sets). */
export interface RecordedObservation {
  readonly type: string;
  readonly name: string;
  readonly level: string;
  readonly statusMessage?: string;
  readonly metadata: Record<string, unknown>;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly model?: string;
  readonly modelParameters?: Record<string, unknown>;
  readonly usageDetails?: Record<string, unknown>;
  /**
   * §8.4.4 (the SDK's native prompt link, `langfuse.observation.prompt.name` / `.version`): the
   * linked Prompt entity's name and version as the span carried them, and the entity they resolve
   * to in the fake's project (`null` when none matches); all three absent when no link was passed.
   */
  readonly promptName?: string;
  readonly promptVersion?: number;
  readonly promptId?: string | null;
  readonly startTime: HrTime;
  readonly children: RecordedObservation[];
}

/** A recorded Langfuse trace. */
export interface RecordedTrace {
  readonly id: string;
  readonly name?: string;
  readonly sessionId?: string;
  readonly userId?: string;
  readonly metadata: Record<string, unknown>;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly observations: RecordedObservation[];
}

/** A Langfuse-serialized value back to its JSON value (Langfuse's ingest parses attribute strings). */
function parsed(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** A metadata value as Langfuse reads it: strings stay strings unless they are JSON of a non-string. */
function metadataValue(v: unknown): unknown {
  const p = parsed(v);
  return typeof p === "string" ? v : p;
}

function prefixed(attrs: ReadableSpan["attributes"], prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) if (k.startsWith(prefix + ".")) out[k.slice(prefix.length + 1)] = metadataValue(v);
  return out;
}

/** Whether a span is a Langfuse observation (it carries the `langfuse.observation.*` namespace). */
export const isLangfuseObservationSpan = (s: ReadableSpan): boolean => Object.keys(s.attributes).some((k) => k.startsWith("langfuse.observation."));

const STUB_INPUT = ["correlation_id", "entry_node"];
const STUB_OUTPUT = ["final_node", "status"];
const isStub = (v: unknown, keys: string[]): boolean =>
  typeof v === "object" && v !== null && !Array.isArray(v) && JSON.stringify(Object.keys(v).sort()) === JSON.stringify(keys);

/**
 * §6.4 (proposals 0117 / 0118): a Langfuse observation span carrying harvested payload — an
 * observation input / output, a trace input / output other than the §8.4.1 stub, or an
 * `error_message` in its metadata (an `error_type` alone is a classification, payload-free).
 */
export function isPayloadBearing(s: ReadableSpan): boolean {
  const a = s.attributes;
  if (a[L.OBSERVATION_INPUT] !== undefined || a[L.OBSERVATION_OUTPUT] !== undefined) return true;
  if (a[`${L.OBSERVATION_METADATA}.error_message`] !== undefined) return true;
  if (a[L.TRACE_INPUT] !== undefined && !isStub(parsed(a[L.TRACE_INPUT]), STUB_INPUT)) return true;
  if (a[L.TRACE_OUTPUT] !== undefined && !isStub(parsed(a[L.TRACE_OUTPUT]), STUB_OUTPUT)) return true;
  return false;
}

const earlier = (a: HrTime, b: HrTime): number => a[0] - b[0] || a[1] - b[1];

/**
 * A prompt client of the fake, shaped as `@langfuse/client`'s `TextPromptClient` /
 * `ChatPromptClient` (the fields a caller reads: `name`, the Langfuse version number, `isFallback`,
 * `type`, `prompt`, `config`, `labels`, `tags`, `commitMessage`) — what a backend exposing a
 * Langfuse Prompt reference places on `Prompt.observability_entities['langfuse_prompt']`
 * (prompt-management §3: the TypeScript SDK's Prompt reference).
 */
export interface FakeLangfusePromptClient {
  readonly name: string;
  readonly version: number;
  readonly isFallback: false;
  readonly type: "text" | "chat";
  readonly prompt: unknown;
  readonly config: Readonly<Record<string, unknown>>;
  readonly labels: readonly string[];
  readonly tags: readonly string[];
  readonly commitMessage: null;
}

/** One Prompt entity of the fake's Langfuse project. */
export interface FakeLangfusePromptEntity {
  readonly id: string;
  readonly name: string;
  readonly version: number;
}

/**
 * The fake Langfuse project's Prompt entities (observability §8.4.4's link target). Creating one
 * assigns it the next version of its name, as Langfuse numbers a prompt's versions from 1, and
 * returns its prompt client; ingest resolves a Generation's native prompt link (name, version) to
 * the entity it names, as Langfuse does.
 */
export class LangfusePromptStore {
  readonly #byId = new Map<string, FakeLangfusePromptEntity>();
  readonly #latest = new Map<string, number>();

  /** Create entity `id` (a reference no other entity of the project holds) and return its prompt client. */
  create(id: string, p: { readonly name: string; readonly type: "text" | "chat"; readonly prompt: unknown; readonly labels: readonly string[] }): FakeLangfusePromptClient {
    if (this.#byId.has(id)) throw new Error(`the fake Langfuse project already holds a Prompt entity '${id}'`);
    const version = (this.#latest.get(p.name) ?? 0) + 1;
    this.#latest.set(p.name, version);
    this.#byId.set(id, { id, name: p.name, version });
    return Object.freeze({ name: p.name, version, isFallback: false, type: p.type, prompt: p.prompt, config: {}, labels: [...p.labels], tags: [], commitMessage: null });
  }

  /** The entity a native prompt link (name, version) names, if the project holds one. */
  resolve(name: string, version: number): FakeLangfusePromptEntity | undefined {
    for (const e of this.#byId.values()) if (e.name === name && e.version === version) return e;
    return undefined;
  }
}

/**
 * Langfuse's ingest of `langfuse.*` spans: traces by trace id, observations joined by parent span
 * id, a Generation's native prompt link resolved against `prompts` (the project's entities).
 */
export function decodeLangfuseSpans(spans: readonly ReadableSpan[], prompts: LangfusePromptStore = new LangfusePromptStore()): RecordedTrace[] {
  const byTrace = new Map<string, ReadableSpan[]>();
  for (const s of spans.filter(isLangfuseObservationSpan)) {
    const id = s.spanContext().traceId;
    let l = byTrace.get(id);
    if (!l) byTrace.set(id, (l = []));
    l.push(s);
  }
  const out: RecordedTrace[] = [];
  for (const [id, list] of byTrace) {
    const ids = new Set(list.map((s) => s.spanContext().spanId));
    const kids = new Map<string, ReadableSpan[]>();
    const top: ReadableSpan[] = [];
    for (const s of list) {
      const p = s.parentSpanContext?.spanId;
      if (p !== undefined && ids.has(p)) {
        let l = kids.get(p);
        if (!l) kids.set(p, (l = []));
        l.push(s);
      } else top.push(s);
    }
    const observe = (s: ReadableSpan): RecordedObservation => {
      const a = s.attributes;
      const o: Record<string, unknown> = {
        type: String(a[L.OBSERVATION_TYPE] ?? "span"),
        name: s.name,
        level: String(a[L.OBSERVATION_LEVEL] ?? "DEFAULT"),
        metadata: prefixed(a, L.OBSERVATION_METADATA),
        startTime: s.startTime,
        children: (kids.get(s.spanContext().spanId) ?? []).sort((x, y) => earlier(x.startTime, y.startTime)).map(observe),
      };
      if (a[L.OBSERVATION_STATUS_MESSAGE] !== undefined) o["statusMessage"] = a[L.OBSERVATION_STATUS_MESSAGE];
      // Langfuse's observation record always has input / output: null when the span set none.
      o["input"] = a[L.OBSERVATION_INPUT] === undefined ? null : parsed(a[L.OBSERVATION_INPUT]);
      o["output"] = a[L.OBSERVATION_OUTPUT] === undefined ? null : parsed(a[L.OBSERVATION_OUTPUT]);
      if (a[L.OBSERVATION_MODEL] !== undefined) o["model"] = a[L.OBSERVATION_MODEL];
      if (a[L.OBSERVATION_MODEL_PARAMETERS] !== undefined) o["modelParameters"] = parsed(a[L.OBSERVATION_MODEL_PARAMETERS]);
      if (a[L.OBSERVATION_USAGE_DETAILS] !== undefined) o["usageDetails"] = parsed(a[L.OBSERVATION_USAGE_DETAILS]);
      const promptName = a[L.OBSERVATION_PROMPT_NAME];
      if (promptName !== undefined) {
        const promptVersion = Number(a[L.OBSERVATION_PROMPT_VERSION]);
        o["promptName"] = String(promptName);
        o["promptVersion"] = promptVersion;
        o["promptId"] = prompts.resolve(String(promptName), promptVersion)?.id ?? null;
      }
      return o as unknown as RecordedObservation;
    };
    // Trace fields: merged over the trace's spans (later spans win), as Langfuse upserts them.
    const trace: Record<string, unknown> = { id, metadata: {} };
    for (const s of [...list].sort((x, y) => earlier(x.startTime, y.startTime))) {
      const a = s.attributes;
      if (a[L.TRACE_NAME] !== undefined) trace["name"] = a[L.TRACE_NAME];
      if (a[L.TRACE_SESSION_ID] !== undefined) trace["sessionId"] = a[L.TRACE_SESSION_ID];
      if (a[L.TRACE_USER_ID] !== undefined) trace["userId"] = a[L.TRACE_USER_ID];
      if (a[L.TRACE_INPUT] !== undefined) trace["input"] = parsed(a[L.TRACE_INPUT]);
      if (a[L.TRACE_OUTPUT] !== undefined) trace["output"] = parsed(a[L.TRACE_OUTPUT]);
      Object.assign(trace["metadata"] as object, prefixed(a, L.TRACE_METADATA));
    }
    trace["observations"] = top.sort((x, y) => earlier(x.startTime, y.startTime)).map(observe);
    out.push(trace as unknown as RecordedTrace);
  }
  return out;
}

/** A fake client: bound to a provider it exposes (the §6.4 bound-provider accessor). */
export class FakeLangfuseClient implements LangfuseClient {
  constructor(
    readonly credentials: LangfuseCredentials,
    readonly tracerProvider: TracerProvider,
  ) {}
}

/**
 * §6.4 per-credential singleton: the first construction for a public key binds the provider it is
 * given (the global one when none is); later constructions for that key return the first client.
 * One registry per case, so no client outlives its case.
 */
export class LangfuseFakeRegistry {
  readonly #clients = new Map<string, FakeLangfuseClient>();
  construct(credentials: LangfuseCredentials, provider: TracerProvider): FakeLangfuseClient {
    let c = this.#clients.get(credentials.publicKey);
    if (!c) this.#clients.set(credentials.publicKey, (c = new FakeLangfuseClient(credentials, provider)));
    return c;
  }
  readonly factory: LangfuseClientFactory = (credentials, isolated) => this.construct(credentials, isolated);
}

/** The fake credentials of a case (never a real key). */
export const FAKE_CREDENTIALS: LangfuseCredentials = { publicKey: "pk-lf-conformance", secretKey: "sk-lf-conformance", baseUrl: "http://langfuse.invalid" };

/** What one call recorded. */
export interface CapturedLangfuse {
  readonly traces: readonly RecordedTrace[];
  readonly errors: readonly string[];
  /** The invocations the observer saw start: id, caller metadata, session id. */
  readonly invocations: readonly CapturedInvocation[];
  /** The untruncated serializations of the call's provider payloads and failure messages (§5.5.5 prefix checks). */
  readonly fullPayloads: readonly string[];
}

export interface CapturedInvocation {
  readonly invocationId: string;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly sessionId: string | undefined;
}
export const LangfuseCapture = new Facet<CapturedLangfuse>("Langfuse traces (§6.4 mock)");

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** `langfuse_client` (§5.5): how the observer's client is constructed for the case. */
export interface ClientSetup {
  mode: "credentials" | "supplied";
  provider: "global" | "isolated";
  preexistingSameKeyClient: boolean;
}

/** The case's Langfuse composition: observer options the directives set, then the observer. */
export class LangfuseCaptureState {
  used = false;
  readonly options: Mutable<Partial<LangfuseObserverOptions>> = {};
  /** The case-level `disable_provider_payload` (every composed observer's), under `options`' own. */
  caseDisableProviderPayload: boolean | undefined;
  readonly client: ClientSetup = { mode: "credentials", provider: "global", preexistingSameKeyClient: false };
  readonly registry = new LangfuseFakeRegistry();
  /** The fake project's Prompt entities (a backend exposing Langfuse references creates them). */
  readonly prompts = new LangfusePromptStore();
  /** The recording exporter on the provider the fake builds or is given in isolation (the recorded side). */
  readonly exporter = new InMemorySpanExporter();
  readonly errors: string[] = [];
  readonly invocations: CapturedInvocation[] = [];
  /** The case's OTel capture, whose detached-trace settings the Langfuse observer shares. */
  otel: OtelCaptureState | undefined;
  /** What constructing the observer raised (it is not retried: every later use raises it again). */
  constructionError: Error | undefined;
  #observer: LangfuseObserver | undefined;

  /** The observer, if it was constructed. */
  get constructed(): LangfuseObserver | undefined {
    return this.#observer;
  }

  /** Whether the fake's client ends up bound to the global provider (its observations are recorded there). */
  get boundToGlobal(): boolean {
    return this.client.mode === "supplied" ? this.client.provider === "global" : this.client.preexistingSameKeyClient;
  }

  /**
   * The observer, constructed at the first invocation: a construction error then fails that call
   * (first use), is recorded, and is raised again by every later use.
   */
  get observer(): LangfuseObserver {
    if (this.#observer) return this.#observer;
    if (this.constructionError) throw this.constructionError;
    try {
      return (this.#observer = this.#construct());
    } catch (e) {
      this.constructionError = e instanceof Error ? e : new Error(String(e));
      throw this.constructionError;
    }
  }

  #construct(): LangfuseObserver {
    const otel = this.otel;
    const common: Partial<LangfuseObserverOptions> = {
      ...(this.caseDisableProviderPayload !== undefined ? { disableProviderPayload: this.caseDisableProviderPayload } : {}),
      ...this.options,
      ...(otel ? { detachedSubgraphs: otel.detachedSubgraphs, detachedFanOuts: otel.detachedFanOuts } : {}),
      onError: (e, where) => this.errors.push(`${where}: ${e instanceof Error ? e.message : String(e)}`),
      // Diagnostics (§7 event names, WARNING) become log records of the case's OTel Logs capture.
      ...(otel ? { logger: otel.logger.logger } : { onDiagnostic: () => {} }),
    };
    if (this.client.mode === "supplied") {
      const provider = this.client.provider === "global" ? trace.getTracerProvider() : providerWith(this.exporter);
      return new LangfuseObserver({ ...common, client: this.registry.construct(FAKE_CREDENTIALS, provider) });
    }
    // Priming the per-credential singleton with no provider binds the global one (§6.4).
    if (this.client.preexistingSameKeyClient) this.registry.construct(FAKE_CREDENTIALS, trace.getTracerProvider());
    return new LangfuseObserver({
      ...common,
      credentials: FAKE_CREDENTIALS,
      spanProcessor: new SimpleSpanProcessor(this.exporter),
      clientFactory: this.registry.factory,
    });
  }
}

export const LangfuseCaptureSlot = new SlotKey<LangfuseCaptureState>("Langfuse mock (§6.4)", () => new LangfuseCaptureState());

/**
 * Compose the Langfuse observer (mode (b) with the fake injected) into every call of the case,
 * once, beside the OTel capture (every observability case runs with one, §6.3).
 */
export function useLangfuseCapture(ctx: ConfigureContext): LangfuseCaptureState {
  const state = ctx.slot(LangfuseCaptureSlot);
  if (state.used) return state;
  state.used = true;
  state.otel = useOtelCapture(ctx);
  const hooks = ctx.slot(GraphCaseHooksSlot);
  hooks.invocationHooks.push({
    onInvocationStart: (i) => {
      state.invocations.push({ invocationId: i.invocationId, metadata: i.metadata, sessionId: currentSessionId() });
      state.observer.onInvocationStart(i);
    },
    onInvocationEnd: (i, e) => state.observer.onInvocationEnd(i, e),
    onNodeEvent: (e) => state.observer.onNodeEvent(e),
    onChildRunStart: (r) => state.observer.onChildRunStart(r),
    onChildRunEnd: (r, e) => state.observer.onChildRunEnd(r, e),
    onMetadataAugmented: (a) => state.observer.onMetadataAugmented(a),
    onTypedEvent: (e: unknown) => state.observer.onTypedEvent(e),
  } as InvocationHooks);
  // Global state the call must leave alone (observability §6): the OTel global provider and
  // @langfuse/tracing's process-wide provider slot. A change fails the call; both are put back.
  let before: { otel: TracerProvider; langfuse: TracerProvider | null } | undefined;
  hooks.beforeCall.push(() => {
    state.exporter.reset();
    state.errors.length = 0;
    state.invocations.length = 0;
    before = { otel: globalDelegate(), langfuse: langfuseSlot() };
  });
  hooks.afterCall.push(() => {
    if (!before) return;
    if (langfuseSlot() !== before.langfuse) {
      state.errors.push("the call set @langfuse/tracing's process-wide TracerProvider slot (observability §6 forbids it)");
      setLangfuseTracerProvider(before.langfuse);
    }
    const now = globalDelegate();
    const harness = global.provider; // caller_global_otel_active's own registration
    if (now !== before.otel && now !== harness && before.otel !== harness) {
      state.errors.push("the call registered a global OTel TracerProvider (observability §6 forbids it)");
    }
  });
  const global = ctx.slot(GlobalOtelSlot);
  hooks.afterCall.push(async (call) => {
    await state.constructed?.forceFlush();
    call.observation.set(ConstructionErrors, state.constructionError ? [state.constructionError] : []);
    // The recorded side: what reached the provider the client is bound to.
    const spans = [...state.exporter.getFinishedSpans(), ...(state.boundToGlobal && global.used ? global.exporter.getFinishedSpans() : [])];
    call.observation.set(LangfuseCapture, { traces: decodeLangfuseSpans(spans, state.prompts), errors: [...state.errors], invocations: [...state.invocations], fullPayloads: [...(state.otel?.fullPayloads ?? [])] });
  });
  return state;
}

/** What the observation covers (a case-level block: every call's), or null when already reported. */
export function capturedLangfuseAll(obs: Observation, ctx: CheckContext): CapturedLangfuse | null {
  const calls = obs.calls.length > 0 ? obs.calls : [obs];
  const traces: RecordedTrace[] = [];
  const invocations: CapturedInvocation[] = [];
  const fullPayloads: string[] = [];
  for (const c of calls) {
    const cap = c.get(LangfuseCapture, ctx.locate(ctx.self.path));
    if (cap.errors.length) {
      ctx.fail(`the Langfuse observer reported errors while the call ran: ${cap.errors.join("; ")}`);
      return null;
    }
    traces.push(...cap.traces);
    invocations.push(...cap.invocations);
    fullPayloads.push(...cap.fullPayloads);
  }
  return { traces, errors: [], invocations, fullPayloads };
}

/** The traces the observation covers, or null when already reported. */
export function capturedLangfuse(obs: Observation, ctx: CheckContext): readonly RecordedTrace[] | null {
  return capturedLangfuseAll(obs, ctx)?.traces ?? null;
}

/** The provider the OTel global slot delegates to (the proxy when none is registered). */
function globalDelegate(): TracerProvider {
  const proxy = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  return proxy.getDelegate?.() ?? proxy;
}

/** @langfuse/tracing's process-wide provider slot (null when unset). */
function langfuseSlot(): TracerProvider | null {
  const state = (globalThis as Record<symbol, { isolatedTracerProvider?: TracerProvider | null } | undefined>)[Symbol.for("langfuse")];
  return state?.isolatedTracerProvider ?? null;
}

/** A provider carrying only `exporter` (a test helper for a supplied-client case). */
export function providerWith(exporter: InMemorySpanExporter): BasicTracerProvider {
  return new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
}
