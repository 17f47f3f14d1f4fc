/**
 * Collector directives the 0.109 corpus still writes and the 0.120.1 seed retires
 * (conformance-adapter §5.5: "They replace contains_exactly_n_events_of_type and
 * does_not_contain_event_of_type, which are retired"): each is checked through its replacement,
 * `event_count`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { CollectorInView } from "../../harness/observability/typed-events.ts";
import { EventCount } from "./typed-event-assertions.ts";
import { COLLECTOR_POSITION } from "./typed-observers.ts";

const count = new EventCount();

/** Retired `does_not_contain_event_of_type: <T>` — `event_count: {event_type: T, count: 0}`. */
@directive({ name: "does_not_contain_event_of_type", at: COLLECTOR_POSITION, home: "general", section: "conformance-adapter §5.5 (retired)", summary: "retired: event_count {count: 0}" })
export class DoesNotContainEventOfType {
  readonly schema = { type: "string", minLength: 1 };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    count.check({ event_type: value, count: 0 }, obs, ctx);
  }
}

/** Retired `contains_exactly_n_events_of_type: {event_type, n}` — `event_count: {event_type, count: n}`. */
@directive({ name: "contains_exactly_n_events_of_type", at: COLLECTOR_POSITION, home: "general", section: "conformance-adapter §5.5 (retired)", summary: "retired: event_count" })
export class ContainsExactlyNEventsOfType {
  readonly schema = {
    type: "object",
    required: ["event_type"],
    additionalProperties: false,
    properties: { event_type: { type: "string", minLength: 1 }, n: { type: "integer", minimum: 0 }, count: { type: "integer", minimum: 0 } },
  };
  check(value: { event_type: string; n?: number; count?: number }, obs: Observation, ctx: CheckContext): void {
    count.check({ event_type: value.event_type, count: value.n ?? value.count ?? 0 }, obs, ctx);
  }
}

/**
 * `sentinel_node_event_emission_is_impl_defined: true` (observability 051): whether a
 * sentinel-namespaced NodeEvent (`node_name: openarmature.llm.complete`) accompanies each typed
 * LLM event is the implementation's choice; what holds either way is that a sentinel never
 * stands in for the typed event — the collector holds at least as many LlmCompletionEvents as
 * sentinel NodeEvents for completed calls.
 */
@directive({ name: "sentinel_node_event_emission_is_impl_defined", at: COLLECTOR_POSITION, home: "observability", section: "observability 051", summary: "a sentinel NodeEvent never replaces the typed LLM event" })
export class SentinelNodeEventEmissionIsImplDefined {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const v = obs.get(CollectorInView, ctx.locate(ctx.self.path));
    const sentinels = v.events.filter((e) => e.type === "NodeEvent" && e.record["node_name"] === "openarmature.llm.complete" && e.record["phase"] === "completed").length;
    const typed = v.events.filter((e) => e.type === "LlmCompletionEvent").length;
    const holds = typed >= 1 && typed >= sentinels;
    if (holds !== value) ctx.fail(`collector '${v.name}' holds ${typed} LlmCompletionEvent and ${sentinels} sentinel NodeEvents`);
  }
}
