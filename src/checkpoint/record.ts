/**
 * The checkpoint record (pipeline-utilities §10.2) and its per-instance fan-out progress (§10.11).
 *
 * {@link CheckpointRecord} is the typed, in-memory object the engine hands to `Checkpointer.save`
 * (TypeScript field names); {@link CheckpointRecordDocument} is the same record in the spec's
 * snake_case field names — the portable form the SQLite backend stores and the form conformance
 * fixtures write (`seeded_record`). {@link toRecordDocument} / {@link fromRecordDocument} convert;
 * {@link validateRecord} checks a record's structure (a failure is `checkpoint_record_invalid`).
 *
 * **Which state the record carries.** `state` is the state of the graph that owns the latest
 * resumable save point and `parentStates` the states of its containing graphs, outermost first
 * (§10.2, graph-engine §6): for a save at an outermost node, `state` is the outermost state and
 * `parentStates` is empty; for a save inside a subgraph, `state` is the subgraph's state and
 * `parentStates[0]` the outermost (fixture 043). Saves inside a fan-out instance or a parallel
 * branch do not move the save point — the composite node re-runs on resume, skipping completed
 * fan-out instances (§10.7) — so they carry the state the composite node was dispatched with,
 * plus `fanOutProgress`.
 */
import type { StateRecord } from "../graph/index.ts";
import { CheckpointRecordInvalidError } from "./errors.ts";

/**
 * One completed, merged node attempt (§10.2 `completed_positions` entry). `namespace` is the
 * namespace of the graph containing the node — `[]` for an outermost node, `["sub"]` for node `x`
 * of the subgraph run by node `sub` (the fixtures' convention; the node's full §6 namespace is
 * `[...namespace, nodeName]`). `step` is the invocation-wide §6 step; `fanOutIndex` / `branchName`
 * are present inside a fan-out instance / parallel branch (innermost, as on the §6 event).
 */
export interface NodePosition {
  readonly namespace: readonly string[];
  readonly nodeName: string;
  readonly step: number;
  readonly attemptIndex: number;
  readonly fanOutIndex?: number;
  readonly branchName?: string;
}

/** §10.11 per-instance status. */
export type FanOutInstanceState = "completed" | "in_flight" | "not_started";

/** §10.11 one instance of an in-flight fan-out. */
export interface FanOutInstanceProgress {
  readonly state: FanOutInstanceState;
  /**
   * `completed` only: the instance's durable contribution — the `target_field` value, or (under
   * `collect`, `resultIsError: true`) the `errors_field` entry. Absent otherwise.
   */
  readonly result?: unknown;
  /** `true` when {@link result} rolls forward into `errors_field`; always `false` unless `completed`. */
  readonly resultIsError: boolean;
  /**
   * Extension, `completed` only: the instance's other per-instance contributions (§9.3
   * `extra_outputs`: parent field → value), rolled forward with {@link result}.
   */
  readonly extraOutputs?: Readonly<Record<string, unknown>>;
  /** `in_flight` only: the instance's completed inner node attempts so far (informational, §10.7). */
  readonly completedInnerPositions?: readonly NodePosition[];
}

/** §10.11 one enclosing fan-out instance: `{namespace, fan_out_node_name, fan_out_index}`. */
export interface FanOutLineageElement {
  /** Namespace of the graph containing the enclosing fan-out node. */
  readonly namespace: readonly string[];
  readonly fanOutNodeName: string;
  readonly fanOutIndex: number;
}

/**
 * §10.11 progress of one in-flight fan-out, keyed by `(namespace, fanOutNodeName,
 * enclosingFanOutLineage)`. `namespace` is the namespace of the graph containing the fan-out node
 * (`[]` for a fan-out in the outermost graph; fixture 076).
 */
export interface FanOutProgressEntry {
  readonly namespace: readonly string[];
  readonly fanOutNodeName: string;
  readonly instanceCount: number;
  /** Enclosing fan-out instances, outermost first; absent / empty when not nested in a fan-out instance. */
  readonly enclosingFanOutLineage?: readonly FanOutLineageElement[];
  /** Indexed by `fan_out_index`, `instanceCount` long. */
  readonly instances: readonly FanOutInstanceProgress[];
}

/** §10.2 the checkpoint record. */
export interface CheckpointRecord {
  /** The invocation this record belongs to (a resumed run saves under its own, fresh id). */
  readonly invocationId: string;
  /** Stable across resume (§10.4 step 3). */
  readonly correlationId: string;
  /** Post-merge state at the save point (see the module comment for which graph's state). */
  readonly state: Readonly<StateRecord>;
  /** Completed, merged node attempts in completion order (carried forward across resume). */
  readonly completedPositions: readonly NodePosition[];
  /** Containing graphs' states, outermost first; `[]` at an outermost save point. */
  readonly parentStates: readonly Readonly<StateRecord>[];
  /** The declared outermost state schema's `schemaVersion` (`""` when it declares none). */
  readonly schemaVersion: string;
  /** Milliseconds since the epoch (fractional); strictly increasing per invocation. */
  readonly lastSavedAt: number;
  /** In-flight fan-outs (§10.11); absent when none is in flight. */
  readonly fanOutProgress?: readonly FanOutProgressEntry[];
  /** Extension: the next §6 step number, so a resumed run continues the numbering. */
  readonly nextStep?: number;
  /** Extension: the outermost graph's name (diagnostics, `list()` filters). */
  readonly graphName?: string;
  /** Extension: the invocation this one resumed (audit trail across attempts). */
  readonly resumedFrom?: string;
  /**
   * Extension: the invocation that resumed this one — set when a resume claims the record, so the
   * record resumes only once (a later resume raises `checkpoint_already_resumed` naming it).
   */
  readonly resumedBy?: string;
}

/** A position in the spec's field names. */
export interface NodePositionDocument {
  readonly namespace: readonly string[];
  readonly node_name: string;
  readonly step: number;
  readonly attempt_index: number;
  readonly fan_out_index?: number;
  readonly branch_name?: string;
}

/** A fan-out progress entry in the spec's field names. */
export interface FanOutProgressEntryDocument {
  readonly namespace: readonly string[];
  readonly fan_out_node_name: string;
  readonly instance_count: number;
  readonly enclosing_fan_out_lineage?: readonly {
    readonly namespace: readonly string[];
    readonly fan_out_node_name: string;
    readonly fan_out_index: number;
  }[];
  readonly instances: readonly {
    readonly state: FanOutInstanceState;
    readonly result?: unknown;
    readonly result_is_error: boolean;
    readonly extra_outputs?: Readonly<Record<string, unknown>>;
    readonly completed_inner_positions?: readonly NodePositionDocument[];
  }[];
}

/** §10.2 the record in the spec's (snake_case) field names: the portable document form. */
export interface CheckpointRecordDocument {
  readonly invocation_id: string;
  readonly correlation_id: string;
  readonly state: Readonly<StateRecord>;
  readonly completed_positions: readonly NodePositionDocument[];
  readonly parent_states: readonly Readonly<StateRecord>[];
  readonly schema_version: string;
  readonly last_saved_at: number;
  readonly fan_out_progress?: readonly FanOutProgressEntryDocument[];
  readonly next_step?: number;
  readonly graph_name?: string;
  readonly resumed_from?: string;
  readonly resumed_by?: string;
}

// ---------------------------------------------------------------------------------------------
// Conversion

/** Render a record in the spec's field names (values are shared, not copied). */
export function toRecordDocument(r: CheckpointRecord): CheckpointRecordDocument {
  const doc: Record<string, unknown> = {
    ...recordHeaderToDoc(r),
    state: r.state,
    completed_positions: r.completedPositions.map(positionToDoc),
    parent_states: r.parentStates,
  };
  if (r.fanOutProgress !== undefined) {
    doc["fan_out_progress"] = r.fanOutProgress.map((e) => ({ ...fanOutHeaderToDoc(e), instances: e.instances.map(instanceToDoc) }));
  }
  return doc as unknown as CheckpointRecordDocument;
}

/**
 * @internal A record's document without its parts that grow with the run (`state`,
 * `parent_states`, `completed_positions`, `fan_out_progress`): what a backend storing those apart
 * keeps in the record row.
 */
export function recordHeaderToDoc(r: CheckpointRecord): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    invocation_id: r.invocationId,
    correlation_id: r.correlationId,
    schema_version: r.schemaVersion,
    last_saved_at: r.lastSavedAt,
  };
  if (r.nextStep !== undefined) doc["next_step"] = r.nextStep;
  if (r.graphName !== undefined) doc["graph_name"] = r.graphName;
  if (r.resumedFrom !== undefined) doc["resumed_from"] = r.resumedFrom;
  if (r.resumedBy !== undefined) doc["resumed_by"] = r.resumedBy;
  return doc;
}

/** @internal a `fan_out_progress` entry's document without its `instances`. */
export function fanOutHeaderToDoc(e: FanOutProgressEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {
    namespace: e.namespace,
    fan_out_node_name: e.fanOutNodeName,
    instance_count: e.instanceCount,
  };
  if (e.enclosingFanOutLineage !== undefined) {
    out["enclosing_fan_out_lineage"] = e.enclosingFanOutLineage.map((l) => ({
      namespace: l.namespace,
      fan_out_node_name: l.fanOutNodeName,
      fan_out_index: l.fanOutIndex,
    }));
  }
  return out;
}

/** @internal one fan-out instance's document. */
export function instanceToDoc(i: FanOutInstanceProgress): Record<string, unknown> {
  const inst: Record<string, unknown> = { state: i.state };
  if ("result" in i) inst["result"] = i.result;
  inst["result_is_error"] = i.resultIsError;
  if (i.extraOutputs !== undefined) inst["extra_outputs"] = i.extraOutputs;
  if (i.completedInnerPositions !== undefined) inst["completed_inner_positions"] = i.completedInnerPositions.map(positionToDoc);
  return inst;
}

/** @internal one `completed_positions` entry in the spec's field names. */
export function positionToDoc(p: NodePosition): NodePositionDocument {
  const d: Record<string, unknown> = { namespace: p.namespace, node_name: p.nodeName, step: p.step, attempt_index: p.attemptIndex };
  if (p.fanOutIndex !== undefined) d["fan_out_index"] = p.fanOutIndex;
  if (p.branchName !== undefined) d["branch_name"] = p.branchName;
  return d as unknown as NodePositionDocument;
}

/**
 * Read a record document (spec field names) — e.g. a row the SQLite backend stored, another
 * implementation's record, or a conformance `seeded_record`. Lenient where the spec allows
 * omission (`parent_states` defaults to `[]`, `schema_version` to `""`, `last_saved_at` to `0`),
 * strict otherwise. Throws `checkpoint_record_invalid`.
 */
export function fromRecordDocument(doc: unknown): CheckpointRecord {
  const d = asObject(doc, "record");
  const r: Record<string, unknown> = {
    invocationId: d["invocation_id"],
    correlationId: d["correlation_id"],
    state: d["state"],
    completedPositions: mapList(d["completed_positions"] ?? [], "completed_positions", positionFromDoc),
    parentStates: d["parent_states"] ?? [],
    schemaVersion: d["schema_version"] ?? "",
    lastSavedAt: d["last_saved_at"] ?? 0,
  };
  if (d["fan_out_progress"] !== undefined) {
    r["fanOutProgress"] = mapList(d["fan_out_progress"], "fan_out_progress", (x, at) => {
      const e = asObject(x, at);
      const out: Record<string, unknown> = {
        namespace: e["namespace"] ?? [],
        fanOutNodeName: e["fan_out_node_name"],
        instanceCount: e["instance_count"],
        instances: mapList(e["instances"], `${at}.instances`, (y, at2) => {
          const i = asObject(y, at2);
          const inst: Record<string, unknown> = { state: i["state"], resultIsError: i["result_is_error"] ?? false };
          if ("result" in i) inst["result"] = i["result"];
          if (i["extra_outputs"] !== undefined) inst["extraOutputs"] = i["extra_outputs"];
          if (i["completed_inner_positions"] !== undefined) {
            inst["completedInnerPositions"] = mapList(i["completed_inner_positions"], `${at2}.completed_inner_positions`, positionFromDoc);
          }
          return inst;
        }),
      };
      if (e["enclosing_fan_out_lineage"] !== undefined && e["enclosing_fan_out_lineage"] !== null) {
        out["enclosingFanOutLineage"] = mapList(e["enclosing_fan_out_lineage"], `${at}.enclosing_fan_out_lineage`, (y, at2) => {
          const l = asObject(y, at2);
          return { namespace: l["namespace"] ?? [], fanOutNodeName: l["fan_out_node_name"], fanOutIndex: l["fan_out_index"] };
        });
      }
      return out;
    });
  }
  if (d["next_step"] !== undefined) r["nextStep"] = d["next_step"];
  if (d["graph_name"] !== undefined) r["graphName"] = d["graph_name"];
  if (d["resumed_from"] !== undefined) r["resumedFrom"] = d["resumed_from"];
  if (d["resumed_by"] !== undefined) r["resumedBy"] = d["resumed_by"];
  return validateRecord(r);
}

function positionFromDoc(x: unknown, at: string): Record<string, unknown> {
  const p = asObject(x, at);
  const out: Record<string, unknown> = {
    namespace: p["namespace"] ?? [],
    nodeName: p["node_name"],
    step: p["step"],
    attemptIndex: p["attempt_index"] ?? 0,
  };
  if (p["fan_out_index"] !== undefined && p["fan_out_index"] !== null) out["fanOutIndex"] = p["fan_out_index"];
  if (p["branch_name"] !== undefined && p["branch_name"] !== null) out["branchName"] = p["branch_name"];
  return out;
}

// ---------------------------------------------------------------------------------------------
// Structural validation

function bad(reason: string): never {
  throw new CheckpointRecordInvalidError(reason);
}

function asObject(x: unknown, at: string): Record<string, unknown> {
  if (typeof x !== "object" || x === null || Array.isArray(x)) bad(`${at} must be a mapping`);
  return x as Record<string, unknown>;
}

function mapList<T>(x: unknown, at: string, f: (v: unknown, at: string) => T): T[] {
  if (!Array.isArray(x)) bad(`${at} must be a list`);
  return x.map((v, i) => f(v, `${at}[${i}]`));
}

function str(x: unknown, at: string, allowEmpty = false): string {
  if (typeof x !== "string" || (!allowEmpty && x.length === 0)) bad(`${at} must be a${allowEmpty ? "" : " non-empty"} string`);
  return x;
}

function nonNegInt(x: unknown, at: string): number {
  if (typeof x !== "number" || !Number.isInteger(x) || x < 0) bad(`${at} must be a non-negative integer`);
  return x;
}

function strList(x: unknown, at: string): readonly string[] {
  return Object.freeze(mapList(x, at, (v, a) => str(v, a)));
}

function position(x: unknown, at: string): NodePosition {
  const p = asObject(x, at);
  const out: { -readonly [K in keyof NodePosition]: NodePosition[K] } = {
    namespace: strList(p["namespace"] ?? [], `${at}.namespace`),
    nodeName: str(p["nodeName"], `${at}.nodeName`),
    step: nonNegInt(p["step"], `${at}.step`),
    attemptIndex: nonNegInt(p["attemptIndex"] ?? 0, `${at}.attemptIndex`),
  };
  if (p["fanOutIndex"] !== undefined) out.fanOutIndex = nonNegInt(p["fanOutIndex"], `${at}.fanOutIndex`);
  if (p["branchName"] !== undefined) out.branchName = str(p["branchName"], `${at}.branchName`);
  return Object.freeze(out);
}

function stateRecord(x: unknown, at: string): Readonly<StateRecord> {
  return asObject(x, at);
}

const INSTANCE_STATES: readonly string[] = ["completed", "in_flight", "not_started"];

function fanOutEntry(x: unknown, at: string): FanOutProgressEntry {
  const e = asObject(x, at);
  const instanceCount = nonNegInt(e["instanceCount"], `${at}.instanceCount`);
  const instances = mapList(e["instances"], `${at}.instances`, (y, at2): FanOutInstanceProgress => {
    const i = asObject(y, at2);
    const state = i["state"];
    if (typeof state !== "string" || !INSTANCE_STATES.includes(state)) bad(`${at2}.state must be one of ${INSTANCE_STATES.join(", ")}`);
    const resultIsError = i["resultIsError"] ?? false;
    if (typeof resultIsError !== "boolean") bad(`${at2}.resultIsError must be a boolean`);
    if (resultIsError && state !== "completed") bad(`${at2}.resultIsError must be false unless the instance is completed`);
    const inst: { -readonly [K in keyof FanOutInstanceProgress]: FanOutInstanceProgress[K] } = {
      state: state as FanOutInstanceState,
      resultIsError,
    };
    if (state === "completed") inst.result = "result" in i ? i["result"] : null;
    if (i["extraOutputs"] !== undefined) {
      if (state !== "completed") bad(`${at2}.extraOutputs is only allowed on a completed instance`);
      inst.extraOutputs = asObject(i["extraOutputs"], `${at2}.extraOutputs`);
    }
    if (i["completedInnerPositions"] !== undefined) {
      inst.completedInnerPositions = Object.freeze(mapList(i["completedInnerPositions"], `${at2}.completedInnerPositions`, position));
    }
    return Object.freeze(inst);
  });
  if (instances.length !== instanceCount) bad(`${at} lists ${instances.length} instances but instanceCount is ${instanceCount}`);
  const out: { -readonly [K in keyof FanOutProgressEntry]: FanOutProgressEntry[K] } = {
    namespace: strList(e["namespace"] ?? [], `${at}.namespace`),
    fanOutNodeName: str(e["fanOutNodeName"], `${at}.fanOutNodeName`),
    instanceCount,
    instances: Object.freeze(instances),
  };
  if (e["enclosingFanOutLineage"] !== undefined) {
    out.enclosingFanOutLineage = Object.freeze(
      mapList(e["enclosingFanOutLineage"], `${at}.enclosingFanOutLineage`, (y, at2) => {
        const l = asObject(y, at2);
        return Object.freeze({
          namespace: strList(l["namespace"] ?? [], `${at2}.namespace`),
          fanOutNodeName: str(l["fanOutNodeName"], `${at2}.fanOutNodeName`),
          fanOutIndex: nonNegInt(l["fanOutIndex"], `${at2}.fanOutIndex`),
        });
      }),
    );
  }
  return Object.freeze(out);
}

/**
 * Check a record's structure and return it normalized and frozen (the input is not modified;
 * states are shared, not copied). Throws `checkpoint_record_invalid` naming the first problem.
 * Whether the states fit the current graph is checked on resume, after migrations (§10.12.4).
 */
export function validateRecord(x: unknown): CheckpointRecord {
  const r = asObject(x, "record");
  const out: { -readonly [K in keyof CheckpointRecord]: CheckpointRecord[K] } = {
    invocationId: str(r["invocationId"], "invocationId"),
    correlationId: str(r["correlationId"], "correlationId"),
    state: stateRecord(r["state"], "state"),
    completedPositions: Object.freeze(mapList(r["completedPositions"], "completedPositions", position)),
    parentStates: Object.freeze(mapList(r["parentStates"] ?? [], "parentStates", stateRecord)),
    schemaVersion: str(r["schemaVersion"] ?? "", "schemaVersion", true),
    lastSavedAt: (() => {
      const t = r["lastSavedAt"] ?? 0;
      if (typeof t !== "number" || !Number.isFinite(t)) bad("lastSavedAt must be a finite number");
      return t;
    })(),
  };
  if (r["fanOutProgress"] !== undefined) out.fanOutProgress = Object.freeze(mapList(r["fanOutProgress"], "fanOutProgress", fanOutEntry));
  if (r["nextStep"] !== undefined) out.nextStep = nonNegInt(r["nextStep"], "nextStep");
  if (r["graphName"] !== undefined) out.graphName = str(r["graphName"], "graphName", true);
  if (r["resumedFrom"] !== undefined) out.resumedFrom = str(r["resumedFrom"], "resumedFrom");
  if (r["resumedBy"] !== undefined) out.resumedBy = str(r["resumedBy"], "resumedBy");
  return Object.freeze(out);
}
