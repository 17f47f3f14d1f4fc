import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { RecordAfterCall } from "../../harness/checkpoint/facets.ts";
import { callOf, invocationIdOf } from "../../harness/checkpoint/reading.ts";
import { checkRecord, RECORD_ASSERTION_SCHEMA, resolveRecordClaims } from "../../harness/checkpoint/record-assertions.ts";

/**
 * `saved_record_assertions: { ... }` (conformance-adapter §5.8 *Checkpoint records*), at case level:
 * the record `Checkpointer.load` returns for the first run's invocation id once that run ended —
 * the record a `from_first_run` resume loads (with a batching backend, the last flushed record).
 * Matched by named keys with the shared record vocabulary (`harness/checkpoint/record-assertions.ts`);
 * absence is `saved_record_assertions_absent_keys`; other keys are named claims.
 */
@directive({ name: "saved_record_assertions", at: "case", home: "general", summary: "the record saved for the first run" })
export class SavedRecordAssertions {
  readonly schema = RECORD_ASSERTION_SCHEMA;
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    resolveRecordClaims(value, ctx.self.path, ctx);
  }
  async check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): Promise<void> {
    const first = callOf(obs, "first_run");
    if (typeof first === "string") return ctx.fail(first);
    const record = first.tryGet(RecordAfterCall);
    if (record === undefined) return ctx.fail("the case registers no Checkpointer, so nothing was saved");
    if (record === null) return ctx.fail(`the Checkpointer holds no record for the first run's invocation '${invocationIdOf(first) ?? "(none)"}'`);
    await checkRecord(value, record, first, ctx, ctx.label, ctx.self.path, ctx.self.absentKeys ?? []);
  }
}
