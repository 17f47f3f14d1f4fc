import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";

/**
 * `node_accumulator_snapshot_invariants: {<node>: {<observer>: {<predicate>: <value>}}}`
 * (conformance-adapter §5.8): invariant predicates over a node's accumulator snapshot.
 */
@directive({ name: "node_accumulator_snapshot_invariants", at: "expected", home: "general", summary: "predicates over accumulator snapshots" })
export class NodeAccumulatorSnapshotInvariants {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "object", additionalProperties: { type: "object", minProperties: 1 } } };
  configure(value: Record<string, Record<string, Record<string, unknown>>>, ctx: ConfigureContext): void {
    for (const [node, byObs] of Object.entries(value)) {
      for (const [o, preds] of Object.entries(byObs)) ctx.resolve("invariant", preds, [...ctx.self.path, node, o]);
    }
  }
  async check(value: Record<string, Record<string, Record<string, unknown>>>, obs: Observation, ctx: CheckContext): Promise<void> {
    const drains = obs.get(F.NodeDrains, ctx.locate(ctx.self.path));
    for (const [node, byObs] of Object.entries(value)) {
      for (const [o, preds] of Object.entries(byObs)) {
        const rec = drains.get(node);
        if (!rec || rec.observer !== o) {
          ctx.fail(`node '${node}' took no snapshot of observer '${o}' during this call`, { path: `${ctx.label}.${node}.${o}` });
          continue;
        }
        const path = [...ctx.self.path, node, o];
        await ctx.checkAll(ctx.resolve("invariant", preds, path), obs.derive().set(F.InvariantEvents, rec.snapshot));
      }
    }
  }
}
