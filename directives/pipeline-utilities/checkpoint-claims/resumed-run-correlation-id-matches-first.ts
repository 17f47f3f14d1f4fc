import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { bothRuns, settle } from "../../../harness/checkpoint/claims.ts";
import { correlationIdOf } from "../../../harness/checkpoint/reading.ts";

/** `resumed_run_correlation_id_matches_first` (fixture 031; §10.4 step 3): the resumed run keeps the first run's correlation id. */
@directive({ name: "resumed_run_correlation_id_matches_first", at: "invariant", home: "pipeline-utilities" })
export class ResumedRunCorrelationIdMatchesFirst {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const runs = bothRuns(obs, ctx);
    if (runs === null) return;
    const a = correlationIdOf(runs.first);
    const b = correlationIdOf(runs.resume);
    settle(value, ctx, a !== null && a === b ? null : `first run '${a}', resumed run '${b}'`);
  }
}
