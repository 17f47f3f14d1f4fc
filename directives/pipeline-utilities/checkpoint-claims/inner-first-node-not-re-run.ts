import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { callEvents, resumedRecord } from "../../../harness/checkpoint/reading.ts";

/**
 * `inner_first_node_not_re_run` (fixture 029; §10.4 step 5): the subgraph node the record lists as completed
 * first (inside a subgraph) did not run again on resume.
 */
@directive({ name: "inner_first_node_not_re_run", at: "invariant", home: "pipeline-utilities" })
export class InnerFirstNodeNotReRun {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const record = resumedRecord(obs);
    if (typeof record === "string") return settle(value, ctx, record);
    const p = record.completed_positions.find((x) => x.namespace.length > 0);
    if (p === undefined) return settle(value, ctx, "the resumed record lists no completed node inside a subgraph");
    const path = JSON.stringify([...p.namespace, p.node_name]);
    const rerun = callEvents(obs).some((e) => e.phase === "started" && JSON.stringify(e.namespace) === path);
    settle(value, ctx, rerun ? `'${p.node_name}' ran again on resume` : null);
  }
}
