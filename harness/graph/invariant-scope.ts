/** What an invariant predicate reads: the events in scope and the calls it covers. */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import * as F from "./facets.ts";
import { nodeEvents } from "./reading.ts";

/**
 * The events an invariant evaluates: those its block scoped (observer_event_invariants, snapshot
 * invariants); for a bare `invariants:` block, the events of the case's one recording observer
 * during the call(s) the block reads.
 */
export function scopedEvents(obs: Observation, ctx: CheckContext): NodeEvent[] | null {
  const scoped = obs.tryGet(F.InvariantEvents);
  if (scoped) return [...scoped];
  const out: NodeEvent[] = [];
  for (const call of callsOf(obs)) {
    const observers = [...call.get(F.Observers, ctx.locate(ctx.self.path)).values()].filter((o) => o.behavior !== "raise");
    if (observers.length !== 1) {
      ctx.fail(`'${ctx.self.key}' reads observer events, but the case declares ${observers.length} recording observers (needs exactly one)`);
      return null;
    }
    out.push(...nodeEvents((observers[0] as (typeof observers)[number]).eventsOf(call.get(F.CallIndex, ctx.locate(ctx.self.path)))));
  }
  return out;
}

/** The individual calls an observation covers (itself for one call). */
export function callsOf(obs: Observation): readonly Observation[] {
  return obs.calls.length > 0 ? obs.calls : [obs];
}

/** Inner events: those from nodes inside a subgraph, fan-out instance or branch. */
export function isInner(e: NodeEvent): boolean {
  return e.namespace.length > 1;
}

/** A set compare of primitive / JSON values: written list vs seen values. */
export function sameSet(written: readonly unknown[], seen: readonly unknown[]): boolean {
  const a = new Set(written.map((v) => JSON.stringify(v)));
  const b = new Set(seen.map((v) => JSON.stringify(v)));
  return a.size === b.size && [...a].every((x) => b.has(x));
}

export function showSet(values: readonly unknown[]): string {
  return `[${[...new Set(values.map((v) => JSON.stringify(v)))].sort().join(", ")}]`;
}
