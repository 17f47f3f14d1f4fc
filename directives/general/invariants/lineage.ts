/**
 * Canonical lineage predicates (conformance-adapter §5.9): the fan-out indices, branch names and
 * attempt indices inner events carry, and `<node>_node_fan_out_index_absent`.
 */
import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import type { NodeEvent } from "../../../src/graph/index.ts";
import { isInner, sameSet, scopedEvents, showSet } from "../../../harness/graph/invariant-scope.ts";

function seenSet(field: (e: NodeEvent) => unknown, value: unknown[], obs: Observation, ctx: CheckContext): void {
  const events = scopedEvents(obs, ctx);
  if (!events) return;
  const seen = events.filter(isInner).map(field).filter((v) => v !== undefined);
  if (!sameSet(value, seen)) ctx.fail(`expected the set ${showSet(value)}, saw ${showSet(seen)}`, { expected: value, actual: seen });
}

@directive({ name: "inner_fan_out_indices_seen", at: "invariant", home: "general", summary: "set of fan_out_index values on inner events" })
export class InnerFanOutIndicesSeen {
  readonly schema = { type: "array", items: { type: "integer" } };
  check(value: number[], obs: Observation, ctx: CheckContext): void {
    seenSet((e) => e.fanOutIndex, value, obs, ctx);
  }
}

@directive({ name: "inner_branch_names_seen", at: "invariant", home: "general", summary: "set of branch_name values on inner events" })
export class InnerBranchNamesSeen {
  readonly schema = { type: "array", items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    seenSet((e) => e.branchName, value, obs, ctx);
  }
}

@directive({ name: "inner_attempt_indices_seen", at: "invariant", home: "general", summary: "set of attempt_index values on inner events" })
export class InnerAttemptIndicesSeen {
  readonly schema = { type: "array", items: { type: "integer" } };
  check(value: number[], obs: Observation, ctx: CheckContext): void {
    seenSet((e) => e.attemptIndex, value, obs, ctx);
  }
}

@directive({ name: /(?<node>.+)_node_fan_out_index_absent/, at: "invariant", home: "general", summary: "a node's events carry no fan_out_index" })
export class NodeFanOutIndexAbsent {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (!events) return;
    const node = ctx.self.groups.node as string;
    const mine = events.filter((e) => e.nodeName === node);
    if (mine.length === 0) ctx.fail(`no events from node '${node}' to check`);
    ctx.match(value, mine.every((e) => e.fanOutIndex === undefined), null);
  }
}
