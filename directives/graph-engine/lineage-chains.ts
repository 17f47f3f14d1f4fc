/**
 * Fixture 039's lineage-chain claims (graph-engine §6 fan_out_index / branch_name chains across
 * nested fan-outs), each `<node>[_node]_<claim>` over the named node's events.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import { sameSet, scopedEvents, showSet } from "../../harness/graph/invariant-scope.ts";

const HOME = "graph-engine";
const claim = (suffix: string): RegExp => new RegExp(`(?<node>.+?)(?:_node)?_${suffix}`);

function nodeEventsOf(obs: Observation, ctx: CheckContext): NodeEvent[] | null {
  const events = scopedEvents(obs, ctx);
  if (!events) return null;
  const node = ctx.self.groups.node as string;
  const mine = events.filter((e) => e.nodeName === node);
  if (mine.length === 0) {
    ctx.fail(`no events from node '${node}'`);
    return null;
  }
  return mine;
}

function setClaim(value: unknown[], seen: unknown[], ctx: CheckContext): void {
  if (!sameSet(value, seen)) ctx.fail(`expected the set ${showSet(value)}, saw ${showSet(seen)}`, { expected: value, actual: seen });
}

@directive({ name: claim("fan_out_index_chain_empty"), at: "invariant", home: HOME })
export class FanOutIndexChainEmpty {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const mine = nodeEventsOf(obs, ctx);
    if (mine) ctx.match(value, mine.every((e) => e.fanOutIndexChain.length === 0), null);
  }
}

@directive({ name: claim("fan_out_index_chains_seen"), at: "invariant", home: HOME })
export class FanOutIndexChainsSeen {
  readonly schema = { type: "array", items: { type: "array" } };
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const mine = nodeEventsOf(obs, ctx);
    if (mine) setClaim(value, mine.map((e) => e.fanOutIndexChain), ctx);
  }
}

@directive({ name: claim("branch_name_chains_seen"), at: "invariant", home: HOME })
export class BranchNameChainsSeen {
  readonly schema = { type: "array", items: { type: "array" } };
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const mine = nodeEventsOf(obs, ctx);
    if (mine) setClaim(value, mine.map((e) => e.branchNameChain), ctx);
  }
}

@directive({ name: claim("scalar_fan_out_index_equals_innermost_chain_element"), at: "invariant", home: HOME })
export class ScalarFanOutIndexEqualsInnermost {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const mine = nodeEventsOf(obs, ctx);
    if (mine) ctx.match(value, mine.every((e) => e.fanOutIndex === e.fanOutIndexChain[e.fanOutIndexChain.length - 1]), null);
  }
}

@directive({ name: claim("scalar_branch_name_absent"), at: "invariant", home: HOME })
export class ScalarBranchNameAbsent {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const mine = nodeEventsOf(obs, ctx);
    if (mine) ctx.match(value, mine.every((e) => e.branchName === undefined), null);
  }
}

@directive({ name: claim("event_identities_unique_by_chain"), at: "invariant", home: HOME })
export class EventIdentitiesUniqueByChain {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const mine = nodeEventsOf(obs, ctx);
    if (!mine) return;
    const keys = mine.map((e) => JSON.stringify([e.namespace, e.fanOutIndexChain, e.branchNameChain, e.attemptIndex, e.phase]));
    ctx.match(value, new Set(keys).size === keys.length, null);
  }
}

@directive({ name: claim("scalar_fan_out_index_not_unique_across_outer_instances"), at: "invariant", home: HOME })
export class ScalarFanOutIndexNotUnique {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const mine = nodeEventsOf(obs, ctx);
    if (!mine) return;
    const chainsByScalar = new Map<string, Set<string>>();
    for (const e of mine) {
      const k = `${e.phase}:${e.fanOutIndex}`;
      let s = chainsByScalar.get(k);
      if (!s) chainsByScalar.set(k, (s = new Set()));
      s.add(JSON.stringify(e.fanOutIndexChain));
    }
    ctx.match(value, [...chainsByScalar.values()].some((s) => s.size > 1), null);
  }
}
