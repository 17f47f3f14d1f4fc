import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import * as F from "../../../harness/graph/facets.ts";
import { settle } from "../../../harness/checkpoint/claims.ts";
import { recordUnderTest, RECORD_CLAIM_POSITION } from "../../../harness/checkpoint/record-assertions.ts";

/**
 * `parent_states_outermost_first` (saved-record claim, fixture 029; §10.2, graph-engine §6): `parent_states[0]`
 * is a state of the outermost graph (it has exactly the outermost schema's fields).
 */
@directive({ name: "parent_states_outermost_first", at: RECORD_CLAIM_POSITION, home: "pipeline-utilities" })
export class ParentStatesOutermostFirst {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const record = recordUnderTest(obs, ctx);
    const root = obs.get(F.RootGraph, ctx.locate(ctx.self.path));
    const fields = [...root.schema.fields.keys()].sort();
    const first = record.parent_states[0];
    const keys = first === undefined ? [] : Object.keys(first).sort();
    const reason = first === undefined ? "the record has no parent_states" : JSON.stringify(keys) !== JSON.stringify(fields) ? `parent_states[0] has fields ${JSON.stringify(keys)}, the outermost graph ${JSON.stringify(fields)}` : null;
    settle(value, ctx, reason);
  }
}
