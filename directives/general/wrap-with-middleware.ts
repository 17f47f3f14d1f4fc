import { directive } from "../../src/conformance/registry.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { Middleware } from "../../src/graph/index.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { perCall } from "../../harness/pipeline/facets.ts";
import { persistenceCaseAtBuild } from "../../harness/suspension/case.ts";
import { MiddlewareLog } from "../../harness/suspension/facets.ts";
import { DESCRIPTOR_SCHEMA, suspendWith, type DescriptorValue } from "./suspend-with-descriptor.ts";

type Entry =
  | { readonly name: string; readonly pre_log?: string; readonly post_log?: string }
  | { readonly name: string; readonly pre_next_calls_suspend_with_descriptor: DescriptorValue };

/**
 * `wrap_with_middleware: [{name, ...config}, ...]` (conformance-adapter §5.1, §6.7): the node runs
 * inside real per-node middleware registered with the engine, outer to inner in list order:
 *
 * - `{name, pre_log, post_log}` records `pre_log` before `next()` and `post_log` after it returns,
 *   into the call's middleware-log accumulator (`middleware_log_captured` reads it);
 * - `{name, pre_next_calls_suspend_with_descriptor: {...}}` calls the real `suspend()` from its
 *   pre-`next()` block — rejected by the library (`suspension_in_unsupported_context`, §8.4).
 */
@directive({ name: "wrap_with_middleware", at: "node", home: "general", summary: "the node runs inside the named logging / suspending middleware" })
export class WrapWithMiddleware {
  readonly schema = {
    type: "array",
    minItems: 1,
    items: {
      oneOf: [
        {
          type: "object",
          required: ["name"],
          additionalProperties: false,
          properties: { name: { type: "string", minLength: 1 }, pre_log: { type: "string" }, post_log: { type: "string" } },
        },
        {
          type: "object",
          required: ["name", "pre_next_calls_suspend_with_descriptor"],
          additionalProperties: false,
          properties: { name: { type: "string", minLength: 1 }, pre_next_calls_suspend_with_descriptor: DESCRIPTOR_SCHEMA },
        },
      ],
    },
  };
  contribute(value: Entry[], node: NodeAssembly, env: BuildEnv, _at: KeyPath): void {
    const pc = persistenceCaseAtBuild(env);
    const log = (marker: string): void => {
      perCall(env.currentCall().observation, MiddlewareLog, () => []).push(marker);
    };
    for (const entry of value) {
      let mw: Middleware;
      if ("pre_next_calls_suspend_with_descriptor" in entry) {
        pc.suspension = true;
        const d = entry.pre_next_calls_suspend_with_descriptor;
        mw = async (state, next) => {
          suspendWith(d);
          return next(state);
        };
      } else {
        const { pre_log, post_log } = entry;
        mw = async (state, next) => {
          if (pre_log !== undefined) log(pre_log);
          const update = await next(state);
          if (post_log !== undefined) log(post_log);
          return update;
        };
      }
      node.middleware.push(mw);
    }
  }
}
