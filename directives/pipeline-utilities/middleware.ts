import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { Middleware } from "../../src/graph/index.ts";
import { GraphCaseHooksSlot } from "../../harness/graph/extensions.ts";
import { graphSpecOf } from "../../harness/graph/graph-spec.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { buildMiddleware, MIDDLEWARE_ENTRY_SCHEMA, type MiddlewareEntry, type MiddlewareEnv } from "../../harness/pipeline/middleware-factory.ts";

interface MiddlewareValue {
  per_graph?: MiddlewareEntry[];
  per_node?: Record<string, MiddlewareEntry[]>;
}

/**
 * `middleware: {per_graph: [...], per_node: {<node>: [...]}}` (pipeline-utilities note, fixture
 * 001): per-graph and per-node middleware of the graph the block belongs to (the case's graph, or
 * a subgraph body's — §4 locality), each list outer to inner; per-graph composes outside per-node
 * (§3). Entries are built by the harness middleware factory into real middleware registered with
 * the engine (`GraphBuilder.use`, `addNode(..., {middleware})`).
 */
@directive({ name: "middleware", at: ["case", "subgraph"], home: "pipeline-utilities", summary: "per-graph / per-node middleware" })
export class MiddlewareBlock {
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: false,
    properties: {
      per_graph: { type: "array", items: MIDDLEWARE_ENTRY_SCHEMA },
      per_node: { type: "object", additionalProperties: { type: "array", items: MIDDLEWARE_ENTRY_SCHEMA } },
    },
  };
  configure(value: MiddlewareValue, ctx: ConfigureContext): void {
    const spec = graphSpecOf(ctx);
    const sub = ctx.plan.kind === "subgraph";
    const graph = spec.name;
    const hooks = ctx.slot(GraphCaseHooksSlot);
    const pc = pipelineCase((k) => ctx.slot(k));
    const env: MiddlewareEnv = { call: () => pc.call(), clock: pc.clock, locate: ctx.locate, configs: pc.configs };
    const at = ctx.self.path;
    if (value.per_graph) {
      const mws = value.per_graph.map((e, index) => buildMiddleware(e, { graph, node: null, scope: "per_graph", index }, env, [...at, "per_graph", index]));
      if (sub) hooks.subgraphMiddleware.set(graph, [...(hooks.subgraphMiddleware.get(graph) ?? []), ...mws]);
      else hooks.graphMiddleware.push(...mws);
    }
    for (const [node, entries] of Object.entries(value.per_node ?? {})) {
      const mws: Middleware[] = entries.map((e, index) => buildMiddleware(e, { graph, node, scope: "per_node", index }, env, [...at, "per_node", node, index]));
      const key = sub ? `${graph}/${node}` : node;
      hooks.nodeMiddleware.set(key, [...(hooks.nodeMiddleware.get(key) ?? []), ...mws]);
    }
    // A per_node entry naming no node of the graph would wrap nothing (a vacuous case): reject it
    // once the graph is built and its nodes are known.
    hooks.beforeCalls.push(() => {
      const names = new Set(spec.nodes.map((n) => n.name));
      for (const node of Object.keys(value.per_node ?? {})) {
        if (!names.has(node)) throw new FixtureSchemaInvalid(`middleware.per_node names '${node}', which is not a node of graph '${graph}'`, ctx.locate([...at, "per_node", node]));
      }
    });
  }
}
