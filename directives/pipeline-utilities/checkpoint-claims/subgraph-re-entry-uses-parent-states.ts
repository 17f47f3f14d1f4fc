import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { callEvents, resumedRecord } from "../../../harness/checkpoint/reading.ts";
import { valuesEqual } from "../../../harness/graph/values.ts";

/**
 * `subgraph_re_entry_uses_parent_states` (fixture 029; §10.2, §10.4 step 5): the resumed run re-entered the
 * subgraph with the saved `parent_states` — its inner nodes saw exactly the record's `parent_states`.
 */
@directive({ name: "subgraph_re_entry_uses_parent_states", at: "invariant", home: "pipeline-utilities" })
export class SubgraphReEntryUsesParentStates {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const record = resumedRecord(obs);
    if (typeof record === "string") return settle(value, ctx, record);
    const inner = callEvents(obs).filter((e) => e.namespace.length > 1 && e.phase === "started");
    const saved = record.parent_states;
    const reason =
      saved.length === 0 ? "the resumed record has no parent_states"
      : inner.length === 0 ? "the resumed run ran no node inside a subgraph"
      : inner.find((e) => !valuesEqual(e.parentStates.slice(0, saved.length), saved)) !== undefined ? "an inner node ran with parent states other than the record's"
      : null;
    settle(value, ctx, reason);
  }
}
