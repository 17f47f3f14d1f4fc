import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { oneRun } from "../../../harness/checkpoint/claims.ts";
import { RecordAfterCall } from "../../../harness/checkpoint/facets.ts";

/** `saved_record_correlation_id: <id>` (fixture 031; §10.2): the record saved for the first run carries this correlation id verbatim. */
@directive({ name: "saved_record_correlation_id", at: "invariant", home: "pipeline-utilities" })
export class SavedRecordCorrelationId {
  readonly schema = { type: "string" };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const first = oneRun(obs, ctx, "first_run");
    if (first === null) return;
    const r = first.tryGet(RecordAfterCall);
    if (r === undefined || r === null) return ctx.fail(`${ctx.self.key}: no record was saved for the first run`);
    ctx.match(value, r.correlation_id, null);
  }
}
