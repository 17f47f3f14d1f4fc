/**
 * Canonical event-count predicates (conformance-adapter §5.9): `inner_event_count`,
 * `<node>_node_events_count`, `inner_event_identities_unique`.
 */
import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { isInner, scopedEvents } from "../../../harness/graph/invariant-scope.ts";

@directive({ name: "inner_event_count", at: "invariant", home: "general", summary: "events from inner nodes" })
export class InnerEventCount {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (events) ctx.match(value, events.filter(isInner).length, null);
  }
}

@directive({ name: /(?<node>.+)_node_events_count/, at: "invariant", home: "general", summary: "events from one node" })
export class NodeEventsCount {
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    const node = ctx.self.groups.node as string;
    if (events) ctx.match(value, events.filter((e) => e.nodeName === node).length, null);
  }
}

@directive({ name: "inner_event_identities_unique", at: "invariant", home: "general", summary: "inner event identity tuples are unique" })
export class InnerEventIdentitiesUnique {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (!events) return;
    const keys = events.filter(isInner).map((e) => JSON.stringify([e.namespace, e.fanOutIndex ?? null, e.branchName ?? null, e.attemptIndex, e.phase]));
    const dupes = keys.filter((k, i) => keys.indexOf(k) !== i);
    ctx.match(value, dupes.length === 0, null);
    if (value && dupes.length > 0) ctx.fail(`repeated identity tuples: ${[...new Set(dupes)].join(", ")}`);
  }
}
