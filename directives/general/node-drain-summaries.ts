import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { checkDrainSummary, DRAIN_SUMMARY_SCHEMA } from "../../harness/graph/drain-summary.ts";

/**
 * `node_drain_summaries: {<node>: {...}}` (conformance-adapter §5.8): what each node's
 * `invoke_drain_events_for` drain returned, by named keys.
 */
@directive({ name: "node_drain_summaries", at: "expected", home: "general", summary: "per-node drain_events_for summaries" })
export class NodeDrainSummaries {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: DRAIN_SUMMARY_SCHEMA };
  check(value: Record<string, Record<string, unknown>>, obs: Observation, ctx: CheckContext): void {
    const drains = obs.get(F.NodeDrains, ctx.locate(ctx.self.path));
    for (const [node, expected] of Object.entries(value)) {
      const rec = drains.get(node);
      if (!rec) {
        ctx.fail(`node '${node}' did not run invoke_drain_events_for during this call`, { path: `${ctx.label}.${node}` });
        continue;
      }
      checkDrainSummary(expected, rec.summary, ctx, `${ctx.label}.${node}`);
    }
  }
}
