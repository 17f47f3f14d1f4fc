/**
 * Named claims of the graph-engine fixtures (conformance-adapter §5 *Named claims*, §5.9): their
 * meaning comes from the fixture prose that uses them; each is checked against the real engine.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { callsOf, isInner, scopedEvents } from "../../harness/graph/invariant-scope.ts";
import { classify, describeResult, nodeEvents } from "../../harness/graph/reading.ts";

const HOME = "graph-engine";

/** 015: observer errors never reach the caller — invoke() returned normally. */
@directive({ name: "no_propagated_error", at: "expected", home: HOME })
export class NoPropagatedError {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if ((r.kind === "completed") !== value) ctx.fail(`expected no propagated error to be ${value}, but ${describeResult(r)}`);
  }
}

/** 018: registering an observer with an empty phases set raises at registration. */
@directive({ name: "empty_phases_raises_at_registration", at: "expected", home: HOME })
export class EmptyPhasesRaisesAtRegistration {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const graph = obs.get(F.RootGraph, ctx.locate(ctx.self.path));
    let raised = false;
    try {
      const detach = graph.attachObserver(() => {}, { phases: [] });
      detach();
    } catch {
      raised = true;
    }
    ctx.match(value, raised, null);
  }
}

/** 020: the named node produced no events at all. */
@directive({ name: "no_events_for_node", at: "invariant", home: HOME })
export class NoEventsForNode {
  readonly schema = { type: "string" };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    const n = events?.filter((e) => e.nodeName === value).length ?? 0;
    if (n > 0) ctx.fail(`node '${value}' produced ${n} events`);
  }
}

/** 020: an edge-resolution failure rides the preceding node's completed event (one pair, error set, no post_state). */
@directive({ name: "edge_resolution_failure_in_completed_event", at: "invariant", home: HOME })
export class EdgeResolutionFailureInCompletedEvent {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (!events) return;
    if (r.kind !== "errored") {
      ctx.fail(`expected an edge-resolution failure, but ${describeResult(r)}`);
      return;
    }
    const node = (r.error as { nodeName?: string }).nodeName;
    const mine = events.filter((e) => e.nodeName === node);
    const completed = mine.filter((e) => e.phase === "completed");
    const category = classify(r.error).category;
    const ok =
      (category === "routing_error" || category === "edge_exception") &&
      mine.length === 2 &&
      completed.length === 1 &&
      completed[0]?.error?.category === category &&
      completed[0]?.postState === undefined;
    ctx.match(value, ok, null);
  }
}

/** 021: events of the listed outermost nodes carry no branch_name. */
@directive({ name: "outermost_events_have_no_branch_name", at: "invariant", home: HOME })
export class OutermostEventsHaveNoBranchName {
  readonly schema = { type: "object", required: ["nodes"], additionalProperties: false, properties: { nodes: { type: "array", items: { type: "string" } } } };
  check(value: { nodes: string[] }, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (!events) return;
    for (const n of value.nodes) {
      const mine = events.filter((e) => e.nodeName === n && !isInner(e));
      if (mine.length === 0) ctx.fail(`no outermost events from node '${n}'`);
      if (mine.some((e) => e.branchName !== undefined)) ctx.fail(`node '${n}' events carry a branch_name`);
    }
  }
}

/** 021: each inner node's events carry the named branch. */
@directive({ name: "inner_events_carry_correct_branch_name", at: "invariant", home: HOME })
export class InnerEventsCarryCorrectBranchName {
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "string" } };
  check(value: Record<string, string>, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (!events) return;
    for (const [node, branch] of Object.entries(value)) {
      const mine = events.filter((e) => e.nodeName === node);
      if (mine.length === 0) ctx.fail(`no events from node '${node}'`);
      for (const e of mine) if (e.branchName !== branch) ctx.fail(`node '${node}' ${e.phase} event has branch_name ${JSON.stringify(e.branchName)}, expected '${branch}'`);
    }
  }
}

/** 022: after the drain timed out, the compiled graph still runs a fresh invocation to the same end. */
@directive({ name: "graph_state_intact_after_timeout", at: "invariant", home: HOME })
export class GraphStateIntactAfterTimeout {
  readonly schema = { type: "boolean" };
  async check(value: boolean, obs: Observation, ctx: CheckContext): Promise<void> {
    const where = ctx.locate(ctx.self.path);
    const first = obs.get(F.Result, where);
    const graph = obs.get(F.RootGraph, where);
    if (first.kind !== "completed") {
      ctx.fail(`the first call did not complete: ${describeResult(first)}`);
      return;
    }
    let intact = false;
    try {
      const again = await graph.invoke({});
      await graph.drainEventsFor(again.invocationId, { timeoutMs: 10_000 });
      intact = again.outcome === "completed" && JSON.stringify(again.state) === JSON.stringify(first.state);
    } catch (err) {
      ctx.fail(`re-invoking the graph failed: ${(err as Error).message}`);
    }
    ctx.match(value, intact, null);
  }
}

/** 024: the second call's drain saw only its own events — no residue from the first call's timed-out drain. */
@directive({ name: "second_invocation_drain_independent_of_first", at: "invariant", home: HOME })
export class SecondInvocationDrainIndependentOfFirst {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const calls = callsOf(obs);
    const second = calls[1];
    if (!second) {
      ctx.fail("needs two calls");
      return;
    }
    const where = ctx.locate(ctx.self.path);
    const d = second.get(F.DrainResult, where).summary;
    const id = second.get(F.InvocationId, where);
    const delivered = second.get(F.Deliveries, where);
    const foreign = delivered.filter((x) => x.event.invocationId !== id).length;
    const ok = !d.timeoutReached && d.undeliveredCount === 0 && foreign === 0 && delivered.length > 0;
    if (foreign > 0) ctx.fail(`${foreign} deliveries during the second call belonged to another invocation`);
    ctx.match(value, ok, null);
  }
}

/**
 * 025 (graph-engine §6 *Drain*, proposal 0010): every process-wide drain in scope returned only once
 * each declared observer had received every event of its call — none begun and unfinished when it
 * returned, none delivered after it, and at least one delivered. Read from the harness observers'
 * own delivery counts at the moment the drain returned, not from the drain's self-reported summary.
 */
@directive({ name: "drain_waited_for_all_events", at: "invariant", home: HOME, summary: "the process-wide drain returned only after every event was delivered" })
export class DrainWaitedForAllEvents {
  readonly schema = { type: "boolean" };
  async check(value: boolean, obs: Observation, ctx: CheckContext): Promise<void> {
    const where = ctx.locate(ctx.self.path);
    const drained = callsOf(obs).filter((c) => c.tryGet(F.DeliveriesAtDrainReturn) !== undefined);
    if (drained.length === 0) {
      ctx.fail("no call in this scope ran a process-wide drain (invoke.drain / an invocation's drain)");
      return;
    }
    const problems: string[] = [];
    for (const call of drained) {
      const atReturn = call.get(F.DeliveriesAtDrainReturn, where);
      const index = call.get(F.CallIndex, where);
      const id = call.get(F.InvocationId, where);
      // Let any delivery the drain did not wait for finish, then compare with what it had seen.
      if (id !== null) await call.get(F.RootGraph, where).drainEventsFor(id, { timeoutMs: 10_000 });
      let delivered = 0;
      for (const [name, o] of call.get(F.Observers, where)) {
        const then = atReturn.get(name) ?? { begun: 0, finished: 0 };
        const now = o.deliveryCounts(index);
        delivered += then.finished;
        if (then.begun > then.finished) {
          problems.push(`observer '${name}' was still receiving ${then.begun - then.finished} event(s) of call ${call.label ?? index} when the drain returned`);
        } else if (now.finished > then.finished) {
          problems.push(`observer '${name}' received ${now.finished - then.finished} event(s) of call ${call.label ?? index} after the drain returned`);
        }
      }
      if (delivered === 0) {
        problems.push(`no observer received any event of call ${call.label ?? index} before the drain returned`);
      }
    }
    if (value) for (const p of problems) ctx.fail(p);
    else ctx.match(value, problems.length === 0, null);
  }
}

/** 029: a node's drain_events_for returned without waiting for events dispatched after the call (its own completed). */
@directive({ name: "drain_returned_without_blocking_on_post_call_events", at: "invariant", home: HOME })
export class DrainReturnedWithoutBlocking {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const drains = [...obs.get(F.NodeDrains, ctx.locate(ctx.self.path))];
    if (drains.length === 0) {
      ctx.fail("no node ran invoke_drain_events_for");
      return;
    }
    const ok = drains.every(([node, r]) => !r.summary.timeoutReached && !r.snapshot.some((e) => e.nodeName === node && e.phase === "completed" && !isInner(e)));
    ctx.match(value, ok, null);
  }
}

/** 030: a call after a timed-out per-invocation drain completes and is fully delivered. */
@directive({ name: "graph_state_intact_after_per_invocation_drain_timeout", at: "invariant", home: HOME })
export class GraphStateIntactAfterPerInvocationDrainTimeout {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const where = ctx.locate(ctx.self.path);
    const r = obs.get(F.Result, where);
    const id = obs.get(F.InvocationId, where);
    const delivered = obs.get(F.Deliveries, where).filter((d) => d.event.invocationId === id);
    ctx.match(value, r.kind === "completed" && delivered.length > 0, null);
  }
}

/** 031: every call got a distinct invocation id. */
@directive({ name: "each_invocation_has_unique_invocation_id", at: "invariant", home: HOME })
export class EachInvocationHasUniqueInvocationId {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const ids = callsOf(obs).map((c) => c.get(F.InvocationId, ctx.locate(ctx.self.path)));
    ctx.match(value, ids.every((i) => i !== null) && new Set(ids).size === ids.length && ids.length > 1, null);
  }
}

/** 031: each node drain's snapshot holds only events of its own invocation. */
@directive({ name: "drain_scopes_strictly_to_supplied_invocation_id", at: "invariant", home: HOME })
export class DrainScopesStrictlyToSuppliedInvocationId {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    let ok = true;
    let any = false;
    for (const call of callsOf(obs)) {
      for (const [, r] of call.tryGet(F.NodeDrains) ?? []) {
        any = true;
        if (r.snapshot.some((e) => e.invocationId !== r.invocationId)) ok = false;
      }
    }
    if (!any) ctx.fail("no node drain ran in this scope");
    ctx.match(value, ok && any, null);
  }
}

/** 033: the end-of-branches node's drain covered the events of every parallel branch. */
@directive({ name: "drain_covered_all_parallel_branches_via_shared_invocation_id", at: "invariant", home: HOME })
export class DrainCoveredAllParallelBranches {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const where = ctx.locate(ctx.self.path);
    const drains = [...obs.get(F.NodeDrains, where).values()];
    const all = [...obs.get(F.Observers, where).values()].flatMap((o) => nodeEvents(o.eventsOf(obs.get(F.CallIndex, where))));
    const branches = new Set(all.map((e) => e.branchName).filter((b): b is string => b !== undefined));
    const covered = (snap: readonly NodeEvent[]): boolean =>
      [...branches].every((b) => snap.some((e) => e.branchName === b && e.phase === "completed"));
    ctx.match(value, branches.size > 0 && drains.some((d) => covered(d.snapshot)), null);
  }
}

/** 033: whether the node's own `<phase>` event is among the events in scope (a snapshot's started yes, completed no). */
@directive({ name: /(?<node>.+)_(?<phase>started|completed)_present/, at: "invariant", home: HOME })
export class NodePhasePresent {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (!events) return;
    const { node, phase } = ctx.self.groups as { node: string; phase: string };
    ctx.match(value, events.some((e) => e.nodeName === node && e.phase === phase), null);
  }
}
