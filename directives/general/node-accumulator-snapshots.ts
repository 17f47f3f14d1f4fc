import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { EVENT_SHAPE, eventRecord } from "../../harness/graph/reading.ts";

/**
 * `node_accumulator_snapshots: {<node>: {<observer>: [<event>, ...]}}` (conformance-adapter
 * §5.8): the accumulate observer's bucket for the call as captured when the node's drain
 * returned; complete and ordered, entries as in `observer_events`.
 */
@directive({ name: "node_accumulator_snapshots", at: "expected", home: "general", summary: "accumulator buckets as each node's drain saw them" })
export class NodeAccumulatorSnapshots {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "object", additionalProperties: { type: "array" } } };
  check(value: Record<string, Record<string, unknown[]>>, obs: Observation, ctx: CheckContext): void {
    const drains = obs.get(F.NodeDrains, ctx.locate(ctx.self.path));
    for (const [node, byObserver] of Object.entries(value)) {
      const rec = drains.get(node);
      for (const [observer, entries] of Object.entries(byObserver)) {
        const path = `${ctx.label}.${node}.${observer}`;
        if (!rec) {
          ctx.fail(`node '${node}' took no snapshot during this call`, { path });
          continue;
        }
        if (rec.observer !== observer) {
          ctx.fail(`node '${node}' snapshotted observer '${rec.observer ?? "(none)"}', not '${observer}'`, { path });
          continue;
        }
        ctx.match(entries, rec.snapshot.map(eventRecord), Shapes.list("ordered", EVENT_SHAPE), path);
      }
    }
  }
}
