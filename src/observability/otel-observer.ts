/**
 * The OpenTelemetry observer (observability §4–§6): spans for the invocation, nodes, subgraphs,
 * fan-out nodes and instances, parallel-branches nodes and their per-branch dispatch spans, with
 * the §4.2 status mapping, the §5 attributes and detached trace mode (§4.4).
 *
 * It is an engine {@link InvocationHooks} object: the engine calls it synchronously, in its own call
 * stack, when an invocation starts and ends, when each node event is dispatched (a node's
 * `started` before its body runs) and when a child graph run (subgraph, fan-out instance, branch)
 * begins and ends. So every span exists while the work it describes runs — log records and
 * provider calls made inside a node find it through {@link OTelObserver.activeContext} — and its
 * timing is the event's own (sub-millisecond) timestamp. The §6 observer queue is untouched.
 *
 * Spans go to a private `TracerProvider` that is never registered globally (§6 isolation); parents
 * are always passed explicitly, so no global context manager is needed.
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
  type TracerProvider,
} from "@opentelemetry/api";
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import {
  currentNodeContext,
  getInvocationMetadata,
  inNodeBody,
  type ChildRunInfo,
  type InvocationEnd,
  type InvocationHooks,
  type InvocationInfo,
  type EventLineage,
  type InvocationMetadata,
  type MetadataAugmentation,
  type NodeAttempt,
  type NodeEvent,
  type ObserverEvent,
} from "../graph/index.ts";
import { renderLlmSpans, type LlmSpanFlags } from "./llm-spans.ts";
import { renderToolSpan } from "./tool-spans.ts";
import type { MeterProvider } from "@opentelemetry/api";
import { isRetrievalEvent } from "../retrieval/events.ts";
import { ProviderMetrics } from "./metrics.ts";
import { renderRetrievalSpan } from "./retrieval-spans.ts";
import { currentSessionId } from "../sessions/context.ts";
import type { TurnSpanEnd, TurnSpans, TurnSpanStart } from "../harness/turn-span.ts";
import { AsyncLocalStorage } from "node:async_hooks";
import {
  Attr,
  crossCuttingAttributes,
  flattenSuspensionMetadata,
  IMPLEMENTATION_NAME,
  IMPLEMENTATION_VERSION,
  INVOCATION_SPAN_NAME,
  invocationAttributes,
  userAttributes,
} from "./attributes.ts";
import { DEFAULT_PAYLOAD_BYTE_CAP, MIN_PAYLOAD_BYTE_CAP } from "./truncation.ts";

/** Options of {@link OTelObserver}. */
export interface OTelObserverOptions {
  /**
   * A provider you built for openarmature's spans. Keep it private: registering it globally would
   * duplicate other instrumentation's spans (§6). Default: a private `BasicTracerProvider` with
   * `spanProcessors`, else a `BatchSpanProcessor` around `exporter`.
   */
  readonly tracerProvider?: TracerProvider;
  /**
   * Exporter for the default provider, wrapped in a `BatchSpanProcessor`. Given alone (no
   * `spanProcessors`, no `tracerProvider`), span attributes are set right after each span starts
   * rather than in its start options — the exported spans are the same, the SDK copies less.
   */
  readonly exporter?: SpanExporter;
  /** Span processors for the default provider (e.g. a `SimpleSpanProcessor` in tests). */
  readonly spanProcessors?: readonly SpanProcessor[];
  /** Subgraphs rendered into their own trace (§4.4), by subgraph node name or compiled graph name. */
  readonly detachedSubgraphs?: Iterable<string>;
  /** Fan-out nodes whose instances each get their own trace (§4.4), by fan-out node name. */
  readonly detachedFanOuts?: Iterable<string>;
  /** §5.5.5 per-attribute cap for payload attributes (default 65,536 bytes). */
  readonly payloadByteCap?: number;
  /** §5.5.4: no provider payload attributes (default `true`). */
  readonly disableProviderPayload?: boolean;
  /** §5.5.4: no `gen_ai.*` semconv attributes on provider spans (default `false`). */
  readonly disableGenaiSemconv?: boolean;
  /** §5.5: no `openarmature.llm.complete` spans at all (external instrumentation owns them; default `false`). */
  readonly disableLlmSpans?: boolean;
  /** §11.1: record the §11.2 metrics from the typed provider events (default `false`). */
  readonly enableMetrics?: boolean;
  /**
   * §11.1: where the metrics go when `enableMetrics`. Default: the OTel global `MeterProvider` —
   * a silent no-op until the application registers one.
   */
  readonly meterProvider?: MeterProvider;
  /**
   * Where the observer's own errors go (a failing exporter, an unexpected event). Default:
   * `console.warn`. The observer never throws into the engine.
   */
  readonly onError?: (error: unknown, where: string) => void;
}

/**
 * An open span and the OTel context that makes it the parent — built on first use: most node spans
 * never parent anything (bench otel-chain).
 */
class Open {
  readonly span: Span;
  /**
   * The span belongs to a child run, not to the node event that holds it: an inline-callable
   * branch's synthetic node renders as the branch's dispatch span (§5.7), which its run closes.
   */
  readonly borrowed: boolean;
  #ctx: Context | undefined = undefined;
  constructor(span: Span, borrowed = false) {
    this.span = span;
    this.borrowed = borrowed;
  }
  get ctx(): Context {
    return (this.#ctx ??= trace.setSpan(ROOT_CONTEXT, this.span));
  }
}

/** One invocation's open spans. */
interface InvocationTrace {
  readonly info: InvocationInfo;
  readonly sessionId: string | undefined;
  readonly root: Open;
  /** Node spans by `key(namespace, chains) + attempt` (but the outermost graph's running node: `top`). */
  readonly nodes: Map<string, Open>;
  /**
   * The open span of the outermost graph's running plain node, with its attempt and lineage —
   * kept out of `nodes`: the outermost graph runs one node at a time, so a one-entry slot finds it
   * without building a span-table key (bench otel-chain). Should a second one start while the first
   * is open (its completed event suppressed), the first moves to `nodes`.
   */
  top: Open | undefined;
  topAttempt: number;
  topNamespace: readonly string[];
  topFanOutChain: readonly (number | null)[];
  topBranchChain: readonly (string | null)[];
  /** Child-run spans (subgraph, fan-out instance, branch dispatch) by `key(namespace, child chains)`. */
  readonly runs: Map<string, RunSpans>;
  /**
   * Per-branch dispatch spans whose branch ended, held open by their parallel-branches node's span
   * key until that node's terminal event closes them in declaration order (§6 synthesis step 5).
   */
  readonly heldBranches: Map<string, Map<string, RunSpans>>;
  /** A parallel-branches node's declared branch order, by its node span key. */
  readonly branchOrder: Map<string, readonly string[]>;
  /** The last cross-cutting attributes computed, and the metadata snapshot they are for. */
  cross?: { readonly metadata: InvocationMetadata; readonly attributes: Attributes };
  /**
   * Whether `setInvocationMetadata` ran anywhere in the invocation (`onMetadataAugmented`, delivered
   * synchronously). Until it has, every context's metadata is the invocation's own snapshot
   * (`info.metadata`): node starts skip the AsyncLocalStorage lookup (bench otel-chain).
   */
  augmented?: boolean;
}

interface RunSpans {
  /** The span node spans of the child nest under. */
  readonly inner: Open;
  /** The detached trace's root invocation span, when detached. */
  readonly detachedRoot?: Open;
  /** The span left in the parent trace for a detached subgraph (it carries the link). */
  readonly dispatch?: Open;
  /** The run is an inline-callable branch: its one node renders as `inner`, the dispatch span (§5.7). */
  readonly callable?: true;
}

/**
 * A span-table key for a lineage (namespace plus its fan-out / branch chains), joined with the ASCII
 * unit / record separators (names do not contain them in practice). Computed on every node event
 * (bench otel-chain), so it is cached on the lineage's frozen namespace array — the engine shares one
 * per node per graph run — with the chains it was built for; `nodeKey` also caches the attempt-0 key.
 */
function key(ns: readonly string[], fan: readonly (number | null)[], branch: readonly (string | null)[]): string {
  return lineageKeys(ns, fan, branch).key;
}

/** The key of the node span at a lineage and attempt. */
function nodeKey(ns: readonly string[], fan: readonly (number | null)[], branch: readonly (string | null)[], attempt: number): string {
  const k = lineageKeys(ns, fan, branch);
  return attempt === 0 ? k.attempt0 : `${k.key}#${attempt}`;
}

interface LineageKeys {
  readonly fan: readonly (number | null)[];
  readonly branch: readonly (string | null)[];
  readonly key: string;
  readonly attempt0: string;
}

const keyCache = new WeakMap<readonly string[], LineageKeys>();

function lineageKeys(ns: readonly string[], fan: readonly (number | null)[], branch: readonly (string | null)[]): LineageKeys {
  const hit = keyCache.get(ns);
  if (hit !== undefined && hit.fan === fan && hit.branch === branch) return hit;
  const k = `${ns.join("\u001f")}\u001e${fan.join("\u001f")}\u001e${branch.map((b) => (b === null ? "\u0000" : b)).join("\u001f")}`;
  const keys: LineageKeys = { fan, branch, key: k, attempt0: `${k}#0` };
  // Only immutable arrays can key a cache entry (a mutated array would find a stale key).
  if (Object.isFrozen(ns) && Object.isFrozen(fan) && Object.isFrozen(branch)) keyCache.set(ns, keys);
  return keys;
}

const NO_CHAIN: readonly never[] = Object.freeze([]);

/** Epoch milliseconds from 1973 on: certainly not a `performance.now()` reading. */
const EPOCH_MS_FLOOR = 1e11;

/**
 * An epoch-milliseconds timestamp as the `HrTime` the SDK would make of it (its `millisToHrTime`),
 * so the SDK does not read the clock again to tell epoch from `performance` time (two clock reads
 * per node span, bench otel-chain). Anything else goes to the SDK as is.
 */
function hrTime(ms: number): TimeInput {
  if (!(ms > EPOCH_MS_FLOOR)) return ms;
  const seconds = Math.trunc(ms / 1000);
  return [seconds, Math.round((ms % 1000) * 1e6)];
}

/** The OK status (the SDK copies what it keeps). */
const OK: SpanStatus = Object.freeze({ code: SpanStatusCode.OK });

function categoryOf(e: unknown): string {
  const c = (e as { category?: unknown } | null)?.category;
  return typeof c === "string" ? c : "node_exception";
}

function toError(e: unknown): Error | string {
  return e instanceof Error ? e : String(e);
}

/** The OTel observer: pass it as engine hooks — `compile({ hooks: otel })` or `invoke(s, { hooks: otel })`. */
/** The name of the harness turn-level wrapper span (observability §4.6). */
export const TURN_SPAN_NAME = "openarmature.turn";

export class OTelObserver implements InvocationHooks, TurnSpans {
  readonly tracerProvider: TracerProvider;
  readonly payloadByteCap: number;
  readonly #tracer: Tracer;
  readonly #own: BasicTracerProvider | undefined;
  readonly #detachedSubgraphs: ReadonlySet<string>;
  readonly #detachedFanOuts: ReadonlySet<string>;
  readonly #onError: (error: unknown, where: string) => void;
  readonly #traces = new Map<string, InvocationTrace>();
  /** The open turn span (§4.6) of the calling context; its first invocation becomes its child. */
  readonly #turn = new AsyncLocalStorage<{ ctx: Context; used: boolean }>();
  readonly #providerFlags: LlmSpanFlags;
  readonly #disableLlmSpans: boolean;
  /** The §11 instruments; `undefined` unless `enableMetrics` (then nothing is created). */
  readonly #metrics: ProviderMetrics | undefined;
  /**
   * Set span attributes right after the start instead of in the start options. Only with the
   * default provider around `exporter` alone: its sampler (the SDK's default, parent-based
   * always-on) never reads attributes and its `BatchSpanProcessor.onStart` does nothing, so nothing
   * can tell the difference — and the SDK's two `sanitizeAttributes` copies of the start options are saved
   * (bench otel-chain). Any user-supplied provider or processor gets them at the start, as always
   * (a sampler or an `onStart` may read them).
   */
  readonly #attributesAfterStart: boolean;

  constructor(options: OTelObserverOptions = {}) {
    if (options.tracerProvider) {
      this.tracerProvider = options.tracerProvider;
      this.#own = undefined;
    } else {
      const processors = [...(options.spanProcessors ?? [])];
      if (options.exporter) processors.push(new BatchSpanProcessor(options.exporter));
      this.#own = new BasicTracerProvider({ spanProcessors: processors });
      this.tracerProvider = this.#own;
    }
    this.#attributesAfterStart = options.tracerProvider === undefined && (options.spanProcessors ?? []).length === 0 && options.exporter !== undefined;
    this.#tracer = this.tracerProvider.getTracer(IMPLEMENTATION_NAME, IMPLEMENTATION_VERSION);
    this.#detachedSubgraphs = new Set(options.detachedSubgraphs ?? []);
    this.#detachedFanOuts = new Set(options.detachedFanOuts ?? []);
    this.payloadByteCap = options.payloadByteCap ?? DEFAULT_PAYLOAD_BYTE_CAP;
    if (!Number.isInteger(this.payloadByteCap) || this.payloadByteCap < MIN_PAYLOAD_BYTE_CAP) {
      throw new RangeError(`OTelObserver: payloadByteCap must be an integer >= ${MIN_PAYLOAD_BYTE_CAP} bytes (observability §5.5.5), got ${this.payloadByteCap}`);
    }
    this.#providerFlags = {
      disableProviderPayload: options.disableProviderPayload ?? true,
      disableGenaiSemconv: options.disableGenaiSemconv ?? false,
      payloadByteCap: this.payloadByteCap,
    };
    this.#disableLlmSpans = options.disableLlmSpans ?? false;
    this.#metrics = options.enableMetrics === true ? new ProviderMetrics(options.meterProvider) : undefined;
    this.#onError = options.onError ?? ((e, where) => console.warn(`[openarmature] OTel observer failed in ${where}:`, e));
  }

  /** Export everything ended so far (the default provider's processors). */
  async forceFlush(): Promise<void> {
    await this.#own?.forceFlush();
  }

  /** Flush and shut down the default provider. */
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

  #start(name: string, parent: Context | null, attributes: Attributes, startTime: number, links?: Link[]): Open {
    const opts: SpanOptions = { kind: SpanKind.INTERNAL, startTime: hrTime(startTime) };
    if (!this.#attributesAfterStart) opts.attributes = attributes;
    if (links) opts.links = links;
    // No parent: the root context, which holds no span (so no `root: true`, which would copy it to delete one).
    const span = this.#tracer.startSpan(name, opts, parent ?? ROOT_CONTEXT);
    if (this.#attributesAfterStart) span.setAttributes(attributes);
    return new Open(span);
  }

  /** A span started with no attributes (they are set after the start: `#attributesAfterStart`). */
  #startBare(name: string, parent: Context, startTime: number): Span {
    // `kind` left out: INTERNAL is the SDK's default.
    return this.#tracer.startSpan(name, { startTime: hrTime(startTime) }, parent);
  }

  /** The §5.6 attributes for `metadata`: recomputed only when the metadata snapshot changes (snapshots are immutable). */
  #cross(t: InvocationTrace, metadata: InvocationMetadata): Attributes {
    if (t.cross?.metadata === metadata) return t.cross.attributes;
    const attributes = crossCuttingAttributes(t.info.correlationId, t.sessionId, metadata);
    t.cross = { metadata, attributes };
    return attributes;
  }

  onInvocationStart(info: InvocationInfo): void {
    // Once per invocation: no `#guard` closure, the same catch.
    try {
      const sessionId = currentSessionId();
      const cross = crossCuttingAttributes(info.correlationId, sessionId, info.metadata);
      const turn = this.#turn.getStore();
      const parent = turn !== undefined && !turn.used ? turn.ctx : null;
      if (turn) turn.used = true;
      const root = this.#start(INVOCATION_SPAN_NAME, parent, Object.assign(invocationAttributes(info.invocationId, info.entryNode), cross), info.timestamp);
      this.#traces.set(info.invocationId, {
        info,
        sessionId,
        root,
        // The first node's attributes are these (`#cross`): computed once.
        cross: { metadata: info.metadata, attributes: cross },
        nodes: new Map(),
        top: undefined,
        topAttempt: 0,
        topNamespace: NO_CHAIN,
        topFanOutChain: NO_CHAIN,
        topBranchChain: NO_CHAIN,
        runs: new Map(),
        heldBranches: new Map(),
        branchOrder: new Map(),
      });
    } catch (err) {
      this.#onError(err, "onInvocationStart");
    }
  }

  onInvocationEnd(info: InvocationInfo, end: InvocationEnd): void {
    try {
      const t = this.#traces.get(info.invocationId);
      if (!t) return;
      this.#traces.delete(info.invocationId);
      const span = t.root.span;
      if (end.outcome === "failed") {
        span.setAttribute(Attr.errorCategory, categoryOf(end.error));
        setError(span, end.error);
      } else {
        if (end.outcome === "suspended") span.setAttribute(Attr.outcome, "suspended");
        span.setStatus(OK);
      }
      // Anything still open (an unwound suspension, a cancelled branch) closes with the invocation.
      if (t.top !== undefined && !t.top.borrowed) t.top.span.end(end.timestamp);
      if (t.nodes.size !== 0) for (const o of t.nodes.values()) if (!o.borrowed) o.span.end(end.timestamp);
      if (t.runs.size !== 0) for (const r of t.runs.values()) endRun(r, end.timestamp);
      if (t.heldBranches.size !== 0) for (const held of t.heldBranches.values()) for (const r of held.values()) endRun(r, end.timestamp);
      span.end(hrTime(end.timestamp));
    } catch (err) {
      this.#onError(err, "onInvocationEnd");
    }
  }

  /** The parent of a span at `ns` whose own lineage chains are `fan` / `branch`. */
  #parentOf(t: InvocationTrace, ns: readonly string[], fan: readonly (number | null)[], branch: readonly (string | null)[]): Context {
    for (let d = ns.length - 1; d >= 1; d--) {
      const run = t.runs.get(key(ns.slice(0, d), fan.slice(0, d), branch.slice(0, d)));
      if (run) return run.inner.ctx;
    }
    return t.root.ctx;
  }

  /**
   * A node event, for code that forwards events to this observer (a hook of its own calling on): the
   * engine hands the observer node attempts instead ({@link onNodeAttemptStart}), building no event.
   */
  onNodeEvent(e: NodeEvent): void {
    if (e.phase === "started") this.onNodeAttemptStart(e);
    else this.onNodeAttemptEnd(e);
  }

  /** A node attempt begins: its span opens (§4.1), current while the body runs. */
  onNodeAttemptStart(a: NodeAttempt): void {
    // Called once per node: no `#guard` closure here (bench otel-chain), the same catch.
    try {
      const t = this.#traces.get(a.invocationId);
      if (t !== undefined) this.#nodeStarted(t, a);
    } catch (err) {
      this.#onError(err, "onNodeAttemptStart");
    }
  }

  /** A node attempt completes or suspends: its span closes with the §4.2 status. */
  onNodeAttemptEnd(a: NodeAttempt): void {
    try {
      const t = this.#traces.get(a.invocationId);
      if (t !== undefined) this.#nodeEnded(t, a);
    } catch (err) {
      this.#onError(err, "onNodeAttemptEnd");
    }
  }

  /** The open span of the node at a lineage and attempt. */
  #node(t: InvocationTrace, ns: readonly string[], fan: readonly (number | null)[], branch: readonly (string | null)[], attempt: number): Open | undefined {
    if (isTop(t, ns, attempt)) return t.top;
    return t.nodes.size === 0 ? undefined : t.nodes.get(nodeKey(ns, fan, branch, attempt));
  }

  /** Put `open`, the span of a top-level plain node attempt `e`, in the `top` slot. */
  #setTop(t: InvocationTrace, e: NodeAttempt, open: Open): void {
    if (t.top !== undefined) t.nodes.set(nodeKey(t.topNamespace, t.topFanOutChain, t.topBranchChain, t.topAttempt), t.top);
    t.top = open;
    t.topAttempt = e.attemptIndex;
    t.topNamespace = e.namespace;
    t.topFanOutChain = e.fanOutIndexChain;
    t.topBranchChain = e.branchNameChain;
  }

  #nodeStarted(t: InvocationTrace, e: NodeAttempt): void {
    // The SDK copies array attribute values (`sanitizeAttributes`), so the frozen namespace goes as is.
    const cross = this.#cross(t, t.augmented === true ? getInvocationMetadata() : t.info.metadata);
    const topPlain = e.namespace.length === 1 && e.fanOutConfig === undefined && e.parallelBranchesConfig === undefined;
    if (this.#attributesAfterStart && topPlain) {
      // The common case (a top-level plain node): the attributes go straight onto the span, in the
      // order the general path gives them, without building and walking an attributes object.
      const span = this.#startBare(e.nodeName, t.root.ctx, e.timestamp);
      span.setAttribute(Attr.nodeName, e.nodeName);
      span.setAttribute(Attr.namespace, e.namespace as string[]);
      span.setAttribute(Attr.step, e.step);
      span.setAttribute(Attr.attemptIndex, e.attemptIndex);
      span.setAttributes(cross);
      if (e.fanOutIndex !== undefined) span.setAttribute(Attr.fanOutIndex, e.fanOutIndex);
      if (e.branchName !== undefined) span.setAttribute(Attr.branchName, e.branchName);
      this.#setTop(t, e, new Open(span));
      return;
    }
    const k = nodeKey(e.namespace, e.fanOutIndexChain, e.branchNameChain, e.attemptIndex);
    const attrs: Attributes = {
      [Attr.nodeName]: e.nodeName,
      [Attr.namespace]: e.namespace as string[],
      [Attr.step]: e.step,
      [Attr.attemptIndex]: e.attemptIndex,
      ...cross,
    };
    if (e.fanOutIndex !== undefined) attrs[Attr.fanOutIndex] = e.fanOutIndex;
    if (e.branchName !== undefined) attrs[Attr.branchName] = e.branchName;
    const fo = e.fanOutConfig;
    if (fo) {
      attrs[Attr.fanOutItemCount] = fo.itemCount;
      attrs[Attr.fanOutConcurrency] = fo.concurrency ?? 0;
      attrs[Attr.fanOutErrorPolicy] = fo.errorPolicy;
    }
    const pb = e.parallelBranchesConfig;
    if (pb) {
      attrs[Attr.branchCount] = pb.branchCount;
      attrs[Attr.branchesErrorPolicy] = pb.errorPolicy;
      t.branchOrder.set(k, pb.branchNames);
    }
    if (e.branchName !== undefined) {
      // §5.7 / graph-engine §6: an inline-callable branch's synthetic node is the branch itself —
      // no span of its own; its attempt index goes on the dispatch span, which parents its calls.
      const d = e.namespace.length - 1;
      const run = t.runs.get(key(e.namespace.slice(0, d), e.fanOutIndexChain.slice(0, d), e.branchNameChain.slice(0, d)));
      if (run?.callable === true) {
        run.inner.span.setAttribute(Attr.attemptIndex, e.attemptIndex);
        t.nodes.set(k, new Open(run.inner.span, true));
        return;
      }
    }
    const parent = e.namespace.length === 1 ? t.root.ctx : this.#parentOf(t, e.namespace, e.fanOutIndexChain, e.branchNameChain);
    const open = this.#start(e.nodeName, parent, attrs, e.timestamp);
    if (topPlain) this.#setTop(t, e, open);
    else t.nodes.set(k, open);
  }

  #nodeEnded(t: InvocationTrace, e: NodeAttempt): void {
    let open: Open | undefined;
    if (isTop(t, e.namespace, e.attemptIndex)) {
      open = t.top!;
      t.top = undefined;
    } else {
      const k = nodeKey(e.namespace, e.fanOutIndexChain, e.branchNameChain, e.attemptIndex);
      open = t.nodes.get(k);
      if (!open) return;
      t.nodes.delete(k);
      if (t.heldBranches.size !== 0 || t.branchOrder.size !== 0) this.#closeHeldBranches(t, k, e.timestamp);
    }
    const span = open.span;
    if (e.phase === "suspended") {
      span.setAttribute(Attr.outcome, "suspended");
      const d = e.descriptor as { signalId?: unknown; metadata?: unknown } | undefined;
      if (typeof d?.signalId === "string") span.setAttribute(Attr.signalId, d.signalId);
      span.setAttributes(flattenSuspensionMetadata(d?.metadata));
      span.setStatus(OK);
    }
    // A borrowed dispatch span takes its status from its run's end (onChildRunEnd), and ends there.
    if (open.borrowed) return;
    if (e.phase !== "suspended") {
      if (e.error !== undefined) {
        span.setAttribute(Attr.errorCategory, e.error.category);
        setError(span, e.error);
      } else span.setStatus(OK);
    }
    span.end(hrTime(e.timestamp));
  }

  onChildRunStart(r: ChildRunInfo): void {
    this.#guard("onChildRunStart", () => {
      const t = this.#traces.get(r.invocationId);
      if (!t) return;
      const own = this.#node(t, r.namespace, r.fanOutIndexChain, r.branchNameChain, r.attemptIndex);
      const parent = own?.ctx ?? this.#parentOf(t, r.namespace, r.fanOutIndexChain, r.branchNameChain);
      const cross = this.#cross(t, r.metadata);
      let name = r.nodeName;
      const attrs: Attributes = { ...cross };
      if (r.fanOutIndex !== undefined) {
        attrs[Attr.fanOutIndex] = r.fanOutIndex;
        attrs[Attr.fanOutParentNodeName] = r.nodeName;
        attrs[Attr.subgraphName] = r.graphName;
      } else if (r.branchName !== undefined) {
        name = r.branchName;
        attrs[Attr.branchName] = r.branchName;
        attrs[Attr.branchesParentNodeName] = r.nodeName;
      } else {
        // A subgraph node emits no node events of its own: its span is the node span (§5.2, §5.3).
        attrs[Attr.nodeName] = r.nodeName;
        attrs[Attr.namespace] = [...r.namespace];
        attrs[Attr.step] = r.step;
        attrs[Attr.attemptIndex] = r.attemptIndex;
        attrs[Attr.subgraphName] = r.graphName;
      }
      // Inner node spans carry the innermost fan-out index / branch name; so do wrappers below them.
      const fi = lastNonNull(r.fanOutIndexChain);
      if (fi !== undefined && attrs[Attr.fanOutIndex] === undefined) attrs[Attr.fanOutIndex] = fi;
      const bn = lastNonNull(r.branchNameChain);
      if (bn !== undefined && attrs[Attr.branchName] === undefined) attrs[Attr.branchName] = bn;
      const runKey = key(r.namespace, r.childFanOutIndexChain, r.childBranchNameChain);
      const detachedFanOut = r.fanOutIndex !== undefined && this.#detachedFanOuts.has(r.nodeName);
      const detachedSubgraph =
        r.fanOutIndex === undefined && r.branchName === undefined &&
        (this.#detachedSubgraphs.has(r.nodeName) || this.#detachedSubgraphs.has(r.graphName));
      if (!detachedFanOut && !detachedSubgraph) {
        const inner = this.#start(name, parent, attrs, r.timestamp);
        t.runs.set(runKey, r.callableBranch === true ? { inner, callable: true } : { inner });
        return;
      }
      const rootAttrs = { ...invocationAttributes(r.invocationId, r.entryNode), ...cross };
      const detachedRoot = this.#start(INVOCATION_SPAN_NAME, null, rootAttrs, r.timestamp);
      const link: Link = { context: detachedRoot.span.spanContext() };
      if (detachedFanOut) {
        // The fan-out node span (parent trace) carries one link per instance trace.
        own?.span.addLink(link);
        t.runs.set(runKey, { inner: this.#start(name, detachedRoot.ctx, attrs, r.timestamp), detachedRoot });
      } else {
        const dispatch = this.#start(r.nodeName, parent, { [Attr.nodeName]: r.nodeName, [Attr.subgraphName]: r.graphName, ...cross }, r.timestamp, [link]);
        const inner = this.#start(r.graphName, detachedRoot.ctx, attrs, r.timestamp);
        t.runs.set(runKey, { inner, detachedRoot, dispatch });
      }
    });
  }

  onChildRunEnd(r: ChildRunInfo, end: { readonly error?: unknown; readonly timestamp: number }): void {
    this.#guard("onChildRunEnd", () => {
      const t = this.#traces.get(r.invocationId);
      if (!t) return;
      const runKey = key(r.namespace, r.childFanOutIndexChain, r.childBranchNameChain);
      const run = t.runs.get(runKey);
      if (!run) return;
      t.runs.delete(runKey);
      for (const o of [run.inner, run.detachedRoot, run.dispatch]) {
        if (!o) continue;
        if (end.error !== undefined) {
          o.span.setAttribute(Attr.errorCategory, categoryOf(end.error));
          setError(o.span, end.error);
        } else o.span.setStatus({ code: SpanStatusCode.OK });
      }
      const owner = nodeKey(r.namespace, r.fanOutIndexChain, r.branchNameChain, r.attemptIndex);
      if (r.branchName !== undefined && this.#node(t, r.namespace, r.fanOutIndexChain, r.branchNameChain, r.attemptIndex) !== undefined) {
        // §6 step 5: a dispatch span closes with its parallel-branches node, in declaration order.
        let held = t.heldBranches.get(owner);
        if (!held) t.heldBranches.set(owner, (held = new Map()));
        held.set(r.branchName, run);
        return;
      }
      endRun(run, end.timestamp);
    });
  }

  /** Close the dispatch spans held for the parallel-branches node `k`, in its declared branch order. */
  #closeHeldBranches(t: InvocationTrace, k: string, at: number): void {
    const held = t.heldBranches.get(k);
    const order = t.branchOrder.get(k) ?? [];
    t.branchOrder.delete(k);
    if (!held) return;
    t.heldBranches.delete(k);
    const names = [...order.filter((n) => held.has(n)), ...[...held.keys()].filter((n) => !order.includes(n))];
    for (const n of names) endRun(held.get(n)!, at);
  }

  /**
   * §3.4 / §6: apply an augmentation to the open spans of the augmenting context and its
   * call-stack ancestors — the calling node's span, every wrapper / instance / branch span on its
   * path, the invocation span only when no fan-out instance or branch is on the path — never a
   * fan-out or parallel-branches node span (shared parents) nor a sibling's spans.
   */
  onMetadataAugmented(a: MetadataAugmentation): void {
    this.#guard("onMetadataAugmented", () => {
      const t = this.#traces.get(a.invocationId);
      if (!t) return;
      t.augmented = true;
      const attrs = userAttributes(a.added);
      const ns = a.namespace;
      if (ns === undefined) return;
      this.#node(t, ns, a.fanOutIndexChain, a.branchNameChain, a.attemptIndex)?.span.setAttributes(attrs);
      for (let d = ns.length - 1; d >= 1; d--) {
        const run = t.runs.get(key(ns.slice(0, d), a.fanOutIndexChain.slice(0, d), a.branchNameChain.slice(0, d)));
        if (!run) continue;
        run.inner.span.setAttributes(attrs);
        run.detachedRoot?.span.setAttributes(attrs);
        run.dispatch?.span.setAttributes(attrs);
      }
      const forked = a.fanOutIndexChain.some((x) => x !== null) || a.branchNameChain.some((x) => x !== null);
      if (!forked) t.root.span.setAttributes(attrs);
    });
  }

  /**
   * A typed event (graph-engine §6 typed variants), handed over inline as it is emitted: the LLM
   * provider spans (§5.5, one per wire attempt, unless `disableLlmSpans`), the tool-execution
   * spans (§5.5.11), the embedding / rerank spans (§5.5.8, §5.5.13) and, with `enableMetrics`, the
   * §11 measurements. Token events are not rendered (§5.5.7).
   */
  onTypedEvent(e: ObserverEvent): void {
    this.#guard("onTypedEvent", () => {
      this.#metrics?.record(e);
      const t = this.#traces.get(e.invocationId);
      if (!t) return;
      // Handed over inline, in the emitting code's async context: a call from the node's middleware
      // (not its body) is orphaned from the node span even while that span is open (post phase).
      if (e.kind === "llm_completion" || e.kind === "llm_failed") {
        if (!this.#disableLlmSpans) renderLlmSpans(this.#tracer, e, this.#eventParent(t, e, inNodeBody()), this.#cross(t, e.invocationMetadata), this.#providerFlags);
      } else if (e.kind === "tool_call" || e.kind === "tool_call_failed") {
        renderToolSpan(this.#tracer, e, this.#eventParent(t, e, inNodeBody()), this.#cross(t, e.invocationMetadata), this.#providerFlags);
      } else if (isRetrievalEvent(e)) {
        renderRetrievalSpan(this.#tracer, e, this.#eventParent(t, e, inNodeBody()), this.#cross(t, e.invocationMetadata), this.#providerFlags);
      }
    });
  }

  /**
   * §5.5 *Lineage-resolved parent*: the calling node's open span, identified by the full lineage
   * chains and attempt, for a call from the node's body; else (a call from middleware — `fromBody`
   * false — or a wrapper, or the node span is not open) the nearest open wrapper span.
   */
  #eventParent(t: InvocationTrace, e: EventLineage, fromBody = true): Context {
    const node = fromBody ? this.#node(t, e.namespace, e.fanOutIndexChain, e.branchNameChain, e.attemptIndex) : undefined;
    return node?.ctx ?? this.#parentOf(t, e.namespace, e.fanOutIndexChain, e.branchNameChain);
  }

  /**
   * §4.6 / harness §8.4: the turn-level wrapper span `openarmature.turn` around `body` (a harness
   * turn's `invoke()`); the invocation `body` starts is its child. Attributes: `openarmature.session_id`
   * (sessioned turns, §5.6), `openarmature.suspension.signal_id` and `openarmature.suspension.metadata.*`
   * (signal-resume turns, §5.8), `openarmature.harness.mode` / `.path` / `.resumed_invocation_id`, and
   * at the end `openarmature.outcome`, `openarmature.invocation_id`, and on an errored turn
   * `openarmature.error.category` / `openarmature.harness.error_bucket` with an ERROR status.
   * The harness calls it when the observer is attached (`TurnHarness`'s `turnSpans`, or the hooks).
   */
  async runInTurnSpan<T>(start: TurnSpanStart, body: () => Promise<T>, end: (result: T) => TurnSpanEnd): Promise<T> {
    const attrs: Attributes = { "openarmature.harness.mode": start.mode, "openarmature.harness.path": start.path };
    if (start.sessionId !== undefined) attrs[Attr.sessionId] = start.sessionId;
    if (start.resumedInvocationId !== undefined) attrs["openarmature.harness.resumed_invocation_id"] = start.resumedInvocationId;
    if (start.signal !== undefined) {
      attrs[Attr.signalId] = start.signal.signalId;
      Object.assign(attrs, flattenSuspensionMetadata(start.signal.metadata ?? {}));
    }
    const open = this.#start(TURN_SPAN_NAME, null, attrs, performance.timeOrigin + performance.now());
    let result: T;
    try {
      result = await this.#turn.run({ ctx: open.ctx, used: false }, body);
    } catch (e) {
      this.#guard("runInTurnSpan", () => {
        setError(open.span, e);
        open.span.end(performance.timeOrigin + performance.now());
      });
      throw e;
    }
    this.#guard("runInTurnSpan", () => {
      const e = end(result);
      open.span.setAttribute(Attr.outcome, e.outcome);
      if (e.invocationId !== undefined) open.span.setAttribute(Attr.invocationId, e.invocationId);
      if (e.outcome === "errored") {
        if (e.errorCategory != null) open.span.setAttribute(Attr.errorCategory, e.errorCategory);
        if (e.errorBucket !== undefined) open.span.setAttribute("openarmature.harness.error_bucket", e.errorBucket);
        open.span.setStatus({ code: SpanStatusCode.ERROR, message: e.errorCategory ?? e.errorBucket ?? "errored" });
      } else open.span.setStatus({ code: SpanStatusCode.OK });
      open.span.end(performance.timeOrigin + performance.now());
    });
    return result;
  }

  /**
   * The OTel context whose span is the innermost open openarmature span of the code calling this
   * (the running node's span, inside a node), or `undefined` outside an invocation this observer
   * traces. Pass it as the parent of your own spans, or to a logger (§7).
   */
  activeContext(): Context | undefined {
    const ctx = currentNodeContext();
    if (!ctx) return undefined;
    const t = this.#traces.get(ctx.invocationId);
    return t ? this.#eventParent(t, ctx) : undefined;
  }

  /** The span of {@link activeContext}. */
  activeSpan(): Span | undefined {
    const c = this.activeContext();
    return c ? trace.getSpan(c) : undefined;
  }
}

/** Whether the `top` slot holds the span of the node at `ns` (a top-level one), attempt `attempt`. */
function isTop(t: InvocationTrace, ns: readonly string[], attempt: number): boolean {
  return t.top !== undefined && ns.length === 1 && t.topNamespace[0] === ns[0] && t.topAttempt === attempt;
}

function lastNonNull<T>(chain: readonly (T | null)[]): T | undefined {
  for (let i = chain.length - 1; i >= 0; i--) if (chain[i] !== null) return chain[i] as T;
  return undefined;
}

function setError(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: categoryOf(error) });
  span.recordException(toError(error));
}

function endRun(r: RunSpans, at: number): void {
  r.inner.span.end(at);
  r.detachedRoot?.span.end(at);
  r.dispatch?.span.end(at);
}
