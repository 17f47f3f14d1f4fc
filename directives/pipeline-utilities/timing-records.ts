import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { TimingRecord } from "../../src/pipeline/middleware/index.ts";
import { MiddlewareConfigs, pipelineCase } from "../../harness/pipeline/case-state.ts";
import { noCallMade } from "../../harness/pipeline/reading.ts";
import { TimingCaptures } from "../../harness/pipeline/facets.ts";

const CAPTURE = "timing_records";

function specRecord(r: TimingRecord): Record<string, unknown> {
  return { node_name: r.nodeName, duration_ms: r.durationMs, outcome: r.outcome, exception_category: r.exceptionCategory };
}

/**
 * `timing_records: [<TimingRecord>, ...]` (pipeline-utilities note, fixture 012): the §6.2
 * `TimingRecord`s the `timing` middleware with `on_complete: {capture_to: timing_records}` handed
 * to `on_complete` during the call — complete, in the order `on_complete` fired; each record
 * matches by the §6.2 fields it names (`node_name`, `duration_ms`, `outcome`, `exception_category`).
 */
@directive({ name: "timing_records", at: "expected", home: "pipeline-utilities", summary: "records the timing middleware captured" })
export class TimingRecordsAssertion {
  readonly scope = "call" as const;
  readonly schema = {
    type: "array",
    items: {
      type: "object",
      additionalProperties: false,
      properties: {
        node_name: { type: "string" },
        duration_ms: { type: "number" },
        outcome: { enum: ["success", "exception"] },
        exception_category: { type: ["string", "null"] },
      },
    },
  };
  configure(_value: unknown, ctx: ConfigureContext): void {
    pipelineCase((k) => ctx.slot(k));
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const none = noCallMade(obs);
    if (none !== null) {
      ctx.fail(none);
      return;
    }
    const where = ctx.locate(ctx.self.path);
    const capturing = obs.get(MiddlewareConfigs, where).some((c) => c.type === "timing" && (c.entry.on_complete as { capture_to?: unknown }).capture_to === CAPTURE);
    if (!capturing) {
      ctx.fail(`no timing middleware in this case captures to '${CAPTURE}'`);
      return;
    }
    const records = (obs.tryGet(TimingCaptures)?.get(CAPTURE) ?? []).map(specRecord);
    ctx.match(value, records, Shapes.list("ordered", Shapes.named()));
  }
}
