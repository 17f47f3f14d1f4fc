/**
 * Reading a pipeline-utilities call for assertions: the events the capture observer received
 * (node events, failure-isolation events), their spec-named records, and the matcher shapes.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { isNodeEvent, type NodeEvent, type ObserverEvent } from "../../src/graph/index.ts";
import { isFailureIsolationEvent, type FailureIsolationEvent } from "../../src/pipeline/middleware/index.ts";
import { toSpecFailureIsolationEvent } from "../../src/internal.ts";
import * as F from "../graph/facets.ts";
import { classify, describeResult, EVENT_SHAPE, eventRecord } from "../graph/reading.ts";
import { CapturedEvents } from "./facets.ts";

/**
 * Every event the capture observer received during the call, in delivery order. A case whose
 * graph never compiled made no call: that is reported as the mismatch (and nothing was captured).
 */
export function capturedEvents(obs: Observation, ctx: CheckContext): readonly ObserverEvent[] {
  const none = noCallMade(obs);
  if (none !== null) {
    ctx.fail(none);
    return [];
  }
  return obs.get(CapturedEvents, ctx.locate(ctx.self.path));
}

/** Why the case made no call (its graph did not compile), or null. */
export function noCallMade(obs: Observation): string | null {
  const r = obs.tryGet(F.Result);
  return r?.kind === "compile_error" && !obs.has(CapturedEvents) ? `no call was made: ${describeResult(r)}` : null;
}

/** Node events the capture observer received during the call, in delivery order. */
export function capturedNodeEvents(obs: Observation, ctx: CheckContext): NodeEvent[] {
  return capturedEvents(obs, ctx).filter(isNodeEvent) as NodeEvent[];
}

/** Failure-isolation events (§6.3) the capture observer received during the call, in delivery order. */
export function failureIsolationEvents(obs: Observation, ctx: CheckContext): FailureIsolationEvent[] {
  return capturedEvents(obs, ctx).filter(isFailureIsolationEvent);
}

/**
 * A node event entry as pipeline-utilities fixtures write it: `error` may be the bare §4 category
 * (`error: node_exception`), shorthand for `error: {category: node_exception}` (§5.8 writes the
 * event error as `{category}`).
 */
export function normalizeEventEntry(entry: unknown): unknown {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return entry;
  const e = entry as Record<string, unknown>;
  return typeof e.error === "string" ? { ...e, error: { category: e.error } } : e;
}

/** A node event with `error_category`: its error's category by the §5.8 category rule. */
export function attemptRecord(e: NodeEvent): Record<string, unknown> {
  const r = eventRecord(e);
  return e.error !== undefined ? { ...r, error_category: classify(e.error).category } : r;
}

export { EVENT_SHAPE };

/**
 * A failure-isolation event entry: named keys; `pre_state` is a state snapshot and `post_state`
 * the degraded update, both exact (§5.8); lineage namespace and the cause chain compare as whole
 * ordered lists whose links match by the keys written (a carrier link asserts only
 * `{carrier, category}`).
 */
export const FAILURE_ISOLATION_EVENT_SHAPE: Shape = Shapes.named({
  keys: {
    pre_state: Shapes.exact(),
    post_state: Shapes.exact(),
    wrapped_node_lineage: Shapes.named({ keys: { namespace: Shapes.list("ordered") } }),
    caught_exception: Shapes.named({ keys: { chain: Shapes.list("ordered", Shapes.named()) } }),
  },
});

interface Link {
  readonly carrier?: unknown;
}

/**
 * The observed chain as the written one addresses it: §8.4 lets one written carrier link match a
 * run of carriers, so unless the written chain itself lists consecutive carriers, each run of
 * consecutive carrier links collapses to its outermost link.
 */
export function chainAsWritten(written: readonly unknown[] | undefined, observed: readonly Link[]): readonly Link[] {
  if (written === undefined) return observed;
  const isCarrier = (l: unknown): boolean => typeof l === "object" && l !== null && (l as Link).carrier === true;
  const writtenRuns = written.some((l, i) => i > 0 && isCarrier(l) && isCarrier(written[i - 1]));
  if (writtenRuns) return observed;
  return observed.filter((l, i) => !(l.carrier === true && i > 0 && observed[i - 1]?.carrier === true));
}

/** A failure-isolation event as the fixtures write it, its chain arranged against `written`. */
export function failureIsolationRecord(e: FailureIsolationEvent, written?: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const r = toSpecFailureIsolationEvent(e);
  const writtenChain = (written?.caught_exception as { chain?: unknown[] } | undefined)?.chain;
  return { ...r, caught_exception: { ...r.caught_exception, chain: chainAsWritten(writtenChain, r.caught_exception.chain) } };
}
