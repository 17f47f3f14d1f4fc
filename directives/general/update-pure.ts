import { directive } from "../../src/conformance/registry.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";

/** `update_pure:` (conformance-adapter §5.1): as `update`, the literal mapping returned verbatim. */
@directive({ name: "update_pure", at: "node", home: "general", summary: "return a literal partial update verbatim" })
export class UpdatePure {
  readonly schema = { type: "object" };
  contribute(value: Record<string, unknown>, node: NodeAssembly): void {
    node.steps.push(() => structuredClone(value));
  }
}
