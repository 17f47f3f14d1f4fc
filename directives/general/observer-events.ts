import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, JsonSchema } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { EVENT_SHAPE, eventRecord, observerEvents } from "../../harness/graph/reading.ts";

/**
 * `observer_events: {<observer>: [<entry>, ...]}` (conformance-adapter §5.8): for each named
 * observer, the node events it received from the call — complete and ordered by delivery; each
 * entry matches by the §6 fields it names (state snapshots exact; absence via `absent_keys`).
 */
@directive({ name: "observer_events", at: "expected", home: "general", summary: "node events each observer received, in order" })
export class ObserverEvents {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "object", minProperties: 1, additionalProperties: { type: "array", items: { type: "object" } } };
  check(value: Record<string, unknown[]>, obs: Observation, ctx: CheckContext): void {
    for (const [name, entries] of Object.entries(value)) {
      const events = observerEvents(obs, ctx, name);
      if (events === null) continue;
      ctx.match(entries, events.map(eventRecord), Shapes.list("ordered", EVENT_SHAPE), `${ctx.label}.${name}`);
    }
  }
}
