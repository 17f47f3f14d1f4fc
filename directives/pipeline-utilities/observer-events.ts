import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { eventRecord } from "../../harness/graph/reading.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { capturedNodeEvents, EVENT_SHAPE, normalizeEventEntry } from "../../harness/pipeline/reading.ts";
import { ObserverEvents } from "../general/observer-events.ts";

/**
 * `observer_events:` (conformance-adapter §5.8), refined by the pipeline-utilities fixtures (011,
 * 015): beside the general `{<observer>: [...]}` form, a bare list asserts the node events of the
 * call as the adapter's own capture observer received them (the case declares no observer) —
 * complete and ordered. In either form an entry's `error` may be written as the bare §4 category
 * (`error: node_exception`), shorthand for `{category: node_exception}`.
 */
@directive({ name: "observer_events", at: "expected", home: "pipeline-utilities", summary: "node events (per observer, or as the adapter captured them)" })
export class PipelineObserverEvents extends ObserverEvents {
  override readonly schema: JsonSchema = {
    oneOf: [
      { type: "object", minProperties: 1, additionalProperties: { type: "array", items: { type: "object" } } },
      { type: "array", items: { type: "object" } },
    ],
  };
  configure(value: unknown, ctx: ConfigureContext): void {
    if (Array.isArray(value)) pipelineCase((k) => ctx.slot(k));
  }
  override check(value: Record<string, unknown[]> | unknown[], obs: Observation, ctx: CheckContext): void {
    if (Array.isArray(value)) {
      ctx.match(value.map(normalizeEventEntry), capturedNodeEvents(obs, ctx).map(eventRecord), Shapes.list("ordered", EVENT_SHAPE));
      return;
    }
    super.check(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v.map(normalizeEventEntry)])), obs, ctx);
  }
}
