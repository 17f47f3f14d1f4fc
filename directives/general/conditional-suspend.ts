import { directive } from "../../src/conformance/registry.ts";
import { FixtureDirectiveUnknown, FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { NodeAssembly, type BuildEnv, type NodeStep } from "../../harness/graph/node-directive.ts";
import { persistenceCaseAtBuild } from "../../harness/suspension/case.ts";
import { DESCRIPTOR_SCHEMA, suspendWith, type DescriptorValue } from "./suspend-with-descriptor.ts";
import { Update } from "./update.ts";
import { UpdateFromField } from "./update-from-field.ts";
import { UpdatePure } from "./update-pure.ts";

interface ConditionalSuspendValue {
  readonly suspend_on_item_index: number;
  readonly descriptor: DescriptorValue;
  readonly on_other_indices?: Record<string, unknown>;
  readonly item_idx_field?: string;
}

/** The node directives `on_other_indices` may hold (body steps). */
const OTHER = { update: new Update(), update_pure: new UpdatePure(), update_from_field: new UpdateFromField() } as const;

/**
 * `conditional_suspend: {suspend_on_item_index, descriptor, on_other_indices}` (conformance-adapter
 * §5.1): a node inside a fan-out instance calls the real `suspend(descriptor)` when its instance
 * index equals `suspend_on_item_index` — the engine's `fan_out_index`, or `state[item_idx_field]`
 * when that key names the field carrying it — and otherwise runs the `on_other_indices` body
 * directives (`update`, `update_pure`, `update_from_field`). Exercises suspension §8.2.
 */
@directive({ name: "conditional_suspend", at: "node", home: "general", summary: "suspend in one fan-out instance, update in the others" })
export class ConditionalSuspend {
  readonly schema = {
    type: "object",
    required: ["suspend_on_item_index", "descriptor"],
    additionalProperties: false,
    properties: {
      suspend_on_item_index: { type: "integer", minimum: 0 },
      descriptor: DESCRIPTOR_SCHEMA,
      on_other_indices: { type: "object" },
      item_idx_field: { type: "string", minLength: 1 },
    },
  };
  contribute(value: ConditionalSuspendValue, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    persistenceCaseAtBuild(env).suspension = true;
    const other = new NodeAssembly(node.name, at);
    for (const [key, v] of Object.entries(value.on_other_indices ?? {})) {
      const d = OTHER[key as keyof typeof OTHER];
      if (d === undefined) throw new FixtureDirectiveUnknown([{ name: `conditional_suspend.on_other_indices.${key}`, position: "node", location: env.locate([...at, "on_other_indices", key]) }]);
      d.contribute(v as never, other, env, [...at, "on_other_indices", key]);
    }
    const steps: readonly NodeStep[] = other.steps;
    const field = value.item_idx_field;
    node.steps.push(async (state, ctx) => {
      const index = field !== undefined ? state[field] : ctx.fanOutIndex;
      if (index === undefined) throw new FixtureSchemaInvalid(`conditional_suspend on node '${node.name}' runs outside a fan-out instance`, env.locate(at));
      if (index === value.suspend_on_item_index) suspendWith(value.descriptor);
      let update: Record<string, unknown> = {};
      for (const step of steps) {
        const u = await step(state, ctx);
        if (u) update = { ...update, ...u };
      }
      return update;
    });
  }
}
