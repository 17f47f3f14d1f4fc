import { directive } from "../../src/conformance/registry.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { buildMiddleware, MIDDLEWARE_ENTRY_SCHEMA, type MiddlewareEntry } from "../../harness/pipeline/middleware-factory.ts";

/**
 * `nodes.<node>.middleware: [...]` (pipeline-utilities, fixture 066): the node's own middleware
 * list, outer to inner, registered at the node's registration site (§3 per-node) inside any
 * case-level `middleware.per_node` entries for it. Entries are those of the `middleware:` block.
 */
@directive({ name: "middleware", at: "node", home: "pipeline-utilities", summary: "the node's own middleware" })
export class NodeMiddleware {
  readonly schema = { type: "array", minItems: 1, items: MIDDLEWARE_ENTRY_SCHEMA };
  contribute(value: MiddlewareEntry[], node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const pc = pipelineCase((k) => env.slot(k));
    const menv = { call: () => env.currentCall().observation, clock: pc.clock, locate: env.locate, configs: pc.configs };
    for (const [index, entry] of value.entries()) {
      node.middleware.push(buildMiddleware(entry, { graph: env.graphName, node: node.name, scope: "node", index }, menv, [...at, index]));
    }
  }
}
