import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { checkpointCase } from "../../harness/checkpoint/case.ts";

/**
 * `populate_checkpointer_via_runs: <n>` (conformance-adapter §5.6): before the case's own call, run
 * the checkpointed graph `n` times (from the case's `initial_state`), so the Checkpointer holds `n`
 * completed invocations' records (fixture 030: a resume with an id none of them has).
 */
@directive({ name: "populate_checkpointer_via_runs", at: "case", home: "general", summary: "prior runs that seed the Checkpointer" })
export class PopulateCheckpointerViaRuns {
  readonly schema = { type: "integer", minimum: 0 };
  configure(value: number, ctx: ConfigureContext): void {
    checkpointCase(ctx).populateRuns = value;
  }
}
