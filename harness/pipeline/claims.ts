/**
 * Shared reading for the pipeline-utilities named claims (conformance-adapter §5 *Named claims*,
 * §5.9): each claim computes, from the real observation, why it does not hold (or `null` when it
 * does), and {@link settle} compares that with the written boolean.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { NodeEvent, StateRecord } from "../../src/graph/index.ts";
import type { FailureIsolationEvent } from "../../src/pipeline/middleware/index.ts";
import * as F from "../graph/facets.ts";
import { causeChain, describeResult } from "../graph/reading.ts";
import { valuesEqual } from "../graph/values.ts";
import { chainFor, MiddlewareConfigs, type MiddlewareConfig } from "./case-state.ts";
import { capturedNodeEvents, failureIsolationEvents, noCallMade } from "./reading.ts";

/** Report a mismatch when the claim's truth (`reason === null`) differs from the written value. */
export function settle(value: boolean, ctx: CheckContext, reason: string | null, holds = "it holds"): void {
  if ((reason === null) === value) return;
  ctx.fail(value ? `${ctx.self.key}: ${reason}` : `${ctx.self.key}: expected the claim not to hold, but ${holds}`, { expected: value, actual: reason === null });
}

/** Why a named claim does not hold for the block's call, or `null` when it does. */
export type ClaimReason = (obs: Observation, ctx: CheckContext) => string | null;

/** A boolean named claim decided by one {@link ClaimReason}. */
export interface ReasonedClaimDirective {
  readonly schema: { readonly type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void;
}

/**
 * The base of a named claim whose truth is `reason(obs, ctx) === null`, {@link settle}d against the
 * written value: `@directive({...}) export class MyClaim extends ReasonedClaim(reason) {}`.
 */
export function ReasonedClaim(reason: ClaimReason): new () => ReasonedClaimDirective {
  return class {
    readonly schema = { type: "boolean" } as const;
    check(value: boolean, obs: Observation, ctx: CheckContext): void {
      settle(value, ctx, reason(obs, ctx));
    }
  };
}

/** The call's failure-isolation events, or a reason when there are none. */
export function caughtEvents(obs: Observation, ctx: CheckContext): FailureIsolationEvent[] | string {
  const none = noCallMade(obs);
  if (none !== null) return none;
  const events = failureIsolationEvents(obs, ctx);
  return events.length > 0 ? events : "the call emitted no failure-isolation event";
}

/** How the call ended, or null when it completed. */
export function notCompleted(obs: Observation, ctx: CheckContext): string | null {
  const r = obs.get(F.Result, ctx.locate(ctx.self.path));
  return r.kind === "completed" ? null : describeResult(r);
}

/** The declared middleware chain (outer to inner) around the node an event's lineage names. */
export function chainAround(obs: Observation, ctx: CheckContext, e: Pick<FailureIsolationEvent, "graphName" | "nodeName">): MiddlewareConfig[] {
  return chainFor(obs.get(MiddlewareConfigs, ctx.locate(ctx.self.path)), e.graphName, e.nodeName);
}

/** The failure-isolation entry of a chain whose `event_name` is the event's. */
export function isolationConfig(chain: readonly MiddlewareConfig[], eventName: string): MiddlewareConfig | undefined {
  return chain.find((c) => c.type === "failure_isolation" && c.entry.event_name === eventName);
}

/**
 * For a completed call with failure-isolation events: the first `reason(event, its failure_isolation
 * entry)` that is not null — or why there is nothing to check (no call, no event, not completed, an
 * event with no failure_isolation of its `event_name` around its node).
 */
export function firstCaughtReason(
  obs: Observation,
  ctx: CheckContext,
  reason: (e: FailureIsolationEvent, config: MiddlewareConfig) => string | null,
): string | null {
  const events = caughtEvents(obs, ctx);
  if (typeof events === "string") return events;
  const nc = notCompleted(obs, ctx);
  if (nc !== null) return nc;
  return firstReason(events, (e) => {
    const cfg = isolationConfig(chainAround(obs, ctx, e), e.eventName);
    return cfg === undefined ? `no failure_isolation '${e.eventName}' is configured around '${e.nodeName}'` : reason(e, cfg);
  });
}

/** The wrapped node's events (same namespace and fan-out / branch lineage as the isolation event). */
export function wrappedNodeEvents(obs: Observation, ctx: CheckContext, e: FailureIsolationEvent): NodeEvent[] {
  const same = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  return capturedNodeEvents(obs, ctx).filter(
    (n) => same(n.namespace, e.namespace) && same(n.fanOutIndexChain, e.fanOutIndexChain) && same(n.branchNameChain, e.branchNameChain),
  );
}

/**
 * Whether the final state reflects `update` merged over `pre` through the outermost graph's
 * declared reducers (the engine's own reducer functions): `null`, or why not.
 */
export function mergedIntoFinalState(obs: Observation, ctx: CheckContext, pre: Readonly<StateRecord>, update: Readonly<Record<string, unknown>>): string | null {
  const where = ctx.locate(ctx.self.path);
  const r = obs.get(F.Result, where);
  if (r.kind !== "completed") return describeResult(r);
  const schema = obs.get(F.RootGraph, where).schema;
  for (const [k, v] of Object.entries(update)) {
    const field = schema.fields.get(k);
    if (field === undefined) return `the update names '${k}', which is not a field of the outermost graph`;
    const expected = (field.reducer as unknown as (p: unknown, u: unknown) => unknown)(pre[k], v);
    if (!valuesEqual(r.state[k], expected)) {
      return `final state ${k} = ${JSON.stringify(r.state[k])}, but merging ${JSON.stringify(v)} through its reducer gives ${JSON.stringify(expected)}`;
    }
  }
  return null;
}

/**
 * The caught error's cause chain walked by the harness itself (independently of the library's
 * §6.4 primitive), outermost first: each link's category, message and carrier flag.
 */
export function walkedChain(error: unknown): Array<{ category: string | null; message: string; carrier: boolean }> {
  return causeChain(error).map((l) => ({ category: l.category, message: l.message, carrier: l.carrier }));
}

/** The first failing event's reason across `events`, or null. */
export function firstReason<T>(events: readonly T[], reason: (e: T) => string | null): string | null {
  for (const e of events) {
    const r = reason(e);
    if (r !== null) return r;
  }
  return null;
}
