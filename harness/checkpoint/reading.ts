/**
 * Reading a checkpoint case for assertions: which call is the first run and which the resume, the
 * ids they ran under, the fan-out instances and nodes a call dispatched, and the saved record.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { CheckpointRecordDocument } from "../../src/internal.ts";
import type { NodeEvent } from "../../src/graph/index.ts";
import * as F from "../graph/facets.ts";
import { describeResult } from "../graph/reading.ts";
import { CallCorrelationId, CallNodeEvents, CheckpointCallLog, ResumeSource, type CallKind } from "./facets.ts";

/** The observation of the case's first call of `kind` (first run, or the first resume), or why there is none. */
export function callOf(obs: Observation, kind: CallKind): Observation | string {
  const log = obs.tryGet(CheckpointCallLog) ?? obs.calls.find((c) => c.has(CheckpointCallLog))?.tryGet(CheckpointCallLog);
  if (log === undefined) {
    // Compilation failing before any call leaves no call log; say so rather than blame the case.
    const result = obs.tryGet(F.Result) ?? obs.calls.find((c) => c.has(F.Result))?.tryGet(F.Result);
    if (result?.kind === "compile_error") return `the case made no call: ${describeResult(result)}`;
    return "the case ran no checkpointed call (no 'checkpointer' / 'resume' harness was configured)";
  }
  const hit = log.calls.find((c) => c.kind === kind);
  return hit?.observation ?? (kind === "first_run" ? "the case made no first run" : "the case made no resume call");
}

/** The call's invocation id (`null` when it did not start). */
export function invocationIdOf(obs: Observation): string | null {
  return obs.tryGet(F.InvocationId) ?? null;
}

/** The call's correlation id. */
export function correlationIdOf(obs: Observation): string | null {
  return obs.tryGet(CallCorrelationId) ?? null;
}

/** Node events the call dispatched, in delivery order. */
export function callEvents(obs: Observation): readonly NodeEvent[] {
  return obs.tryGet(CallNodeEvents) ?? [];
}

/** A canonical UUIDv4 (observability §3.1, §5.1). */
export function isUuid4(v: unknown): boolean {
  return typeof v === "string" && /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(v);
}

/** The record the resume loaded (the stored record of the invocation it resumed), or why there is none. */
export function resumedRecord(obs: Observation): CheckpointRecordDocument | string {
  const src = obs.tryGet(ResumeSource);
  if (src === undefined) return "this call is not a resume";
  return src.record ?? `no record was stored for invocation '${src.invocationId}' when the resume began`;
}

/** The top-level fan-out of a call: its node, resolved instance count and the instances it dispatched. */
export interface TopFanOut {
  readonly node: string;
  readonly count: number;
  /** Instance index → that instance's node events (every nested level), in delivery order. */
  readonly dispatched: ReadonlyMap<number, readonly NodeEvent[]>;
}

/**
 * The outermost graph's fan-out node the call dispatched (its `started` event carries the §6
 * `fan_out_config`) and the instances it dispatched: an instance is dispatched when any node inside
 * it emitted an event in this call.
 */
export function topFanOut(obs: Observation): TopFanOut | string {
  const events = callEvents(obs);
  const heads = events.filter((e) => e.namespace.length === 1 && e.phase === "started" && e.fanOutConfig !== undefined);
  const names = [...new Set(heads.map((e) => e.nodeName))];
  if (names.length === 0) return "the call dispatched no fan-out node of the outermost graph";
  if (names.length > 1) return `the call dispatched ${names.length} outermost fan-out nodes (${names.join(", ")}); the instance lists address one`;
  const node = names[0]!;
  const count = heads[heads.length - 1]!.fanOutConfig!.itemCount;
  return { node, count, dispatched: instancesDispatched(events, [node]) };
}

/**
 * Instances of the fan-out at `path` (full namespace of the fan-out node) dispatched in `events`,
 * optionally inside a given enclosing fan-out chain (`chainPrefix`, the fan-out indices of the
 * enclosing boundaries, as on §6 `fan_out_index_chain`).
 */
export function instancesDispatched(events: readonly NodeEvent[], path: readonly string[], chainPrefix: readonly (number | null)[] = []): Map<number, NodeEvent[]> {
  const out = new Map<number, NodeEvent[]>();
  const depth = path.length - 1; // the boundary index of the fan-out node itself
  for (const e of events) {
    if (e.namespace.length <= path.length) continue;
    if (!path.every((s, i) => e.namespace[i] === s)) continue;
    if (!chainPrefix.every((x, i) => x === null || e.fanOutIndexChain[i] === x)) continue;
    const idx = e.fanOutIndexChain[depth];
    if (idx === null || idx === undefined) continue;
    let list = out.get(idx);
    if (!list) out.set(idx, (list = []));
    list.push(e);
  }
  return out;
}

/** The completed instance indices of a record's fan-out entry for `node` (and `lineageIndex` of its enclosing fan-out). */
export function completedInRecord(record: CheckpointRecordDocument, node: string, enclosing?: { node: string; index: number } | null): Set<number> {
  const out = new Set<number>();
  for (const e of record.fan_out_progress ?? []) {
    if (e.fan_out_node_name !== node) continue;
    const lineage = e.enclosing_fan_out_lineage ?? [];
    if (enclosing === null && lineage.length > 0) continue;
    if (enclosing !== undefined && enclosing !== null) {
      if (lineage.length !== 1 || lineage[0]!.fan_out_node_name !== enclosing.node || lineage[0]!.fan_out_index !== enclosing.index) continue;
    }
    e.instances.forEach((inst, i) => {
      if (inst.state === "completed") out.add(i);
    });
  }
  return out;
}

/**
 * Node executions of the call that are not composite dispatches (a subgraph, fan-out or
 * parallel-branches node is a dispatch: its inner nodes are listed instead), one per execution
 * (retry attempts of one execution are one), in the order they began.
 */
export function leafExecutions(events: readonly NodeEvent[]): NodeEvent[] {
  const key = (ns: readonly string[]): string => JSON.stringify(ns);
  const parents = new Set<string>();
  for (const e of events) for (let k = 1; k < e.namespace.length; k++) parents.add(key(e.namespace.slice(0, k)));
  return events.filter(
    (e) =>
      e.phase === "started" &&
      e.attemptIndex === 0 &&
      e.fanOutConfig === undefined &&
      e.parallelBranchesConfig === undefined &&
      !parents.has(key(e.namespace)),
  );
}

/** The call's error, or a mismatch reason when it did not raise. */
export function raisedError(obs: Observation, ctx: CheckContext): Error | string {
  const r = obs.get(F.Result, ctx.locate(ctx.self.path));
  if (r.kind === "errored" || r.kind === "compile_error") return r.error;
  return `the call did not raise: ${describeResult(r)}`;
}

/** The call's final state, or a mismatch reason when it did not complete. */
export function finalState(obs: Observation, ctx: CheckContext): Readonly<Record<string, unknown>> | string {
  const r = obs.get(F.Result, ctx.locate(ctx.self.path));
  return r.kind === "completed" ? r.state : `the call did not complete: ${describeResult(r)}`;
}
