/**
 * Named claims of the suspension fixtures (conformance-adapter §5 *Named claims*, §5.9): their
 * meaning comes from the fixture prose that uses them; each is checked against the real calls of
 * its block (the suspended outcome, the resumes, the paused-record backend, the node events and the
 * middleware log the harness recorded).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { withCheckpointer, type Checkpointer, type CheckpointRecord } from "../../src/checkpoint/index.ts";
import { lastWriteWins, type CompiledGraph, type NodeEvent, type StateRecord } from "../../src/graph/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { scopedEvents } from "../../harness/graph/invariant-scope.ts";
import { valuesEqual } from "../../harness/graph/values.ts";
import { MiddlewareLog, NodeEventsOfCall, PausedBackendAfterCall, type SuspendedCall } from "../../harness/suspension/facets.ts";
import { SessionCallFacet } from "../../harness/sessions/facets.ts";
import {
  callViews,
  categoryOfCall,
  claim,
  entryStateOf,
  resumesOf,
  show,
  unsupportedContextOf,
  type CallView,
} from "../../harness/suspension/claims.ts";

const HOME = "suspension";
const BOOL = { type: "boolean" } as const;

function firstSuspended(calls: readonly CallView[]): CallView | undefined {
  return calls.find((c) => c.suspended !== undefined);
}

/** 001: the first call returned the suspended outcome (not completed / errored). */
@directive({ name: "suspend_returns_suspended_outcome", at: "invariant", home: HOME })
export class SuspendReturnsSuspendedOutcome {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const first = callViews(obs, ctx)[0];
    claim(ctx, value, first?.result.kind === "suspended" && first.suspended !== undefined, () => `the first call ${first?.result.kind ?? "was not made"}`);
  }
}

/** 001: each resume ran its first node on a state carrying the payload's declared fields. */
@directive({ name: "resume_merges_signal_payload", at: "invariant", home: HOME })
export class ResumeMergesSignalPayload {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const resumes = resumesOf(callViews(obs, ctx));
    const bad: string[] = [];
    for (const { call } of resumes) {
      const entry = entryStateOf(call) ?? (call.result.kind === "completed" ? call.result.state : undefined);
      const payload = call.resume!.payload ?? {};
      for (const [k, v] of Object.entries(payload)) {
        if (entry === undefined || !valuesEqual(entry[k], v)) bad.push(`${k}: resumed with ${show(entry?.[k])}, payload ${show(v)}`);
      }
    }
    claim(ctx, value, resumes.length > 0 && bad.length === 0, () => (resumes.length === 0 ? "no suspension resume in the block" : bad.join("; ")));
  }
}

/** 001: the resume did not re-run the suspending node (mark_node_completed) — it started after it. */
@directive({ name: "resume_continues_after_suspending_node", at: "invariant", home: HOME })
export class ResumeContinuesAfterSuspendingNode {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const resumes = resumesOf(callViews(obs, ctx));
    const bad = resumes.filter(({ call, from }) => from === undefined || !from.suspended!.markNodeCompleted || call.executionOrder.includes(from.suspended!.nodeName));
    claim(ctx, value, resumes.length > 0 && bad.length === 0, () =>
      resumes.length === 0 ? "no suspension resume in the block" : `the resume ran ${bad.map((b) => show(b.call.executionOrder)).join(", ")}`,
    );
  }
}

/** Per payload field of each resume: the resumed state holds exactly the payload's value. */
function payloadOverwrites(calls: readonly CallView[], graph: CompiledGraph | undefined, reducerAware: boolean): { ok: boolean; why: string } {
  const resumes = resumesOf(calls);
  if (resumes.length === 0) return { ok: false, why: "no suspension resume in the block" };
  const bad: string[] = [];
  let reducerFields = 0;
  for (const { call, from } of resumes) {
    const entry = entryStateOf(call) ?? (call.result.kind === "completed" ? call.result.state : undefined);
    const prior = from?.result.kind === "suspended" ? from.result.state : undefined;
    for (const [k, v] of Object.entries(call.resume!.payload ?? {})) {
      if (entry === undefined || !valuesEqual(entry[k], v)) bad.push(`${k} resumed as ${show(entry?.[k])}, not the payload's ${show(v)}`);
      if (!reducerAware) continue;
      const field = graph?.schema.fields.get(k);
      if (field === undefined || field.reducer === (lastWriteWins as unknown)) continue;
      reducerFields++;
      const viaReducer = (field.reducer as (p: unknown, u: unknown) => unknown)(prior?.[k], v);
      if (valuesEqual(viaReducer, v)) bad.push(`${k}: its reducer would give the same value, so the claim is not exercised`);
    }
  }
  if (reducerAware && reducerFields === 0) bad.push("no payload field has a non-last-write-wins reducer");
  return { ok: bad.length === 0, why: bad.join("; ") };
}

/** 002: each payload field replaced the paused value directly. */
@directive({ name: "signal_payload_overwrites_field_directly", at: "invariant", home: HOME })
export class SignalPayloadOverwritesFieldDirectly {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const r = payloadOverwrites(callViews(obs, ctx), undefined, false);
    claim(ctx, value, r.ok, () => r.why);
  }
}

/** 002: for a field with a reducer, the resumed value is the payload's, not reducer(paused, payload). */
@directive({ name: "reducer_not_consulted_on_signal_merge", at: "invariant", home: HOME })
export class ReducerNotConsultedOnSignalMerge {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const calls = callViews(obs, ctx);
    const graph = calls[0]?.obs.tryGet(F.RootGraph);
    const r = payloadOverwrites(calls, graph, true);
    claim(ctx, value, r.ok, () => r.why);
  }
}

/** 003: the invalid-payload resume ran nothing and left the paused record resumable. */
@directive({ name: "invalid_payload_blocks_resume", at: "invariant", home: HOME })
export class InvalidPayloadBlocksResume {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const resumes = resumesOf(callViews(obs, ctx)).filter(({ call }) => call.result.kind === "errored");
    const bad = resumes.filter(({ call }) => {
      const after = call.obs.tryGet(PausedBackendAfterCall);
      return call.events.length > 0 || call.executionOrder.length > 0 || after?.paused?.status !== "suspended";
    });
    claim(ctx, value, resumes.length > 0 && bad.length === 0, () =>
      resumes.length === 0 ? "no resume in the block errored" : `a rejected resume ran nodes or consumed the paused record`,
    );
  }
}

/** 003: the resume's error category is suspension_resume_payload_invalid. */
@directive({ name: "error_category_is_resume_payload_invalid", at: "invariant", home: HOME })
export class ErrorCategoryIsResumePayloadInvalid {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const resumes = resumesOf(callViews(obs, ctx));
    const cats = resumes.map(({ call }) => categoryOfCall(call));
    claim(ctx, value, resumes.length > 0 && cats.every((c) => c === "suspension_resume_payload_invalid"), () => `resume categories: ${show(cats)}`);
  }
}

/** 004: every suspension resume of the block raised suspension_record_invalid. */
@directive({ name: "resume_against_non_suspended_raises_record_invalid", at: "invariant", home: HOME })
export class ResumeAgainstNonSuspendedRaisesRecordInvalid {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const resumes = callViews(obs, ctx).filter((c) => c.resume?.kind === "suspension");
    const cats = resumes.map((c) => categoryOfCall(c));
    claim(ctx, value, resumes.length > 0 && cats.every((c) => c === "suspension_record_invalid"), () => `resume categories: ${show(cats)}`);
  }
}

/** 004: each resume targeted a completed earlier invocation or an id no call produced, and was rejected. */
@directive({ name: "resume_covers_completed_and_never_existed_cases", at: "invariant", home: HOME })
export class ResumeCoversCompletedAndNeverExistedCases {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const calls = callViews(obs, ctx);
    const resumes = calls.filter((c) => c.resume?.kind === "suspension");
    const kinds = resumes.map((c) => {
      const target = calls.find((p) => p !== c && p.invocationId === c.resume!.invocationId);
      const kind = target === undefined ? "never_existed" : target.result.kind === "completed" ? "completed" : target.result.kind;
      return { kind, rejected: categoryOfCall(c) === "suspension_record_invalid" && c.resume!.pausedBefore === undefined };
    });
    const ok = resumes.length > 0 && kinds.every((k) => (k.kind === "completed" || k.kind === "never_existed") && k.rejected);
    claim(ctx, value, ok, () => `resume targets: ${show(kinds)}`);
  }
}

/** 005: an inner suspend suspended the whole outer invocation at the subgraph node. */
@directive({ name: "subgraph_suspend_propagates_to_outer", at: "invariant", home: HOME })
export class SubgraphSuspendPropagatesToOuter {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const s = firstSuspended(callViews(obs, ctx))?.suspended;
    claim(ctx, value, s !== undefined && s.namespace.length > 1 && s.namespace[0] === s.nodeName, () => `suspended outcome: ${show(s && { nodeName: s.nodeName, namespace: s.namespace })}`);
  }
}

/** 005: the resume re-entered the subgraph after the suspending inner node, re-running nothing before it. */
@directive({ name: "resume_re_enters_at_inner_post", at: "invariant", home: HOME })
export class ResumeReEntersAtInnerPost {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const calls = callViews(obs, ctx);
    const bad: string[] = [];
    const resumes = resumesOf(calls);
    for (const { call, from } of resumes) {
      const ns = from?.suspended?.namespace;
      const first = call.events[0];
      if (ns === undefined || first === undefined) {
        bad.push("no suspended call / no node ran on resume");
        continue;
      }
      const prefix = ns.slice(0, -1).join("/");
      if (first.namespace.slice(0, -1).join("/") !== prefix || first.namespace.join("/") === ns.join("/")) bad.push(`the resume began at ${first.namespace.join("/")}`);
      const before = new Set(from!.events.map((e) => e.namespace.join("/")));
      const rerun = call.events.filter((e) => before.has(e.namespace.join("/")));
      if (rerun.length > 0) bad.push(`re-ran ${rerun.map((e) => e.namespace.join("/")).join(", ")}`);
    }
    claim(ctx, value, resumes.length > 0 && bad.length === 0, () => bad.join("; ") || "no suspension resume in the block");
  }
}

/** 005: after the subgraph completed on resume, the outer graph continued past the subgraph node. */
@directive({ name: "after_subgraph_runs_post_resume", at: "invariant", home: HOME })
export class AfterSubgraphRunsPostResume {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const resumes = resumesOf(callViews(obs, ctx));
    const ok = resumes.length > 0 && resumes.every(({ call, from }) => {
      const node = from?.suspended?.nodeName;
      const i = node === undefined ? -1 : call.executionOrder.indexOf(node);
      return call.result.kind === "completed" && i >= 0 && call.executionOrder.length > i + 1;
    });
    claim(ctx, value, ok, () => `resumed execution order: ${show(resumes.map((r) => r.call.executionOrder))}`);
  }
}

/** 007 / 009: suspend() in a collect-mode composite was rejected when it ran (not at compile time). */
function collectRejected(value: boolean, obs: Observation, ctx: CheckContext, expected: string): void {
  const calls = callViews(obs, ctx);
  const ctxs = calls.map(unsupportedContextOf);
  claim(ctx, value, calls.length > 0 && calls.every((c) => c.result.kind === "errored") && ctxs.includes(expected), () => `calls: ${show(calls.map((c) => [c.result.kind, unsupportedContextOf(c)]))}`);
}

@directive({ name: "collect_mode_suspend_rejected_at_runtime", at: "invariant", home: HOME })
export class CollectModeSuspendRejectedAtRuntime {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    collectRejected(value, obs, ctx, "collect_fan_out");
  }
}

@directive({ name: "collect_mode_parallel_branches_suspend_rejected_at_runtime", at: "invariant", home: HOME })
export class CollectModeParallelBranchesSuspendRejectedAtRuntime {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    collectRejected(value, obs, ctx, "collect_parallel_branches");
  }
}

/** The parallel-branches node declaration of the case (fixture `nodes` entry), by node name. */
type Branches = Record<string, { outputs?: Record<string, string> }>;
type NodesDecl = Record<string, { parallel_branches?: { branches?: Branches } }>;

/**
 * The parallel-branches node a suspension's resume point names, wherever it is declared: in the
 * case's own graph (resume point at depth 0) or in a subgraph declaration (deeper) — with, for a
 * subgraph, its declared field defaults. The 008 claims hold by their plain meaning at any depth,
 * not only for a parallel-branches node of the outermost graph (the composite 008 uses).
 */
function branchesDeclaration(ctx: CheckContext, rp: { readonly nodeName: string; readonly namespace: readonly string[] }): { branches: Branches; defaults: Record<string, unknown> | null } | undefined {
  if (rp.namespace.length === 0) {
    const nodes = ctx.caseSpec.entries.find((e) => e.key === "nodes")?.value as NodesDecl | undefined;
    const branches = nodes?.[rp.nodeName]?.parallel_branches?.branches;
    return branches ? { branches, defaults: null } : undefined;
  }
  for (const decl of ctx.caseSpec.subgraphs.values()) {
    const branches = (decl.body["nodes"] as NodesDecl | undefined)?.[rp.nodeName]?.parallel_branches?.branches;
    if (!branches) continue;
    const fields = ((decl.body["state"] as { fields?: Record<string, { default?: unknown }> } | undefined)?.fields ?? {}) as Record<string, { default?: unknown }>;
    return { branches, defaults: Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.default ?? null])) };
  }
  return undefined;
}

/** 008: one branch's suspend suspended the parallel-branches node as a whole (the resume point is that node; the call sat inside it). */
@directive({ name: "single_branch_suspend_suspends_whole_parallel_branches", at: "invariant", home: HOME })
export class SingleBranchSuspendSuspendsWholeParallelBranches {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const s = firstSuspended(callViews(obs, ctx))?.suspended;
    const rp = s?.record.resumePoint;
    const depth = rp?.namespace.length ?? 0;
    const ok = s !== undefined && rp !== undefined && branchesDeclaration(ctx, rp) !== undefined && s.namespace.length > depth + 1 && s.namespace[depth] === rp.nodeName;
    claim(ctx, value, ok, () => `suspended outcome: ${show(s && { nodeName: s.nodeName, namespace: s.namespace, resumePoint: rp })}`);
  }
}

/**
 * 008: the sibling branches' contributions were discarded — in the state of the graph that owns
 * the parallel-branches node at the suspension point (the outermost state, or the paused record's
 * state for a nested node), their output fields kept their defaults. The same claim of a fan-out
 * (suspension §8.2: sibling instances are cancelled, consistently with `fail_fast` cancellation on
 * error, pipeline-utilities §9.5): the fan-out's output fields (`target_field`, and `errors_field`
 * / `count_field` when declared) hold, at the suspension point, the values the fan-out node
 * received (its `started` event's pre-state) — no instance's contribution was merged.
 */
@directive({ name: "siblings_cancelled_under_fail_fast", at: "invariant", home: HOME })
export class SiblingsCancelledUnderFailFast {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const c = firstSuspended(callViews(obs, ctx));
    const s = c?.suspended;
    const fanOut = s ? fanOutDeclaration(ctx, s.record.resumePoint) : undefined;
    if (c && s && fanOut) {
      fanOutSiblingsCancelled(value, c, s, fanOut, ctx);
      return;
    }
    const decl = s ? branchesDeclaration(ctx, s.record.resumePoint) : undefined;
    const graph = c?.obs.tryGet(F.RootGraph);
    if (!c || !s || !decl || !graph || c.result.kind !== "suspended") {
      claim(ctx, value, false, () => "no suspended parallel-branches or fan-out call in the block");
      return;
    }
    const defaults = decl.defaults ?? (graph.schema.create({}) as Readonly<StateRecord>);
    const state = decl.defaults === null ? c.result.state : s.record.state;
    const suspendingBranch = s.branchName;
    const leaked: string[] = [];
    for (const [name, b] of Object.entries(decl.branches)) {
      if (name === suspendingBranch) continue;
      for (const field of Object.keys(b.outputs ?? {})) {
        if (!valuesEqual(state[field], defaults[field])) leaked.push(`${name} → ${field} = ${show(state[field])}`);
      }
    }
    claim(ctx, value, leaked.length === 0, () => `sibling contributions merged: ${leaked.join(", ")}`);
  }
}

type FanOutDecl = { target_field?: string; errors_field?: string; count_field?: string };

/** The fan-out node a suspension's resume point names (outermost graph or a subgraph declaration). */
function fanOutDeclaration(ctx: CheckContext, rp: { readonly nodeName: string; readonly namespace: readonly string[] }): FanOutDecl | undefined {
  const nodesOf = (body: unknown): Record<string, { fan_out?: FanOutDecl }> | undefined => body as Record<string, { fan_out?: FanOutDecl }> | undefined;
  if (rp.namespace.length === 0) return nodesOf(ctx.caseSpec.entries.find((e) => e.key === "nodes")?.value)?.[rp.nodeName]?.fan_out;
  for (const decl of ctx.caseSpec.subgraphs.values()) {
    const f = nodesOf(decl.body["nodes"])?.[rp.nodeName]?.fan_out;
    if (f) return f;
  }
  return undefined;
}

function fanOutSiblingsCancelled(value: boolean, c: CallView, s: SuspendedCall, decl: FanOutDecl, ctx: CheckContext): void {
  const rp = s.record.resumePoint;
  const path = [...rp.namespace, rp.nodeName];
  const started = (c.obs.tryGet(NodeEventsOfCall) ?? []).find((e) => e.phase === "started" && valuesEqual(e.namespace, path));
  if (!started || c.result.kind !== "suspended") {
    claim(ctx, value, false, () => `no started event of the fan-out node ${path.join("/")} in the suspending call`);
    return;
  }
  // The state of the graph owning the fan-out at the suspension point: the outcome's for the outermost graph, else the paused record's.
  const state = rp.namespace.length === 0 ? c.result.state : s.record.state;
  const fields = [decl.target_field, decl.errors_field, decl.count_field].filter((f): f is string => f !== undefined);
  const merged = fields.filter((f) => !valuesEqual(state[f], started.preState[f])).map((f) => `${f}: ${show(started.preState[f])} at fan-out entry, ${show(state[f])} at suspension`);
  claim(ctx, value, fields.length > 0 && merged.length === 0, () => `sibling instance contributions merged: ${merged.join("; ")}`);
}

/** 008: the bubbled descriptor's metadata names the suspending branch. */
@directive({ name: "descriptor_carries_branch_name", at: "invariant", home: HOME })
export class DescriptorCarriesBranchName {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const s = firstSuspended(callViews(obs, ctx))?.suspended;
    claim(ctx, value, s?.branchName !== undefined && s.descriptor.metadata?.["branch_name"] === s.branchName, () => `descriptor ${show(s?.descriptor)}, suspending branch ${show(s?.branchName)}`);
  }
}

/** 010: every suspended event in scope carries a descriptor with a signal id. */
@directive({ name: "suspended_event_carries_descriptor", at: "invariant", home: HOME })
export class SuspendedEventCarriesDescriptor {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = scopedEvents(obs, ctx);
    if (!events) return;
    const suspended = events.filter((e: NodeEvent) => e.phase === "suspended");
    const ok = suspended.length > 0 && suspended.every((e) => typeof (e.descriptor as { signalId?: unknown } | undefined)?.signalId === "string");
    claim(ctx, value, ok, () => (suspended.length === 0 ? "no suspended event" : `descriptors: ${show(suspended.map((e) => e.descriptor))}`));
  }
}

/** 012: the suspending call saved the session (its suspend-time state) beside the paused record. */
@directive({ name: "session_saves_at_suspend_time", at: "invariant", home: HOME })
export class SessionSavesAtSuspendTime {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const c = firstSuspended(callViews(obs, ctx));
    const sc = c?.obs.tryGet(SessionCallFacet);
    const ok =
      c !== undefined &&
      c.result.kind === "suspended" &&
      sc?.reported?.savedSession?.savePoint === "suspended" &&
      sc.stats.save >= 1 &&
      sc.recordAfter !== null &&
      Object.entries(sc.recordAfter.state).every(([k, v]) => valuesEqual((c.result as { state: Record<string, unknown> }).state[k], v)) &&
      c.obs.tryGet(PausedBackendAfterCall)?.paused?.status === "suspended";
    claim(ctx, value, ok, () => `suspending call: session save ${show(sc?.reported?.savedSession)}, stored ${show(sc?.recordAfter?.state)}`);
  }
}

/** 012: the resume's session (loaded at entry) matches the paused record's state — both written at suspend. */
@directive({ name: "resume_sees_session_state_consistent_with_paused_record", at: "invariant", home: HOME })
export class ResumeSeesSessionStateConsistentWithPausedRecord {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const resumes = resumesOf(callViews(obs, ctx));
    const bad: string[] = [];
    for (const { call } of resumes) {
      const loaded = call.obs.tryGet(SessionCallFacet)?.reported?.loadedSessionState;
      const paused = call.resume!.pausedBefore;
      const state = paused ? (paused.parentStates[0] ?? paused.state) : undefined;
      if (!loaded || !state) bad.push(`loaded ${show(loaded)}, paused ${show(state)}`);
      else for (const [k, v] of Object.entries(loaded)) if (!valuesEqual(state[k], v)) bad.push(`${k}: session ${show(v)} vs paused ${show(state[k])}`);
    }
    claim(ctx, value, resumes.length > 0 && bad.length === 0, () => bad.join("; ") || "no suspension resume in the block");
  }
}

/** 013: after the suspend, the configured Checkpointer backend holds the paused record (its envelope). */
@directive({ name: "paused_record_persists_via_checkpointer_backend", at: "invariant", home: HOME })
export class PausedRecordPersistsViaCheckpointerBackend {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const c = firstSuspended(callViews(obs, ctx));
    const view = c?.obs.tryGet(PausedBackendAfterCall);
    claim(ctx, value, view?.recordType === "suspended" && view.paused?.status === "suspended", () => `backend after the suspend: ${view?.recordType ?? "not read"}`);
  }
}

/**
 * 013: the paused record is not a checkpoint record — a real pipeline-utilities §10.4 checkpoint
 * resume of the suspended id (against the record the backend held after the suspend) is refused.
 */
@directive({ name: "record_type_distinguishes_suspended_from_checkpointed", at: "invariant", home: HOME })
export class RecordTypeDistinguishesSuspendedFromCheckpointed {
  readonly schema = BOOL;
  async check(value: boolean, obs: Observation, ctx: CheckContext): Promise<void> {
    const c = firstSuspended(callViews(obs, ctx));
    const view = c?.obs.tryGet(PausedBackendAfterCall);
    const graph = c?.obs.tryGet(F.RootGraph);
    if (!c || !view?.raw || !graph || view.invocationId === null) {
      claim(ctx, value, false, () => "no paused record was held after the suspend");
      return;
    }
    const raw: CheckpointRecord = view.raw;
    const snapshot: Checkpointer = {
      save: async () => {},
      load: async (id) => (id === view.invocationId ? raw : undefined),
      list: async () => [],
      delete: async () => {},
    };
    let refused: string | null = null;
    try {
      await withCheckpointer(graph, snapshot).resume(view.invocationId);
    } catch (e) {
      refused = (e as { category?: string }).category ?? "uncategorized";
    }
    claim(ctx, value, view.recordType === "suspended" && refused === "checkpoint_record_invalid", () => `checkpoint resume of the paused id: ${refused === null ? "succeeded" : refused}`);
  }
}

/** The pre_log / post_log markers the case's wrap_with_middleware entries declare (all nodes). */
function declaredMarkers(ctx: CheckContext, key: "pre_log" | "post_log"): string[] {
  const nodes = (ctx.caseSpec.entries.find((e) => e.key === "nodes")?.value ?? {}) as Record<string, { wrap_with_middleware?: Array<Record<string, unknown>> } | null>;
  const out: string[] = [];
  for (const n of Object.values(nodes)) for (const m of n?.wrap_with_middleware ?? []) if (typeof m[key] === "string") out.push(m[key] as string);
  return out;
}

/** 014: on the suspending call, every wrapping middleware's pre-next() marker was recorded. */
@directive({ name: "middleware_pre_next_block_runs_on_suspending_node", at: "invariant", home: HOME })
export class MiddlewarePreNextBlockRunsOnSuspendingNode {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const c = firstSuspended(callViews(obs, ctx));
    const log = c?.obs.tryGet(MiddlewareLog) ?? [];
    const pre = declaredMarkers(ctx, "pre_log");
    claim(ctx, value, c !== undefined && pre.length > 0 && pre.every((m) => log.includes(m)), () => `suspending call's log ${show(log)}, declared pre markers ${show(pre)}`);
  }
}

/** 014: on the suspending call, no wrapping middleware's post-next() marker was recorded. */
@directive({ name: "middleware_post_next_block_skipped_on_suspending_node", at: "invariant", home: HOME })
export class MiddlewarePostNextBlockSkippedOnSuspendingNode {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const c = firstSuspended(callViews(obs, ctx));
    const log = c?.obs.tryGet(MiddlewareLog) ?? [];
    const post = declaredMarkers(ctx, "post_log");
    claim(ctx, value, c !== undefined && post.length > 0 && !post.some((m) => log.includes(m)), () => `suspending call's log ${show(log)}, declared post markers ${show(post)}`);
  }
}

/** 015: suspend() from middleware raised suspension_in_unsupported_context (the middleware context). */
@directive({ name: "middleware_suspend_raises_unsupported_context", at: "invariant", home: HOME })
export class MiddlewareSuspendRaisesUnsupportedContext {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const calls = callViews(obs, ctx);
    const ok = calls.length > 0 && calls.every((c) => categoryOfCall(c) === "suspension_in_unsupported_context" && unsupportedContextOf(c) === "middleware");
    claim(ctx, value, ok, () => `calls: ${show(calls.map((c) => [categoryOfCall(c), unsupportedContextOf(c)]))}`);
  }
}

/** 015: the node wrapped by the suspending middleware never executed (no event, no execution entry). */
@directive({ name: "wrapped_node_does_not_execute_after_middleware_suspend_attempt", at: "invariant", home: HOME })
export class WrappedNodeDoesNotExecuteAfterMiddlewareSuspendAttempt {
  readonly schema = BOOL;
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const nodes = (ctx.caseSpec.entries.find((e) => e.key === "nodes")?.value ?? {}) as Record<string, { wrap_with_middleware?: Array<Record<string, unknown>> } | null>;
    const wrapped = Object.entries(nodes)
      .filter(([, n]) => (n?.wrap_with_middleware ?? []).some((m) => "pre_next_calls_suspend_with_descriptor" in m))
      .map(([name]) => name);
    const calls = callViews(obs, ctx);
    const ran = calls.flatMap((c) => [...c.executionOrder, ...c.events.map((e) => e.namespace[e.namespace.length - 1]!)]).filter((n) => wrapped.includes(n));
    claim(ctx, value, wrapped.length > 0 && ran.length === 0, () => (wrapped.length === 0 ? "no node is wrapped by a suspending middleware" : `executed: ${show(ran)}`));
  }
}
