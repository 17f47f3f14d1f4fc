/**
 * Resolving a node's outgoing edge (graph-engine §3 step 4, §4 `edge_exception` / `routing_error`):
 * a static edge's target, or the conditional edge function evaluated against the post-update
 * state and checked against the graph's nodes and the edge's declared targets. One implementation
 * serves the execution loop and the public {@link CompiledGraph.routeAfter}.
 */
import { END, formatTarget, type RouteTarget } from "./end.ts";
import { EdgeException, RoutingError, type ErrorLocation } from "./errors.ts";
import type { NodeContext } from "./extension.ts";
import type { CompiledEdge, CompiledNode, GraphRuntime } from "./internals.ts";
import type { StateRecord } from "./state-types.ts";

type State = Readonly<StateRecord>;

/** @internal Where an error raised about `state` is located (the engine's dispatch context is one). */
export interface Locator {
  locate(state: State): ErrorLocation;
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";
}

function checkTarget(
  rt: Pick<GraphRuntime, "nodes">,
  node: CompiledNode,
  edge: CompiledEdge & { kind: "conditional" },
  r: unknown,
  post: State,
  where: Locator,
): RouteTarget {
  if (r === END || (typeof r === "string" && rt.nodes.has(r))) {
    if (edge.targets === null || edge.targets.has(r as RouteTarget)) return r as RouteTarget;
    throw new RoutingError(
      `conditional edge from "${node.name}" returned ${formatTarget(r)}, which is not among its declared targets`,
      r,
      where.locate(post),
    );
  }
  const hint = r === "END" ? " (use the END sentinel, not the string \"END\")" : "";
  throw new RoutingError(
    `conditional edge from "${node.name}" returned ${formatTarget(r)}, which is neither a declared node nor END${hint}`,
    r,
    where.locate(post),
  );
}

/**
 * @internal Where the engine goes after `node` completed with post-state `post`. Synchronous for a
 * static edge or a synchronous edge function. Throws (or rejects with) an unowned `edge_exception`
 * when the edge function raises, `routing_error` for a destination that is not a declared node,
 * END, or one of the edge's declared targets; `where` locates the error.
 */
export function resolveEdge(
  rt: Pick<GraphRuntime, "nodes">,
  node: CompiledNode,
  post: State,
  ctx: NodeContext,
  where: Locator,
): RouteTarget | PromiseLike<RouteTarget> {
  const edge = node.edge;
  if (edge.kind === "static") return edge.to;
  let r: unknown;
  try {
    r = edge.fn(post, ctx);
  } catch (cause) {
    throw new EdgeException(cause, where.locate(post));
  }
  if (isThenable(r)) {
    return Promise.resolve(r).then(
      (v) => checkTarget(rt, node, edge, v, post, where),
      (cause: unknown) => {
        throw new EdgeException(cause, where.locate(post));
      },
    );
  }
  return checkTarget(rt, node, edge, r, post, where);
}
