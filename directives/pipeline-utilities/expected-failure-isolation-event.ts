import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { FAILURE_ISOLATION_EVENT_SHAPE, failureIsolationEvents, failureIsolationRecord, noCallMade } from "../../harness/pipeline/reading.ts";

const LINK = {
  type: "object",
  additionalProperties: false,
  properties: { category: { type: ["string", "null"] }, message: { type: "string" }, carrier: { type: "boolean" } },
};

/**
 * `expected_failure_isolation_event: {event_name, wrapped_node_lineage, pre_state, post_state,
 * caught_exception}` inside `expected:` (pipeline-utilities note, fixtures 058 / 061 / 064): the
 * call produced exactly one framework-emitted failure-isolation event (§6.3), received by the
 * adapter's capture observer, and it matches the fields written: `pre_state` (exact state
 * snapshot), `post_state` (exact: the degraded update), the lineage tuple, and `caught_exception`
 * (conformance-adapter §5.8: derived `category` / `message`, and `chain` outermost to innermost
 * whose carrier links assert `{carrier, category}` and may stand for a run of carriers).
 */
@directive({ name: "expected_failure_isolation_event", at: "expected", home: "pipeline-utilities", summary: "the call's failure-isolation event" })
export class ExpectedFailureIsolationEvent {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    minProperties: 1,
    additionalProperties: false,
    properties: {
      event_name: { type: "string" },
      wrapped_node_lineage: {
        type: "object",
        additionalProperties: false,
        properties: {
          node_name: { type: "string" },
          namespace: { type: "array", items: { type: "string" } },
          attempt_index: { type: "integer", minimum: 0 },
          fan_out_index: { type: ["integer", "null"] },
          branch_name: { type: ["string", "null"] },
          fan_out_index_chain: { type: "array" },
          branch_name_chain: { type: "array" },
        },
      },
      pre_state: { type: "object" },
      post_state: { type: "object" },
      caught_exception: {
        type: "object",
        additionalProperties: false,
        properties: { category: { type: ["string", "null"] }, message: { type: "string" }, chain: { type: "array", items: LINK } },
      },
    },
  };
  configure(_value: unknown, ctx: ConfigureContext): void {
    pipelineCase((k) => ctx.slot(k));
  }
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const none = noCallMade(obs);
    if (none !== null) {
      ctx.fail(none);
      return;
    }
    const events = failureIsolationEvents(obs, ctx);
    if (events.length !== 1) {
      ctx.fail(`expected exactly one failure-isolation event in the call, got ${events.length}`, { expected: 1, actual: events.length });
      return;
    }
    ctx.match(value, failureIsolationRecord(events[0]!, value), FAILURE_ISOLATION_EVENT_SHAPE);
  }
}
