import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import * as F from "../../../harness/graph/facets.ts";
import { recordUnderTest, RECORD_CLAIM_POSITION } from "../../../harness/checkpoint/record-assertions.ts";

/**
 * `fan_out_node_in_completed_positions` (saved-record claim, fixtures 048, 067, 069; §10.11): whether the
 * record's `completed_positions` lists a fan-out node of the outermost graph (a fan-out that never
 * completed has none).
 */
@directive({ name: "fan_out_node_in_completed_positions", at: RECORD_CLAIM_POSITION, home: "pipeline-utilities" })
export class FanOutNodeInCompletedPositions {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const record = recordUnderTest(obs, ctx);
    const root = obs.get(F.RootGraph, ctx.locate(ctx.self.path));
    const fanOuts = root.nodeNames.filter((n) => root.nodeKind(n) === "fan_out");
    if (fanOuts.length === 0) return ctx.fail(`${ctx.self.key}: the outermost graph has no fan-out node`);
    const listed = record.completed_positions.filter((p) => p.namespace.length === 0 && fanOuts.includes(p.node_name)).map((p) => p.node_name);
    ctx.match(value, listed.length > 0, null);
  }
}
