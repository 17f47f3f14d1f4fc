/**
 * What a graph call produced, as typed facets (conformance-adapter §8.4 *What an assertion reads*).
 * The graph executor fills them; the general assertions read them.
 */
import { Facet } from "../../src/conformance/observation.ts";
import type { CompiledGraph, CompileError, CompileWarning, NodeEvent, StateRecord } from "../../src/graph/index.ts";
import type { Delivery, HarnessObserver } from "../observers.ts";
import type { TimedDrain } from "./drain-summary.ts";

/** How the call ended (graph-engine §3 outcomes), or that compilation failed before it. */
export type CallResult =
  | { readonly kind: "completed"; readonly state: Readonly<StateRecord> }
  | { readonly kind: "suspended"; readonly state: Readonly<StateRecord>; readonly nodeName: string; readonly descriptor: unknown }
  | { readonly kind: "errored"; readonly error: Error }
  | { readonly kind: "compile_error"; readonly error: CompileError | Error };

export const Result = new Facet<CallResult>("call result");
/**
 * The uncategorized error `invoke()` raised at its API boundary, before any invocation existed
 * (per-language idiom, e.g. observability §3.4's reserved metadata keys: a `RangeError`); set only
 * when a directive asked for it (`GraphCaseHooks.acceptBoundaryRejection`).
 */
export const BoundaryRejection = new Facet<Error>("invoke() API-boundary rejection");
export const ExecutionOrder = new Facet<readonly string[]>("execution order");
export const CompileWarnings = new Facet<readonly CompileWarning[]>("compile warnings");
export const InvocationId = new Facet<string | null>("invocation id");
/** The harness observers of the case, by name (§6.1). */
export const Observers = new Facet<ReadonlyMap<string, HarnessObserver>>("observers");
/** Index of this call among the case's calls (observer buckets are keyed by it). */
export const CallIndex = new Facet<number>("call index");
/** Every delivery to a declared observer during this call, in the order deliveries began. */
export const Deliveries = new Facet<readonly Delivery[]>("observer deliveries");
/** The process-wide drain's summary when the invoke block asked for one (graph-engine §6). */
export const DrainResult = new Facet<TimedDrain>("drain summary");
/** Per observer: its deliveries of this call's events (begun, run to their end) when the process-wide drain returned. */
export const DeliveriesAtDrainReturn = new Facet<ReadonlyMap<string, { readonly begun: number; readonly finished: number }>>("deliveries when the drain returned");
/** Per node: what its invoke_drain_events_for returned and the accumulator snapshot it took. */
export const NodeDrains = new Facet<ReadonlyMap<string, NodeDrainRecord>>("per-invocation drain records");
/** The compiled outermost graph (for claims that exercise its public API). */
export const RootGraph = new Facet<CompiledGraph>("compiled graph");
/** Where a registration-time error (e.g. an empty phases list) was raised, by observer name. */
export const RegistrationErrors = new Facet<ReadonlyMap<string, Error>>("observer registration errors");

export interface NodeDrainRecord extends TimedDrain {
  readonly observer: string | null;
  readonly snapshot: readonly NodeEvent[];
  /** Events of the same observer delivered by the end of the call (for snapshot semantics). */
  readonly invocationId: string;
}

/** The node events an invariant block evaluates (an observer's events, or an accumulator snapshot). */
export const InvariantEvents = new Facet<readonly NodeEvent[]>("events in invariant scope");
