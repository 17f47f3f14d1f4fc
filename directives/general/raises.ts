import { directive } from "../../src/conformance/registry.ts";
import type { JsonSchema } from "../../src/conformance/directive.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";

/** The exception a `raises:` node throws. */
export class FixtureNodeError extends Error {
  override name = "FixtureNodeError";
}

/** `raises: "<message>"` (conformance-adapter §5.1): the node raises instead of returning (graph-engine §4). */
@directive({ name: "raises", at: "node", home: "general", summary: "raise an exception with this message" })
export class Raises {
  readonly schema: JsonSchema = { type: "string" };
  contribute(value: string, node: NodeAssembly): void {
    node.steps.push(() => {
      throw new FixtureNodeError(value);
    });
  }
}
