/**
 * Resume planning (suspension §6, §7): merge the signal payload into the paused state, then find
 * where the resumed run starts.
 *
 * **Merge (§6).** Shallow field overlay onto the invocation (outermost) state: each declared field
 * the payload names is replaced by the payload's value — reducers are not consulted. An undeclared
 * payload field is `suspension_resume_payload_invalid` (an open schema, `extraFields: "allow"`,
 * drops it instead), checked with the field types before the record is even loaded
 * ({@link checkSignalPayload}). The merged state must validate against the state schema, else
 * `suspension_resume_payload_invalid`.
 * The payload reaches nested graphs only as their parents project it (a subgraph resumes with its
 * own saved state).
 *
 * **Entry point (§7 step 4).** With `markNodeCompleted` the resume point counts as completed: its
 * outgoing edge is evaluated on the (merged) state and the run continues there — leaving finished
 * subgraphs through their projection-out, exactly as a checkpoint resume does after a completed
 * position (pipeline-utilities §10.4 step 5, shared code). Without it the resume point itself
 * re-runs: the engine starts at it, through the subgraph nodes above it with their saved states.
 */
import { CheckpointRecordInvalidError } from "../checkpoint/errors.ts";
import type { CheckpointRecord } from "../checkpoint/record.ts";
import { planResume } from "../checkpoint/resume.ts";
import { childGraphOf } from "../checkpoint/topology.ts";
import { StateValidationError, type CompiledGraph, type StartPosition, type StateRecord, type StateSchema, type ValidationIssue } from "../graph/index.ts";
import { SuspensionRecordInvalidError, SuspensionResumePayloadInvalidError } from "./errors.ts";
import type { PausedInvocationRecord } from "./record.ts";

type AnyGraph = CompiledGraph<StateRecord, unknown>;
type State = Readonly<StateRecord>;

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * §6 checks that need no paused record: the payload is a mapping, every name it carries is a
 * declared field (unless the schema is open, `extraFields: "allow"`), and every declared field's
 * value has its type. The resume path runs this first — before the record is loaded or claimed — so
 * a misspelled or mistyped payload leaves the paused record untouched and resumable. Throws
 * `suspension_resume_payload_invalid`.
 */
export function checkSignalPayload(schema: StateSchema<StateRecord, unknown>, payload: unknown, invocationId: string): void {
  if (!isMapping(payload)) {
    throw new SuspensionResumePayloadInvalidError(invocationId, [{ field: "(signal payload)", path: "", message: "the signal payload must be a mapping" }]);
  }
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(payload)) {
    const value = payload[key];
    if (value !== undefined) issues.push(...schema.validateField(key, value)); // an open schema's extras pass: dropped below
  }
  if (issues.length > 0) throw new SuspensionResumePayloadInvalidError(invocationId, issues);
}

/**
 * §6: overlay `payload` onto `state` (no reducers), validated against `schema`. Throws
 * `suspension_resume_payload_invalid`.
 */
export function mergeSignalPayload(
  schema: StateSchema<StateRecord, unknown>,
  state: State,
  payload: unknown,
  invocationId: string,
): State {
  checkSignalPayload(schema, payload, invocationId);
  const merged: Record<string, unknown> = { ...state };
  for (const [key, value] of Object.entries(payload as Record<string, unknown>)) {
    if (value !== undefined && schema.fields.has(key)) merged[key] = value; // §6 Extra fields (open schema): dropped
  }
  try {
    return schema.create(merged, "signal payload merge");
  } catch (e) {
    if (e instanceof StateValidationError) throw new SuspensionResumePayloadInvalidError(invocationId, e.issues, { cause: e });
    throw e;
  }
}

/** Where the resumed run starts. */
export type PauseResumePlan =
  | { readonly kind: "start"; readonly startAt: StartPosition; readonly startStep: number }
  /** Nothing is left to run (the resume point was the last node): the merged state is final. */
  | { readonly kind: "complete"; readonly state: State; readonly startStep: number };

function incompatible(record: PausedInvocationRecord, detail: string, cause?: unknown): SuspensionRecordInvalidError {
  return new SuspensionRecordInvalidError(record.invocationId, "incompatible", detail, cause !== undefined ? { cause } : undefined);
}

/** The graph at each level of the resume point's path, outermost first (validated against the record). */
function graphsAlong(root: AnyGraph, record: PausedInvocationRecord): AnyGraph[] {
  const path = [...record.resumePoint.namespace, record.resumePoint.nodeName];
  const graphs: AnyGraph[] = [root];
  for (let i = 0; i < path.length; i++) {
    const g = graphs[i]!;
    if (!g.nodeNames.includes(path[i]!)) throw incompatible(record, `graph "${g.name}" has no node "${path[i]}"`);
    if (i < path.length - 1) {
      const child = childGraphOf(g, path[i]!);
      if (child === undefined) throw incompatible(record, `node "${path[i]}" of graph "${g.name}" does not run a subgraph`);
      graphs.push(child);
    }
  }
  return graphs;
}

/**
 * §7 step 3–4: validate the saved states, merge `payload` into the invocation state, and plan the
 * entry point (see the module comment). `identity` is what edge functions see while the exit edge
 * of a completed resume point is evaluated.
 */
export async function planPauseResume(
  root: AnyGraph,
  record: PausedInvocationRecord,
  payload: unknown,
  identity: { readonly metadata: Readonly<Record<string, unknown>> },
): Promise<PauseResumePlan> {
  const graphs = graphsAlong(root, record);
  const k = record.resumePoint.namespace.length;
  const states: State[] = [...record.parentStates, record.state];
  for (let i = 0; i <= k; i++) {
    try {
      states[i] = graphs[i]!.schema.create(states[i]!, "paused state restore");
    } catch (e) {
      if (e instanceof StateValidationError) throw incompatible(record, `the saved state of graph "${graphs[i]!.name}" no longer validates: ${e.message}`, e);
      throw e;
    }
  }
  states[0] = mergeSignalPayload(root.schema as unknown as StateSchema<StateRecord, unknown>, states[0]!, payload, record.invocationId);

  if (!record.markNodeCompleted) {
    let startAt: StartPosition = { node: record.resumePoint.nodeName, state: states[k]! };
    for (let i = k - 1; i >= 0; i--) startAt = { node: record.resumePoint.namespace[i]!, state: states[i]!, inner: startAt };
    return { kind: "start", startAt, startStep: record.nextStep };
  }
  const asCheckpoint: CheckpointRecord = {
    invocationId: record.invocationId,
    correlationId: record.correlationId,
    state: states[k]!,
    parentStates: states.slice(0, k),
    completedPositions: [record.resumePoint],
    schemaVersion: record.schemaVersion,
    lastSavedAt: record.suspendedAt,
    nextStep: record.nextStep,
  };
  try {
    const plan = await planResume(root, asCheckpoint, {
      invocationId: record.invocationId,
      correlationId: record.correlationId,
      metadata: identity.metadata,
    });
    return plan.kind === "complete"
      ? { kind: "complete", state: plan.state, startStep: plan.startStep }
      : { kind: "start", startAt: plan.startAt, startStep: plan.startStep };
  } catch (e) {
    if (e instanceof CheckpointRecordInvalidError) throw incompatible(record, e.message, e);
    throw e;
  }
}
