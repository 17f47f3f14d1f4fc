import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";

/**
 * `clock_stub: {type: deterministic_monotonic, advance_ms_per_call: <ms>}` (pipeline-utilities
 * note, fixture 012): the monotonic clock the case's `timing` middleware read returns a time that
 * advances by exactly `advance_ms_per_call` on every read, so durations are reproducible.
 */
@directive({ name: "clock_stub", at: "case", home: "pipeline-utilities", summary: "deterministic monotonic clock for timing middleware" })
export class ClockStub {
  readonly schema = {
    type: "object",
    required: ["type", "advance_ms_per_call"],
    additionalProperties: false,
    properties: { type: { enum: ["deterministic_monotonic"] }, advance_ms_per_call: { type: "number", exclusiveMinimum: 0 } },
  };
  configure(value: { type: "deterministic_monotonic"; advance_ms_per_call: number }, ctx: ConfigureContext): void {
    pipelineCase((k) => ctx.slot(k)).clock.makeDeterministic(value.advance_ms_per_call);
  }
}
