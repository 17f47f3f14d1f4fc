import { directive } from "../../src/conformance/registry.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/** `outputs:` beside `subgraph:` (graph-engine §2 subgraph projection): parent field → subgraph field merged out at exit. */
@directive({ name: "outputs", at: "node", home: "general", summary: "parent field → subgraph field merged out at exit" })
export class Outputs {
  readonly schema = { type: "object", additionalProperties: { type: "string" } };
  contribute(value: never, node: NodeAssembly, _env: unknown, at: KeyPath): void {
    node.projection.outputs = value;
    node.projectionKeys.push({ key: "outputs", path: at });
  }
}
