import { directive } from "../../src/conformance/registry.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

/** `projects_out:` beside `subgraph:` (graph-engine §2 subgraph projection): declared same-name out-set. */
@directive({ name: "projects_out", at: "node", home: "general", summary: "declared same-name out-set" })
export class ProjectsOut {
  readonly schema = { type: "array", items: { type: "string" } };
  contribute(value: never, node: NodeAssembly, _env: unknown, at: KeyPath): void {
    node.projection.projectsOut = value;
    node.projectionKeys.push({ key: "projects_out", path: at });
  }
}
