import { directive } from "../../src/conformance/registry.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";

/**
 * `update:` (conformance-adapter §5.1): the node returns this partial update; each field merges
 * through its declared reducer (graph-engine §2, §3).
 */
@directive({ name: "update", at: "node", home: "general", summary: "return a constant partial update" })
export class Update {
  readonly schema = { type: "object" };
  contribute(value: Record<string, unknown>, node: NodeAssembly): void {
    node.steps.push(() => structuredClone(value));
  }
}
