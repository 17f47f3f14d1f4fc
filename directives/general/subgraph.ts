import { directive } from "../../src/conformance/registry.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { subgraphNode } from "../../src/graph/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/**
 * `subgraph: <name>` on a node (conformance-adapter §5.4): the node runs the named declared
 * subgraph (graph-engine §2 *Subgraph*), projected by default field-name matching unless
 * `inputs` / `outputs` or `projects_in` / `projects_out` say otherwise.
 */
@directive({ name: "subgraph", at: "node", home: "general", summary: "run a declared subgraph as this node" })
export class Subgraph {
  readonly schema = { type: "string", minLength: 1 };
  contribute(value: string, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    if (node.kind) throw new FixtureSchemaInvalid(`node '${node.name}' already is a '${node.kind.directive}' node`, env.locate(at));
    const graph = env.subgraph(value, at, node.name);
    node.kind = { directive: "subgraph", path: at, make: (projection) => subgraphNode(graph, projection) };
  }
}
