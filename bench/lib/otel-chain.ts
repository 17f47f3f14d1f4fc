/**
 * The linear chain of `chain.ts` traced into OpenTelemetry, for the `otel-chain` scenario: each
 * implementation emits one span per invocation and one per node through the same SDK — a private
 * `BasicTracerProvider` with a `BatchSpanProcessor` around a null exporter that only counts — and
 * flushes it at the end of every unit, so the unit includes exporting its spans.
 *
 * - ours: the library's `OTelObserver` as the compiled graph's hooks.
 * - LangGraph: LangGraph.js has no OpenTelemetry export of its own; a callback handler (its
 *   observer mechanism) starting a span on each node run's `handleChainStart` and ending it on
 *   `handleChainEnd`, under a span for the graph run, is the closest equivalent.
 * - floor: the plain loop of `chain.ts`, starting and ending the spans itself.
 */
import { ROOT_CONTEXT, trace, type Span, type Tracer } from "@opentelemetry/api";
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { OTelObserver } from "../../src/observability/index.ts";
import {
  CHAIN_INVOCATIONS_PER_UNIT,
  CHAIN_NODES,
  CHAIN_WARMUP_INVOCATIONS,
  chainUpdate as update,
  langgraphChainGraph,
  NAMES,
  oursChainGraph,
  type ChainState,
} from "./chain.ts";
import { floorAppend, floorMerge } from "./floor.ts";
import { LG_START } from "./langgraph.ts";
import type { Workload } from "./types.ts";


/** What one unit returns, for every implementation. */
export interface TracedUnitResult {
  readonly invocations: number;
  readonly totalCount: number;
  /** Spans the exporter received during the unit: (1 invocation + 100 nodes) per invocation. */
  readonly spans: number;
}

export function expectedTracedUnit(): TracedUnitResult {
  return { invocations: CHAIN_INVOCATIONS_PER_UNIT, totalCount: CHAIN_INVOCATIONS_PER_UNIT * CHAIN_NODES, spans: CHAIN_INVOCATIONS_PER_UNIT * (CHAIN_NODES + 1) };
}

/** An exporter that exports nowhere: it counts. */
class CountingExporter implements SpanExporter {
  count = 0;
  export(spans: ReadableSpan[], done: (r: { code: number }) => void): void {
    this.count += spans.length;
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

function sdk(): { provider: BasicTracerProvider; exporter: CountingExporter; tracer: Tracer } {
  const exporter = new CountingExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  return { provider, exporter, tracer: provider.getTracer("bench") };
}

function traced(
  invokeOnce: () => Promise<ChainState>,
  exporter: CountingExporter,
  flush: () => Promise<void>,
): Workload {
  const unit = async (invocations: number): Promise<TracedUnitResult> => {
    const before = exporter.count;
    let total = 0;
    for (let k = 0; k < invocations; k++) total += (await invokeOnce()).count;
    await flush();
    return { invocations, totalCount: total, spans: exporter.count - before };
  };
  return { run: () => unit(CHAIN_INVOCATIONS_PER_UNIT), warmup: () => unit(CHAIN_WARMUP_INVOCATIONS) };
}

export function oursTracedChain(): Workload {
  const exporter = new CountingExporter();
  const otel = new OTelObserver({ exporter });
  const graph = oursChainGraph({ hooks: otel });
  return traced(async () => (await graph.invoke({})).state, exporter, () => otel.forceFlush());
}

/** LangGraph's observer (a callback handler) turning graph and node runs into spans. */
class SpanHandler extends BaseCallbackHandler {
  override name = "bench-otel";
  readonly #spans = new Map<string, Span>();
  #root: Span | undefined;
  constructor(readonly tracer: Tracer) {
    super();
  }
  override handleChainStart(
    _chain: unknown,
    _inputs: Record<string, unknown>,
    runId: string,
    parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    if (parentRunId === undefined) {
      this.#root = this.tracer.startSpan("invocation", {}, ROOT_CONTEXT);
      this.#spans.set(runId, this.#root);
      return;
    }
    if (runName === undefined || runName === LG_START || metadata?.["langgraph_node"] !== runName) return;
    this.#spans.set(runId, this.tracer.startSpan(runName, {}, trace.setSpan(ROOT_CONTEXT, this.#root!)));
  }
  override handleChainEnd(_outputs: Record<string, unknown>, runId: string): void {
    const span = this.#spans.get(runId);
    if (!span) return;
    this.#spans.delete(runId);
    span.end();
  }
}

export function langgraphTracedChain(): Workload {
  const { provider, exporter, tracer } = sdk();
  const graph = langgraphChainGraph().withConfig({ callbacks: [new SpanHandler(tracer)] });
  const config = { recursionLimit: CHAIN_NODES + 10 };
  return traced(async () => (await graph.invoke({}, config)) as ChainState, exporter, async () => {
    await awaitAllCallbacks();
    await provider.forceFlush();
  });
}

export function floorTracedChain(): Workload {
  const { provider, exporter, tracer } = sdk();
  const reducers = { log: floorAppend };
  const nodes = NAMES.map((n) => [n, async (s: ChainState) => update(n, s)] as const);
  return traced(
    async () => {
      const root = tracer.startSpan("invocation", {}, ROOT_CONTEXT);
      const parent = trace.setSpan(ROOT_CONTEXT, root);
      let s: ChainState = { count: 0, log: [], last: "" };
      for (const [name, fn] of nodes) {
        const span = tracer.startSpan(name, {}, parent);
        s = floorMerge(s, await fn(s), reducers);
        span.end();
      }
      root.end();
      return s;
    },
    exporter,
    () => provider.forceFlush(),
  );
}
