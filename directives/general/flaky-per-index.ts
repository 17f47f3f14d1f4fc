import { directive } from "../../src/conformance/registry.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { declareMock, raisedByMock } from "../../harness/graph/mock-raises.ts";
import { CheckpointCase } from "../../harness/checkpoint/case.ts";
import { FlakyCalls, perCall } from "../../harness/pipeline/facets.ts";
import { CAUSE_SCHEMA, mockFailure, successUpdate, withCause, type CauseSpec } from "../../harness/pipeline/failure-mocks.ts";

type FlakyPerIndexValue = ({ fail_first_run_indices: number[] } | { always_fail_indices: number[] }) & {
  success_compute?: Record<string, unknown>;
  category?: string;
  cause?: CauseSpec;
};

/**
 * `flaky_per_index:` (conformance-adapter §5.1 *Failure-mock directives*), a fan-out instance mock
 * keyed on the invocation: the instances whose `fan_out_index` is in `fail_first_run_indices` fail
 * the case's first run only and succeed on any later call (a resume); those in
 * `always_fail_indices` fail every call. Other instances return `success_compute` (a string value
 * naming a declared field reads that field). A failure is uncategorized unless `category` is
 * given. Under a batching Checkpointer a first-run failure is the process abort of fixture 054
 * (see `CheckpointCaseState.failureMockRaised`).
 */
@directive({ name: "flaky_per_index", at: "node", home: "general", summary: "failure mock: chosen fan-out instances fail (first run / always)" })
export class FlakyPerIndex {
  readonly schema = {
    type: "object",
    additionalProperties: false,
    oneOf: [{ required: ["fail_first_run_indices"] }, { required: ["always_fail_indices"] }],
    properties: {
      fail_first_run_indices: { type: "array", items: { type: "integer", minimum: 0 } },
      always_fail_indices: { type: "array", items: { type: "integer", minimum: 0 } },
      success_compute: { type: "object" },
      category: { type: "string", minLength: 1 },
      cause: CAUSE_SCHEMA,
    },
  };

  contribute(value: FlakyPerIndexValue, node: NodeAssembly, env: BuildEnv, _at: KeyPath): void {
    declareMock(env, node.name);
    const firstRunOnly = "fail_first_run_indices" in value;
    const indices = new Set(firstRunOnly ? value.fail_first_run_indices : value.always_fail_indices);
    node.steps.push((state, ctx) => {
      const call = env.currentCall();
      const counts = perCall(call.observation, FlakyCalls, () => new Map());
      counts.set(node.name, (counts.get(node.name) ?? 0) + 1);
      const index = ctx.fanOutIndex;
      if (index !== undefined && indices.has(index) && (!firstRunOnly || call.index === 0)) {
        env.slot(CheckpointCase).failureMockRaised(ctx.invocationId);
        throw raisedByMock(env, node.name, mockFailure(
          withCause(value.category !== undefined ? { category: value.category } : {}, value.cause),
          `flaky_per_index node '${node.name}' fails instance ${index}${firstRunOnly ? " on the first run" : ""}`,
        ));
      }
      return successUpdate(value.success_compute, state, env.fieldNames);
    });
  }
}
