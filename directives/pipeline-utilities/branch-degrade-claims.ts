/**
 * Named claims of fixtures 065 (branch-middleware degrade, §11.7) and 075 (a callable branch's
 * failure isolation), checked against the captured failure-isolation / node events and the final
 * state of the call.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { isNodeEvent } from "../../src/graph/index.ts";
import { isFailureIsolationEvent } from "../../src/pipeline/middleware/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";
import { CapturedEvents } from "../../harness/pipeline/facets.ts";

const HOME = "pipeline-utilities";
const schema = { type: "boolean" } as const;

function finalState(obs: Observation, ctx: CheckContext): Readonly<Record<string, unknown>> | null {
  const r = obs.get(F.Result, ctx.locate(ctx.self.path));
  if (r.kind === "completed") return r.state;
  ctx.fail(`the call did not complete: ${describeResult(r)}`);
  return null;
}
const isolations = (obs: Observation) => (obs.tryGet(CapturedEvents) ?? []).filter(isFailureIsolationEvent);
const nodeEventsOf = (obs: Observation) => (obs.tryGet(CapturedEvents) ?? []).filter(isNodeEvent);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** 075: a branch's isolation caught its failure and the degraded update is what reached the parent. */
@directive({ name: "callable_branch_failure_isolated_and_degraded", at: "invariant", home: HOME })
export class CallableBranchFailureIsolatedAndDegraded {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const state = finalState(obs, ctx);
    const evs = isolations(obs);
    const ok =
      state !== null &&
      evs.length === 1 &&
      Object.entries((evs[0]?.postState ?? {}) as Record<string, unknown>).every(([k, v]) => same(state[k], v));
    ctx.match(value, ok, null);
  }
}

/** 075: every branch other than the isolated one completed normally (a completed event with post_state). */
@directive({ name: "sibling_branch_completed", at: "invariant", home: HOME })
export class SiblingBranchCompleted {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = nodeEventsOf(obs);
    const branches = new Set(events.map((e) => e.branchName).filter((b): b is string => b !== undefined));
    const failed = new Set(events.filter((e) => e.phase === "completed" && e.error !== undefined).map((e) => e.branchName));
    const siblings = [...branches].filter((b) => !failed.has(b));
    const ok =
      finalState(obs, ctx) !== null &&
      siblings.length > 0 &&
      siblings.every((b) => events.some((e) => e.branchName === b && e.phase === "completed" && e.postState !== undefined));
    ctx.match(value, ok, null);
  }
}

/** 065: the degraded update did not cover the projected subgraph field, so nothing was projected for it. */
@directive({ name: "uncovered_projected_field_skipped", at: "invariant", home: HOME })
export class UncoveredProjectedFieldSkipped {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const state = finalState(obs, ctx);
    const evs = isolations(obs);
    const dispatch = nodeEventsOf(obs).find((e) => e.phase === "started" && e.namespace.length === 1 && e.parallelBranchesConfig !== undefined);
    const ok =
      state !== null &&
      evs.length > 0 &&
      dispatch !== undefined &&
      Object.keys(state).every((k) => same(state[k], dispatch.preState[k]));
    ctx.match(value, ok, null);
  }
}

/** 065: the parent field the branch would have written still holds its value from before the dispatch. */
@directive({ name: "parent_keeps_prior_value", at: "invariant", home: HOME })
export class ParentKeepsPriorValue {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const state = finalState(obs, ctx);
    const dispatch = nodeEventsOf(obs).find((e) => e.phase === "completed" && e.namespace.length === 1 && e.parallelBranchesConfig !== undefined);
    const ok = state !== null && dispatch?.postState !== undefined && same(dispatch.postState, dispatch.preState);
    ctx.match(value, ok, null);
  }
}
