import { directive } from "../../src/conformance/registry.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/** `projects_in:` beside `subgraph:` (graph-engine §2 subgraph projection): declared same-name in-set. */
@directive({ name: "projects_in", at: "node", home: "general", summary: "declared same-name in-set" })
export class ProjectsIn {
  readonly schema = { type: "array", items: { type: "string" } };
  contribute(value: never, node: NodeAssembly, _env: unknown, at: KeyPath): void {
    node.projection.projectsIn = value;
    node.projectionKeys.push({ key: "projects_in", path: at });
  }
}
