import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { EVENT_SHAPE, eventRecord, observerEvents } from "../../harness/graph/reading.ts";

/**
 * `final_accumulator_state: {<observer>: [<event>, ...]}` (conformance-adapter §5.8): the
 * accumulate observer's bucket after the call returned and delivery completed.
 */
@directive({ name: "final_accumulator_state", at: "expected", home: "general", summary: "accumulator buckets after delivery" })
export class FinalAccumulatorState {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "array" } };
  check(value: Record<string, unknown[]>, obs: Observation, ctx: CheckContext): void {
    for (const [name, entries] of Object.entries(value)) {
      const events = observerEvents(obs, ctx, name);
      if (events !== null) ctx.match(entries, events.map(eventRecord), Shapes.list("ordered", EVENT_SHAPE), `${ctx.label}.${name}`);
    }
  }
}
