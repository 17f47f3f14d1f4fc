/**
 * Extension points of the graph executor, for capability bundles (pipeline middleware,
 * checkpointing, sessions, suspension) that change how a graph case is built or called, without
 * editing the executor. Directives fill the case's `GraphCaseHooks` slot in `configure()`.
 */
import { SlotKey } from "../../src/conformance/directive.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { CompiledGraph, InvocationHooks, InvocationResult, InvokeOptions, Middleware } from "../../src/graph/index.ts";

/** One call about to be made. */
export interface CallContext {
  readonly plan: InvocationPlan;
  /** Index of the call in the case (0-based). */
  readonly index: number;
  readonly graph: CompiledGraph;
  /** The initial state the plan (or the case) gives. */
  readonly initialState: Readonly<Record<string, unknown>>;
  /** The invoke options the executor built (observers, error channel, merged hooks). */
  readonly options: InvokeOptions;
  /** Observations of the calls made before this one, in order. */
  readonly previous: readonly Observation[];
  /** This call's observation: runners and hooks may add facets. */
  readonly observation: Observation;
}

/** Makes the call: by default `graph.invoke(initialState, options)`. */
export type CallRunner = (ctx: CallContext) => Promise<InvocationResult>;

export interface GraphCaseHooks {
  /** Per-graph middleware for the outermost graph, outer to inner (pipeline-utilities §3). */
  readonly graphMiddleware: Middleware[];
  /** Per-graph middleware of a declared subgraph, by subgraph name, outer to inner (§3, §4). */
  readonly subgraphMiddleware: Map<string, Middleware[]>;
  /**
   * Per-node middleware declared at case level, by node name, outer to inner; applied outside the
   * node's own (node-directive) middleware. Keyed `<graph>/<node>` for a subgraph's node, plain
   * `<node>` for the outermost graph.
   */
  readonly nodeMiddleware: Map<string, Middleware[]>;
  /** Engine hooks for every call (e.g. a checkpointer's save on each completed event). */
  readonly invocationHooks: InvocationHooks[];
  /** Extra invoke options per call (ids, metadata, ...). */
  readonly invokeOptions: Array<(ctx: Omit<CallContext, "options">) => Partial<InvokeOptions>>;
  /** Work before the first call, after the graph compiled (seed backends, pre-runs). */
  readonly beforeCalls: Array<(graph: CompiledGraph) => Promise<void> | void>;
  /** Work right before each call is made (e.g. bind per-call recorders to the call's observation). */
  readonly beforeCall: Array<(ctx: CallContext) => Promise<void> | void>;
  /** Work after each call, once delivery completed (read backends into facets). */
  readonly afterCall: Array<(ctx: CallContext, result: InvocationResult | Error) => Promise<void> | void>;
  /** The case-wide runner, if a bundle replaces plain invoke (a plan's own runner wins). */
  runner: CallRunner | undefined;
  /**
   * A directive asserts an `invoke()` API-boundary rejection: an uncategorized error `invoke()`
   * raises before any invocation exists (it carries no `invocationId`) is then the call's outcome,
   * recorded as `F.BoundaryRejection`, instead of an adapter defect.
   */
  acceptBoundaryRejection: boolean;
  /** Subgraph declarations a directive adds beside the §5.4 sites (name → body and its path). */
  readonly extraSubgraphs: Map<string, { readonly body: Readonly<Record<string, unknown>>; readonly path: KeyPath }>;
  /**
   * Per-call plan inputs (drain, caller ids, caller metadata, ...) whose case-level value is the
   * default of every `invocations:` entry that does not set its own, as `initial_state` is (§5.7).
   */
  readonly invocationDefaults: Set<string>;
}

export const GraphCaseHooksSlot = new SlotKey<GraphCaseHooks>("graph case hooks", () => ({
  graphMiddleware: [],
  subgraphMiddleware: new Map(),
  nodeMiddleware: new Map(),
  invocationHooks: [],
  invokeOptions: [],
  beforeCalls: [],
  beforeCall: [],
  afterCall: [],
  runner: undefined,
  acceptBoundaryRejection: false,
  extraSubgraphs: new Map(),
  invocationDefaults: new Set(),
}));

/** Plan input: a runner for that plan's call alone (e.g. a resume). */
export const CALL_RUNNER = "call_runner";
