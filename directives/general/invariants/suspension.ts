/**
 * Canonical suspension predicates (conformance-adapter §5.9): `started_followed_by_suspended_in_order`
 * and `no_completed_event_for_suspending_node` (graph-engine §6: per attempt, one `started` then
 * exactly one terminal event, `completed` and `suspended` mutually exclusive).
 */
import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import type { NodeEvent } from "../../../src/graph/index.ts";
import { scopedEvents } from "../../../harness/graph/invariant-scope.ts";

/** The identity of one attempt of one node execution. */
function attemptKey(e: NodeEvent): string {
  return JSON.stringify([e.namespace, e.fanOutIndexChain, e.branchNameChain, e.step, e.attemptIndex]);
}

/** Every suspended event in scope has its attempt's started event before it, with no event of that attempt between. */
@directive({ name: "started_followed_by_suspended_in_order", at: "invariant", home: "general", summary: "each suspended event follows its started event" })
export class StartedFollowedBySuspendedInOrder {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (!events) return;
    const suspended = events.filter((e) => e.phase === "suspended");
    const problems: string[] = [];
    if (suspended.length === 0) problems.push("no suspended event was observed");
    for (const s of suspended) {
      const key = attemptKey(s);
      const mine = events.filter((e) => attemptKey(e) === key);
      const order = mine.map((e) => e.phase).join(",");
      if (order !== "started,suspended") problems.push(`${s.namespace.join("/")} (step ${s.step}): events ${order}`);
    }
    ctx.match(value, problems.length === 0, null);
    if (value && problems.length > 0) ctx.fail(`started → suspended order broken: ${problems.join("; ")}`);
  }
}

/** No node attempt that suspended also produced a completed event. */
@directive({ name: "no_completed_event_for_suspending_node", at: "invariant", home: "general", summary: "a suspending node has no completed event" })
export class NoCompletedEventForSuspendingNode {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (!events) return;
    const suspended = events.filter((e) => e.phase === "suspended");
    const bad = suspended.filter((s) => events.some((e) => e.phase === "completed" && attemptKey(e) === attemptKey(s)));
    const holds = suspended.length > 0 && bad.length === 0;
    ctx.match(value, holds, null);
    if (value && !holds) {
      ctx.fail(suspended.length === 0 ? "no suspended event was observed" : `completed events for suspending node(s) ${bad.map((e) => e.namespace.join("/")).join(", ")}`);
    }
  }
}
