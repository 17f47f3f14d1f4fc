import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { bothRuns, settle } from "../../../harness/checkpoint/claims.ts";
import { invocationIdOf, isUuid4 } from "../../../harness/checkpoint/reading.ts";

/** `resumed_run_invocation_id_is_fresh_uuidv4` (fixture 057; §10.4 step 4): the resume minted a new UUIDv4 invocation id (not the first run's). */
@directive({ name: "resumed_run_invocation_id_is_fresh_uuidv4", at: "invariant", home: "pipeline-utilities" })
export class ResumedRunInvocationIdIsFreshUuidv4 {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const runs = bothRuns(obs, ctx);
    if (runs === null) return;
    const id = invocationIdOf(runs.resume);
    const reason = !isUuid4(id) ? `the resumed run's invocation id '${id}' is not a UUIDv4` : id === invocationIdOf(runs.first) ? "the resumed run reused the first run's invocation id" : null;
    settle(value, ctx, reason);
  }
}
