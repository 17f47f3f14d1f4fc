import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { checkpointCase } from "../../harness/checkpoint/case.ts";

/**
 * `seeded_record: { ... }` (pipeline-utilities note, fixtures 039–047, 076): a §10.2 checkpoint
 * record from a hypothetical prior run, in the spec's field names (`schema_version`, `state`,
 * `parent_states`, `completed_positions`, `fan_out_progress` with `enclosing_fan_out_lineage`),
 * stored in the case's Checkpointer before anything runs; `resume: {from_seeded_record: true}`
 * resumes it. Namespaces are node-name paths, as the engine's own records write them.
 */
@directive({ name: "seeded_record", at: "case", home: "pipeline-utilities", summary: "a checkpoint record stored before the case runs" })
export class SeededRecord {
  readonly schema = {
    type: "object",
    required: ["state"],
    // The §10.2 record document's fields, and no other key (the harness supplies the ids it omits).
    additionalProperties: false,
    properties: {
      invocation_id: { type: "string" },
      correlation_id: { type: "string" },
      schema_version: { type: "string" },
      state: { type: "object" },
      parent_states: { type: "array", items: { type: "object" } },
      completed_positions: { type: "array", items: { type: "object" } },
      fan_out_progress: { type: "array", items: { type: "object" } },
      last_saved_at: { type: "number" },
      next_step: { type: "integer" },
      graph_name: { type: "string" },
      resumed_from: { type: "string" },
    },
  };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    checkpointCase(ctx).seeded = { doc: value, path: ctx.self.path };
  }
}
