/**
 * Node directives of the sessions fixtures (sessions conformance directory): an explicit §6.2
 * mid-invoke save, the `mapping` projection form of a subgraph node (010) and of a fan-out (011),
 * and the mapping form of `raises` (006).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { JsonSchema } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { saveSession } from "../../src/sessions/index.ts";
import type { BuildEnv, NodeAssembly, NodeStep } from "../../harness/graph/node-directive.ts";
import { perCall } from "../../harness/pipeline/facets.ts";
import { ExplicitSaves } from "../../harness/sessions/facets.ts";
import { FanOut } from "../general/fan-out.ts";
import { Raises, raisesSchema } from "../general/raises.ts";

const HOME = "sessions";

/**
 * `explicit_save_session: true` — §6.2: after the node's earlier body directives (document order)
 * produced their update, the body calls the library's real `saveSession({ update })`, which commits
 * the node's pre-state with that update merged (through the reducers) to the store, then returns
 * the update.
 */
@directive({ name: "explicit_save_session", at: "node", home: HOME, summary: "the node body calls saveSession() after its update" })
export class ExplicitSaveSession {
  readonly schema = { const: true };
  contribute(_value: true, node: NodeAssembly, env: BuildEnv): void {
    const before: NodeStep[] = node.steps.splice(0);
    node.steps.push(async (state, ctx) => {
      let update: Record<string, unknown> = {};
      for (const step of before) {
        const u = await step(state, ctx);
        if (u) update = { ...update, ...u };
      }
      const report = await saveSession({ update });
      if (report !== null) perCall(env.currentCall().observation, ExplicitSaves, () => []).push(report.state as Readonly<Record<string, unknown>>);
      return update;
    });
  }
}

interface MappingValue {
  readonly inputs?: Record<string, string>;
  readonly outputs?: Record<string, string>;
}

const MAPPING_SCHEMA = {
  type: "object",
  minProperties: 1,
  additionalProperties: false,
  properties: {
    inputs: { type: "object", additionalProperties: { type: "string" } },
    outputs: { type: "object", additionalProperties: { type: "string" } },
  },
} as const;

/** `mapping: {inputs, outputs}` beside `subgraph:` — the explicit projection (graph-engine §2), as `inputs:` / `outputs:` are. */
@directive({ name: "mapping", at: "node", home: HOME, summary: "subgraph projection {inputs, outputs}" })
export class Mapping {
  readonly schema = MAPPING_SCHEMA;
  contribute(value: MappingValue, node: NodeAssembly, _env: BuildEnv, at: KeyPath): void {
    if (value.inputs !== undefined) node.projection.inputs = value.inputs;
    if (value.outputs !== undefined) node.projection.outputs = value.outputs;
    node.projectionKeys.push({ key: "mapping", path: at });
  }
}

type FanOutValue = Parameters<FanOut["contribute"]>[0];
const ITEM = "<fan_out_item>";

/**
 * `fan_out:` with a `mapping: {inputs, outputs}` (fixture 011) instead of `item_field` /
 * `collect_field` / `target_field`: the input mapped from `"<fan_out_item>"` is the item field,
 * the other inputs are per-instance inputs; the first output `{<target>: <collect>}` is the
 * target / collect pair, further ones extra outputs. Without `mapping`, the general definition.
 */
@directive({ name: "fan_out", at: "node", home: HOME, summary: "fan-out; mapping form" })
export class SessionsFanOut extends FanOut {
  override readonly schema = {
    anyOf: [
      new FanOut().schema,
      {
        type: "object",
        required: ["subgraph", "items_field", "mapping"],
        properties: { subgraph: { type: "string" }, items_field: { type: "string" }, mapping: MAPPING_SCHEMA, error_policy: { enum: ["fail_fast", "collect"] }, concurrency: {} },
        additionalProperties: false,
      },
    ],
  } as unknown as FanOut["schema"];
  override contribute(v: FanOutValue, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const m = v["mapping"] as MappingValue | undefined;
    if (m === undefined) {
      super.contribute(v, node, env, at);
      return;
    }
    const inputs = Object.entries(m.inputs ?? {});
    const item = inputs.find(([, p]) => p === ITEM);
    const outputs = Object.entries(m.outputs ?? {});
    if (item === undefined || outputs.length === 0) {
      throw new FixtureSchemaInvalid(`fan_out.mapping needs an input from "${ITEM}" and at least one output`, env.locate([...at, "mapping"]));
    }
    const { mapping: _m, ...rest } = v;
    const [[target, collect]] = outputs as [[string, string]];
    super.contribute(
      {
        ...rest,
        item_field: item[0],
        collect_field: collect,
        target_field: target,
        ...(inputs.length > 1 ? { inputs: Object.fromEntries(inputs.filter(([, p]) => p !== ITEM)) } : {}),
        ...(outputs.length > 1 ? { extra_outputs: Object.fromEntries(outputs.slice(1)) } : {}),
      } as FanOutValue,
      node,
      env,
      at,
    );
  }
}

/** `raises: {category?, message?}` (fixture 006) beside the general string form: the node raises; `node_exception` means an uncategorized error the engine carries. The general definition implements it. */
@directive({ name: "raises", at: "node", home: HOME, summary: "raise an exception (string or {category, message})" })
export class SessionsRaises extends Raises {
  override readonly schema: JsonSchema = raisesSchema({ minProperties: 1, properties: { category: { type: "string" }, message: { type: "string" } } });
}
