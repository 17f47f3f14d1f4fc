import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { attemptRecord, capturedNodeEvents, EVENT_SHAPE, normalizeEventEntry } from "../../harness/pipeline/reading.ts";

/**
 * `expected_attempt_events: [{attempt_index, phase, node_name, error_category, ...}, ...]` inside
 * `expected:` (pipeline-utilities note, fixture 061): every node event of the call — the
 * per-attempt started / completed pairs (§6.1, graph-engine §6) — complete and in delivery order,
 * as the adapter's capture observer received them. Entries match by the fields written;
 * `error_category` reads the event's error by the §5.8 category rule.
 */
@directive({ name: "expected_attempt_events", at: "expected", home: "pipeline-utilities", summary: "the call's per-attempt node events" })
export class ExpectedAttemptEvents {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "object" } };
  configure(_value: unknown, ctx: ConfigureContext): void {
    pipelineCase((k) => ctx.slot(k));
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const events = capturedNodeEvents(obs, ctx).map(attemptRecord);
    ctx.match(value.map(normalizeEventEntry), events, Shapes.list("ordered", EVENT_SHAPE));
  }
}
