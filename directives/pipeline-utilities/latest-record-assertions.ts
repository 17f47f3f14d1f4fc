import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { CheckpointCallLog, RecordAfterCall } from "../../harness/checkpoint/facets.ts";
import { invocationIdOf } from "../../harness/checkpoint/reading.ts";
import { checkRecord, RECORD_ASSERTION_SCHEMA, resolveRecordClaims } from "../../harness/checkpoint/record-assertions.ts";

/**
 * `latest_record_assertions: { ... }` (conformance-adapter §5.8 *Record sub-assertions* names it
 * among the pipeline-utilities note's record directives), under `expected:`: the latest record the
 * Checkpointer holds for the call the block belongs to once that call returned. It shares the
 * record vocabulary of `saved_record_assertions` (`harness/checkpoint/record-assertions.ts`), by
 * named keys, with absence written `latest_record_assertions_absent_keys`; other keys are named
 * claims. At case level, beside `expected:`, it reads the case's last checkpointed call (the
 * resume, in a resume case).
 */
@directive({ name: "latest_record_assertions", at: ["case", "expected"], home: "pipeline-utilities", summary: "the latest record saved for the call" })
export class LatestRecordAssertions {
  readonly schema = RECORD_ASSERTION_SCHEMA;
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    resolveRecordClaims(value, ctx.self.path, ctx);
  }
  async check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): Promise<void> {
    let call = obs;
    if (ctx.self.position === "case") {
      const log = obs.tryGet(CheckpointCallLog) ?? obs.calls.find((c) => c.has(CheckpointCallLog))?.tryGet(CheckpointCallLog);
      const last = log?.calls[log.calls.length - 1];
      if (last === undefined) return ctx.fail("the case ran no checkpointed call (no 'checkpointer' / 'resume' harness was configured)");
      call = last.observation;
    }
    const record = call.tryGet(RecordAfterCall);
    if (record === undefined) return ctx.fail("the case registers no Checkpointer, so nothing was saved");
    if (record === null) return ctx.fail(`the Checkpointer holds no record for the call's invocation '${invocationIdOf(call) ?? "(none)"}'`);
    await checkRecord(value, record, call, ctx, ctx.label, ctx.self.path, ctx.self.absentKeys ?? []);
  }
}
