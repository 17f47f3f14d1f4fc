import { directive } from "../../src/conformance/registry.ts";
import { FixtureDirectiveUnknown } from "../../src/conformance/errors.ts";
import { fanOut, type InstanceFailure } from "../../src/pipeline/index.ts";
import { categoryOf } from "../../src/pipeline/errors.ts";
import type { StateRecord } from "../../src/graph/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { augmentAtSubgraphTop } from "./caller-metadata.ts";
import { fromState, FROM_STATE_SCHEMA, type FromStateValue } from "../../harness/graph/from-state.ts";
import { pipelineCase } from "../../harness/pipeline/case-state.ts";
import { FanOutItemFields } from "../../harness/pipeline/item-fields.ts";
import { buildMiddleware, MIDDLEWARE_ENTRY_SCHEMA, type MiddlewareEntry } from "../../harness/pipeline/middleware-factory.ts";

interface FanOutValue {
  subgraph: string;
  items_field?: string;
  count?: FromStateValue;
  item_field?: string;
  collect_field: string;
  target_field: string;
  error_policy?: "fail_fast" | "collect";
  concurrency?: FromStateValue;
  concurrent_mode?: "serial" | "concurrent";
  errors_field?: string;
  on_empty?: "raise" | "noop";
  count_field?: string;
  inputs?: Record<string, string>;
  extra_outputs?: Record<string, string>;
  instance_middleware?: unknown[];
  [other: string]: unknown;
}

/**
 * The error record the corpus expects in `errors_field`: `{fan_out_index: "1", category}` (fixture
 * 019, in a `list<dict<string,string>>` field — the reference implementation's shape). §9.5 leaves
 * the record to the implementation; the engine's default is `{fan_out_index: 1, category, message}`,
 * so the adapter configures the engine's real `errorRecord` option to write the corpus shape.
 */
function corpusErrorRecord(f: InstanceFailure): { fan_out_index: string; category: string } {
  return { fan_out_index: String(f.fanOutIndex), category: categoryOf(f.error) };
}

/** Keys §5.4 and the pipeline-utilities note define that this adapter does not drive yet. */
const NOT_YET = ["abort_after_instance", "inner_subgraph", "augment_metadata_from_field", "mapping", "fan_out"];

/**
 * `fan_out:` (conformance-adapter §5.4, pipeline-utilities §9): the node fans out over the items of
 * `items_field` (or `count` instances), runs the declared subgraph per instance, and fans in each
 * instance's `collect_field` into `target_field`. `concurrent_mode: serial` is `concurrency: 1`;
 * `concurrent` uses `concurrency` or the §9 default.
 */
@directive({ name: "fan_out", at: "node", home: "general", summary: "parallel fan-out over a subgraph" })
export class FanOut {
  readonly schema = {
    type: "object",
    required: ["subgraph", "collect_field", "target_field"],
    properties: {
      subgraph: { type: "string" },
      items_field: { type: "string" },
      count: FROM_STATE_SCHEMA,
      item_field: { type: "string" },
      collect_field: { type: "string" },
      target_field: { type: "string" },
      error_policy: { enum: ["fail_fast", "collect"] },
      concurrency: FROM_STATE_SCHEMA,
      concurrent_mode: { enum: ["serial", "concurrent"] },
      errors_field: { type: "string" },
      on_empty: { enum: ["raise", "noop"] },
      count_field: { type: "string" },
      inputs: { type: "object", additionalProperties: { type: "string" } },
      extra_outputs: { type: "object", additionalProperties: { type: "string" } },
      // Entries as in the middleware block ({type: retry, ...}), or the single-key form ({retry: {...}}).
      instance_middleware: {
        type: "array",
        minItems: 1,
        items: { anyOf: [MIDDLEWARE_ENTRY_SCHEMA, { type: "object", minProperties: 1, maxProperties: 1, additionalProperties: { type: "object" } }] },
      },
      // Read only through the legacy bundle (directives/legacy/composition-forms.ts), which counts each use.
      augment_metadata: { type: "object", minProperties: 1 },
      ...Object.fromEntries(NOT_YET.map((k) => [k, true])),
    },
    additionalProperties: false,
    oneOf: [
      {
        required: ["items_field", "item_field"],
        description: "items_field needs item_field, the subgraph field each item is assigned to (pipeline-utilities §9), or count instead; the instance graph is named by 'subgraph' (conformance-adapter §5.4)",
      },
      { required: ["count"] },
    ],
  };

  contribute(v: FanOutValue, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const pending = NOT_YET.filter((k) => k in v);
    if (pending.length > 0) {
      throw new FixtureDirectiveUnknown(pending.map((k) => ({ name: `fan_out.${k}`, position: "node", location: env.locate([...at, k]) })));
    }
    // Record the item field before the subgraph is built: instance mocks (flaky_by_index) read it.
    if (v.item_field !== undefined) env.slot(FanOutItemFields).set(v.subgraph, v.item_field);
    // A legacy `augment_metadata` on the entry: at the top of each instance's body.
    if (v.augment_metadata !== undefined) augmentAtSubgraphTop(env, node.name, v.subgraph, undefined, v.augment_metadata as Record<string, unknown>);
    const subgraph = env.subgraph(v.subgraph, [...at, "subgraph"], node.name);
    const concurrency = v.concurrent_mode === "serial" ? 1 : v.concurrency !== undefined ? fromState(v.concurrency, env, [...at, "concurrency"]) : undefined;
    const common = {
      subgraph,
      collectField: v.collect_field,
      targetField: v.target_field,
      ...(concurrency !== undefined ? { concurrency } : {}),
      ...(v.error_policy ? { errorPolicy: v.error_policy } : {}),
      ...(v.errors_field ? { errorsField: v.errors_field, errorRecord: corpusErrorRecord } : {}),
      ...(v.on_empty ? { onEmpty: v.on_empty } : {}),
      ...(v.count_field ? { countField: v.count_field } : {}),
      ...(v.inputs ? { inputs: v.inputs } : {}),
      ...(v.extra_outputs ? { extraOutputs: v.extra_outputs } : {}),
      ...(v.instance_middleware ? { instanceMiddleware: instanceMiddlewareOf(v.instance_middleware as Array<Record<string, unknown>>, node, env, at) } : {}),
    };
    const kind =
      v.count !== undefined
        ? fanOut<StateRecord, StateRecord>({ ...common, count: fromState(v.count, env, [...at, "count"]) as number | ((s: Readonly<StateRecord>) => number) })
        : fanOut<StateRecord, StateRecord>({ ...common, itemsField: v.items_field as string, itemField: v.item_field as string });
    node.kind = { directive: "fan_out", path: at, make: () => kind };
  }
}

/** §9.7 instance middleware from `middleware:`-block entries (the real library middleware for canonical types). */
function instanceMiddlewareOf(written: Array<Record<string, unknown>>, node: NodeAssembly, env: BuildEnv, at: KeyPath) {
  const entries = written.map((e): MiddlewareEntry => {
    if (typeof e.type === "string") return e as MiddlewareEntry;
    const [[type, config]] = Object.entries(e) as [[string, Record<string, unknown>]];
    return { ...config, type };
  });
  const pc = pipelineCase((k) => env.slot(k));
  const menv = { call: () => env.currentCall().observation, clock: pc.clock, locate: env.locate, configs: pc.configs };
  return entries.map((entry, index) =>
    buildMiddleware(entry, { graph: env.graphName, node: `${node.name}[instance]`, scope: "node", index }, menv, [...at, "instance_middleware", index]),
  );
}
