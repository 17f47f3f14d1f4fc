/**
 * Retired collector assertions (conformance-adapter 0.120.1 §5.5: "They replace
 * contains_exactly_n_events_of_type and does_not_contain_event_of_type, which are retired"): each
 * is checked through its replacement, `event_count`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { EventCount } from "../general/typed-event-assertions.ts";
import { COLLECTOR_POSITION } from "../general/typed-observers.ts";
import { EVENT_COUNT_RETIREMENT } from "./retirements.ts";

const count = new EventCount();

/** Retired `does_not_contain_event_of_type: <T>` — `event_count: {event_type: T, count: 0}`. */
@directive({
  name: "does_not_contain_event_of_type",
  at: COLLECTOR_POSITION,
  home: "general",
  section: "conformance-adapter §5.5 (retired)",
  summary: "retired: event_count {count: 0}",
  retired: EVENT_COUNT_RETIREMENT("event_count: {event_type: <T>, count: 0}"),
})
export class DoesNotContainEventOfType {
  readonly schema = { type: "string", minLength: 1 };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    count.check({ event_type: value, count: 0 }, obs, ctx);
  }
}

/** Retired `contains_exactly_n_events_of_type: {event_type, n | count}` (exactly one of them) — `event_count: {event_type, count: n}`. */
@directive({
  name: "contains_exactly_n_events_of_type",
  at: COLLECTOR_POSITION,
  home: "general",
  section: "conformance-adapter §5.5 (retired)",
  summary: "retired: event_count",
  retired: EVENT_COUNT_RETIREMENT("event_count: {event_type: <T>, count: <N>}"),
})
export class ContainsExactlyNEventsOfType {
  readonly schema = {
    type: "object",
    required: ["event_type"],
    oneOf: [{ required: ["n"] }, { required: ["count"] }],
    additionalProperties: false,
    properties: { event_type: { type: "string", minLength: 1 }, n: { type: "integer", minimum: 0 }, count: { type: "integer", minimum: 0 } },
  };
  check(value: { event_type: string; n?: number; count?: number }, obs: Observation, ctx: CheckContext): void {
    count.check({ event_type: value.event_type, count: (value.n ?? value.count) as number }, obs, ctx);
  }
}
