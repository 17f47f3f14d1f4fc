import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { oneRun } from "../../../harness/checkpoint/claims.ts";
import { invocationIdOf } from "../../../harness/checkpoint/reading.ts";

/** `first_run_invocation_id: <id>` (fixture 057; observability §5.1): the first (fresh) run's invocation id — a caller-supplied one used verbatim. */
@directive({ name: "first_run_invocation_id", at: "invariant", home: "pipeline-utilities" })
export class FirstRunInvocationId {
  readonly schema = { type: "string" };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const first = oneRun(obs, ctx, "first_run");
    if (first !== null) ctx.match(value, invocationIdOf(first), null);
  }
}
