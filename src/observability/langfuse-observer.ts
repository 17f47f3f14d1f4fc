/**
 * The Langfuse observer (observability §8) and its provider isolation (§6).
 *
 * It is engine hooks, like the {@link OTelObserver} — and it runs one privately: that observer's
 * spans go to an in-memory processor inside this object (never to any exporter), and when an
 * invocation ends its spans are rendered through the §8.4 tables ({@link renderInvocation}) and
 * emitted as Langfuse observations — OTel spans in Langfuse's `langfuse.*` attribute namespace,
 * built with `@langfuse/tracing`'s attribute helpers — through the Langfuse client's provider.
 * Emitting at the end lets each observation carry the trace fields the end decides (output, the
 * metadata as augmented) and keeps an invocation's observations in one export.
 *
 * Two client modes (§8.9): (a) `client` — your provider, already carrying a Langfuse span
 * processor; it is never mutated and a warning says so when it is the global provider. (b)
 * `credentials` — the observer builds its own `BasicTracerProvider` carrying only a
 * `LangfuseSpanProcessor` (from `@langfuse/otel`), never registered globally and never handed to
 * `@langfuse/tracing`'s process-wide provider slot; openarmature's observations reach only Langfuse.
 */
import { createHash } from "node:crypto";
import { AsyncLocalStorage } from "node:async_hooks";
import { ROOT_CONTEXT, trace, TraceFlags, type Attributes, type Context, type Tracer, type TracerProvider } from "@opentelemetry/api";
import { SeverityNumber, type Logger } from "@opentelemetry/api-logs";
import { BasicTracerProvider, type ReadableSpan, type SpanExporter, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { LANGFUSE_TRACER_NAME, LangfuseOtelSpanAttributes } from "@langfuse/core";
import { createObservationAttributes, createTraceAttributes } from "@langfuse/tracing";
import { LangfuseSpanProcessor } from "@langfuse/otel";
import type { ChildRunInfo, InvocationEnd, InvocationHooks, InvocationInfo, MetadataAugmentation, NodeAttempt, NodeEvent } from "../graph/index.ts";
import { Attr, INVOCATION_SPAN_NAME } from "./attributes.ts";
import { LLM_SPAN, renderInvocation, type LangfuseObservation, type LangfusePromptLink, type LangfuseTrace, type ProviderEventFacts } from "./langfuse-mapping.ts";
import { promptEntitiesOf } from "../prompts/context.ts";
import { OTelObserver, type OTelObserverOptions } from "./otel-observer.ts";
import { capPayloadValue, DEFAULT_PAYLOAD_BYTE_CAP, MIN_PAYLOAD_BYTE_CAP } from "./truncation.ts";

/** Langfuse credentials (mode (b)). */
export interface LangfuseCredentials {
  readonly publicKey: string;
  readonly secretKey: string;
  /** Default: `LANGFUSE_BASE_URL` / Langfuse cloud, as `@langfuse/otel` resolves it. */
  readonly baseUrl?: string;
}

/**
 * A Langfuse client as this observer uses it: the provider its observations go through — its bound
 * provider, which the observer can read (as `@langfuse/tracing`'s public `getLangfuseTracerProvider()`
 * reads the SDK's).
 */
export interface LangfuseClient {
  readonly tracerProvider: TracerProvider;
}

/**
 * A Langfuse client whose bound provider cannot be read: it hands out only a `Tracer` (as
 * `@langfuse/tracing`'s `getLangfuseTracer()` does — an OTel `Tracer` does not say which provider
 * made it). The observer cannot establish where its observations go, so it treats the provider as
 * possibly shared (§6).
 */
export interface OpaqueLangfuseClient {
  readonly tracer: Tracer;
}

/**
 * Builds the client for mode (b) from the credentials and the isolated provider the observer asks
 * it to bind. A client that comes back bound to another provider (an SDK's per-credential singleton
 * handing out an earlier client) means isolation could not be had; an {@link OpaqueLangfuseClient}
 * means it cannot be established.
 */
export type LangfuseClientFactory = (credentials: LangfuseCredentials, isolated: TracerProvider) => LangfuseClient | OpaqueLangfuseClient;

/**
 * The diagnostics the observer emits (observability §7 diagnostic event names), each at WARNING:
 * - `sharedProvider` — mode (a): the supplied client is bound to the global OTel provider;
 * - `isolationUnavailable` — mode (b): the client is (or may be) on a shared provider and the
 *   configuration harvests no payload; the observations go there payload-free (error messages removed);
 * - `payloadSuppressed` — mode (b): the client's bound provider cannot be established and the
 *   configuration harvests payload; the payload is suppressed, payload-free observations are emitted;
 * - `sharedProviderAccepted` — mode (b): `acceptSharedProvider: true` on a shared or unverifiable
 *   provider; the payload flows there (the acknowledged leak).
 */
export const LANGFUSE_DIAGNOSTICS = Object.freeze({
  sharedProvider: "openarmature.langfuse.shared_provider",
  isolationUnavailable: "openarmature.langfuse.isolation_unavailable",
  payloadSuppressed: "openarmature.langfuse.payload_suppressed",
  sharedProviderAccepted: "openarmature.langfuse.shared_provider_accepted",
} as const);

/** A diagnostic the observer reports (a warning, never an exception). */
export interface LangfuseDiagnostic {
  readonly level: "WARNING";
  /** Stable event name (observability §7 diagnostic event names). */
  readonly eventName: string;
  readonly message: string;
}

export interface LangfuseObserverOptions {
  /** Mode (a): your client (or its provider). Never mutated. */
  readonly client?: LangfuseClient | OpaqueLangfuseClient | TracerProvider;
  /** Mode (b): credentials; the observer builds and owns the client on an isolated provider. */
  readonly credentials?: LangfuseCredentials;
  /**
   * Mode (b): the span processor of the isolated provider. Default: `@langfuse/otel`'s
   * `LangfuseSpanProcessor` for `credentials` (around `exporter`, when given).
   */
  readonly spanProcessor?: SpanProcessor;
  /** Mode (b): the exporter the default `LangfuseSpanProcessor` sends through (default: Langfuse's OTLP endpoint). */
  readonly exporter?: SpanExporter;
  /** Mode (b): how the client is constructed from the credentials (an injection seam; default: the isolated provider itself). */
  readonly clientFactory?: LangfuseClientFactory;
  /**
   * Mode (b): when isolation cannot be had (the factory handed back a client on a shared provider,
   * or one whose provider cannot be read), emit anyway — harvested payloads included — with a
   * warning. Default false: a configuration that would send harvested payload through a provider
   * known to be shared is refused with {@link LangfuseProviderIsolationError}; through one that cannot
   * be established, its payload is suppressed (payload-free observations, a warning).
   */
  readonly acceptSharedProvider?: boolean;
  /** §8.7: omit Generation / provider-call input and output (default true). */
  readonly disableProviderPayload?: boolean;
  /** §8.4.1: omit the raw state from `trace.input` / `trace.output`; the privacy-safe stub goes instead (default true). */
  readonly disableStatePayload?: boolean;
  /** §8.4.1 caller hooks: a non-null return value becomes `trace.input` / `trace.output`. */
  readonly traceInputFromState?: (state: unknown) => unknown;
  readonly traceOutputFromState?: (state: unknown) => unknown;
  /** §8.9: render no Generation for LLM calls (default false), independent of the OTel observer's flag. */
  readonly disableLlmSpans?: boolean;
  /** §5.5.5 byte cap of each payload value this observer writes (default 65,536). */
  readonly payloadByteCap?: number;
  /** §4.4 detached trace mode, as for the OTel observer. */
  readonly detachedSubgraphs?: Iterable<string>;
  readonly detachedFanOuts?: Iterable<string>;
  /** Where warnings go (default `console.warn`, unless `logger` is given). */
  readonly onDiagnostic?: (d: LangfuseDiagnostic) => void;
  /**
   * An OTel Logs logger the diagnostics are emitted through as log records: severity WARN
   * (`severityText` WARNING), the {@link LANGFUSE_DIAGNOSTICS} name as the record's `eventName`,
   * the message as its body.
   */
  readonly logger?: Logger;
  /** Where the observer's own failures go (default `console.warn`); it never throws into the engine. */
  readonly onError?: (error: unknown, where: string) => void;
}

/** §6: the observer cannot be placed on an isolated provider and would send harvested payload through a shared one. */
export class LangfuseProviderIsolationError extends Error {
  readonly category = "langfuse_provider_isolation_unavailable" as const;
  constructor(message: string) {
    super(message);
    this.name = "LangfuseProviderIsolationError";
  }
}

const labels = new AsyncLocalStorage<string>();

/**
 * §8.6: run `fn` (an `invoke()` call) with a caller-supplied invocation label, which becomes the
 * Langfuse `trace.name` of the invocations it starts (default: the entry node's name).
 */
export function withInvocationLabel<T>(label: string, fn: () => T): T {
  return labels.run(label, fn);
}

/** The provider the OTel API's global slot delegates to (or the proxy itself when none is set). */
function globalProvider(): TracerProvider {
  const proxy = trace.getTracerProvider() as TracerProvider & { getDelegate?: () => TracerProvider };
  return proxy.getDelegate?.() ?? proxy;
}

/** Whether `p` is the OTel global provider (or its proxy). */
export function isGlobalTracerProvider(p: TracerProvider): boolean {
  return p === trace.getTracerProvider() || p === globalProvider();
}

/** The provider-call spans the private OTel observer renders from typed events. */
const PROVIDER_SPANS = new Set([LLM_SPAN, "openarmature.embedding.complete", "openarmature.rerank.complete", "openarmature.tool.call"]);

/**
 * Collects the internal OTel observer's ended spans by trace id, and ties each provider-call span
 * to the facts of the typed event it was rendered from (`tagging`, set while that event is handed
 * over: the OTel observer ends a provider span synchronously inside `onTypedEvent`).
 */
class Collector implements SpanProcessor {
  readonly byTrace = new Map<string, ReadableSpan[]>();
  readonly facts = new WeakMap<ReadableSpan, ProviderEventFacts>();
  tagging: ProviderEventFacts | undefined;
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    if (this.tagging !== undefined && PROVIDER_SPANS.has(span.name)) this.facts.set(span, this.tagging);
    const id = span.spanContext().traceId;
    let l = this.byTrace.get(id);
    if (!l) this.byTrace.set(id, (l = []));
    l.push(span);
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

/** What the observer tracks of one running invocation (trace input / output sourcing). */
interface Running {
  readonly info: InvocationInfo;
  readonly label: string | undefined;
  initial?: unknown;
  finalNode?: string;
  finalState?: unknown;
}

const isLangfuseClient = (c: LangfuseClient | OpaqueLangfuseClient | TracerProvider): c is LangfuseClient =>
  typeof (c as Partial<LangfuseClient>).tracerProvider === "object" && (c as Partial<LangfuseClient>).tracerProvider !== null;
const isOpaqueClient = (c: LangfuseClient | OpaqueLangfuseClient | TracerProvider): c is OpaqueLangfuseClient =>
  !isLangfuseClient(c) && typeof (c as Partial<OpaqueLangfuseClient>).tracer === "object" && (c as Partial<OpaqueLangfuseClient>).tracer !== null;

/** The Langfuse observer: pass it as engine hooks (`compile({ hooks })` or `invoke(s, { hooks })`). */
export class LangfuseObserver implements InvocationHooks {
  /** The provider openarmature's Langfuse observations go through; undefined for an {@link OpaqueLangfuseClient}. */
  readonly tracerProvider: TracerProvider | undefined;
  /** Whether that provider is one this observer built and owns alone (mode (b), isolated). */
  readonly isolated: boolean;
  /**
   * Whether harvested payload is withheld because the provider is (or may be) shared (§6, mode (b)
   * without `acceptSharedProvider`): trace input / output are the stubs, provider calls carry no
   * input / output, failures keep their classifications but not their error messages.
   */
  readonly payloadSuppressed: boolean;
  readonly disableProviderPayload: boolean;
  readonly disableStatePayload: boolean;
  readonly payloadByteCap: number;
  readonly #tracer: Tracer;
  readonly #own: BasicTracerProvider | undefined;
  readonly #otel: OTelObserver;
  readonly #collector = new Collector();
  readonly #running = new Map<string, Running>();
  readonly #options: LangfuseObserverOptions;
  readonly #onError: (error: unknown, where: string) => void;
  readonly #diagnose: (d: LangfuseDiagnostic) => void;

  constructor(options: LangfuseObserverOptions) {
    this.#options = options;
    this.disableProviderPayload = options.disableProviderPayload ?? true;
    this.disableStatePayload = options.disableStatePayload ?? true;
    this.payloadByteCap = options.payloadByteCap ?? DEFAULT_PAYLOAD_BYTE_CAP;
    if (!Number.isInteger(this.payloadByteCap) || this.payloadByteCap < MIN_PAYLOAD_BYTE_CAP) {
      throw new RangeError(`LangfuseObserver: payloadByteCap must be an integer >= ${MIN_PAYLOAD_BYTE_CAP} bytes (observability §5.5.5), got ${this.payloadByteCap}`);
    }
    this.#onError = options.onError ?? ((e, where) => console.warn(`[openarmature] Langfuse observer failed in ${where}:`, e));
    this.#diagnose = diagnostics(options);
    if ((options.client === undefined) === (options.credentials === undefined)) {
      throw new TypeError("LangfuseObserver: pass exactly one of `client` (mode a: your client) or `credentials` (mode b: the observer builds an isolated one)");
    }
    let suppressed = false;
    if (options.client !== undefined) {
      const c = options.client;
      this.tracerProvider = isOpaqueClient(c) ? undefined : isLangfuseClient(c) ? c.tracerProvider : c;
      this.#tracer = isOpaqueClient(c) ? c.tracer : this.tracerProvider!.getTracer(LANGFUSE_TRACER_NAME);
      this.#own = undefined;
      this.isolated = false;
      // §6 mode (a): warn (a MAY) only where the bound provider can be read and is the global one.
      if (this.tracerProvider !== undefined && isGlobalTracerProvider(this.tracerProvider)) {
        this.#diagnose({
          level: "WARNING",
          eventName: LANGFUSE_DIAGNOSTICS.sharedProvider,
          message:
            "the supplied Langfuse client is bound to the global OTel TracerProvider: openarmature's Langfuse observations go to every exporter on it, not only to Langfuse. Give the client its own TracerProvider to isolate it.",
        });
      }
    } else {
      const credentials = options.credentials!;
      const isolated = new BasicTracerProvider({ spanProcessors: [options.spanProcessor ?? defaultProcessor(credentials, options.exporter)] });
      const client = options.clientFactory ? options.clientFactory(credentials, isolated) : { tracerProvider: isolated };
      const bound = isLangfuseClient(client) ? client.tracerProvider : undefined;
      if (bound === undefined && !isOpaqueClient(client)) {
        void isolated.shutdown();
        throw new TypeError("LangfuseObserver: clientFactory returned neither a client with a `tracerProvider` nor one with a `tracer`");
      }
      this.tracerProvider = bound;
      this.isolated = bound === isolated;
      this.#own = this.isolated ? isolated : undefined;
      this.#tracer = bound !== undefined ? bound.getTracer(LANGFUSE_TRACER_NAME) : (client as OpaqueLangfuseClient).tracer;
      if (!this.isolated) {
        void isolated.shutdown();
        suppressed = this.#sharedProvider(credentials.publicKey, bound !== undefined);
      }
    }
    this.payloadSuppressed = suppressed;
    // Provider-call payload attributes are recorded privately only when this observer emits them
    // (its own flag, §8.9); an OTel observer without such options ignores the extra keys.
    const privateOtel: OTelObserverOptions & { disableProviderPayload?: boolean } = {
      disableProviderPayload: this.disableProviderPayload || suppressed,
      spanProcessors: [this.#collector],
      ...(options.detachedSubgraphs ? { detachedSubgraphs: options.detachedSubgraphs } : {}),
      ...(options.detachedFanOuts ? { detachedFanOuts: options.detachedFanOuts } : {}),
      payloadByteCap: this.payloadByteCap,
      onError: this.#onError,
    };
    this.#otel = new OTelObserver(privateOtel);
  }

  /**
   * §6 mode (b), the client is not on the isolated provider (`known`: its bound provider was read
   * and is another one; otherwise it cannot be established). The payload-leak invariant's arms:
   * opt-out → emit, warn; known shared with harvested payload → refuse; otherwise → suppress, warn.
   * Returns whether payload is suppressed.
   */
  #sharedProvider(publicKey: string, known: boolean): boolean {
    const harvested = this.#harvestsPayload();
    const where = known ? "is bound to a shared TracerProvider (an earlier client for the same credentials)" : "does not expose its bound TracerProvider, so its isolation cannot be established";
    if (this.#options.acceptSharedProvider === true) {
      this.#diagnose({
        level: "WARNING",
        eventName: LANGFUSE_DIAGNOSTICS.sharedProviderAccepted,
        message: `the Langfuse client for public key ${publicKey} ${where}; acceptSharedProvider is set, so openarmature's Langfuse observations${harvested ? ` (${harvested} included)` : ""} reach every exporter on that provider`,
      });
      return false;
    }
    if (known && harvested !== undefined) {
      throw new LangfuseProviderIsolationError(
        `LangfuseObserver (credentials): the Langfuse client for public key ${publicKey} ${where}, and ${harvested} would reach every exporter on it. Give the observer credentials no other client uses, set acceptSharedProvider: true to accept the leak, or turn the payload off.`,
      );
    }
    this.#diagnose({
      level: "WARNING",
      eventName: harvested !== undefined ? LANGFUSE_DIAGNOSTICS.payloadSuppressed : LANGFUSE_DIAGNOSTICS.isolationUnavailable,
      message:
        harvested !== undefined
          ? `the Langfuse client for public key ${publicKey} ${where}: ${harvested} suppressed — openarmature emits payload-free observations (set acceptSharedProvider: true to send the payload anyway)`
          : `the Langfuse client for public key ${publicKey} ${where}; openarmature's Langfuse observations reach every exporter on it, payload-free (error messages removed)`,
    });
    return true;
  }

  /** Which harvested payload this configuration emits (a phrase), or undefined when none (§6 payload-leak invariant). */
  #harvestsPayload(): string | undefined {
    const o = this.#options;
    if (!this.disableProviderPayload) return "provider call payloads (disableProviderPayload: false)";
    if (!this.disableStatePayload) return "state payloads (disableStatePayload: false)";
    if (o.traceInputFromState || o.traceOutputFromState) return "trace input / output hook values";
    return undefined;
  }

  /** Export what was emitted so far (the observer's own provider, mode (b)). */
  async forceFlush(): Promise<void> {
    await this.#own?.forceFlush();
  }

  /** Flush and shut down the observer's own provider (mode (b)); a supplied client is left alone. */
  async shutdown(): Promise<void> {
    await this.#own?.shutdown();
  }

  #guard(where: string, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.#onError(e, where);
    }
  }

  onInvocationStart(info: InvocationInfo): void {
    this.#guard("onInvocationStart", () => this.#running.set(info.invocationId, { info, label: labels.getStore() }));
    this.#otel.onInvocationStart(info);
  }

  /** A node event, for code that forwards events to this observer; the engine hands it node attempts. */
  onNodeEvent(e: NodeEvent): void {
    if (e.phase === "started") this.onNodeAttemptStart(e);
    else this.onNodeAttemptEnd(e);
  }

  /** A node attempt begins (the engine's call: no event object is built for it). */
  onNodeAttemptStart(a: NodeAttempt): void {
    this.#guard("onNodeAttemptStart", () => {
      const r = this.#running.get(a.invocationId);
      if (!r || a.namespace.length !== 1) return;
      if (!("initial" in r)) r.initial = a.preState;
      r.finalNode = a.nodeName;
    });
    this.#otel.onNodeAttemptStart(a);
  }

  /** A node attempt completes or suspends. */
  onNodeAttemptEnd(a: NodeAttempt): void {
    this.#guard("onNodeAttemptEnd", () => {
      const r = this.#running.get(a.invocationId);
      if (!r || a.namespace.length !== 1) return;
      r.finalState = a.postState ?? a.preState;
    });
    this.#otel.onNodeAttemptEnd(a);
  }

  onChildRunStart(r: ChildRunInfo): void {
    this.#guard("onChildRunStart", () => {
      const run = this.#running.get(r.invocationId);
      // A top-level subgraph node emits no node events: it is the node the invocation ran.
      if (run && r.namespace.length === 1) {
        if (!("initial" in run)) run.initial = undefined;
        run.finalNode = r.nodeName;
      }
    });
    this.#otel.onChildRunStart(r);
  }

  onChildRunEnd(r: ChildRunInfo, end: { readonly error?: unknown; readonly timestamp: number }): void {
    this.#otel.onChildRunEnd(r, end);
  }

  onMetadataAugmented(a: MetadataAugmentation): void {
    this.#otel.onMetadataAugmented(a);
  }

  /**
   * Typed provider events (LLM, embedding, rerank, tool calls), where the engine delivers them:
   * handed to the private OTel observer, whose provider-call spans the §8.4.3–§8.4.7 rows read.
   */
  onTypedEvent(event: unknown): void {
    this.#collector.tagging = eventFacts(event);
    try {
      (this.#otel as { onTypedEvent?: (e: unknown) => void }).onTypedEvent?.(event);
    } finally {
      this.#collector.tagging = undefined;
    }
  }

  onInvocationEnd(info: InvocationInfo, end: InvocationEnd): void {
    this.#otel.onInvocationEnd(info, end);
    this.#guard("onInvocationEnd", () => {
      const r = this.#running.get(info.invocationId);
      this.#running.delete(info.invocationId);
      const spans = this.#takeSpans(info.invocationId);
      if (!r || !spans) return;
      const status = end.outcome === "failed" ? "failed" : end.outcome;
      const input = this.#traceValue(this.#options.traceInputFromState, r.initial, {
        entry_node: info.entryNode,
        correlation_id: info.correlationId,
      });
      const output = this.#traceValue(this.#options.traceOutputFromState, r.finalState, { final_node: r.finalNode ?? info.entryNode, status });
      const traces = renderInvocation(spans, { ...(r.label !== undefined ? { name: r.label } : {}), input, output }, {
        disableProviderPayload: this.disableProviderPayload || this.payloadSuppressed,
        disableLlmSpans: this.#options.disableLlmSpans ?? false,
        payloadByteCap: this.payloadByteCap,
        eventFacts: (span) => this.#collector.facts.get(span),
      });
      for (const t of traces) this.#emit(this.payloadSuppressed ? payloadFree(t) : t);
    });
  }

  /** §8.4.1 decision tree: the hook's non-null value, else the raw state (payload on), else the stub. */
  #traceValue(hook: ((s: unknown) => unknown) | undefined, state: unknown, stub: Record<string, unknown>): unknown {
    if (this.payloadSuppressed) return stub;
    const fromHook = hook?.(state);
    if (fromHook !== undefined && fromHook !== null) return this.#capped(fromHook);
    if (!this.disableStatePayload && state !== undefined) return this.#capped(state);
    return stub;
  }

  /** A payload value within the byte cap: itself, or its serialization truncated (§5.5.5). */
  #capped(value: unknown): unknown {
    return capPayloadValue(value, this.payloadByteCap);
  }

  /** The ended spans of the invocation's traces (its own and the detached ones), removed from the collector. */
  #takeSpans(invocationId: string): { invocationId: string; main: ReadableSpan[]; detached: Map<string, ReadableSpan[]> } | undefined {
    let main: ReadableSpan[] | undefined;
    const detached = new Map<string, ReadableSpan[]>();
    for (const [traceId, spans] of this.#collector.byTrace) {
      const root = spans.find((s) => s.name === INVOCATION_SPAN_NAME && s.parentSpanContext === undefined);
      if (!root || root.attributes[Attr.invocationId] !== invocationId) continue;
      this.#collector.byTrace.delete(traceId);
      // The invocation's own trace is the one whose root started first; detached roots start later.
      if (main === undefined) main = spans;
      else {
        const mainRoot = main.find((s) => s.name === INVOCATION_SPAN_NAME && s.parentSpanContext === undefined)!;
        if (earlier(root, mainRoot)) {
          detached.set(mainRoot.spanContext().traceId, main);
          main = spans;
        } else detached.set(traceId, spans);
      }
    }
    return main ? { invocationId, main, detached } : undefined;
  }

  /** Emit one Langfuse trace as `langfuse.*` OTel spans through the client's provider. */
  #emit(t: LangfuseTrace): void {
    const traceAttrs: Attributes = {
      [LangfuseOtelSpanAttributes.TRACE_NAME]: t.name,
      ...(t.sessionId !== undefined ? { [LangfuseOtelSpanAttributes.TRACE_SESSION_ID]: t.sessionId } : {}),
      ...(t.userId !== undefined ? { [LangfuseOtelSpanAttributes.TRACE_USER_ID]: t.userId } : {}),
    };
    for (const [k, v] of Object.entries(t.metadata)) {
      const s = typeof v === "string" ? v : JSON.stringify(v);
      if (s !== undefined) traceAttrs[`${LangfuseOtelSpanAttributes.TRACE_METADATA}.${k}`] = s;
    }
    const io = createTraceAttributes({ input: t.input, output: t.output });
    // The Trace has no root observation (§8.3): top-level observations hang off a remote parent
    // context that only fixes the trace id (Langfuse's documented custom-trace-id pattern).
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: t.id,
      spanId: createHash("sha256").update(t.id).digest("hex").slice(0, 16),
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    const emit = (o: LangfuseObservation, ctx: Context, top: boolean): void => {
      const attrs: Attributes = {
        ...traceAttrs,
        ...(top ? io : {}),
        ...createObservationAttributes(o.type, {
          metadata: o.metadata,
          level: o.level,
          ...(o.statusMessage !== undefined ? { statusMessage: o.statusMessage } : {}),
          ...(o.input !== undefined ? { input: o.input } : {}),
          ...(o.output !== undefined ? { output: o.output } : {}),
          ...(o.model !== undefined ? { model: o.model } : {}),
          ...(o.modelParameters !== undefined ? { modelParameters: o.modelParameters as Record<string, string | number> } : {}),
          ...(o.usageDetails !== undefined ? { usageDetails: o.usageDetails } : {}),
          ...(o.prompt !== undefined ? { prompt: o.prompt } : {}),
        }),
      };
      const span = this.#tracer.startSpan(o.name, { attributes: attrs, startTime: o.startTime }, ctx);
      const own = trace.setSpan(ROOT_CONTEXT, span);
      for (const c of o.children) emit(c, own, false);
      span.end(o.endTime);
    };
    for (const o of t.observations) emit(o, parent, true);
  }
}

/**
 * §6 suppression: a trace whose failed observations keep their classifications (level, category,
 * `error_type`) but not their error messages — `error_message` removed, and an uncategorized
 * failure's status message (the exception's text) replaced by its `error_type`.
 */
function payloadFree(t: LangfuseTrace): LangfuseTrace {
  const strip = (o: LangfuseObservation): LangfuseObservation => {
    const { error_message: message, ...metadata } = o.metadata as Record<string, unknown>;
    const { statusMessage: _drop, ...rest } = o;
    const leaks = o.statusMessage !== undefined && message !== undefined && o.statusMessage === message;
    const errorType = metadata["error_type"];
    return {
      ...(leaks ? rest : o),
      ...(leaks && typeof errorType === "string" ? { statusMessage: errorType } : {}),
      metadata,
      children: o.children.map(strip),
    };
  };
  return { ...t, observations: t.observations.map(strip) };
}

/** Where the observer's diagnostics go: the OTel logger (a WARN record named by its event) and / or the callback. */
function diagnostics(options: LangfuseObserverOptions): (d: LangfuseDiagnostic) => void {
  const callback = options.onDiagnostic ?? (options.logger ? undefined : (d: LangfuseDiagnostic) => console.warn(`[openarmature] ${d.eventName}: ${d.message}`));
  const logger = options.logger;
  return (d) => {
    logger?.emit({ severityNumber: SeverityNumber.WARN, severityText: d.level, eventName: d.eventName, body: d.message });
    callback?.(d);
  };
}

/** The §8.4.3–§8.4.7 fields of a typed provider event that no span attribute carries (undefined for other events). */
function eventFacts(event: unknown): ProviderEventFacts | undefined {
  const e = event as { kind?: unknown; errorType?: string | null; errorMessage?: string; outputVectors?: readonly (readonly number[])[]; activePrompt?: object | null };
  switch (e.kind) {
    case "embedding":
      return { outputVectors: e.outputVectors ?? [] };
    case "llm_failed": {
      const link = langfusePromptLink(e.activePrompt);
      return { errorType: e.errorType ?? null, ...(e.errorMessage !== undefined ? { errorMessage: e.errorMessage } : {}), ...(link ? { langfusePrompt: link } : {}) };
    }
    case "embedding_failed":
    case "rerank_failed":
    case "tool_call_failed":
      return { errorType: e.errorType ?? null, ...(e.errorMessage !== undefined ? { errorMessage: e.errorMessage } : {}) };
    case "llm_completion": {
      const link = langfusePromptLink(e.activePrompt);
      return link ? { langfusePrompt: link } : {};
    }
    case "rerank":
    case "tool_call":
      return {};
    default:
      return undefined;
  }
}

/**
 * §8.4.4: the Langfuse Prompt entity the call's active prompt exposed —
 * `Prompt.observability_entities['langfuse_prompt']`, the SDK's prompt client (its `name` and
 * numeric `version`; a fallback prompt links to nothing, as the SDK decides) — or undefined when the
 * prompt exposed none, so no link is fabricated.
 */
function langfusePromptLink(activePrompt: object | null | undefined): LangfusePromptLink | undefined {
  const ref = promptEntitiesOf(activePrompt)?.["langfuse_prompt"] as { name?: unknown; version?: unknown; isFallback?: unknown } | undefined;
  if (ref === null || typeof ref !== "object") return undefined;
  const version = typeof ref.version === "number" ? ref.version : typeof ref.version === "string" && /^\d+$/.test(ref.version) ? Number(ref.version) : undefined;
  if (typeof ref.name !== "string" || version === undefined) return undefined;
  return { name: ref.name, version, isFallback: ref.isFallback === true };
}

function earlier(a: ReadableSpan, b: ReadableSpan): boolean {
  return a.startTime[0] < b.startTime[0] || (a.startTime[0] === b.startTime[0] && a.startTime[1] < b.startTime[1]);
}

/** `@langfuse/otel`'s span processor for the credentials (loaded only for mode (b) without a processor). */
function defaultProcessor(credentials: LangfuseCredentials, exporter: SpanExporter | undefined): SpanProcessor {
  return new LangfuseSpanProcessor({
    publicKey: credentials.publicKey,
    secretKey: credentials.secretKey,
    ...(credentials.baseUrl !== undefined ? { baseUrl: credentials.baseUrl } : {}),
    ...(exporter ? { exporter } : {}),
  });
}
