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
 *
 * With `attributes` (the `otel-chain-attributes` scenario) LangGraph's handler and the floor give
 * their spans the attributes ours' carry — per node span the node name, namespace, step, attempt
 * index and correlation id; per invocation span the invocation id, entry node, spec version,
 * implementation name / version and correlation id (§5) — so the comparison is like for like; the
 * unit's result then includes the attribute count the exporter received, equal for all three.
 */
import { ROOT_CONTEXT, trace, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import { BasicTracerProvider, BatchSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { randomUUID } from "node:crypto";
import { Attr, IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION, OTelObserver, SPEC_VERSION } from "../../src/observability/index.ts";
import {
  CHAIN_INVOCATIONS_PER_UNIT,
  CHAIN_NODES,
  CHAIN_WARMUP_INVOCATIONS,
  chainPlan,
  chainUpdate as update,
  langgraphChainGraph,
  NAMES,
  oursChainGraph,
  type ChainState,
} from "./chain.ts";
import { floorAppend, floorMerge } from "./floor.ts";
import { LG_START } from "./langgraph.ts";
import type { ScenarioPlan, Workload } from "./types.ts";


/** What one unit returns, for every implementation. */
export interface TracedUnitResult {
  readonly invocations: number;
  readonly totalCount: number;
  /** Spans the exporter received during the unit: (1 invocation + 100 nodes) per invocation. */
  readonly spans: number;
  /** With `attributes`: the span attributes the exporter received (6 per invocation span, 5 per node span). */
  readonly attributes?: number;
}

export function expectedTracedUnit(attributes = false): TracedUnitResult {
  const n = CHAIN_INVOCATIONS_PER_UNIT;
  return { invocations: n, totalCount: n * CHAIN_NODES, spans: n * (CHAIN_NODES + 1), ...(attributes ? { attributes: n * (6 + 5 * CHAIN_NODES) } : {}) };
}

/** The plan of `otel-chain` and `otel-chain-attributes`. */
export function tracedChainPlan(quick: boolean, attributes: boolean): ScenarioPlan {
  return chainPlan(quick, " + span flush", expectedTracedUnit(attributes));
}

/** The §5 attributes ours gives an invocation span (`otel-chain-attributes`). */
function rootAttributes(correlationId: string): Attributes {
  return {
    [Attr.invocationId]: randomUUID(),
    [Attr.entryNode]: NAMES[0]!,
    [Attr.specVersion]: SPEC_VERSION,
    [Attr.implementationName]: IMPLEMENTATION_NAME,
    [Attr.implementationVersion]: IMPLEMENTATION_VERSION,
    [Attr.correlationId]: correlationId,
  };
}

/** The §5 attributes ours gives the node span of `name` at `step` (`otel-chain-attributes`). */
function nodeAttributes(name: string, namespace: readonly string[], step: number, correlationId: string): Attributes {
  return { [Attr.nodeName]: name, [Attr.namespace]: namespace as string[], [Attr.step]: step, [Attr.attemptIndex]: 0, [Attr.correlationId]: correlationId };
}

/**
 * Start a span and give it `attributes` after the start, one `setAttribute` each — the cheapest form
 * the SDK offers (attributes in the start options are sanitized twice, for the sampler and for the
 * span: in one measurement +1.4 µs per step for the floor against +0.5 µs this way), and the form
 * ours uses with its default provider. So the floor of `otel-chain-attributes` is the least work
 * that produces these spans.
 */
function startWith(tracer: Tracer, name: string, attributes: Attributes | undefined, parent: Context): Span {
  const span = tracer.startSpan(name, {}, parent);
  if (attributes) for (const k in attributes) span.setAttribute(k, attributes[k]!);
  return span;
}

/** An exporter that exports nowhere: it counts. */
class CountingExporter implements SpanExporter {
  count = 0;
  attributes = 0;
  export(spans: ReadableSpan[], done: (r: { code: number }) => void): void {
    this.count += spans.length;
    for (const s of spans) this.attributes += Object.keys(s.attributes).length;
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
  attributes = false,
): Workload {
  const unit = async (invocations: number): Promise<TracedUnitResult> => {
    const before = exporter.count;
    const attrsBefore = exporter.attributes;
    let total = 0;
    for (let k = 0; k < invocations; k++) total += (await invokeOnce()).count;
    await flush();
    return { invocations, totalCount: total, spans: exporter.count - before, ...(attributes ? { attributes: exporter.attributes - attrsBefore } : {}) };
  };
  return { run: () => unit(CHAIN_INVOCATIONS_PER_UNIT), warmup: () => unit(CHAIN_WARMUP_INVOCATIONS) };
}

export function oursTracedChain(attributes = false): Workload {
  const exporter = new CountingExporter();
  const otel = new OTelObserver({ exporter });
  const graph = oursChainGraph({ hooks: otel });
  return traced(async () => (await graph.invoke({})).state, exporter, () => otel.forceFlush(), attributes);
}

/** LangGraph's observer (a callback handler) turning graph and node runs into spans. */
class SpanHandler extends BaseCallbackHandler {
  override name = "bench-otel";
  readonly #spans = new Map<string, Span>();
  #root: Span | undefined;
  #correlationId = "";
  #step = 0;
  constructor(
    readonly tracer: Tracer,
    readonly attributes = false,
  ) {
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
      this.#correlationId = this.attributes ? randomUUID() : "";
      this.#step = 0;
      this.#root = startWith(this.tracer, "invocation", this.attributes ? rootAttributes(this.#correlationId) : undefined, ROOT_CONTEXT);
      this.#spans.set(runId, this.#root);
      return;
    }
    if (runName === undefined || runName === LG_START || metadata?.["langgraph_node"] !== runName) return;
    const attributes = this.attributes ? nodeAttributes(runName, [runName], this.#step++, this.#correlationId) : undefined;
    this.#spans.set(runId, startWith(this.tracer, runName, attributes, trace.setSpan(ROOT_CONTEXT, this.#root!)));
  }
  override handleChainEnd(_outputs: Record<string, unknown>, runId: string): void {
    const span = this.#spans.get(runId);
    if (!span) return;
    this.#spans.delete(runId);
    span.end();
  }
}

export function langgraphTracedChain(attributes = false): Workload {
  const { provider, exporter, tracer } = sdk();
  const graph = langgraphChainGraph().withConfig({ callbacks: [new SpanHandler(tracer, attributes)] });
  const config = { recursionLimit: CHAIN_NODES + 10 };
  return traced(async () => (await graph.invoke({}, config)) as ChainState, exporter, async () => {
    await awaitAllCallbacks();
    await provider.forceFlush();
  }, attributes);
}

export function floorTracedChain(attributes = false): Workload {
  const { provider, exporter, tracer } = sdk();
  const reducers = { log: floorAppend };
  const nodes = NAMES.map((n) => [n, Object.freeze([n]), async (s: ChainState) => update(n, s)] as const);
  return traced(
    async () => {
      const correlationId = attributes ? randomUUID() : "";
      const root = startWith(tracer, "invocation", attributes ? rootAttributes(correlationId) : undefined, ROOT_CONTEXT);
      const parent = trace.setSpan(ROOT_CONTEXT, root);
      let s: ChainState = { count: 0, log: [], last: "" };
      let step = 0;
      for (const [name, namespace, fn] of nodes) {
        const span = tracer.startSpan(name, {}, parent);
        if (attributes) {
          // The attributes of `nodeAttributes`, set directly: no intermediate object.
          span.setAttribute(Attr.nodeName, name);
          span.setAttribute(Attr.namespace, namespace as string[]);
          span.setAttribute(Attr.step, step++);
          span.setAttribute(Attr.attemptIndex, 0);
          span.setAttribute(Attr.correlationId, correlationId);
        }
        s = floorMerge(s, await fn(s), reducers);
        span.end();
      }
      root.end();
      return s;
    },
    exporter,
    () => provider.forceFlush(),
    attributes,
  );
}
