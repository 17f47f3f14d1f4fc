import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { suspendedCall } from "../../harness/suspension/reading.ts";

/**
 * `suspending_node: <node>` (conformance-adapter §5.8): the node-name field of the call's
 * suspended outcome (suspension §5) — the outermost-graph node that suspended (the subgraph,
 * fan-out or parallel-branches node when the call sat inside one, §8.1–§8.3).
 */
@directive({ name: "suspending_node", at: "expected", home: "general", summary: "the suspended outcome's node name" })
export class SuspendingNode {
  readonly scope = "call" as const;
  readonly schema = { type: "string", minLength: 1 };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const s = suspendedCall(obs, ctx);
    if (s !== null) ctx.match(value, s.nodeName, null);
  }
}
