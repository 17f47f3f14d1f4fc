import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { recordUnderTest, RECORD_CLAIM_POSITION } from "../../../harness/checkpoint/record-assertions.ts";

/**
 * `parent_states_present` (saved-record claim, fixture 029; §10.2): the record's `parent_states` is non-empty
 * (its save point is inside a subgraph).
 */
@directive({ name: "parent_states_present", at: RECORD_CLAIM_POSITION, home: "pipeline-utilities" })
export class ParentStatesPresent {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const record = recordUnderTest(obs, ctx);
    ctx.match(value, record.parent_states.length > 0, null);
  }
}
