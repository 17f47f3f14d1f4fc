import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { nestedResume } from "../../../harness/checkpoint/nested-resume.ts";

/**
 * `legacy_unlineaged_entry_not_applied_to_nested_fan_out` (fixture 076; §10.11 *No mis-skip*): the record holds
 * an inner entry without `enclosing_fan_out_lineage`, and no re-entering outer instance skipped any
 * inner instance on its strength.
 */
@directive({ name: "legacy_unlineaged_entry_not_applied_to_nested_fan_out", at: "invariant", home: "pipeline-utilities" })
export class LegacyUnlineagedEntryNotAppliedToNestedFanOut {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const n = nestedResume(obs);
    if (typeof n === "string") return settle(value, ctx, n);
    if (!n.hasLegacyEntry) return settle(value, ctx, `the resumed record has no un-lineaged '${n.innerNode}' entry`);
    settle(value, ctx, n.firstMismatch((o) => (o.skipped.size === 0 ? null : `outer instance ${o.index} skipped ${o.fmtSkipped()}`)));
  }
}
