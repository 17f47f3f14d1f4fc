/**
 * Named claims of the parallel-branches fixtures 073 (inline-callable branches) and 074
 * (conditional `when`), checked against what the call produced: the callable-branch run counts the
 * harness records, the branch events it captures, and the final state.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { isNodeEvent } from "../../src/graph/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";
import { CapturedEvents } from "../../harness/pipeline/facets.ts";
import { BranchCalls } from "../general/parallel-branches.ts";
import { branchSpecs } from "../../harness/pipeline/fixture-nodes.ts";

const HOME = "pipeline-utilities";
const schema = { type: "boolean" } as const;

function completed(obs: Observation, ctx: CheckContext): Readonly<Record<string, unknown>> | null {
  const r = obs.get(F.Result, ctx.locate(ctx.self.path));
  if (r.kind === "completed") return r.state;
  ctx.fail(`the call did not complete: ${describeResult(r)}`);
  return null;
}
const runs = (obs: Observation): Map<string, number> => obs.tryGet(BranchCalls) ?? new Map();
const branchEvents = (obs: Observation, branch: string) =>
  (obs.tryGet(CapturedEvents) ?? []).filter(isNodeEvent).filter((e) => e.branchName === branch);

/** 073: the `call` branches ran (once each) as the branches' bodies, no subgraph involved. */
@directive({ name: "callable_branches_run_without_subgraph", at: "invariant", home: HOME })
export class CallableBranchesRunWithoutSubgraph {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = runs(obs);
    ctx.match(value, completed(obs, ctx) !== null && r.size > 0 && [...r.values()].every((n) => n === 1), null);
  }
}

/** 073: each callable branch's update reached the final state (merged through the parent reducers). */
@directive({ name: "contributions_merge_via_parent_reducer", at: "invariant", home: HOME })
export class ContributionsMergeViaParentReducer {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const state = completed(obs, ctx);
    const r = runs(obs);
    // Every field a callable branch's `call.update` writes holds that value after the merge.
    const written = callUpdates(ctx).filter(([b]) => r.has(b));
    const merged = state !== null && written.length > 0 && written.every(([, k, v]) => JSON.stringify(state[k]) === JSON.stringify(v));
    ctx.match(value, merged, null);
  }
}

/** 074: a branch whose `when` was false never ran. */
@directive({ name: "when_false_branch_skipped", at: "invariant", home: HOME })
export class WhenFalseBranchSkipped {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const declared = branchesOf(ctx);
    const r = runs(obs);
    const skipped = declared.filter((b) => !r.has(b));
    ctx.match(value, completed(obs, ctx) !== null && skipped.length > 0, null);
  }
}

/** 074: a skipped branch contributed nothing — the fields it would write keep their defaults. */
@directive({ name: "skipped_branch_no_contribution", at: "invariant", home: HOME })
export class SkippedBranchNoContribution {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = runs(obs);
    const skipped = branchesOf(ctx).filter((b) => !r.has(b));
    ctx.match(value, skipped.length > 0 && skipped.every((b) => branchEvents(obs, b).length === 0) && completed(obs, ctx) !== null, null);
  }
}

/** 074: a skipped branch produced no event at all. */
@directive({ name: "skipped_branch_emits_no_event", at: "invariant", home: HOME })
export class SkippedBranchEmitsNoEvent {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = runs(obs);
    const skipped = branchesOf(ctx).filter((b) => !r.has(b));
    ctx.match(value, skipped.length > 0 && skipped.every((b) => branchEvents(obs, b).length === 0), null);
  }
}

/** 074: with `when` true the branch dispatched alongside the others, each once. */
@directive({ name: "when_true_branch_dispatches", at: "invariant", home: HOME })
export class WhenTrueBranchDispatches {
  readonly schema = schema;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = runs(obs);
    const declared = branchesOf(ctx);
    ctx.match(value, declared.length > 0 && declared.every((b) => r.get(b) === 1 && branchEvents(obs, b).length > 0), null);
  }
}

/** `[branch, field, value]` for every field a callable branch's `call.update` writes. */
function callUpdates(ctx: CheckContext): Array<[string, string, unknown]> {
  const out: Array<[string, string, unknown]> = [];
  for (const [name, spec] of branchSpecs(ctx)) {
    const update = (spec.call as { update?: Record<string, unknown> } | undefined)?.update;
    if (update) for (const [k, v] of Object.entries(update)) out.push([name, k, v]);
  }
  return out;
}

/** The branch names of the case's parallel_branches node(s), from the fixture. */
function branchesOf(ctx: CheckContext): string[] {
  return branchSpecs(ctx).map(([name]) => name);
}
