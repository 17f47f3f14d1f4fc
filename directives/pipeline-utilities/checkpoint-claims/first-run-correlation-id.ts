import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { oneRun } from "../../../harness/checkpoint/claims.ts";
import { correlationIdOf } from "../../../harness/checkpoint/reading.ts";

/** `first_run_correlation_id: <id>` (fixture 031): the first run's correlation id. */
@directive({ name: "first_run_correlation_id", at: "invariant", home: "pipeline-utilities" })
export class FirstRunCorrelationId {
  readonly schema = { type: "string" };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const first = oneRun(obs, ctx, "first_run");
    if (first !== null) ctx.match(value, correlationIdOf(first), null);
  }
}
