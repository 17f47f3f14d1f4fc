import { directive } from "../../src/conformance/registry.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { successUpdate } from "../../harness/pipeline/failure-mocks.ts";
import { UpdatePure } from "../general/update-pure.ts";

/**
 * `update_pure:` in pipeline-utilities fixtures: the general definition (a literal partial update),
 * except that a string value naming a declared field of the node's own graph reads that field —
 * the rule §5.1 states for the failure mocks' success mappings. The checkpoint fixtures 050, 055
 * and 056 write `update_pure: {out: input}` into int fields and expect each instance's `input`
 * (their expected results are the items); across the upstream corpus no `update_pure` string that
 * names a declared field is meant literally. Deviation from §5.1's "SHOULD inline verbatim",
 * scoped to this directory.
 */
@directive({ name: "update_pure", at: "node", home: "pipeline-utilities", summary: "return a literal partial update (field-name strings read the field)" })
export class PipelineUpdatePure extends UpdatePure {
  override contribute(value: Record<string, unknown>, node: NodeAssembly, env?: BuildEnv, _at?: KeyPath): void {
    const fields = env?.fieldNames ?? new Set<string>();
    const refs = Object.values(value).some((v) => typeof v === "string" && fields.has(v));
    if (!refs) return super.contribute(value, node);
    node.steps.push((state) => successUpdate(value, state, fields));
  }
}
