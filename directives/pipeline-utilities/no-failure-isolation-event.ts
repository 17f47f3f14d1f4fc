import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { failureIsolationEvents } from "../../harness/pipeline/reading.ts";

/**
 * `no_failure_isolation_event: <bool>` inside `expected:` (pipeline-utilities note, fixture 060):
 * `true` — the call emitted no failure-isolation event (§6.3; the adapter's capture observer
 * received none); `false` — it emitted at least one.
 */
@directive({ name: "no_failure_isolation_event", at: "expected", home: "pipeline-utilities", summary: "the call emitted no failure-isolation event" })
export class NoFailureIsolationEvent {
  readonly scope = "call" as const;
  readonly schema = { type: "boolean" };
  configure(_value: unknown, ctx: ConfigureContext): void {
    pipelineCase((k) => ctx.slot(k));
  }
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = failureIsolationEvents(obs, ctx);
    if ((events.length === 0) !== value) {
      ctx.fail(
        value
          ? `expected no failure-isolation event, got ${events.length} (${events.map((e) => `'${e.eventName}'`).join(", ")})`
          : "expected a failure-isolation event, got none",
      );
    }
  }
}
