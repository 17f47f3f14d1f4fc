import { directive } from "../../src/conformance/registry.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { declareMock, raisedByMock } from "../../harness/graph/mock-raises.ts";
import { CAUSE_SCHEMA, mockFailure, successUpdate, withCause, type CauseSpec } from "../../harness/pipeline/failure-mocks.ts";
import { FanOutItemFields } from "../../harness/pipeline/item-fields.ts";

type FlakyByIndexValue = ({ fail_when_idx: number } | { fail_count_per_idx: number }) & {
  success_compute?: Record<string, unknown>;
  category?: string;
  cause?: CauseSpec;
};

/**
 * `flaky_by_index:` (conformance-adapter §5.1 *Failure-mock directives*), a fan-out instance mock
 * with no checkpoint semantics: under `{fail_when_idx: N}` the instance whose item value equals N
 * fails deterministically with an uncategorized error (a collect-mode seam); under
 * `{fail_count_per_idx: N}` every instance fails its first N attempts, then succeeds — with
 * `category` (default `provider_unavailable`) driving retry classification. Otherwise the node
 * returns `success_compute` (a string naming a declared field reads that field).
 */
@directive({ name: "flaky_by_index", at: "node", home: "general", summary: "failure mock: fan-out instances fail by item / first N attempts" })
export class FlakyByIndex {
  readonly schema = {
    type: "object",
    additionalProperties: false,
    oneOf: [{ required: ["fail_when_idx"] }, { required: ["fail_count_per_idx"] }],
    properties: {
      fail_when_idx: { type: "integer" },
      fail_count_per_idx: { type: "integer", minimum: 1 },
      success_compute: { type: "object" },
      category: { type: "string", minLength: 1 },
      cause: CAUSE_SCHEMA,
    },
  };

  contribute(value: FlakyByIndexValue, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    declareMock(env, node.name);
    if ("fail_when_idx" in value) {
      const itemField = env.slot(FanOutItemFields).get(env.graphName);
      if (itemField === undefined) {
        throw new FixtureSchemaInvalid("flaky_by_index.fail_when_idx needs its graph to run as a fan-out instance with an item_field", env.locate(at));
      }
      const target = value.fail_when_idx;
      node.steps.push((state) => {
        if (state[itemField] === target) throw raisedByMock(env, node.name, mockFailure(withCause({}, value.cause), `flaky_by_index node '${node.name}' fails the instance whose item is ${target}`));
        return successUpdate(value.success_compute, state, env.fieldNames);
      });
      return;
    }
    const failures = value.fail_count_per_idx;
    const category = value.category ?? "provider_unavailable";
    node.steps.push((state, ctx) => {
      // Attempts per instance, within the running call.
      const call = env.currentCall() as { attempts?: Map<string, number> };
      const attempts = (call.attempts ??= new Map<string, number>());
      const key = `${node.name}:${JSON.stringify(ctx.fanOutIndexChain)}`;
      const n = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, n);
      if (n <= failures) throw raisedByMock(env, node.name, mockFailure(withCause({ category, transient: true }, value.cause), `flaky_by_index node '${node.name}' fails attempt ${n} of instance ${ctx.fanOutIndex ?? "?"}`));
      return successUpdate(value.success_compute, state, env.fieldNames);
    });
  }
}
