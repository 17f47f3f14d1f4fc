import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { callEvents, leafExecutions } from "../../harness/checkpoint/reading.ts";

/**
 * `nodes_executed_during_resume: [<node>, ...]` (pipeline-utilities note, fixtures 025, 029), under
 * a `resume:` block's `expected:`: the node executions the resumed call made, at every graph level,
 * in the order they began — a subgraph node that is only re-entered is a dispatch and is not
 * listed, its inner nodes are. Complete and ordered.
 */
@directive({ name: "nodes_executed_during_resume", at: "expected", home: "pipeline-utilities", summary: "nodes the resumed call ran" })
export class NodesExecutedDuringResume {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    ctx.match(value, leafExecutions(callEvents(obs)).map((e) => e.nodeName), null);
  }
}
