/**
 * Subgraph-as-node (graph-engine §2 *Subgraph*): a compiled graph used as a node. It runs inside
 * the same invocation (shared step counter and event queue; events from inside carry the chained
 * namespace and `parent_states`), against its own schema, and its projected-out values merge into
 * the parent through the parent's reducers. The wrapper itself produces no node events.
 *
 * Built on the public {@link NodeKind} seam — the same one fan-out and parallel branches use.
 */
import { INTERNALS, type GraphRuntime } from "./internals.ts";
import type { CompiledGraph } from "./compiled-graph.ts";
import type { NodeCompileContext, NodeExecutionContext, NodeKind } from "./extension.ts";
import { projectIn, projectOut, resolveProjection, type ResolvedProjection, type SubgraphProjection } from "./projection.ts";
import type { StateRecord } from "./state-types.ts";

/** The node kind behind `GraphBuilder.addSubgraph` / {@link subgraphNode}. */
export class SubgraphNode implements NodeKind<StateRecord, StateRecord> {
  readonly kind = "subgraph";
  readonly emitsEvents = false;
  readonly graph: CompiledGraph<StateRecord, unknown>;
  readonly projection: SubgraphProjection;
  readonly subgraphs: readonly CompiledGraph<StateRecord, unknown>[];
  /** Resolved per parent schema (a node kind instance may be added to several graphs). */
  #resolved = new Map<object, ResolvedProjection>();

  constructor(graph: CompiledGraph<StateRecord, unknown>, projection: SubgraphProjection = {}) {
    if (!(graph as unknown as { [INTERNALS]?: GraphRuntime })[INTERNALS]) {
      throw new TypeError("a subgraph must be a CompiledGraph (call .compile() on its builder)");
    }
    this.graph = graph;
    this.projection = Object.freeze({ ...projection });
    this.subgraphs = [graph];
  }

  validate(ctx: NodeCompileContext): void {
    const rt = (this.graph as unknown as { [INTERNALS]: GraphRuntime })[INTERNALS];
    const r = resolveProjection(this.projection, ctx.schema, rt.schema, ctx);
    if (r) this.#resolved.set(ctx.schema, r);
  }

  async run(state: Readonly<StateRecord>, ctx: NodeExecutionContext<StateRecord>): Promise<StateRecord> {
    const p = this.#resolved.get(ctx.schema)!;
    const final = await ctx.runSubgraph(this.graph, projectIn(p, state));
    return projectOut(p, final);
  }
}

/** A subgraph-as-node with an optional projection (for `GraphBuilder.addNode(name, subgraphNode(g, ...))`). */
export function subgraphNode<T extends StateRecord>(
  graph: CompiledGraph<T, unknown>,
  projection?: SubgraphProjection,
): NodeKind<StateRecord, StateRecord> {
  return new SubgraphNode(graph as unknown as CompiledGraph<StateRecord, unknown>, projection);
}
