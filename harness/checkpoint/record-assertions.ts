/**
 * The checkpoint-record sub-assertion vocabulary (conformance-adapter §5.8 *Checkpoint records*),
 * shared by `saved_record_assertions` and the pipeline-utilities record directives
 * (`checkpoint_saves` entries, `every_save_assertions`). Each sub-assertion reads the like-named
 * pipeline-utilities §10.2 field of the record (in the spec's field names):
 *
 * - `invocation_id`, `correlation_id`, `schema_version`: single values (literal or §5.10 token);
 *   `last_saved_at` likewise (`<timestamp>`);
 * - `state`: a state snapshot, exact; `parent_states`: a complete, ordered list of snapshots;
 * - `completed_positions`: complete and ordered, each position by named keys;
 * - `fan_out_progress: {<node>: {instance_count, instances: [...]}}`: by named keys; `instances` is
 *   complete and positional, each with `state`, `state_one_of`, `result`, `result_is_error`,
 *   `result_present`, `completed_inner_positions` (complete, ordered).
 *
 * A single-value field written `null`, `fan_out_progress: null` and a `fan_out_progress.<node>: null`
 * assert the field (the node's entry) is not set, by the §8.4 null rule.
 *
 * Any other key is a named claim (§5 *Assertion positions*), resolved at the `checkpoint_record`
 * position, so an unimplemented one is `fixture_directive_unknown`.
 */
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { CheckpointRecordDocument } from "../../src/internal.ts";
import { RecordUnderTest } from "./facets.ts";

/** The position record claims resolve at. */
export const RECORD_CLAIM_POSITION = "checkpoint_record";

/** The §10.2 fields the vocabulary reads. */
export const RECORD_FIELDS = new Set([
  "invocation_id",
  "correlation_id",
  "schema_version",
  "last_saved_at",
  "state",
  "parent_states",
  "completed_positions",
  "fan_out_progress",
]);

const INSTANCE_SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    state: { enum: ["not_started", "in_flight", "completed"] },
    state_one_of: { type: "array", minItems: 1, items: { enum: ["not_started", "in_flight", "completed"] } },
    result: true,
    result_is_error: { type: "boolean" },
    result_present: { type: "boolean" },
    completed_inner_positions: { type: "array", items: { type: "object" } },
  },
} as const;

/** JSON Schema of the vocabulary's fields (claims: any other key). */
export const RECORD_FIELD_SCHEMAS: Readonly<Record<string, unknown>> = {
  invocation_id: { type: ["string", "null"] },
  correlation_id: { type: ["string", "null"] },
  schema_version: { type: ["string", "null"] },
  last_saved_at: true,
  state: { type: "object" },
  parent_states: { type: "array", items: { type: "object" } },
  completed_positions: { type: "array", items: { type: "object" } },
  fan_out_progress: {
    type: ["object", "null"],
    additionalProperties: {
      type: ["object", "null"],
      additionalProperties: false,
      properties: { instance_count: { type: "integer", minimum: 0 }, instances: { type: "array", items: INSTANCE_SCHEMA } },
    },
  },
};

/** Schema of a record assertion mapping (fields checked; other keys are claims). */
export const RECORD_ASSERTION_SCHEMA = { type: "object", properties: RECORD_FIELD_SCHEMAS } as const;

const POSITIONS: Shape = Shapes.list("ordered", Shapes.named({ keys: { namespace: Shapes.list("ordered") } }));

const SHAPES: Readonly<Record<string, Shape>> = {
  state: Shapes.exact(),
  parent_states: Shapes.list("ordered", Shapes.exact()),
  completed_positions: POSITIONS,
};

const FAN_OUT_SHAPE: Shape = Shapes.mapOf(
  Shapes.named({
    keys: {
      instances: Shapes.list(
        "ordered",
        Shapes.named({ keys: { result: Shapes.exact(), completed_inner_positions: POSITIONS } }),
      ),
    },
  }),
);

/** Split a record assertion mapping into its field sub-assertions and its claims. */
export function splitRecordAssertion(value: Readonly<Record<string, unknown>>): { fields: Record<string, unknown>; claims: Record<string, unknown> } {
  const fields: Record<string, unknown> = {};
  const claims: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) (RECORD_FIELDS.has(k) ? fields : claims)[k] = v;
  return { fields, claims };
}

/** Resolve a record assertion's claims at configure time, so an unknown claim fails before anything runs. */
export function resolveRecordClaims(value: Readonly<Record<string, unknown>>, path: KeyPath, ctx: ConfigureContext): void {
  const { claims } = splitRecordAssertion(value);
  if (Object.keys(claims).length > 0) ctx.resolve(RECORD_CLAIM_POSITION, claims, path);
}

/** The instance entry as the vocabulary reads it. */
type InstanceDoc = NonNullable<CheckpointRecordDocument["fan_out_progress"]>[number]["instances"][number];

function instanceView(i: InstanceDoc): Record<string, unknown> {
  const v: Record<string, unknown> = { state: i.state, result_is_error: i.result_is_error, result_present: "result" in i && i.result !== undefined };
  if ("result" in i) v.result = i.result;
  if (i.completed_inner_positions !== undefined) v.completed_inner_positions = i.completed_inner_positions;
  return v;
}

/**
 * Check `expected` (a record assertion mapping written at `path`) against `record`; mismatches
 * are labelled `<label>.<key>...`. `absent` lists record fields that must be absent (§8.4).
 */
export async function checkRecord(
  expected: Readonly<Record<string, unknown>>,
  record: CheckpointRecordDocument,
  obs: Observation,
  ctx: CheckContext,
  label: string,
  path: KeyPath,
  absent: readonly string[] = [],
): Promise<void> {
  const { fields, claims } = splitRecordAssertion(expected);
  const rec = record as unknown as Record<string, unknown>;
  for (const [k, v] of Object.entries(fields)) {
    const sub = `${label}.${k}`;
    if (k === "fan_out_progress" && v === null) {
      const entries = record.fan_out_progress ?? [];
      if (entries.length > 0) ctx.fail(`${sub}: expected no fan-out progress (null), the record holds entries for ${entries.map((e) => `'${e.fan_out_node_name}'`).join(", ")}`, { path: sub, expected: null, actual: entries });
    } else if (k === "fan_out_progress") checkFanOutProgress(v as Record<string, Record<string, unknown> | null>, record, ctx, sub);
    else ctx.match(v, rec[k] ?? null, SHAPES[k] ?? null, sub);
  }
  for (const k of absent) {
    if (rec[k] !== undefined && rec[k] !== null) ctx.fail(`${label}: '${k}' must be absent from the record`, { path: `${label}.${k}`, expected: "absent", actual: rec[k] });
  }
  if (Object.keys(claims).length > 0) {
    const view = obs.derive().set(RecordUnderTest, record);
    await ctx.checkAll(ctx.resolve(RECORD_CLAIM_POSITION, claims, path), view);
  }
}

function checkFanOutProgress(expected: Record<string, Record<string, unknown> | null>, record: CheckpointRecordDocument, ctx: CheckContext, label: string): void {
  const actual: Record<string, unknown> = {};
  const written: Record<string, unknown> = {};
  for (const [node, want] of Object.entries(expected)) {
    const entries = (record.fan_out_progress ?? []).filter((e) => e.fan_out_node_name === node);
    if (want === null) {
      if (entries.length > 0) ctx.fail(`${label}.${node}: expected no fan-out progress entry (null), the record holds ${entries.length}`, { path: `${label}.${node}`, expected: null, actual: entries });
      continue;
    }
    if (entries.length > 1) {
      ctx.fail(`${label}.${node}: the record holds ${entries.length} lineage-qualified entries for fan-out '${node}'; the per-node form addresses one`, { path: `${label}.${node}` });
      continue;
    }
    const e = entries[0];
    const instances = e?.instances.map(instanceView);
    const want2: Record<string, unknown> = { ...want };
    if (Array.isArray(want.instances)) {
      want2.instances = (want.instances as Record<string, unknown>[]).map((w, i) => {
        if (!("state_one_of" in w)) return w;
        const { state_one_of: oneOf, ...rest } = w;
        const got = instances?.[i]?.state;
        if (got !== undefined && !(oneOf as string[]).includes(got as string)) {
          ctx.fail(`${label}.${node}.instances[${i}].state_one_of: expected one of ${JSON.stringify(oneOf)}, got ${JSON.stringify(got)}`, {
            path: `${label}.${node}.instances[${i}].state_one_of`,
            expected: oneOf,
            actual: got,
          });
        }
        return rest;
      });
    }
    written[node] = want2;
    if (e !== undefined) actual[node] = { instance_count: e.instance_count, namespace: e.namespace, instances };
  }
  ctx.match(written, actual, FAN_OUT_SHAPE, label);
}

/** The record a record claim reads. */
export function recordUnderTest(obs: Observation, ctx: CheckContext): CheckpointRecordDocument {
  return obs.get(RecordUnderTest, ctx.locate(ctx.self.path));
}
