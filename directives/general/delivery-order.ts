import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { isNodeEvent, type NodeEvent } from "../../src/graph/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { EVENT_SHAPE, eventRecord } from "../../harness/graph/reading.ts";

/**
 * `delivery_order: [{observer, step, phase, ...}, ...]` (conformance-adapter §5.8): every delivery
 * of a node event to a declared observer (raise observers included) during the call, complete and
 * ordered by when each delivery began; entries match by named keys.
 */
@directive({ name: "delivery_order", at: "expected", home: "general", summary: "every delivery to every observer, in order" })
export class DeliveryOrder {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "object", required: ["observer"] } };
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const deliveries = obs.get(F.Deliveries, ctx.locate(ctx.self.path))
      .filter((d) => isNodeEvent(d.event))
      .map((d) => ({ observer: d.observer, ...eventRecord(d.event as NodeEvent) }));
    ctx.match(value, deliveries, Shapes.list("ordered", EVENT_SHAPE));
  }
}
