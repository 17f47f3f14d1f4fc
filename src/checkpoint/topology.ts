/**
 * What resume needs to know about a compiled graph's topology (pipeline-utilities §10.4 step 5)
 * that the engine's public surface does not expose yet.
 *
 * **Engine bridge.** To resume *after* a completed node, the node's outgoing edge is evaluated
 * against the restored state (graph-engine §5 makes edges deterministic), and — when that node
 * was the last of a subgraph — the subgraph node's projection-out is merged into its parent.
 * `CompiledGraph` exposes node names and kind names but not edges, node kinds or the effective
 * reducers, so this module (and only this module) reads the engine's `@internal` runtime
 * (`src/graph/internals.ts`). It goes away once the engine grows a public "start after node X"
 * (`StartPosition.after`) or puts the routed destination on completed events.
 */
import {
  END,
  EdgeException,
  ReducerError,
  RoutingError,
  StateValidationError,
  lastWriteWins,
  reducerNameOf,
  type CompiledGraph,
  type ErrorLocation,
  type NodeContext,
  type NodeExecutionContext,
  type NodeKind,
  type RouteTarget,
  type StateRecord,
  type StateSchema,
  type ValidationIssue,
} from "../graph/index.ts";
import { INTERNALS, type GraphRuntime } from "../graph/internals.ts";

type AnyGraph = CompiledGraph<StateRecord, unknown>;

function runtime(g: AnyGraph): GraphRuntime {
  return (g as unknown as { [INTERNALS]: GraphRuntime })[INTERNALS];
}

/** The node kind of `name` in `g` (undefined when `g` has no such node). */
export function nodeKindOf(g: AnyGraph, name: string): NodeKind<StateRecord, StateRecord> | undefined {
  return runtime(g).nodes.get(name)?.kind;
}

/**
 * The graph a node runs as its (single) child — a subgraph node, or a composite declaring exactly
 * one subgraph — else undefined.
 */
export function childGraphOf(g: AnyGraph, name: string): AnyGraph | undefined {
  const sub = nodeKindOf(g, name)?.subgraphs;
  return sub !== undefined && sub.length === 1 ? sub[0] : undefined;
}

function loc(ctx: NodeContext, state: Readonly<StateRecord>): ErrorLocation {
  return { nodeName: ctx.nodeName, namespace: ctx.namespace, state, parentStates: ctx.parentStates };
}

/**
 * Where the engine goes after `nodeName` completed with post-state `state`: its static target, or
 * its conditional edge evaluated now (an edge failure is `edge_exception`, a bad destination
 * `routing_error`, as in a live run).
 */
export async function routeAfter(g: AnyGraph, nodeName: string, state: Readonly<StateRecord>, ctx: NodeContext): Promise<RouteTarget> {
  const rt = runtime(g);
  const node = rt.nodes.get(nodeName);
  if (!node) throw new RangeError(`graph "${rt.name}" has no node "${nodeName}"`);
  const edge = node.edge;
  if (edge.kind === "static") return edge.to;
  let r: unknown;
  try {
    r = await edge.fn(state, ctx);
  } catch (cause) {
    throw new EdgeException(cause, loc(ctx, state));
  }
  if (r === END || (typeof r === "string" && rt.nodes.has(r))) {
    if (edge.targets === null || edge.targets.has(r as RouteTarget)) return r as RouteTarget;
  }
  throw new RoutingError(
    `conditional edge from "${nodeName}" returned ${typeof r === "string" ? JSON.stringify(r) : String(r)}, ` +
      `which is not a declared node, END, or one of its declared targets`,
    r,
    loc(ctx, state),
  );
}

/**
 * Finish subgraph node `nodeName` of `parent` whose child graph already ended with `childFinal`:
 * run the node's own projection-out and merge it into `parentState` through the parent's
 * reducers, validating the changed fields — exactly what the engine does when a subgraph returns.
 * Returns undefined when the node is not a plain subgraph node (other composites re-run).
 */
export async function completeSubgraphNode(
  parent: AnyGraph,
  nodeName: string,
  parentState: Readonly<StateRecord>,
  childFinal: Readonly<StateRecord>,
  ctx: NodeContext,
): Promise<Readonly<StateRecord> | undefined> {
  const rt = runtime(parent);
  const kind = rt.nodes.get(nodeName)?.kind;
  if (!kind || kind.kind !== "subgraph") return undefined;
  const execCtx: NodeExecutionContext<StateRecord> = {
    ...ctx,
    emit: ctx.emit,
    drainEventsFor: ctx.drainEventsFor,
    state: parentState,
    schema: rt.schema,
    runSubgraph: <T extends StateRecord>() => Promise.resolve(childFinal as Readonly<T>),
    suppressCompletedEvent: () => {},
  };
  const update = (await kind.run(parentState, execCtx)) ?? {};
  return merge(rt.schema, (f) => rt.reducers.get(f), parentState, update, ctx);
}

function merge(
  schema: StateSchema<StateRecord, unknown>,
  reducerOf: (field: string) => ((prior: unknown, update: unknown) => unknown) | undefined,
  prior: Readonly<StateRecord>,
  update: Readonly<StateRecord>,
  ctx: NodeContext,
): Readonly<StateRecord> {
  const next: Record<string, unknown> = { ...prior };
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(update)) {
    const value = update[key];
    if (value === undefined) continue;
    const reducer = reducerOf(key) ?? lastWriteWins;
    let merged: unknown = value;
    if (reducer !== lastWriteWins) {
      try {
        merged = reducer(prior[key], value);
      } catch (cause) {
        throw new ReducerError(key, reducerNameOf(reducer as Parameters<typeof reducerNameOf>[0]), cause, loc(ctx, prior));
      }
      if (typeof merged === "object" && merged !== null) Object.freeze(merged);
    }
    next[key] = merged;
    issues.push(...schema.validateField(key, merged));
  }
  Object.freeze(next);
  if (issues.length) {
    throw new StateValidationError(issues, { ...loc(ctx, prior), invalidState: next, boundary: `merge of node "${ctx.nodeName}"` });
  }
  return next;
}
