import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { oneRun, settle } from "../../../harness/checkpoint/claims.ts";
import { correlationIdOf, isUuid4 } from "../../../harness/checkpoint/reading.ts";

/** `first_run_correlation_id_is_uuidv4` (fixture 031; observability §3.1): with no caller value, the framework generated a UUIDv4. */
@directive({ name: "first_run_correlation_id_is_uuidv4", at: "invariant", home: "pipeline-utilities" })
export class FirstRunCorrelationIdIsUuidv4 {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const first = oneRun(obs, ctx, "first_run");
    if (first === null) return;
    const c = correlationIdOf(first);
    settle(value, ctx, isUuid4(c) ? null : `the first run's correlation id is '${c}'`);
  }
}
