import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { oneRun } from "../../../harness/checkpoint/claims.ts";
import { correlationIdOf } from "../../../harness/checkpoint/reading.ts";

/** `resumed_run_correlation_id: <id>` (fixture 031): the resumed run's correlation id. */
@directive({ name: "resumed_run_correlation_id", at: "invariant", home: "pipeline-utilities" })
export class ResumedRunCorrelationId {
  readonly schema = { type: "string" };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const resume = oneRun(obs, ctx, "resume");
    if (resume !== null) ctx.match(value, correlationIdOf(resume), null);
  }
}
