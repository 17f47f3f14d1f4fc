import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { eventFamilies, eventFamilyByType } from "../../src/graph/index.ts";
import { useOtelCapture } from "../../harness/observability/capture.ts";
import { addTypedCollector, CollectorInView, TypedCollectorsSlot, TypedEvents } from "../../harness/observability/typed-events.ts";

/** The `collector` position: the directives of one `expected.observers.<collector>` slot. */
export const COLLECTOR_POSITION = "collector";

/** A spec type name the registry knows, or `fixture_schema_invalid` naming the known ones. */
export function knownEventType(type: string, ctx: Pick<ConfigureContext, "locate">, path: ReadonlyArray<string | number>): string {
  if (eventFamilyByType(type)) return type;
  throw new FixtureSchemaInvalid(
    `'${type}' is not a typed event family (known: ${eventFamilies().map((f) => f.typeName).join(", ")})`,
    ctx.locate(path),
  );
}

/**
 * The event types a collector assertion names (`event_type` in a mapping or a list of them, or the
 * bare type of `contains_event_of_type` and its kin), with where each is written. Every one must
 * be a family graph-engine §6 defines: an assertion about a family that does not exist — even
 * `event_count: {count: 0}`, which would otherwise pass vacuously — is fixture_schema_invalid
 * (§5.5: "An event type is matched by name against the families graph-engine §6 defines").
 */
function eventTypesNamed(value: unknown, path: ReadonlyArray<string | number>): Array<[string, ReadonlyArray<string | number>]> {
  if (typeof value === "string") return [[value, path]];
  if (Array.isArray(value)) return value.flatMap((v, i) => (v !== null && typeof v === "object" && !Array.isArray(v) ? eventTypesNamed(v, [...path, i]) : []));
  if (value !== null && typeof value === "object") {
    const t = (value as Record<string, unknown>).event_type;
    return typeof t === "string" ? [[t, [...path, "event_type"]]] : [];
  }
  return [];
}

/**
 * `typed_observers:` (conformance-adapter §5.5 *Typed-event collector directives*): registers
 * `typed_event_collector`s — real observers retaining every graph-engine §6 typed event they
 * receive (or one family, `filter_event_type`) in their own storage, read back by
 * `expected.observers`. `include_caller_metadata: true` opts the collector into the events'
 * `caller_invocation_metadata` snapshot (observability §3.4; off by default).
 */
@directive({ name: "typed_observers", at: "case", home: "general", summary: "typed-event collectors (retain typed events; optional filter_event_type)" })
export class TypedObservers {
  readonly schema = {
    type: "array",
    minItems: 1,
    items: {
      type: "object",
      required: ["name", "kind"],
      additionalProperties: false,
      properties: {
        name: { type: "string", minLength: 1 },
        kind: { const: "typed_event_collector" },
        filter_event_type: { type: "string", minLength: 1 },
        include_caller_metadata: { type: "boolean" },
      },
    },
  };
  configure(value: Array<{ name: string; filter_event_type?: string; include_caller_metadata?: boolean }>, ctx: ConfigureContext): void {
    if (ctx.capability === "observability") useOtelCapture(ctx); // §6.3: every observability case runs with the OTel observer
    const state = ctx.slot(TypedCollectorsSlot);
    for (const [i, c] of value.entries()) {
      const path = [...ctx.self.path, i];
      if (state.decls.some((d) => d.name === c.name)) throw new FixtureSchemaInvalid(`typed_observers: collector name '${c.name}' is used twice`, ctx.locate([...path, "name"]));
      const filter = c.filter_event_type === undefined ? undefined : knownEventType(c.filter_event_type, ctx, [...path, "filter_event_type"]);
      addTypedCollector(ctx, { name: c.name, filter, includeCallerMetadata: c.include_caller_metadata === true });
    }
  }
}

/**
 * `expected.observers: {<collector>: {...}}` (conformance-adapter §5.5): each slot's directives
 * (resolved at the `collector` position) are checked against the events that collector retained
 * during the call.
 */
@directive({ name: "observers", at: "expected", home: "general", summary: "typed-event collector assertions, one slot per typed_observers collector" })
export class ExpectedObservers {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "object", minProperties: 1 } };
  configure(value: Record<string, Record<string, unknown>>, ctx: ConfigureContext): void {
    const declared = ctx.slot(TypedCollectorsSlot).decls;
    for (const [name, slot] of Object.entries(value)) {
      const path = [...ctx.self.path, name];
      if (!declared.some((d) => d.name === name)) {
        throw new FixtureSchemaInvalid(`expected.observers: '${name}' is not a typed_observers collector (declared: ${declared.map((d) => d.name).join(", ") || "none"})`, ctx.locate(path));
      }
      for (const r of ctx.resolve(COLLECTOR_POSITION, slot, path)) {
        if (typeof r.value === "string" && !r.key.endsWith("_of_type")) continue;
        for (const [type, at] of eventTypesNamed(r.value, r.path)) knownEventType(type, ctx, at);
      }
    }
  }
  async check(value: Record<string, Record<string, unknown>>, obs: Observation, ctx: CheckContext): Promise<void> {
    const all = obs.get(TypedEvents, ctx.locate(ctx.self.path));
    for (const [name, slot] of Object.entries(value)) {
      const path = [...ctx.self.path, name];
      const view = obs.derive().set(CollectorInView, { name, events: all.get(name) ?? [] });
      await ctx.checkAll(ctx.resolve(COLLECTOR_POSITION, slot, path), view);
    }
  }
}
