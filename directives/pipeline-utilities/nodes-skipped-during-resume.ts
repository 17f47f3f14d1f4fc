import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { callEvents, leafExecutions, resumedRecord } from "../../harness/checkpoint/reading.ts";

/**
 * `nodes_skipped_during_resume: [<node>, ...]` (pipeline-utilities note, fixtures 025, 029), under
 * a `resume:` block's `expected:`: the nodes the record the resume loaded lists as completed
 * (`completed_positions`, leaf nodes) that the resumed call did not run again. Complete and
 * unordered (§8.4).
 */
@directive({ name: "nodes_skipped_during_resume", at: "expected", home: "pipeline-utilities", summary: "completed nodes the resume did not re-run" })
export class NodesSkippedDuringResume {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    const record = resumedRecord(obs);
    if (typeof record === "string") return ctx.fail(record);
    const key = (ns: readonly string[], n: string): string => JSON.stringify([...ns, n]);
    const ran = new Set(leafExecutions(callEvents(obs)).map((e) => JSON.stringify(e.namespace)));
    const paths = record.completed_positions.map((p) => key(p.namespace, p.node_name));
    const composite = new Set(record.completed_positions.map((p) => JSON.stringify(p.namespace)).filter((ns) => ns !== "[]"));
    // A composite position (a subgraph node whose inner nodes are recorded too) is not a leaf.
    const leaves = record.completed_positions.filter((p, i) => !composite.has(paths[i]!) && !ran.has(paths[i]!));
    ctx.match(value, [...new Set(leaves.map((p) => p.node_name))], Shapes.list("unordered"));
  }
}
