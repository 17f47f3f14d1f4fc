/**
 * The paused-invocation record (suspension §2, pipeline-utilities §10.15): the persisted state of
 * a suspended invocation, and its portable document form (the spec's snake_case field names).
 *
 * **Which states it holds.** `state` is the state of the graph owning the *resume point* — the
 * suspending node, or, when the call sat in a fan-out instance / parallel branch, the composite
 * node that suspends as a whole (§8.2 / §8.3) — taken at that node's entry; `parentStates` are its
 * containing graphs' states, outermost first (as in a checkpoint record). The invocation state of
 * §5 (what the suspended outcome reports and the signal payload merges into, §6) is
 * `parentStates[0] ?? state`: see {@link invocationState}.
 *
 * **Status.** `suspended` (resumable), `resumed` (a resume started: a second resume of the same
 * suspension is `suspension_record_invalid`), `completed` / `errored` (the resumed run ended). A run
 * that suspends again writes a fresh `suspended` record.
 */
import type { NodePosition } from "../checkpoint/record.ts";
import type { StateRecord } from "../graph/index.ts";
import { fromDescriptorDocument, toDescriptorDocument, type SignalDescriptor, type SignalDescriptorDocument } from "./descriptor.ts";

/** Lifecycle status of a paused-invocation record. */
export type PausedStatus = "suspended" | "resumed" | "completed" | "errored";

const STATUSES: readonly PausedStatus[] = ["suspended", "resumed", "completed", "errored"];

/** §2 paused-invocation record. */
export interface PausedInvocationRecord {
  /** The §10.15 record-type discriminator. */
  readonly recordType: "suspended";
  readonly status: PausedStatus;
  /** Reused verbatim by the resume (§7). */
  readonly invocationId: string;
  readonly correlationId: string;
  /** The descriptor, as returned on the outcome (annotated with `fan_out_index` / `branch_name`, §8.2 / §8.3). */
  readonly descriptor: SignalDescriptor;
  /** The outermost-graph node that suspended (§5 `node_name`; a subgraph / composite node for nested calls). */
  readonly nodeName: string;
  /** Full path from the outermost graph down to the node whose body called `suspend()` (§5 `namespace`). */
  readonly namespace: readonly string[];
  /** Where resume continues: the suspending node, or the composite containing the call (see module comment). */
  readonly resumePoint: NodePosition;
  /** §3: whether the resume point counts as completed (continue after it) or re-runs. */
  readonly markNodeCompleted: boolean;
  /** State of the resume point's graph at the node's entry. */
  readonly state: Readonly<StateRecord>;
  /** Containing graphs' states, outermost first (`resumePoint.namespace.length` of them). */
  readonly parentStates: readonly Readonly<StateRecord>[];
  /** Completed, merged positions before the pause (the resume point included when `markNodeCompleted`). */
  readonly completedPositions: readonly NodePosition[];
  /** The declared outermost state schema's `schemaVersion` (`""` when none). */
  readonly schemaVersion: string;
  /** Milliseconds since the epoch. */
  readonly suspendedAt: number;
  /** The next §6 step number (the resumed run continues the numbering). */
  readonly nextStep: number;
  /** The attempt index the suspending body ran with. */
  readonly attemptIndex: number;
  readonly graphName: string;
  /** The session bound to the invocation (sessions §8.6), if any. */
  readonly sessionId?: string;
  /** How many resumes preceded this suspension of the invocation. */
  readonly resumeCount: number;
}

/** A position in the spec's field names (as in a checkpoint record document). */
export interface PositionDocument {
  readonly namespace: readonly string[];
  readonly node_name: string;
  readonly step: number;
  readonly attempt_index: number;
  readonly fan_out_index?: number;
  readonly branch_name?: string;
}

/** The record in the spec's field names: the portable form stored by backends. */
export interface PausedInvocationRecordDocument {
  readonly record_type: "suspended";
  readonly status: PausedStatus;
  readonly invocation_id: string;
  readonly correlation_id: string;
  readonly descriptor: SignalDescriptorDocument;
  readonly node_name: string;
  readonly namespace: readonly string[];
  readonly resume_point: PositionDocument;
  readonly mark_node_completed: boolean;
  readonly state: Readonly<StateRecord>;
  readonly parent_states: readonly Readonly<StateRecord>[];
  readonly completed_positions: readonly PositionDocument[];
  readonly schema_version: string;
  readonly suspended_at: number;
  readonly next_step: number;
  readonly attempt_index: number;
  readonly graph_name: string;
  readonly session_id?: string;
  readonly resume_count: number;
}

/** §5 / §6: the invocation (outermost) state at the suspension point. */
export function invocationState(r: PausedInvocationRecord): Readonly<StateRecord> {
  return r.parentStates.length > 0 ? r.parentStates[0]! : r.state;
}

function positionToDoc(p: NodePosition): PositionDocument {
  const d: Record<string, unknown> = { namespace: p.namespace, node_name: p.nodeName, step: p.step, attempt_index: p.attemptIndex };
  if (p.fanOutIndex !== undefined) d["fan_out_index"] = p.fanOutIndex;
  if (p.branchName !== undefined) d["branch_name"] = p.branchName;
  return d as unknown as PositionDocument;
}

/** Render a record in the spec's field names (values shared, not copied). */
export function toPausedDocument(r: PausedInvocationRecord): PausedInvocationRecordDocument {
  const d: Record<string, unknown> = {
    record_type: "suspended",
    status: r.status,
    invocation_id: r.invocationId,
    correlation_id: r.correlationId,
    descriptor: toDescriptorDocument(r.descriptor),
    node_name: r.nodeName,
    namespace: r.namespace,
    resume_point: positionToDoc(r.resumePoint),
    mark_node_completed: r.markNodeCompleted,
    state: r.state,
    parent_states: r.parentStates,
    completed_positions: r.completedPositions.map(positionToDoc),
    schema_version: r.schemaVersion,
    suspended_at: r.suspendedAt,
    next_step: r.nextStep,
    attempt_index: r.attemptIndex,
    graph_name: r.graphName,
    resume_count: r.resumeCount,
  };
  if (r.sessionId !== undefined) d["session_id"] = r.sessionId;
  return d as unknown as PausedInvocationRecordDocument;
}

class Malformed extends TypeError {}

function bad(what: string): never {
  throw new Malformed(what);
}
function obj(x: unknown, at: string): Record<string, unknown> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) bad(`${at} must be a mapping`);
  return x as Record<string, unknown>;
}
function str(x: unknown, at: string, empty = false): string {
  if (typeof x !== "string" || (!empty && x.length === 0)) bad(`${at} must be a${empty ? "" : " non-empty"} string`);
  return x as string;
}
function int(x: unknown, at: string): number {
  if (typeof x !== "number" || !Number.isInteger(x) || x < 0) bad(`${at} must be a non-negative integer`);
  return x as number;
}
function list<T>(x: unknown, at: string, f: (v: unknown, at: string) => T): T[] {
  if (!Array.isArray(x)) bad(`${at} must be a list`);
  return (x as unknown[]).map((v, i) => f(v, `${at}[${i}]`));
}
function positionFromDoc(x: unknown, at: string): NodePosition {
  const p = obj(x, at);
  const out: { -readonly [K in keyof NodePosition]: NodePosition[K] } = {
    namespace: Object.freeze(list(p["namespace"] ?? [], `${at}.namespace`, (v, a) => str(v, a))),
    nodeName: str(p["node_name"], `${at}.node_name`),
    step: int(p["step"], `${at}.step`),
    attemptIndex: int(p["attempt_index"] ?? 0, `${at}.attempt_index`),
  };
  if (p["fan_out_index"] !== undefined && p["fan_out_index"] !== null) out.fanOutIndex = int(p["fan_out_index"], `${at}.fan_out_index`);
  if (p["branch_name"] !== undefined && p["branch_name"] !== null) out.branchName = str(p["branch_name"], `${at}.branch_name`);
  return Object.freeze(out);
}

/**
 * Read a record document. Throws `TypeError` naming the first structural problem (the store turns
 * it into `suspension_record_invalid`, reason `malformed`).
 */
export function fromPausedDocument(doc: unknown): PausedInvocationRecord {
  const d = obj(doc, "record");
  if (d["record_type"] !== "suspended") bad('record_type must be "suspended"');
  const status = d["status"];
  if (typeof status !== "string" || !STATUSES.includes(status as PausedStatus)) bad(`status must be one of ${STATUSES.join(", ")}`);
  const mark = d["mark_node_completed"];
  if (typeof mark !== "boolean") bad("mark_node_completed must be a boolean");
  let descriptor: SignalDescriptor;
  try {
    descriptor = fromDescriptorDocument(d["descriptor"]);
  } catch (e) {
    bad(`descriptor: ${(e as Error).message}`);
  }
  const suspendedAt = d["suspended_at"];
  if (typeof suspendedAt !== "number" || !Number.isFinite(suspendedAt)) bad("suspended_at must be a finite number");
  const r: Record<string, unknown> = {
    recordType: "suspended",
    status,
    invocationId: str(d["invocation_id"], "invocation_id"),
    correlationId: str(d["correlation_id"], "correlation_id"),
    descriptor: descriptor!,
    nodeName: str(d["node_name"], "node_name"),
    namespace: Object.freeze(list(d["namespace"], "namespace", (v, a) => str(v, a))),
    resumePoint: positionFromDoc(d["resume_point"], "resume_point"),
    markNodeCompleted: mark,
    state: obj(d["state"], "state"),
    parentStates: Object.freeze(list(d["parent_states"] ?? [], "parent_states", (v, a) => obj(v, a))),
    completedPositions: Object.freeze(list(d["completed_positions"] ?? [], "completed_positions", positionFromDoc)),
    schemaVersion: str(d["schema_version"] ?? "", "schema_version", true),
    suspendedAt,
    nextStep: int(d["next_step"], "next_step"),
    attemptIndex: int(d["attempt_index"] ?? 0, "attempt_index"),
    graphName: str(d["graph_name"] ?? "", "graph_name", true),
    resumeCount: int(d["resume_count"] ?? 0, "resume_count"),
  };
  if (d["session_id"] !== undefined) r["sessionId"] = str(d["session_id"], "session_id");
  const out = r as unknown as PausedInvocationRecord;
  if (out.parentStates.length !== out.resumePoint.namespace.length) {
    bad(`parent_states has ${out.parentStates.length} entries but the resume point is ${out.resumePoint.namespace.length} subgraph level(s) deep`);
  }
  return Object.freeze(out);
}

/** Is `e` a structural problem {@link fromPausedDocument} reported? */
export function isMalformedRecord(e: unknown): e is TypeError {
  return e instanceof Malformed;
}
