/** Reading a failure isolation composed around a retry (§6.3 *three-piece pattern*, fixture 061). */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { FailureIsolationEvent } from "../../src/pipeline/middleware/index.ts";
import type { MiddlewareConfig } from "./case-state.ts";
import { chainAround, isolationConfig, wrappedNodeEvents } from "./claims.ts";

export interface Composition {
  readonly isolation: MiddlewareConfig;
  readonly retry: MiddlewareConfig;
  /** The isolation is outside the retry in the declared chain. */
  readonly isolationOuter: boolean;
  readonly maxAttempts: number;
  /** The wrapped node's attempts: started events, and completed events (with their errors). */
  readonly started: number;
  readonly failed: number;
  readonly succeeded: number;
}

/** The isolation and retry declared around the event's node, with what the node's attempts did. */
export function composition(obs: Observation, ctx: CheckContext, e: FailureIsolationEvent): Composition | string {
  const chain = chainAround(obs, ctx, e);
  const isolation = isolationConfig(chain, e.eventName);
  if (isolation === undefined) return `no failure_isolation '${e.eventName}' is configured around '${e.nodeName}'`;
  const retry = chain.find((c) => c.type === "retry");
  if (retry === undefined) return `no retry is configured around '${e.nodeName}'`;
  const events = wrappedNodeEvents(obs, ctx, e);
  return {
    isolation,
    retry,
    isolationOuter: chain.indexOf(isolation) < chain.indexOf(retry),
    maxAttempts: (retry.entry.max_attempts as number | undefined) ?? 3,
    started: events.filter((n) => n.phase === "started").length,
    failed: events.filter((n) => n.phase === "completed" && n.error !== undefined).length,
    succeeded: events.filter((n) => n.phase === "completed" && n.error === undefined).length,
  };
}
