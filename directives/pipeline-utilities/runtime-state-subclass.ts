import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { checkpointCase } from "../../harness/checkpoint/case.ts";

/**
 * `runtime_state_subclass: {schema_version: <v>}` (pipeline-utilities note, fixture 055): the
 * first run's initial state is an instance of a subclass of the declared state class whose
 * `schema_version` shadows the declared one (`harness/checkpoint/runtime-subclass.ts`); saved
 * records must still carry the declared version (§10.2).
 */
@directive({ name: "runtime_state_subclass", at: "case", home: "pipeline-utilities", summary: "invoke with a state subclass overriding schema_version" })
export class RuntimeStateSubclass {
  readonly schema = { type: "object", required: ["schema_version"], additionalProperties: false, properties: { schema_version: { type: "string" } } };
  configure(value: { schema_version: string }, ctx: ConfigureContext): void {
    checkpointCase(ctx).runtimeSubclass = { schemaVersion: value.schema_version };
  }
}
