/**
 * The Checkpointer protocol (pipeline-utilities §10.1).
 *
 * Four async operations — `save`, `load`, `list`, `delete` — over {@link CheckpointRecord}s keyed
 * by invocation id. `load` returns the most recent record, structurally identical to what `save`
 * last wrote (round-trip integrity). Serialization is the backend's business (§10.1): each backend
 * documents the state shapes it accepts and whether it is durable.
 *
 * In-core backends (§10.13): {@link InMemoryCheckpointer} (not durable; any structured-cloneable
 * state) and {@link SqliteCheckpointer} (WAL, durable when `save` returns; tagged JSON or portable
 * JSON). Both support state migration (§10.12.1). {@link BatchingCheckpointer} adds §10.11.4
 * batching of fan-out internal saves on top of any backend.
 *
 * Write your own by implementing {@link Checkpointer}; to fan out to two stores (§10.1.1), wrap
 * both behind one implementation.
 *
 * **Resume once.** A resume claims the record it resumes with the optional `compareAndSave` (write
 * only if the stored record still has the `lastSavedAt` the resume loaded), so of two concurrent or
 * successive resumes of one record exactly one runs. Both bundled backends implement it atomically
 * (in memory: synchronously; SQLite: one `BEGIN IMMEDIATE` transaction, across processes). A backend
 * without it gets {@link compareAndSave}'s fallback — load, compare, save — which is not atomic:
 * resume-once then holds only when resumes do not race.
 */
import type { CheckpointRecord } from "./record.ts";
import { CheckpointInvalidIdError } from "./errors.ts";

/** What triggered a save (passed to `save` as a hint; backends may ignore it). */
export interface SaveContext {
  /**
   * `"node_completed"`: a §6 completed event (§10.3). `"fan_out_instance_completed"`: a fan-out
   * recorded an instance's contribution (§10.11).
   */
  readonly trigger: "node_completed" | "fan_out_instance_completed";
  /**
   * `"fan_out_internal"` for saves from inside a fan-out instance (the only saves §10.11.4 lets a
   * backend batch); `"graph"` for outermost-graph, subgraph-internal and fan-out-node saves, which
   * must be durable when `save` returns.
   */
  readonly scope: "graph" | "fan_out_internal";
  /** The node whose event triggered the save (full §6 namespace). */
  readonly namespace: readonly string[];
}

/** §10.1 `list()` summary. */
export interface CheckpointSummary {
  readonly invocationId: string;
  readonly correlationId: string;
  /** Milliseconds since the epoch. */
  readonly lastSavedAt: number;
  /** `completedPositions.length`. */
  readonly completedNodeCount: number;
  readonly schemaVersion: string;
  readonly graphName?: string;
  /** The invocation this one resumed, when it is a resumed attempt. */
  readonly resumedFrom?: string;
  /** Whether a fan-out was in flight at the last save. */
  readonly fanOutInFlight: boolean;
}

/** §10.1 `list()` filter (every given criterion must match). */
export interface CheckpointFilter {
  /** All attempts of one logical request (§10.4: stable across resume). */
  readonly correlationId?: string;
  readonly graphName?: string;
  /** `lastSavedAt >= savedAfter` (ms since the epoch, or a Date). */
  readonly savedAfter?: number | Date;
  /** `lastSavedAt < savedBefore`. */
  readonly savedBefore?: number | Date;
  /** Only records that resumed `resumedFrom`. */
  readonly resumedFrom?: string;
  /** At most this many summaries (most recently saved first). */
  readonly limit?: number;
}

/** §10.1 the Checkpointer protocol. */
export interface Checkpointer {
  /**
   * Persist `record` as the latest record of `invocationId`. Returns once the record is durable
   * (for durable backends); an in-memory backend is never durable across a process crash.
   */
  save(invocationId: string, record: CheckpointRecord, context?: SaveContext): Promise<void>;
  /** The most recent record of `invocationId`, or `undefined` when there is none. */
  load(invocationId: string): Promise<CheckpointRecord | undefined>;
  /** Saved invocations, most recently saved first. */
  list(filter?: CheckpointFilter): Promise<readonly CheckpointSummary[]>;
  /** Remove every record of `invocationId`; a no-op when there is none. */
  delete(invocationId: string): Promise<void>;
  /**
   * §10.12.1: whether loaded states are class-independent plain data a state migration can
   * transform. Default (absent) `true`. A backend keeping live typed objects sets `false`; a
   * version mismatch then raises `checkpoint_record_invalid` when migrations are registered.
   */
  readonly supportsStateMigration?: boolean;
  /** Backend identifier (diagnostics, §10.8 save events). */
  readonly backendName?: string;
  /**
   * Optional compare-and-set: persist `record` as the latest record of `invocationId` only if the
   * stored record is the one whose `lastSavedAt` is `expected` (`null`: only if none is stored),
   * check and write atomically. Resolves whether it wrote. What a resume claims its record with
   * (see the module comment); not a §10.3 save.
   */
  compareAndSave?(invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean>;
}

/**
 * `checkpointer.compareAndSave(...)` when the backend has it; otherwise load, compare, save — the
 * same result without the atomicity (two racing callers may both write).
 */
export async function compareAndSave(checkpointer: Checkpointer, invocationId: string, expected: number | null, record: CheckpointRecord): Promise<boolean> {
  if (typeof checkpointer.compareAndSave === "function") return checkpointer.compareAndSave(invocationId, expected, record);
  const stored = await checkpointer.load(invocationId);
  if ((stored?.lastSavedAt ?? null) !== expected) return false;
  await checkpointer.save(invocationId, record);
  return true;
}

/** The summary of a record. */
export function summarize(r: CheckpointRecord): CheckpointSummary {
  return Object.freeze({
    invocationId: r.invocationId,
    correlationId: r.correlationId,
    lastSavedAt: r.lastSavedAt,
    completedNodeCount: r.completedPositions.length,
    schemaVersion: r.schemaVersion,
    ...(r.graphName !== undefined ? { graphName: r.graphName } : {}),
    ...(r.resumedFrom !== undefined ? { resumedFrom: r.resumedFrom } : {}),
    fanOutInFlight: (r.fanOutProgress?.length ?? 0) > 0,
  });
}

function ms(t: number | Date): number {
  return t instanceof Date ? t.getTime() : t;
}

/** Does `s` match `filter` (ignoring `limit`)? */
export function matchesFilter(s: CheckpointSummary, filter: CheckpointFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.correlationId !== undefined && s.correlationId !== filter.correlationId) return false;
  if (filter.graphName !== undefined && s.graphName !== filter.graphName) return false;
  if (filter.resumedFrom !== undefined && s.resumedFrom !== filter.resumedFrom) return false;
  if (filter.savedAfter !== undefined && !(s.lastSavedAt >= ms(filter.savedAfter))) return false;
  if (filter.savedBefore !== undefined && !(s.lastSavedAt < ms(filter.savedBefore))) return false;
  return true;
}

/** @internal validate an invocation id argument: `checkpoint_invalid_id` unless a non-empty string. */
export function checkInvocationId(id: unknown, what = "invocationId"): asserts id is string {
  if (typeof id !== "string" || id.length === 0) throw new CheckpointInvalidIdError(id, what);
}

/** @internal validate `limit`. */
export function checkLimit(limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0) throw new RangeError("limit must be a non-negative integer");
  return limit;
}

/** @internal A `list()` row of the SQL backends (the record table's summary columns). */
export interface SummaryRow {
  invocation_id: string;
  correlation_id: string;
  graph_name: string | null;
  schema_version: string;
  last_saved_at: number;
  completed_node_count: number;
  resumed_from: string | null;
  fan_out_in_flight: number | boolean;
}

/** @internal The summary columns a SQL backend's `list()` selects. */
export const SUMMARY_COLUMNS =
  "invocation_id, correlation_id, graph_name, schema_version, last_saved_at, completed_node_count, resumed_from, fan_out_in_flight";

/** @internal The summary of a {@link SummaryRow}. */
export function summaryOfRow(r: SummaryRow): CheckpointSummary {
  return Object.freeze({
    invocationId: r.invocation_id,
    correlationId: r.correlation_id,
    lastSavedAt: r.last_saved_at,
    completedNodeCount: r.completed_node_count,
    schemaVersion: r.schema_version,
    ...(r.graph_name !== null ? { graphName: r.graph_name } : {}),
    ...(r.resumed_from !== null ? { resumedFrom: r.resumed_from } : {}),
    fanOutInFlight: r.fan_out_in_flight !== 0 && r.fan_out_in_flight !== false,
  });
}

/**
 * @internal The `list()` query of a SQL backend over `table`: the filter's conditions (with
 * `placeholder(n)` for the n-th parameter, 1-based), newest first, `limit` applied.
 */
export function listQuery(table: string, filter: CheckpointFilter | undefined, placeholder: (n: number) => string): { sql: string; params: unknown[] } {
  const limit = checkLimit(filter?.limit);
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, v: unknown): void => {
    params.push(v);
    where.push(`${condition} ${placeholder(params.length)}`);
  };
  if (filter?.correlationId !== undefined) add("correlation_id =", filter.correlationId);
  if (filter?.graphName !== undefined) add("graph_name =", filter.graphName);
  if (filter?.resumedFrom !== undefined) add("resumed_from =", filter.resumedFrom);
  if (filter?.savedAfter !== undefined) add("last_saved_at >=", ms(filter.savedAfter));
  if (filter?.savedBefore !== undefined) add("last_saved_at <", ms(filter.savedBefore));
  const sql =
    `SELECT ${SUMMARY_COLUMNS} FROM "${table}"` +
    (where.length ? ` WHERE ${where.join(" AND ")}` : "") +
    " ORDER BY last_saved_at DESC" +
    (limit !== undefined ? ` LIMIT ${limit}` : "");
  return { sql, params };
}
