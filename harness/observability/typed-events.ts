/**
 * Typed-event collectors (conformance-adapter §5.5 `typed_observers`): real engine observers,
 * passed to every call of the case through `invoke({ observers })`, that retain every typed event
 * they receive (optionally only one family, `filter_event_type`) in their own storage — never in
 * graph state. After the call (delivery complete) the retained events become the call's
 * {@link TypedEvents} facet, which the `expected.observers` collector directives read as spec
 * records.
 */
import { SlotKey, type ConfigureContext } from "../../src/conformance/directive.ts";
import { Facet } from "../../src/conformance/observation.ts";
import { eventFamilyOf, eventTypeName, toSpecRecord, withCallerInvocationMetadata, type ObserverEvent } from "../../src/graph/index.ts";
import { GraphCaseHooksSlot } from "../graph/extensions.ts";

/** One retained event: its spec type name and its spec (snake_case) record. */
export interface CollectedEvent {
  readonly type: string;
  readonly record: Readonly<Record<string, unknown>>;
  readonly event: ObserverEvent;
}

/** What the collectors retained during one call, by collector name. */
export const TypedEvents = new Facet<ReadonlyMap<string, readonly CollectedEvent[]>>("typed-event collectors (§5.5 typed_observers)");

/** The collector a slot of `expected.observers` reads (set on the derived observation). */
export const CollectorInView = new Facet<{ readonly name: string; readonly events: readonly CollectedEvent[] }>("typed-event collector in view");

export interface CollectorDecl {
  readonly name: string;
  /** Retain only this family (a spec type name), or every typed event. */
  readonly filter: string | undefined;
  /** Opted into `caller_invocation_metadata` (observability §3.4): read events through `withCallerInvocationMetadata`. */
  readonly includeCallerMetadata: boolean;
}

export class TypedCollectorsState {
  readonly decls: CollectorDecl[] = [];
  readonly current = new Map<string, CollectedEvent[]>();
  used = false;
}

export const TypedCollectorsSlot = new SlotKey<TypedCollectorsState>("typed-event collectors", () => new TypedCollectorsState());

/** Register `decl` as a collector of every call of the case. */
export function addTypedCollector(ctx: ConfigureContext, decl: CollectorDecl): void {
  const state = ctx.slot(TypedCollectorsSlot);
  state.decls.push(decl);
  state.current.set(decl.name, []);
  if (state.used) return;
  state.used = true;
  const hooks = ctx.slot(GraphCaseHooksSlot);
  hooks.beforeCall.push(() => {
    for (const d of state.decls) state.current.set(d.name, []);
  });
  hooks.invokeOptions.push(() => ({
    observers: state.decls.map((d) => ({
      name: `typed_event_collector:${d.name}`,
      observer: (received: ObserverEvent) => {
        const event = d.includeCallerMetadata ? withCallerInvocationMetadata(received) : received;
        const type = eventTypeName(event);
        if (d.filter !== undefined && type !== d.filter) return;
        // A kind no family registered is retained under its raw kind (no assertion can name it).
        const record = eventFamilyOf(event) ? toSpecRecord(event) : { ...event };
        state.current.get(d.name)!.push({ type, record, event });
      },
    })),
  }));
  hooks.afterCall.push((call) => {
    call.observation.set(TypedEvents, new Map([...state.current].map(([k, v]) => [k, [...v]])));
  });
}
