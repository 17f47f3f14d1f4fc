import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { oneRun, settle } from "../../../harness/checkpoint/claims.ts";
import { invocationIdOf } from "../../../harness/checkpoint/reading.ts";
import { CallerInvocationId } from "../../../harness/checkpoint/facets.ts";

/** `resumed_run_invocation_id_not_caller_supplied` (fixture 057; observability §5.1): the invocation id the caller passed on the resume call was ignored. */
@directive({ name: "resumed_run_invocation_id_not_caller_supplied", at: "invariant", home: "pipeline-utilities" })
export class ResumedRunInvocationIdNotCallerSupplied {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const resume = oneRun(obs, ctx, "resume");
    if (resume === null) return;
    const supplied = resume.tryGet(CallerInvocationId);
    const id = invocationIdOf(resume);
    const reason = supplied === undefined ? "the resume call supplied no invocation id" : id === supplied ? `the resumed run adopted the caller's '${supplied}'` : null;
    settle(value, ctx, reason);
  }
}
