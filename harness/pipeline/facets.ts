/**
 * What the pipeline-utilities harness records per call, as typed facets on the call's observation
 * (conformance-adapter §8.4 *What an assertion reads*): the test middlewares' records, timing
 * captures, the events the adapter's own capture observer received, failure-mock call counters.
 */
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import type { ObserverEvent, StateRecord } from "../../src/graph/index.ts";
import type { TimingRecord } from "../../src/pipeline/middleware/index.ts";

/** One dispatch through a `trace_recorder` (pipeline-utilities note, fixture 001). */
export interface TraceRecord {
  /** The state the middleware received (snapshot at entry). */
  readonly state_in: Readonly<StateRecord>;
  /** Set when the pre-phase ran (always, once recorded). */
  pre_seen: boolean;
  /** Set when the post-phase ran (`next` returned). */
  post_seen: boolean;
  /** The middleware's `state` argument as seen in the post-phase (snapshot). */
  state_seen_in_post_phase?: Readonly<StateRecord>;
  /** The partial update the middleware returned. */
  partial_update_returned?: Readonly<Record<string, unknown>>;
  /** `state_inspector`: the input state was unchanged between entry and the post-phase. */
  state_unchanged?: boolean;
}

/** Trace / inspector records, by middleware name, in dispatch order. */
export const TraceRecords = new Facet<Map<string, TraceRecord[]>>("trace_recorder records");
/** Timing records by `on_complete.capture_to` name, in the order `on_complete` fired. */
export const TimingCaptures = new Facet<Map<string, TimingRecord[]>>("timing middleware captures");
/** Every event the adapter's capture observer received during the call, in delivery order. */
/**
 * What a declarative callback stand-in (`on_retry: {capture_to}`, `on_caught: {capture_to}`)
 * received, by capture name, in call order.
 */
export interface CallbackRecord {
  readonly callback: "on_retry" | "on_caught";
  /** `on_retry`: the failed attempt's 0-based index. */
  readonly attempt_index?: number;
  /** The §6.4 derived category of the error the callback received (`null` when uncategorized). */
  readonly category: string | null;
  /** The §6.4 derived message. */
  readonly message: string;
}
export const CallbackCaptures = new Facet<Map<string, CallbackRecord[]>>("middleware callback captures");

export const CapturedEvents = new Facet<ObserverEvent[]>("captured observer events");

/** One call of a callable `degraded_update` (§6.3): the state it received and what it returned. */
export interface DegradedCall {
  readonly eventName: string;
  readonly state: Readonly<StateRecord>;
  readonly returned: Readonly<Record<string, unknown>>;
}
export const DegradedCalls = new Facet<DegradedCall[]>("callable degraded_update calls");

/** Failure mocks (`flaky`): node-body invocations per node during the call. */
export const FlakyCalls = new Facet<Map<string, number>>("flaky call counters");

/** The facet's value on `obs`, created with `init` the first time. */
export function perCall<T>(obs: Observation, facet: Facet<T>, init: () => T): T {
  let v = obs.tryGet(facet);
  if (v === undefined) obs.set(facet, (v = init()));
  return v;
}
