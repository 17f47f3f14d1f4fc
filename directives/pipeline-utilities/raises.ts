import { directive } from "../../src/conformance/registry.ts";
import type { JsonSchema } from "../../src/conformance/directive.ts";
import type { NodeAssembly } from "../../harness/graph/node-directive.ts";
import { FixtureNodeError, Raises } from "../general/raises.ts";

/**
 * `raises:` (conformance-adapter §5.1), refined by the pipeline-utilities fixtures (063) with a
 * mapping form `{message, exception_kind}`: the node raises a bare, uncategorized exception of that
 * kind (e.g. `ValueError`, carried as the error's `name`) with that message.
 */
@directive({ name: "raises", at: "node", home: "pipeline-utilities", summary: "raise an (uncategorized) exception" })
export class PipelineRaises extends Raises {
  override readonly schema: JsonSchema = {
    oneOf: [
      { type: "string" },
      {
        type: "object",
        required: ["message"],
        additionalProperties: false,
        properties: { message: { type: "string" }, exception_kind: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" } },
      },
    ],
  };
  override contribute(value: string | { message: string; exception_kind?: string }, node: NodeAssembly): void {
    if (typeof value === "string") {
      super.contribute(value, node);
      return;
    }
    node.steps.push(() => {
      const e = new FixtureNodeError(value.message);
      if (value.exception_kind !== undefined) e.name = value.exception_kind;
      throw e;
    });
  }
}
