/**
 * Typed event families (graph-engine §6 *typed event variants*): the registry that names each event
 * `kind` on the observer queue by its spec type name (`NodeEvent`, `LlmCompletionEvent`,
 * `EmbeddingEvent`, `ToolCallEvent`, ...) and renders an event as the spec's snake_case record.
 *
 * The capability that defines a kind registers its family next to the type, at module load:
 *
 * ```ts
 * declare module "../graph/events.ts" {
 *   interface ObserverEventMap { rerank: RerankEvent }
 * }
 * registerEventFamily({ typeName: "RerankEvent", kind: "rerank", toRecord: (e) => ({ ...lineageRecord(e), query: e.query }) });
 * ```
 *
 * Observers filter by type (`eventFamilyOf(event)?.typeName === "RerankEvent"`, or `event.kind`);
 * logs, JSON exports and the conformance collectors read {@link toSpecRecord}.
 */
import { toSpecEvent, type EventLineage, type ObserverEvent, type ObserverEventKind, type ObserverEventMap } from "./events.ts";

/** One typed event family: its spec type name, its queue `kind`, and its spec record. */
export interface EventFamily<K extends ObserverEventKind = ObserverEventKind> {
  /** The spec's type name, e.g. `LlmCompletionEvent` (graph-engine §6). */
  readonly typeName: string;
  /** The `kind` discriminator its events carry on the queue. */
  readonly kind: K;
  /** The spec (snake_case) record of an event: field names as graph-engine §6 tabulates them. */
  readonly toRecord: (event: ObserverEventMap[K]) => Readonly<Record<string, unknown>>;
}

const byType = new Map<string, EventFamily>();
const byKind = new Map<string, EventFamily>();

/**
 * Register a family. Registering the same type name for the same kind again is a no-op (a module
 * loaded twice); a type name or kind already registered differently is a `TypeError`.
 */
export function registerEventFamily<K extends ObserverEventKind>(family: EventFamily<K>): void {
  const t = byType.get(family.typeName);
  const k = byKind.get(family.kind);
  if (t !== undefined && t.kind === family.kind && k === t) return;
  if (t !== undefined) throw new TypeError(`event family '${family.typeName}' is already registered for kind '${t.kind}'`);
  if (k !== undefined) throw new TypeError(`event kind '${family.kind}' is already registered as '${k.typeName}'`);
  const f = Object.freeze({ ...family }) as unknown as EventFamily;
  byType.set(f.typeName, f);
  byKind.set(f.kind, f);
}

/** The family registered under a spec type name (`LlmCompletionEvent`), if any. */
export function eventFamilyByType(typeName: string): EventFamily | undefined {
  return byType.get(typeName);
}

/** The family of an event (by its `kind`), if registered. */
export function eventFamilyOf(event: { readonly kind: string }): EventFamily | undefined {
  return byKind.get(event.kind);
}

/** Every registered family, in registration order. */
export function eventFamilies(): readonly EventFamily[] {
  return [...byType.values()];
}

/** The spec type name of an event (`NodeEvent`, `LlmTokenEvent`, ...), or its raw `kind` when unregistered. */
export function eventTypeName(event: { readonly kind: string }): string {
  return byKind.get(event.kind)?.typeName ?? event.kind;
}

/** The spec (snake_case) record of an event. A `TypeError` for a kind no family registered. */
export function toSpecRecord(event: ObserverEvent): Readonly<Record<string, unknown>> {
  const f = byKind.get(event.kind);
  if (!f) throw new TypeError(`no event family is registered for kind '${event.kind}' (registerEventFamily)`);
  return (f.toRecord as (e: ObserverEvent) => Readonly<Record<string, unknown>>)(event);
}

/**
 * The event as an observer that opted into `caller_invocation_metadata` (observability §3.4) reads
 * it: a copy whose `callerInvocationMetadata` is the snapshot the event carries as
 * `invocationMetadata` (typed events emit it null — off by default). Other events come back unchanged.
 */
export function withCallerInvocationMetadata<E extends ObserverEvent>(event: E): E {
  const snapshot = (event as { readonly invocationMetadata?: unknown }).invocationMetadata;
  if (snapshot === undefined || !("callerInvocationMetadata" in event)) return event;
  return Object.freeze({ ...event, callerInvocationMetadata: snapshot }) as E;
}

/**
 * The §6 lineage of the code running now, copied from its node context (`currentNodeContext()`), for
 * a typed event emitted from inside a node: exactly the {@link EventLineage} fields.
 */
export function lineageOf(ctx: EventLineage): EventLineage {
  return {
    invocationId: ctx.invocationId,
    correlationId: ctx.correlationId,
    nodeName: ctx.nodeName,
    namespace: ctx.namespace,
    attemptIndex: ctx.attemptIndex,
    ...(ctx.fanOutIndex !== undefined ? { fanOutIndex: ctx.fanOutIndex } : {}),
    ...(ctx.branchName !== undefined ? { branchName: ctx.branchName } : {}),
    fanOutIndexChain: ctx.fanOutIndexChain,
    branchNameChain: ctx.branchNameChain,
  };
}

/**
 * The §6 identity / scoping baseline as spec fields, for a family's `toRecord`: `fan_out_index` /
 * `branch_name` are `null` outside a fan-out instance / branch (the spec's `int | null`).
 */
export function lineageRecord(e: EventLineage): Record<string, unknown> {
  return {
    invocation_id: e.invocationId,
    correlation_id: e.correlationId,
    ...nodeLineageRecord(e),
  };
}

/** The node-scoping half of {@link lineageRecord} (no invocation / correlation ids), in the spec's field names. */
export interface SpecNodeLineage {
  readonly node_name: string;
  readonly namespace: readonly string[];
  readonly attempt_index: number;
  readonly fan_out_index: number | null;
  readonly branch_name: string | null;
  readonly fan_out_index_chain: readonly (number | null)[];
  readonly branch_name_chain: readonly (string | null)[];
}

/**
 * Where a §6 event's node stands — name, namespace, attempt, fan-out / branch scope — without the
 * invocation's ids: {@link lineageRecord}'s fields after `correlation_id`, and the failure-isolation
 * event's `wrapped_node_lineage` (pipeline-utilities §6.3).
 */
export function nodeLineageRecord(e: EventLineage): SpecNodeLineage {
  return {
    node_name: e.nodeName,
    namespace: e.namespace,
    attempt_index: e.attemptIndex,
    fan_out_index: e.fanOutIndex ?? null,
    branch_name: e.branchName ?? null,
    ...chainsRecord(e),
  };
}

/** The §6 lineage chains (`fan_out_index_chain`, `branch_name_chain`), shared by the lineage records above and the metadata-augmentation record. */
function chainsRecord(e: Pick<EventLineage, "fanOutIndexChain" | "branchNameChain">): Pick<SpecNodeLineage, "fan_out_index_chain" | "branch_name_chain"> {
  return { fan_out_index_chain: e.fanOutIndexChain, branch_name_chain: e.branchNameChain };
}

registerEventFamily({ typeName: "NodeEvent", kind: "node", toRecord: (e) => toSpecEvent(e) as unknown as Readonly<Record<string, unknown>> });
registerEventFamily({
  typeName: "MetadataAugmentationEvent",
  kind: "metadata_augmentation",
  toRecord: (e) => ({
    invocation_id: e.invocationId,
    correlation_id: e.correlationId,
    node_name: e.nodeName ?? null,
    namespace: e.namespace ?? null,
    attempt_index: e.attemptIndex,
    ...chainsRecord(e),
    added: e.added,
  }),
});
