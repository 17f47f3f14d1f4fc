import { directive } from "../../src/conformance/registry.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { NodeContext } from "../../src/graph/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { declareMock, raisedByMock } from "../../harness/graph/mock-raises.ts";
import { FlakyCalls, perCall } from "../../harness/pipeline/facets.ts";
import { CAUSE_SCHEMA, FAILURE_ENTRY_SCHEMA, mockFailure, successUpdate, type CauseSpec, type FailureSpec } from "../../harness/pipeline/failure-mocks.ts";

type FlakyValue =
  | { failure_sequence: Array<FailureSpec | null>; success_update?: Record<string, unknown> }
  | { fail_first_invocation_only: boolean; on_success?: Record<string, unknown>; cause?: CauseSpec };

/** One node execution's identity: its namespace and fan-out / branch lineage (a re-run instance keeps it). */
function lineageKey(ctx: NodeContext): string {
  return JSON.stringify([ctx.namespace, ctx.fanOutIndexChain, ctx.branchNameChain]);
}

/**
 * `flaky:` (conformance-adapter §5.1 *Failure-mock directives*), a node mock with two forms:
 *
 * - sequence form `{failure_sequence: [<entry | null>, ...], success_update}`: the k-th attempt
 *   of the node (counted per call, per node execution lineage — a retried fan-out instance keeps
 *   counting) raises entry k (`{transient, category, message, cause}`); a null entry or an
 *   exhausted sequence returns `success_update`;
 * - compact form `{fail_first_invocation_only, on_success, cause?}`: the case's first call fails
 *   (an uncategorized error, chained to `cause` when given), any later call (a resume) returns
 *   `on_success`.
 *
 * In the success updates a string naming a declared state field reads that field. Every body
 * invocation counts toward the call's `flaky_call_count`.
 */
const FORMS = "flaky takes one of the two forms conformance-adapter §5.1 defines: {failure_sequence, success_update} or {fail_first_invocation_only, on_success}";

@directive({ name: "flaky", at: "node", home: "general", summary: "failure mock: fail per a sequence, then succeed" })
export class Flaky {
  readonly schema = {
    oneOf: [
      {
        type: "object",
        description: FORMS,
        required: ["failure_sequence"],
        additionalProperties: false,
        properties: {
          failure_sequence: { type: "array", items: { oneOf: [{ type: "null" }, FAILURE_ENTRY_SCHEMA] } },
          success_update: { type: "object" },
        },
      },
      {
        type: "object",
        description: FORMS,
        required: ["fail_first_invocation_only"],
        additionalProperties: false,
        properties: { fail_first_invocation_only: { type: "boolean" }, on_success: { type: "object" }, cause: CAUSE_SCHEMA },
      },
    ],
  };

  contribute(value: FlakyValue, node: NodeAssembly, env: BuildEnv, _at: KeyPath): void {
    declareMock(env, node.name);
    const attempts = new WeakMap<Observation, Map<string, number>>();
    node.steps.push((state, ctx) => {
      const call = env.currentCall();
      const counts = perCall(call.observation, FlakyCalls, () => new Map());
      counts.set(node.name, (counts.get(node.name) ?? 0) + 1);
      if ("failure_sequence" in value) {
        let mine = attempts.get(call.observation);
        if (!mine) attempts.set(call.observation, (mine = new Map()));
        const key = lineageKey(ctx);
        const k = mine.get(key) ?? 0;
        mine.set(key, k + 1);
        const entry = value.failure_sequence[k];
        if (entry !== undefined && entry !== null) throw raisedByMock(env, node.name, mockFailure(entry, `flaky node '${node.name}' failed (attempt ${k + 1})`));
        return successUpdate(value.success_update, state, env.fieldNames);
      }
      if (value.fail_first_invocation_only && call.index === 0) {
        throw raisedByMock(env, node.name, mockFailure(value.cause !== undefined ? { cause: value.cause } : {}, `flaky node '${node.name}' fails the first invocation`));
      }
      return successUpdate(value.on_success, state, env.fieldNames);
    });
  }
}
