/**
 * The typed-event collector assertions (conformance-adapter §5.5 *Typed-event collector
 * directives*), at the `collector` position — inside one `expected.observers.<collector>` slot —
 * each reading the spec records of the events that collector retained during the call.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { match, Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { eventFamilies, eventFamilyByType } from "../../src/graph/index.ts";
import { CollectorInView, type CollectedEvent } from "../../harness/observability/typed-events.ts";
import { show } from "../../harness/suspension/claims.ts";
import { COLLECTOR_POSITION } from "./typed-observers.ts";

const HOME = "general";
const SECTION = "conformance-adapter §5.5";
const EVENT_TYPE = { type: "string", minLength: 1 };

/**
 * How `contains_event.fields` (and every other per-event field matcher here) compares: named keys
 * with the §8.4 record null rule (a written null matches null or missing; a nested mapping needs a
 * present record), `request_params` / `request_extras` exact (§5.5).
 */
export const EVENT_FIELDS: Shape = Shapes.record({ keys: { request_params: Shapes.exact(), request_extras: Shapes.exact() } });

interface View {
  readonly name: string;
  readonly events: readonly CollectedEvent[];
}

function view(obs: Observation, ctx: CheckContext): View {
  return obs.get(CollectorInView, ctx.locate(ctx.self.path));
}

/** The records of `type` the collector retained, in delivery order; an unknown type fails the check. */
function recordsOf(v: View, type: string): Readonly<Record<string, unknown>>[] {
  return v.events.filter((e) => e.type === type).map((e) => e.record);
}

/** What a failure says about `type`: a name no family registers retains nothing. */
function unknownNote(type: string): string {
  return eventFamilyByType(type) ? "" : ` ('${type}' is not a typed event family; known: ${eventFamilies().map((f) => f.typeName).join(", ")})`;
}

function census(v: View): string {
  const counts = new Map<string, number>();
  for (const e of v.events) counts.set(e.type, (counts.get(e.type) ?? 0) + 1);
  return counts.size === 0 ? "nothing" : [...counts].map(([t, n]) => `${n} ${t}`).join(", ");
}

function countIs(v: View, type: string, want: number, ctx: CheckContext, label: string): void {
  const records = recordsOf(v, type);
  if (records.length !== want) ctx.fail(`${label}: collector '${v.name}' retained ${records.length} ${type} (expected ${want}; it retained ${census(v)})${unknownNote(type)}`, { expected: want, actual: records.length });
}

/** `fields` plus `fields_absent_keys` as one list entry (`absent_keys` is the in-entry §8.4 form). */
function entryOf(fields: Record<string, unknown> | undefined, absent: readonly string[] | undefined): Record<string, unknown> {
  return { ...(fields ?? {}), ...(absent && absent.length ? { absent_keys: absent } : {}) };
}

/** `contains_event: {event_type, fields?, fields_absent_keys?}` — some retained event of the type matches. */
@directive({ name: "contains_event", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "some retained event of event_type matches fields (§8.4 null rule; fields_absent_keys)" })
export class ContainsEvent {
  readonly schema = {
    type: "object",
    required: ["event_type"],
    additionalProperties: false,
    properties: { event_type: EVENT_TYPE, fields: { type: "object" }, fields_absent_keys: { type: "array", items: { type: "string" } } },
  };
  check(value: { event_type: string; fields?: Record<string, unknown>; fields_absent_keys?: string[] }, obs: Observation, ctx: CheckContext): void {
    const v = view(obs, ctx);
    const records = recordsOf(v, value.event_type);
    if (records.length === 0) {
      ctx.fail(`collector '${v.name}' retained no ${value.event_type} (it retained ${census(v)})${unknownNote(value.event_type)}`, { expected: value.event_type, actual: census(v) });
      return;
    }
    if (value.fields === undefined && value.fields_absent_keys === undefined) return;
    ctx.match([entryOf(value.fields, value.fields_absent_keys)], records, Shapes.list("existence", EVENT_FIELDS), `${ctx.label}.fields`);
  }
}

/** `contains_event_of_type: <EventType>` — at least one retained event of the type. */
@directive({ name: "contains_event_of_type", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "at least one retained event of the type" })
export class ContainsEventOfType {
  readonly schema = EVENT_TYPE;
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const v = view(obs, ctx);
    if (recordsOf(v, value).length === 0) ctx.fail(`collector '${v.name}' retained no ${value} (it retained ${census(v)})${unknownNote(value)}`, { expected: value, actual: census(v) });
  }
}

/** `contains_exactly_one_event_of_type: <EventType>`. */
@directive({ name: "contains_exactly_one_event_of_type", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "exactly one retained event of the type" })
export class ContainsExactlyOneEventOfType {
  readonly schema = EVENT_TYPE;
  check(value: string, obs: Observation, ctx: CheckContext): void {
    countIs(view(obs, ctx), value, 1, ctx, ctx.label);
  }
}

const COUNT_ENTRY = {
  type: "object",
  required: ["event_type", "count"],
  additionalProperties: false,
  properties: { event_type: EVENT_TYPE, count: { type: "integer", minimum: 0 } },
};

/** `event_count: {event_type, count}` — the number of retained events of one family (0: absent). */
@directive({ name: "event_count", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "count of retained events of one family" })
export class EventCount {
  readonly schema = COUNT_ENTRY;
  check(value: { event_type: string; count: number }, obs: Observation, ctx: CheckContext): void {
    countIs(view(obs, ctx), value.event_type, value.count, ctx, ctx.label);
  }
}

/** `event_counts: [{event_type, count}, ...]` — families not named are unconstrained. */
@directive({ name: "event_counts", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "counts of retained events per named family" })
export class EventCounts {
  readonly schema = { type: "array", minItems: 1, items: COUNT_ENTRY };
  check(value: Array<{ event_type: string; count: number }>, obs: Observation, ctx: CheckContext): void {
    const v = view(obs, ctx);
    value.forEach((e, i) => countIs(v, e.event_type, e.count, ctx, `${ctx.label}[${i}]`));
  }
}

/** `contains_events_in_order: {event_type, events}` — every retained event of the type, complete and in delivery order. */
@directive({ name: "contains_events_in_order", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "all retained events of the type, in delivery order" })
export class ContainsEventsInOrder {
  readonly schema = {
    type: "object",
    required: ["event_type", "events"],
    additionalProperties: false,
    properties: { event_type: EVENT_TYPE, events: { type: "array", items: { type: "object" } } },
  };
  check(value: { event_type: string; events: Record<string, unknown>[] }, obs: Observation, ctx: CheckContext): void {
    ctx.match(value.events, recordsOf(view(obs, ctx), value.event_type), Shapes.list("ordered", EVENT_FIELDS), `${ctx.label}.events`);
  }
}

/** `every_captured_event_has: {...}` — every retained event matches (vacuous when none: pair it with a count). */
@directive({ name: "every_captured_event_has", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "every retained event matches the fields" })
export class EveryCapturedEventHas {
  readonly schema = { type: "object", minProperties: 1 };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    view(obs, ctx).events.forEach((e, i) => ctx.match(value, e.record, EVENT_FIELDS, `${ctx.label}<event ${i}: ${e.type}>`));
  }
}

/** `captured_event_field_values_cover: {field, values}` — each value appears on some retained event. */
@directive({ name: "captured_event_field_values_cover", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "each listed value appears in the field of some retained event" })
export class CapturedEventFieldValuesCover {
  readonly schema = {
    type: "object",
    required: ["field", "values"],
    additionalProperties: false,
    properties: { field: { type: "string", minLength: 1 }, values: { type: "array", minItems: 1 } },
  };
  check(value: { field: string; values: unknown[] }, obs: Observation, ctx: CheckContext): void {
    const seen = view(obs, ctx).events.filter((e) => Object.hasOwn(e.record, value.field)).map((e) => e.record[value.field]);
    for (const want of value.values) {
      if (!seen.some((got) => match(want, got, EVENT_FIELDS).ok)) {
        ctx.fail(`no retained event has ${value.field} ${show(want)} (seen: ${show(seen)})`, { expected: want, actual: seen });
      }
    }
  }
}

/**
 * `relative_order_of_events_matching: {filter, expected_order}` — among the retained events that
 * match `filter` (arrival order), the `expected_order` matchers occur as a subsequence.
 */
@directive({ name: "relative_order_of_events_matching", at: COLLECTOR_POSITION, home: HOME, section: SECTION, summary: "the expected_order matchers occur, in order, among the events matching filter" })
export class RelativeOrderOfEventsMatching {
  readonly schema = {
    type: "object",
    required: ["filter", "expected_order"],
    additionalProperties: false,
    properties: { filter: { type: "object" }, expected_order: { type: "array", minItems: 1, items: { type: "object" } } },
  };
  check(value: { filter: Record<string, unknown>; expected_order: Record<string, unknown>[] }, obs: Observation, ctx: CheckContext): void {
    const v = view(obs, ctx);
    const kept = v.events.filter((e) => matchesEvent(value.filter, e));
    let at = 0;
    for (const [i, want] of value.expected_order.entries()) {
      while (at < kept.length && !matchesEvent(want, kept[at]!)) at++;
      if (at === kept.length) {
        ctx.fail(`expected_order[${i}] ${show(want)} does not occur after the earlier entries among the ${kept.length} events matching the filter`, {
          expected: value.expected_order,
          actual: kept.map((e) => ({ type: e.type, ...e.record })),
        });
        return;
      }
      at++;
    }
  }
}

/** A filter / order entry: its fields match the record; an `event_type` key names the family. */
function matchesEvent(entry: Record<string, unknown>, e: CollectedEvent): boolean {
  const { event_type: type, ...fields } = entry;
  if (type !== undefined && type !== e.type) return false;
  return match(fields, e.record, EVENT_FIELDS).ok;
}
