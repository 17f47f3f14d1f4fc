import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";

/**
 * `suspended_state: {...}` (conformance-adapter §5.8): with `outcome: suspended`, the invocation
 * state at the suspension point (suspension §5). A state snapshot, so exact.
 */
@directive({ name: "suspended_state", at: "expected", home: "general", summary: "the state at the suspension point, exact" })
export class SuspendedState {
  readonly scope = "call" as const;
  readonly schema = { type: "object" };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "suspended") {
      ctx.fail(`expected a suspended outcome, but ${describeResult(r)}`);
      return;
    }
    ctx.match(value, r.state, Shapes.exact());
  }
}
