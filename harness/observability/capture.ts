/**
 * OTel collector capture (conformance-adapter §6.3): a real {@link OTelObserver} on a private
 * `TracerProvider` with an in-memory span exporter, composed into a graph case's calls. The
 * exporter is reset before every call; after the call the exported spans (and any error the
 * observer reported — a dropped span fails the case rather than passing it) become the call's
 * {@link SpanCapture} facet, which `span_tree`, `traces` and the observability claims read.
 *
 * Any directory may use it: `useOtelCapture(ctx)` from a directive's `configure()`.
 */
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import { lineageOf, type ChildRunInfo, type EventLineage, type InvocationEnd, type InvocationHooks, type InvocationInfo, type MetadataAugmentation, type NodeEvent, type ObserverEvent } from "../../src/graph/index.ts";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from "@opentelemetry/sdk-logs";
import { CorrelatedLogger, OTelObserver } from "../../src/observability/index.ts";
import { GraphCaseHooksSlot } from "../graph/extensions.ts";
import { canonicalJson } from "../../src/llm/index.ts";
import { MetricCapture, RecordingMeterProvider } from "./metrics.ts";

/** What one call exported. */
export interface CapturedSpans {
  readonly spans: readonly ReadableSpan[];
  /** Errors the observer reported while the call ran (each fails a span assertion). */
  readonly errors: readonly string[];
  /** The node events the engine handed the observer (what it could read them from). */
  readonly nodeEvents: readonly NodeEvent[];
  /** The untruncated serializations of the payloads the call's provider / tool events carried (§5.5.5 prefix checks). */
  readonly fullPayloads: readonly string[];
  /**
   * The lineage of the call behind each provider / tool span, by span id: the typed event the
   * observer rendered it from (the lineage-resolved parent claims compare the tree with it).
   */
  readonly eventLineage: ReadonlyMap<string, EventLineage>;
}
export const SpanCapture = new Facet<CapturedSpans>("OTel spans (§6.3 capture)");

/** The log records one call emitted through the case's OTel Logs pipeline. */
export const LogCapture = new Facet<readonly ReadableLogRecord[]>("OTel log records (§6.3 capture)");

/**
 * Every log record the case emitted from its start to the end of this call (conformance-adapter
 * §5.5: `count` and `log_records_absent` read the whole case, after delivery completed).
 */
export const CaseLogCapture = new Facet<readonly ReadableLogRecord[]>("OTel log records of the whole case (§5.5)");

/** The case's capture: observer options the directives set, then the observer itself. */
export class OtelCaptureState implements InvocationHooks {
  used = false;
  readonly detachedSubgraphs = new Set<string>();
  readonly detachedFanOuts = new Set<string>();
  readonly exporter = new InMemorySpanExporter();
  readonly errors: string[] = [];
  readonly nodeEvents: NodeEvent[] = [];
  readonly fullPayloads: string[] = [];
  readonly eventLineage = new Map<string, EventLineage>();
  /** Ids of the spans ended so far in this call (a synchronous processor on the observer's provider). */
  readonly #ended: string[] = [];
  readonly logExporter = new InMemoryLogRecordExporter();
  /** Index of the current call's first record in the (never reset) log exporter. */
  callLogStart = 0;
  /** The §5.5.4 / §5.5.5 observer flags the case sets (`otel_observer`, `disable_llm_spans`, ...); unset keeps the default. */
  readonly flags: { disableLlmSpans?: boolean; disableProviderPayload?: boolean; disableGenaiSemconv?: boolean; payloadByteCap?: number } = {};
  /** `otel_observer: {attached: false}`: the engine hooks reach no observer (no spans; logs and typed events still captured). */
  attached = true;
  /** Where `attached: false` was written, and the first span assertion (`span_tree` / `traces` / `llm_spans`), for the §6.3 exclusion. */
  detachedAt: FixtureLocation | undefined;
  spanAssertion: { readonly name: string; readonly at: FixtureLocation } | undefined;
  /** Whether a non-graph executor reads this capture's log records per call ({@link captureLogsPerCall}). */
  bareCallLogs = false;
  /** §6.9: `enable_metrics` — the observer's §11.1 flag (default off). */
  enableMetrics = false;
  /** §6.9 metric capture: the observer's `MeterProvider`, recording every measurement. */
  readonly meterProvider = new RecordingMeterProvider();
  #observer: OTelObserver | undefined;
  #logger: CorrelatedLogger | undefined;
  #loggerProvider: LoggerProvider | undefined;

  /** The case's §7 logger: records go to the in-memory log exporter, correlated with the observer's spans. */
  get logger(): CorrelatedLogger {
    this.#loggerProvider ??= new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter: this.logExporter })] });
    return (this.#logger ??= new CorrelatedLogger(this.#loggerProvider.getLogger("openarmature-conformance"), this.observer));
  }

  /** Wait until every record emitted so far reached the exporter. */
  async flushLogs(): Promise<void> {
    await this.#loggerProvider?.forceFlush();
  }

  get observer(): OTelObserver {
    return (this.#observer ??= new OTelObserver({
      spanProcessors: [new SimpleSpanProcessor(this.exporter), endedIds(this.#ended)],
      detachedSubgraphs: this.detachedSubgraphs,
      detachedFanOuts: this.detachedFanOuts,
      ...this.flags,
      enableMetrics: this.enableMetrics,
      meterProvider: this.meterProvider,
      onError: (e, where) => this.errors.push(`${where}: ${e instanceof Error ? e.message : String(e)}`),
    }));
  }
  onInvocationStart(i: InvocationInfo): void {
    if (this.attached) this.observer.onInvocationStart(i);
  }
  onInvocationEnd(i: InvocationInfo, e: InvocationEnd): void {
    if (this.attached) this.observer.onInvocationEnd(i, e);
  }
  onNodeEvent(e: NodeEvent): void {
    this.nodeEvents.push(e);
    if (this.attached) this.observer.onNodeEvent(e);
  }
  onChildRunStart(r: ChildRunInfo): void {
    if (this.attached) this.observer.onChildRunStart(r);
  }
  onChildRunEnd(r: ChildRunInfo, end: { readonly error?: unknown; readonly timestamp: number }): void {
    if (this.attached) this.observer.onChildRunEnd(r, end);
  }
  onMetadataAugmented(a: MetadataAugmentation): void {
    if (this.attached) this.observer.onMetadataAugmented(a);
  }
  onTypedEvent(e: ObserverEvent): void {
    this.fullPayloads.push(...payloadSerializations(e));
    if (!this.attached) return;
    // The observer renders an event's spans inline: the ones ended meanwhile are that call's.
    const before = this.#ended.length;
    this.observer.onTypedEvent(e);
    if (this.#ended.length === before || typeof (e as Partial<EventLineage>).namespace !== "object") return;
    const lineage = lineageOf(e as unknown as EventLineage);
    for (const id of this.#ended.slice(before)) this.eventLineage.set(id, lineage);
  }

  /** Forget the previous call's span bookkeeping. */
  resetCall(): void {
    this.#ended.length = 0;
    this.eventLineage.clear();
  }
}

/** A span processor recording the id of every span as it ends (synchronously, in `span.end()`). */
function endedIds(into: string[]): SpanProcessor {
  return {
    onStart: () => undefined,
    onEnd: (s) => void into.push(s.spanContext().spanId),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
}

/**
 * The full serializations a provider / tool event's payload values are cut from (§5.5.5): the
 * payload attributes (library canonical JSON), an embedding's output vectors (JSON, as the
 * Langfuse observer serializes them) and a failure's error_message (the string itself).
 */
function payloadSerializations(e: ObserverEvent): string[] {
  const failure = "errorMessage" in e && typeof e.errorMessage === "string" ? [e.errorMessage] : [];
  if (e.kind === "llm_completion" || e.kind === "llm_failed") {
    return [...e.attempts.flatMap((a) => [canonicalJson(a.inputMessages), canonicalJson(a.requestExtras), ...(a.response?.outputContent ? [a.response.outputContent] : []), ...(a.failure ? [a.failure.message] : [])]), ...failure];
  }
  if (e.kind === "tool_call" || e.kind === "tool_call_failed") return [canonicalJson(e.arguments), ...(e.kind === "tool_call" ? [canonicalJson(e.result ?? null)] : []), ...failure];
  if (e.kind === "embedding" || e.kind === "embedding_failed") return [canonicalJson(e.inputStrings), ...(e.kind === "embedding" ? [JSON.stringify(e.outputVectors)] : []), ...failure];
  if (e.kind === "rerank" || e.kind === "rerank_failed") return [e.query, canonicalJson(e.documents), ...failure];
  return [];
}

/**
 * §6.3: a case asserting `span_tree`, `traces` or `llm_spans` MUST NOT set
 * `otel_observer: {attached: false}` — the adapter rejects the pair with fixture_schema_invalid,
 * whichever of the two is configured first (the spans would have nothing to record them).
 */
function refuseDetachedSpans(state: OtelCaptureState): void {
  if (state.detachedAt === undefined || state.spanAssertion === undefined) return;
  const { name, at } = state.spanAssertion;
  throw new FixtureSchemaInvalid(
    `otel_observer: {attached: false} (at ${state.detachedAt.path.join(".")}${state.detachedAt.line === undefined ? "" : `, line ${state.detachedAt.line}`}) composes no OTel observer, but the case asserts '${name}', which reads the spans that observer records (conformance-adapter §6.3)`,
    at,
  );
}

/** `otel_observer: {attached: false}` (§5.5): no observer for the case's spans; refused beside a span assertion (§6.3). */
export function detachOtelObserver(ctx: ConfigureContext): void {
  const state = ctx.slot(OtelCaptureSlot);
  state.attached = false;
  state.detachedAt ??= ctx.locate(ctx.self.path);
  refuseDetachedSpans(state);
}

/** A span assertion (`span_tree`, `traces`, `llm_spans`) in the case: refused beside `attached: false` (§6.3). */
export function noteSpanAssertion(ctx: ConfigureContext): void {
  const state = ctx.slot(OtelCaptureSlot);
  state.spanAssertion ??= { name: ctx.self.key, at: ctx.locate(ctx.self.path) };
  refuseDetachedSpans(state);
}

export const OtelCaptureSlot = new SlotKey<OtelCaptureState>("OTel capture (§6.3)", () => new OtelCaptureState());

/**
 * §6.3 log capture for a case with no graph (an llm-provider bare call): the case's OTel Logs
 * pipeline — the one a graph case's records reach — read per call into the same {@link LogCapture}
 * / {@link CaseLogCapture} facets, so `log_records` / `log_records_absent` hold in every directory.
 */
export function captureLogsPerCall(
  state: OtelCaptureState,
  hooks: { readonly beforeCall: Array<() => void>; readonly afterCall: Array<(observation: Observation) => Promise<void>> },
): void {
  if (state.bareCallLogs) return;
  state.bareCallLogs = true;
  hooks.beforeCall.push(() => void (state.callLogStart = state.logExporter.getFinishedLogRecords().length));
  hooks.afterCall.push(async (observation) => {
    await state.flushLogs();
    const logs = [...state.logExporter.getFinishedLogRecords()];
    observation.set(LogCapture, logs.slice(state.callLogStart)).set(CaseLogCapture, logs);
  });
}

/** Compose the OTel observer and its in-memory exporter into every call of the case (once). */
export function useOtelCapture(ctx: ConfigureContext): OtelCaptureState {
  const state = ctx.slot(OtelCaptureSlot);
  if (state.used) return state;
  state.used = true;
  const hooks = ctx.slot(GraphCaseHooksSlot);
  hooks.invocationHooks.push(state);
  hooks.beforeCall.push(() => {
    state.exporter.reset();
    // Log records are kept for the whole case; each call reads its own slice.
    state.callLogStart = state.logExporter.getFinishedLogRecords().length;
    state.errors.length = 0;
    state.nodeEvents.length = 0;
    state.fullPayloads.length = 0;
    state.resetCall();
    state.meterProvider.reset();
  });
  hooks.afterCall.push(async (call) => {
    await state.observer.forceFlush();
    await state.flushLogs();
    call.observation.set(SpanCapture, { spans: [...state.exporter.getFinishedSpans()], errors: [...state.errors], nodeEvents: [...state.nodeEvents], fullPayloads: [...state.fullPayloads], eventLineage: new Map(state.eventLineage) });
    const logs = [...state.logExporter.getFinishedLogRecords()];
    call.observation.set(LogCapture, logs.slice(state.callLogStart));
    call.observation.set(CaseLogCapture, logs);
    await state.meterProvider.flush();
    call.observation.set(MetricCapture, [...state.meterProvider.measurements]);
  });
  return state;
}
