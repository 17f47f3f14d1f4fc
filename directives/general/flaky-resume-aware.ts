import { directive } from "../../src/conformance/registry.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { NodeContext } from "../../src/graph/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { declareMock, raisedByMock } from "../../harness/graph/mock-raises.ts";
import { FlakyCalls, perCall } from "../../harness/pipeline/facets.ts";
import { CAUSE_SCHEMA, mockFailure, successUpdate, withCause, type CauseSpec } from "../../harness/pipeline/failure-mocks.ts";

interface FlakyResumeAwareValue {
  fail_first_invocation_count: number;
  fail_resumed_invocation_count: number;
  category: string;
  on_success?: Record<string, unknown>;
  cause?: CauseSpec;
}

/** One node execution's identity (a retried attempt keeps it). */
function lineageKey(ctx: NodeContext): string {
  return JSON.stringify([ctx.namespace, ctx.fanOutIndexChain, ctx.branchNameChain]);
}

/**
 * `flaky_resume_aware:` (conformance-adapter §5.1 *Failure-mock directives*): the node's first
 * `fail_first_invocation_count` attempts on the case's first call fail, and its first
 * `fail_resumed_invocation_count` attempts on any later call (a resume) — counted per call, per
 * node execution — then it returns `on_success`. Each failure carries `category` (which drives
 * retry classification); used to verify `attempt_index` resets on resume (§10.6).
 */
@directive({ name: "flaky_resume_aware", at: "node", home: "general", summary: "failure mock: N failing attempts first run, M on resume" })
export class FlakyResumeAware {
  readonly schema = {
    type: "object",
    required: ["fail_first_invocation_count", "fail_resumed_invocation_count", "category"],
    additionalProperties: false,
    properties: {
      fail_first_invocation_count: { type: "integer", minimum: 0 },
      fail_resumed_invocation_count: { type: "integer", minimum: 0 },
      category: { type: "string", minLength: 1 },
      on_success: { type: "object" },
      cause: CAUSE_SCHEMA,
    },
  };

  contribute(value: FlakyResumeAwareValue, node: NodeAssembly, env: BuildEnv, _at: KeyPath): void {
    declareMock(env, node.name);
    const attempts = new WeakMap<Observation, Map<string, number>>();
    node.steps.push((state, ctx) => {
      const call = env.currentCall();
      const counts = perCall(call.observation, FlakyCalls, () => new Map());
      counts.set(node.name, (counts.get(node.name) ?? 0) + 1);
      let mine = attempts.get(call.observation);
      if (!mine) attempts.set(call.observation, (mine = new Map()));
      const key = lineageKey(ctx);
      const k = mine.get(key) ?? 0;
      mine.set(key, k + 1);
      const failing = call.index === 0 ? value.fail_first_invocation_count : value.fail_resumed_invocation_count;
      if (k < failing) {
        throw raisedByMock(env, node.name, mockFailure(withCause({ category: value.category }, value.cause), `flaky_resume_aware node '${node.name}' fails attempt ${k + 1} of ${call.index === 0 ? "the first" : "a resumed"} invocation`));
      }
      return successUpdate(value.on_success, state, env.fieldNames);
    });
  }
}
