/**
 * The graph specification a case (or a subgraph body) accumulates from its directives: `state`,
 * `entry`, `nodes`, `edges` each fill one part; the executor builds the engine graph from it.
 */
import { SlotKey, type ConfigureContext, type Resolved } from "../../src/conformance/directive.ts";
import type { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

export interface EdgeSpec {
  readonly from: string;
  readonly path: KeyPath;
  readonly to?: string;
  readonly condition?: Readonly<Record<string, unknown>>;
}

export interface NodeSpec {
  readonly name: string;
  readonly path: KeyPath;
  /** The node's directives, in document order (§8.3 Directive execution order). */
  readonly directives: ReadonlyArray<Resolved>;
}

export class GraphSpec {
  state: { value: Readonly<Record<string, unknown>>; path: KeyPath } | undefined;
  entry: { value: string; path: KeyPath } | undefined;
  nodes: NodeSpec[] = [];
  edges: EdgeSpec[] = [];
  /** Where the spec lives (the case, or a subgraph declaration). */
  constructor(readonly path: KeyPath, readonly name: string) {}
}

/** The case's own graph. */
export const CaseGraph = new SlotKey<GraphSpec>("case graph", () => new GraphSpec([], "graph"));

const GRAPH_SPEC = "graph_spec";

/** A plan that configures a subgraph body (its spec travels in the plan). */
export function subgraphPlanSpec(plan: InvocationPlan, spec: GraphSpec): void {
  plan.setInput(GRAPH_SPEC, spec);
}

/** The graph spec a graph-part directive writes to: a subgraph body's, else the case's. */
export function graphSpecOf(ctx: ConfigureContext): GraphSpec {
  const sub = ctx.plan.input<GraphSpec>(GRAPH_SPEC);
  return sub ?? ctx.slot(CaseGraph);
}
