/**
 * Fan-out instance predicates of pipeline-utilities fixture 020 (retry inside fan-out instances):
 * every inner event carries its `fan_out_index`; the attempt / fan-out indices seen; the event
 * pairs per instance.
 */
import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { isInner, sameSet, scopedEvents, showSet } from "../../../harness/graph/invariant-scope.ts";

@directive({ name: "inner_events_have_fan_out_index", at: "invariant", home: "general", summary: "every inner event carries fan_out_index" })
export class InnerEventsHaveFanOutIndex {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const inner = scopedEvents(obs, ctx)?.filter(isInner);
    if (!inner) return;
    if (inner.length === 0) ctx.fail("no inner events to check");
    ctx.match(value, inner.length > 0 && inner.every((e) => e.fanOutIndex !== undefined), null);
  }
}

@directive({ name: "inner_events_attempt_indices_seen", at: "invariant", home: "general", summary: "set of attempt_index values on inner events" })
export class InnerEventsAttemptIndicesSeen {
  readonly schema = { type: "array", items: { type: "integer" } };
  check(value: number[], obs: Observation, ctx: CheckContext): void {
    const seen = (scopedEvents(obs, ctx) ?? []).filter(isInner).map((e) => e.attemptIndex);
    if (!sameSet(value, seen)) ctx.fail(`expected the set ${showSet(value)}, saw ${showSet(seen)}`);
  }
}

@directive({ name: "fan_out_indices_seen", at: "invariant", home: "general", summary: "set of fan_out_index values seen" })
export class FanOutIndicesSeen {
  readonly schema = { type: "array", items: { type: "integer" } };
  check(value: number[], obs: Observation, ctx: CheckContext): void {
    const seen = (scopedEvents(obs, ctx) ?? []).map((e) => e.fanOutIndex).filter((i): i is number => i !== undefined);
    if (!sameSet(value, seen)) ctx.fail(`expected the set ${showSet(value)}, saw ${showSet(seen)}`);
  }
}

@directive({ name: "inner_event_pair_count_per_instance", at: "invariant", home: "general", summary: "inner events per fan-out instance" })
export class InnerEventPairCountPerInstance {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const per = new Map<number, number>();
    for (const e of (scopedEvents(obs, ctx) ?? []).filter(isInner)) if (e.fanOutIndex !== undefined) per.set(e.fanOutIndex, (per.get(e.fanOutIndex) ?? 0) + 1);
    if (per.size === 0) ctx.fail("no fan-out instance events to count");
    for (const [i, n] of per) if (n !== value) ctx.fail(`instance ${i} produced ${n} inner events, expected ${value}`, { expected: value, actual: n });
  }
}
