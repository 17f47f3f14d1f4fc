import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { nodeEvents } from "../../harness/graph/reading.ts";

/**
 * `observer_event_invariants: {<predicate>: <value>}` (conformance-adapter §5.8, §5.9, §7):
 * invariant predicates over the events the case's recording observer received from the call.
 */
@directive({ name: "observer_event_invariants", at: "expected", home: "general", summary: "predicates over recorded observer events" })
export class ObserverEventInvariants {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1 };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    ctx.resolve("invariant", value, ctx.self.path);
  }
  async check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): Promise<void> {
    const where = ctx.locate(ctx.self.path);
    const observers = [...obs.get(F.Observers, where).values()].filter((o) => o.behavior !== "raise");
    if (observers.length !== 1) {
      ctx.fail(`observer_event_invariants needs exactly one recording observer in the case, found ${observers.length}`);
      return;
    }
    const events = nodeEvents((observers[0] as (typeof observers)[number]).eventsOf(obs.get(F.CallIndex, where)));
    await ctx.checkAll(ctx.resolve("invariant", value, ctx.self.path), obs.derive().set(F.InvariantEvents, events));
  }
}
