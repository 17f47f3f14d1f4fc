/**
 * Canonical drain predicates (conformance-adapter §5.9, graph-engine §6 *Drain*, *Per-invocation
 * drain*): `drain_returned_within_timeout`, `workers_not_cancelled_on_per_invocation_drain_timeout`.
 */
import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import * as F from "../../../harness/graph/facets.ts";
import { callsOf } from "../../../harness/graph/invariant-scope.ts";
import { nodeEvents } from "../../../harness/graph/reading.ts";
import type { TimedDrain } from "../../../harness/graph/drain-summary.ts";

/**
 * `drain_returned_within_timeout: <bool>`: every drain with a timeout in scope (the process-wide
 * `drain:` of a call, each node's `invoke_drain_events_for`) returned by its deadline. Decided by
 * the order of two timers, not by wall-clock time (see `TimedDrain.returnedByDeadline`): a drain
 * that keeps waiting for deliveries past its timer fails on any machine, and one that returns on
 * its timer passes however late a loaded machine runs it.
 */
@directive({ name: "drain_returned_within_timeout", at: "invariant", home: "general", summary: "every drain returned by its timeout" })
export class DrainReturnedWithinTimeout {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const drains: Array<TimedDrain & { where: string }> = [];
    for (const call of callsOf(obs)) {
      const d = call.tryGet(F.DrainResult);
      if (d) drains.push({ where: `drain of call ${call.label ?? ""}`.trim(), ...d });
      for (const [node, r] of call.tryGet(F.NodeDrains) ?? []) drains.push({ where: `node '${node}' drain`, ...r });
    }
    const timed = drains.filter((d) => d.timeoutMs !== null);
    if (timed.length === 0) {
      ctx.fail("no drain with a timeout ran in this scope");
      return;
    }
    const late = timed.filter((d) => d.returnedByDeadline === false);
    ctx.match(value, late.length === 0, null);
    for (const d of late) ctx.fail(`${d.where} was still waiting when its ${d.timeoutMs} ms timeout elapsed (returned after ${d.elapsedMs.toFixed(1)} ms)`);
  }
}

@directive({
  name: "workers_not_cancelled_on_per_invocation_drain_timeout",
  at: "invariant",
  home: "general",
  summary: "a timed-out drain_events_for never cancels delivery",
})
export class WorkersNotCancelled {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const timedOut = callsOf(obs).filter((c) => [...(c.tryGet(F.NodeDrains)?.values() ?? [])].some((r) => r.summary.timeoutReached));
    if (timedOut.length === 0) {
      ctx.fail("no per-invocation drain timed out in this scope, so nothing shows the workers survived one");
      return;
    }
    let intact = true;
    for (const call of timedOut) {
      const where = ctx.locate(ctx.self.path);
      const order = call.get(F.ExecutionOrder, where);
      for (const o of call.get(F.Observers, where).values()) {
        if (o.behavior === "raise") continue;
        const events = nodeEvents(o.eventsOf(call.get(F.CallIndex, where)));
        const completed = new Set(events.filter((e) => e.phase === "completed" && e.namespace.length === 1).map((e) => e.nodeName));
        const missing = order.filter((n) => !completed.has(n));
        if (missing.length > 0) {
          intact = false;
          ctx.fail(`observer '${o.name}' never received the completed events of ${missing.join(", ")} after the drain timed out`);
        }
      }
    }
    ctx.match(value, intact, null);
  }
}
