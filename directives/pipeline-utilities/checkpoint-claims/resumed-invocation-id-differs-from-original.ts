import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { bothRuns, settle } from "../../../harness/checkpoint/claims.ts";
import { invocationIdOf } from "../../../harness/checkpoint/reading.ts";

/** `resumed_invocation_id_differs_from_original` (fixture 025; §10.4 step 4): the resumed run has its own invocation id. */
@directive({ name: "resumed_invocation_id_differs_from_original", at: "invariant", home: "pipeline-utilities" })
export class ResumedInvocationIdDiffersFromOriginal {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const runs = bothRuns(obs, ctx);
    if (runs === null) return;
    const a = invocationIdOf(runs.first);
    const b = invocationIdOf(runs.resume);
    settle(value, ctx, a !== null && b !== null && a !== b ? null : `first run '${a}', resumed run '${b}'`);
  }
}
