import { directive } from "../../src/conformance/registry.ts";
import type { JsonSchema } from "../../src/conformance/directive.ts";
import { Raises, raisesSchema } from "../general/raises.ts";

/**
 * `raises:` (conformance-adapter §5.1), refined by the pipeline-utilities fixtures (063) with a
 * mapping form `{message, exception_kind}`: the node raises a bare, uncategorized exception of that
 * kind (e.g. `ValueError`, carried as the error's `name`) with that message. The general definition
 * implements it.
 */
@directive({ name: "raises", at: "node", home: "pipeline-utilities", summary: "raise an (uncategorized) exception" })
export class PipelineRaises extends Raises {
  override readonly schema: JsonSchema = raisesSchema({
    required: ["message"],
    properties: { message: { type: "string" }, exception_kind: { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" } },
  });
}
