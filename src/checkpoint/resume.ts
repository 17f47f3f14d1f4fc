/**
 * Resume (pipeline-utilities §10.4): load the record, migrate it (§10.12), validate it against the
 * current graph, and find where the resumed run starts.
 *
 * **Entry point (§10.4 step 5).** The save point is the last `completedPositions` entry outside
 * fan-out instances and parallel branches (those re-run as a unit; fan-outs skip their completed
 * instances, §10.7). The resumed run starts *after* it: the node's outgoing edge is evaluated
 * against the restored state (graph-engine §5 determinism). When that node was the last one of a
 * subgraph, the subgraph node's projection-out is merged into its parent (`parentStates`) and the
 * parent's edge followed, and so on outward; reaching END at the outermost graph means the
 * invocation had already completed. With no such position the run starts at the entry node.
 * Subgraph re-entry nests `StartPosition.inner` with each containing graph's saved state (§10.2
 * `parentStates`), so completed inner nodes are not re-run (fixture 029).
 *
 * **Resume once (project guarantee, `checkpoint_already_resumed`).** A record resumes once: after
 * validation and planning — so a refused resume leaves the record untouched — {@link claimForResume}
 * first writes the resumed run's starting record under its new id, then marks the original
 * `resumedBy` with a compare-and-set on its `lastSavedAt` (`Checkpointer.compareAndSave`). Of two
 * concurrent resumes exactly one wins; the loser removes its starting record and raises; a later
 * resume finds `resumedBy` and raises before planning. A crash between the two writes leaves the
 * original unclaimed (resumable) and an orphan starting record; a crash after the claim leaves the
 * starting record, so resuming the new id continues. A record that already reached END is not
 * claimed (resuming it runs nothing).
 *
 * **Validation order (§10.10).** Structure (`checkpoint_record_invalid`) → registry ambiguity →
 * no chain (`checkpoint_state_migration_missing`) → a raising migration
 * (`checkpoint_state_migration_failed`) → the (migrated) states against the current schemas and
 * positions against the current topology (`checkpoint_record_invalid`).
 */
import {
  END,
  GraphRuntimeError,
  type CompiledGraph,
  type DrainSummary,
  type NodeContext,
  type StartPosition,
  type StateRecord,
} from "../graph/index.ts";
import { compareAndSave, type Checkpointer } from "./checkpointer.ts";
import { CheckpointAlreadyResumedError, CheckpointNotFoundError, CheckpointRecordInvalidError } from "./errors.ts";
import { MigrationRegistry, type SerializedState } from "./migrations.ts";
import { validateRecord, type CheckpointRecord, type NodePosition } from "./record.ts";
import type { SavePoint } from "./recorder.ts";
import { childGraphOf, completeSubgraphNode } from "./topology.ts";

type AnyGraph = CompiledGraph<StateRecord, unknown>;
type State = Readonly<StateRecord>;

/** The schema version a graph declares (`""` when none, §10.2). */
export function declaredSchemaVersion(graph: AnyGraph): string {
  return graph.schema.schemaVersion ?? "";
}

/** A record loaded for resume: as stored (what the claim compares against) and migrated. */
export interface LoadedForResume {
  /** The record as stored (structure-checked). */
  readonly stored: CheckpointRecord;
  /** Its states migrated to the graph's declared schema version. */
  readonly record: CheckpointRecord;
}

/**
 * §10.4 step 1 + §10.12: load `invocationId`'s record, check its structure and that no resume
 * claimed it yet (`checkpoint_already_resumed`), and migrate its states to the graph's declared
 * schema version. States are not yet checked against the schemas.
 */
export async function loadForResume(
  graph: AnyGraph,
  checkpointer: Checkpointer,
  invocationId: string,
  registry: MigrationRegistry,
): Promise<LoadedForResume> {
  const loaded = await checkpointer.load(invocationId);
  if (loaded === undefined || loaded === null) throw new CheckpointNotFoundError(invocationId);
  const stored = validateRecord(loaded);
  if (stored.resumedBy !== undefined) throw new CheckpointAlreadyResumedError(invocationId, stored.resumedBy);
  let record = stored;
  const current = declaredSchemaVersion(graph);
  if (record.schemaVersion === current) return { stored, record }; // §10.12.3: registry not consulted
  if (registry.size > 0 && checkpointer.supportsStateMigration === false) {
    throw new CheckpointRecordInvalidError(
      `the record has schema_version "${record.schemaVersion}" but the graph declares "${current}", and backend ` +
        `${checkpointer.backendName ?? "(custom)"} cannot expose a schema-independent state for migration (§10.12.1)`,
    );
  }
  const chain = registry.resolve(record.schemaVersion, current); // ambiguous / missing
  const state = await MigrationRegistry.apply(chain, record.state as SerializedState);
  const parentStates: State[] = [];
  for (const p of record.parentStates) parentStates.push(await MigrationRegistry.apply(chain, p as SerializedState));
  record = Object.freeze({ ...record, state, parentStates: Object.freeze(parentStates), schemaVersion: current });
  return { stored, record };
}

/**
 * Claim `stored` — `invocationId`'s record as {@link loadForResume} returned it — for the resume
 * whose starting record is `successor` (saved under `successor.invocationId`). Call it after every
 * validation, right before the resumed run starts; see the module comment. Raises
 * `checkpoint_already_resumed` when another resume claimed the record first.
 */
export async function claimForResume(checkpointer: Checkpointer, invocationId: string, stored: CheckpointRecord, successor: CheckpointRecord): Promise<void> {
  const newId = successor.invocationId;
  if (!(await compareAndSave(checkpointer, newId, null, successor))) {
    throw new RangeError(`invocation id "${newId}" of a resumed run already has a record`);
  }
  const claimed: CheckpointRecord = Object.freeze({
    ...stored,
    resumedBy: newId,
    lastSavedAt: Math.max(performance.timeOrigin + performance.now(), stored.lastSavedAt + 0.001),
  });
  let won: boolean;
  try {
    won = await compareAndSave(checkpointer, invocationId, stored.lastSavedAt, claimed);
  } catch (e) {
    await checkpointer.delete(newId);
    throw e;
  }
  if (won) return;
  await checkpointer.delete(newId);
  const now = await checkpointer.load(invocationId);
  throw new CheckpointAlreadyResumedError(invocationId, now?.resumedBy);
}

/** Where a resumed run starts. */
export type ResumePlan =
  | {
      readonly kind: "start";
      /** `invoke({ startAt })`. */
      readonly startAt: StartPosition;
      readonly startStep: number;
      /** The validated save point the resumed recorder starts from. */
      readonly savePoint: SavePoint;
    }
  | {
      /** The saved invocation had already reached END: nothing to run. */
      readonly kind: "complete";
      readonly state: State;
      readonly startStep: number;
    };

/** Identity of the resumed invocation (for the contexts edges are evaluated with). */
export interface ResumeIdentity {
  readonly invocationId: string;
  readonly correlationId: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

const NO_DRAIN: DrainSummary = Object.freeze({ timeoutReached: false, undeliveredCount: 0, deliveredCount: 0, invocationCount: 0 });

function edgeContext(
  id: ResumeIdentity,
  graph: AnyGraph,
  namespace: readonly string[],
  parentStates: readonly State[],
  step: number | undefined,
): NodeContext {
  const nulls = Object.freeze(namespace.slice(1).map(() => null));
  return Object.freeze({
    invocationId: id.invocationId,
    correlationId: id.correlationId,
    metadata: id.metadata,
    graphName: graph.name,
    nodeName: namespace[namespace.length - 1]!,
    namespace: Object.freeze([...namespace]),
    attemptIndex: 0,
    fanOutIndexChain: nulls,
    branchNameChain: nulls,
    step,
    parentStates: Object.freeze([...parentStates]),
    emit: () => {},
    drainEventsFor: () => Promise.resolve(NO_DRAIN),
    signal: new AbortController().signal, // resume planning evaluates edges before the run: nothing to cancel yet
  });
}

function validated(graph: AnyGraph, state: State, what: string): State {
  try {
    return graph.schema.create(state, `checkpoint restore of ${what}`);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    throw new CheckpointRecordInvalidError(`${what} does not fit the current state schema of graph "${graph.name}" (${detail})`, { cause });
  }
}

/** The last position that is a resumable save point (outside fan-out instances / parallel branches). */
export function savePointPosition(positions: readonly NodePosition[]): NodePosition | undefined {
  for (let i = positions.length - 1; i >= 0; i--) {
    const p = positions[i]!;
    if (p.fanOutIndex === undefined && p.branchName === undefined) return p;
  }
  return undefined;
}

/** §10.4 step 5: where the resumed run starts (see the module comment). */
export async function planResume(graph: AnyGraph, record: CheckpointRecord, id: ResumeIdentity): Promise<ResumePlan> {
  const positions = record.completedPositions;
  const startStep = record.nextStep ?? positions.reduce((m, p) => Math.max(m, p.step + 1), 0);
  const pos = savePointPosition(positions);
  if (pos === undefined) {
    if (record.parentStates.length > 0) {
      throw new CheckpointRecordInvalidError("the record has parent_states but no completed position to resume inside a subgraph");
    }
    const state = validated(graph, record.state, "the saved state");
    return { kind: "start", startAt: { node: graph.entry, state }, startStep, savePoint: { state, parentStates: [] } };
  }

  const path = [...pos.namespace, pos.nodeName];
  const depth = pos.namespace.length;
  if (record.parentStates.length !== depth) {
    throw new CheckpointRecordInvalidError(
      `the save point ${JSON.stringify(path)} is ${depth} subgraph level(s) deep but the record has ${record.parentStates.length} parent_states`,
    );
  }
  // The graph at each level of the save point, from the outermost down.
  const graphs: AnyGraph[] = [graph];
  for (let i = 0; i <= depth; i++) {
    const g = graphs[i]!;
    if (!g.nodeNames.includes(path[i]!)) {
      throw new CheckpointRecordInvalidError(`completed position ${JSON.stringify(path)}: graph "${g.name}" has no node "${path[i]}"`);
    }
    if (i < depth) {
      const child = childGraphOf(g, path[i]!);
      if (child === undefined) {
        throw new CheckpointRecordInvalidError(
          `completed position ${JSON.stringify(path)}: node "${path[i]}" of graph "${g.name}" (${g.nodeKind(path[i]!)}) does not run a subgraph`,
        );
      }
      graphs.push(child);
    }
  }
  const states: State[] = record.parentStates.map((s, i) => validated(graphs[i]!, s, `parent_states[${i}]`));
  states.push(validated(graphs[depth]!, record.state, "the saved state"));
  const savePoint: SavePoint = { state: states[depth]!, parentStates: Object.freeze(states.slice(0, depth)) };

  // Follow edges from the save point; unwind finished subgraphs.
  let d = depth;
  let node = path[depth]!;
  let state = states[depth]!;
  let step: number | undefined = pos.step;
  let next: string | undefined;
  for (;;) {
    const target = await graphs[d]!.routeAfter(node, state, edgeContext(id, graphs[d]!, path.slice(0, d + 1), states.slice(0, d), step));
    if (target !== END) {
      next = target;
      break;
    }
    if (d === 0) return { kind: "complete", state, startStep };
    const parentNode = path[d - 1]!;
    const ctx = edgeContext(id, graphs[d - 1]!, path.slice(0, d), states.slice(0, d - 1), undefined);
    let merged: State | undefined;
    try {
      merged = await completeSubgraphNode(graphs[d - 1]!, parentNode, states[d - 1]!, state, ctx);
    } catch (e) {
      if (e instanceof GraphRuntimeError) throw e;
      throw new CheckpointRecordInvalidError(`cannot finish subgraph node "${parentNode}" from the saved state`, { cause: e });
    }
    d -= 1;
    if (merged === undefined) {
      // Not a plain subgraph node: re-run that composite node from its dispatch state.
      next = parentNode;
      state = states[d]!;
      break;
    }
    node = parentNode;
    state = merged;
    step = undefined;
  }
  let startAt: StartPosition = { node: next, state };
  for (let i = d - 1; i >= 0; i--) startAt = { node: path[i]!, state: states[i]!, inner: startAt };
  return { kind: "start", startAt, startStep, savePoint };
}
