import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { CheckpointSaves } from "../../harness/checkpoint/facets.ts";
import { callOf } from "../../harness/checkpoint/reading.ts";
import { checkRecord, RECORD_ASSERTION_SCHEMA, resolveRecordClaims } from "../../harness/checkpoint/record-assertions.ts";

/**
 * `every_save_assertions: { <record sub-assertions> }` (pipeline-utilities note, fixture 055), at
 * case level: every save the first run made — outer-graph, fan-out instance internal, instance
 * completion and the fan-out node's own — satisfies the record assertions, not just the latest.
 */
@directive({ name: "every_save_assertions", at: "case", home: "pipeline-utilities", summary: "assertions every save of the first run satisfies" })
export class EverySaveAssertions {
  readonly schema = { ...RECORD_ASSERTION_SCHEMA, minProperties: 1 };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    resolveRecordClaims(value, ctx.self.path, ctx);
  }
  async check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): Promise<void> {
    const first = callOf(obs, "first_run");
    if (typeof first === "string") return ctx.fail(first);
    const saves = first.get(CheckpointSaves, ctx.locate(ctx.self.path));
    if (saves.length === 0) return ctx.fail("the first run made no checkpoint save");
    for (const [i, s] of saves.entries()) {
      const site = `${s.context?.trigger ?? "save"} at ${s.context?.namespace.join("/") ?? "?"}`;
      await checkRecord(value, s.record, first, ctx, `${ctx.label}[save ${i}: ${site}]`, ctx.self.path);
    }
  }
}
