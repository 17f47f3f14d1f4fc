import { directive } from "../../src/conformance/registry.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { declareMock, raisedByMock } from "../../harness/graph/mock-raises.ts";
import { CAUSE_SCHEMA, mockFailure, successUpdate, withCause, type CauseSpec } from "../../harness/pipeline/failure-mocks.ts";

/**
 * `flaky_instance_only: {fail_count_per_instance, category, success_compute}` (conformance-adapter
 * §5.1 *Failure-mock directives*): inside a fan-out instance, the node fails the first
 * `fail_count_per_instance` whole-instance invocations (an instance middleware retry re-runs the
 * subgraph from scratch, so each re-run reaches this node again), then succeeds with
 * `success_compute` (a string naming a declared field reads that field).
 */
@directive({ name: "flaky_instance_only", at: "node", home: "general", summary: "failure mock: each fan-out instance fails its first N invocations" })
export class FlakyInstanceOnly {
  readonly schema = {
    type: "object",
    required: ["fail_count_per_instance"],
    additionalProperties: false,
    properties: {
      fail_count_per_instance: { type: "integer", minimum: 1 },
      category: { type: "string", minLength: 1 },
      success_compute: { type: "object" },
      cause: CAUSE_SCHEMA,
    },
  };

  contribute(value: { fail_count_per_instance: number; category?: string; success_compute?: Record<string, unknown>; cause?: CauseSpec }, node: NodeAssembly, env: BuildEnv, _at: KeyPath): void {
    declareMock(env, node.name);
    node.steps.push((state, ctx) => {
      const call = env.currentCall() as { instanceRuns?: Map<string, number> };
      const runs = (call.instanceRuns ??= new Map<string, number>());
      const key = `${node.name}:${JSON.stringify(ctx.fanOutIndexChain)}`;
      const n = (runs.get(key) ?? 0) + 1;
      runs.set(key, n);
      if (n <= value.fail_count_per_instance) {
        throw raisedByMock(env, node.name, mockFailure(
          withCause(value.category !== undefined ? { category: value.category, transient: true } : {}, value.cause),
          `flaky_instance_only node '${node.name}' fails invocation ${n} of instance ${ctx.fanOutIndex ?? "?"}`,
        ));
      }
      return successUpdate(value.success_compute, state, env.fieldNames);
    });
  }
}
