/**
 * What resume needs to know about a compiled graph's topology (pipeline-utilities §10.4 step 5),
 * read through the engine's public introspection: {@link CompiledGraph.node} (node kinds and their
 * child graphs), {@link CompiledGraph.routeAfter} (a completed node's outgoing edge, evaluated as a
 * live run would) and {@link CompiledGraph.mergeUpdate} (a partial update through the graph's
 * reducers).
 */
import type { CompiledGraph, NodeContext, NodeExecutionContext, StateRecord } from "../graph/index.ts";

type AnyGraph = CompiledGraph<StateRecord, unknown>;

/**
 * The graph a node runs as its (single) child — a subgraph node, or a composite declaring exactly
 * one subgraph — else undefined.
 */
export function childGraphOf(g: AnyGraph, name: string): AnyGraph | undefined {
  const sub = g.node(name)?.kind.subgraphs;
  return sub !== undefined && sub.length === 1 ? sub[0] : undefined;
}

/**
 * Finish subgraph node `nodeName` of `parent` whose child graph already ended with `childFinal`:
 * run the node kind's own projection-out (its `run`, handed a `runSubgraph` that returns the
 * finished child state) and merge the result into `parentState` through the parent's reducers —
 * exactly what the engine does when a subgraph returns. Returns undefined when the node is not a
 * plain subgraph node (other composites re-run).
 */
export async function completeSubgraphNode(
  parent: AnyGraph,
  nodeName: string,
  parentState: Readonly<StateRecord>,
  childFinal: Readonly<StateRecord>,
  ctx: NodeContext,
): Promise<Readonly<StateRecord> | undefined> {
  const kind = parent.node(nodeName)?.kind;
  if (!kind || kind.kind !== "subgraph") return undefined;
  const execCtx: NodeExecutionContext<StateRecord> = {
    ...ctx,
    emit: ctx.emit,
    drainEventsFor: ctx.drainEventsFor,
    state: parentState,
    schema: parent.schema,
    runSubgraph: <T extends StateRecord>() => Promise.resolve(childFinal as Readonly<T>),
    suppressCompletedEvent: () => {},
  };
  const update = (await kind.run(parentState, execCtx)) ?? {};
  return parent.mergeUpdate(parentState, update as Readonly<Record<string, unknown>>, {
    nodeName: ctx.nodeName,
    namespace: ctx.namespace,
    parentStates: ctx.parentStates,
  });
}
