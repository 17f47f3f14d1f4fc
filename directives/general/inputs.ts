import { directive } from "../../src/conformance/registry.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/** `inputs:` beside `subgraph:` (graph-engine §2 subgraph projection): subgraph field → parent field copied in at entry. */
@directive({ name: "inputs", at: "node", home: "general", summary: "subgraph field → parent field copied in at entry" })
export class Inputs {
  readonly schema = { type: "object", additionalProperties: { type: "string" } };
  contribute(value: never, node: NodeAssembly, _env: unknown, at: KeyPath): void {
    node.projection.inputs = value;
    node.projectionKeys.push({ key: "inputs", path: at });
  }
}
