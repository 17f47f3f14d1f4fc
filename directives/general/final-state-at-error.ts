import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";

/**
 * `final_state_at_error: {...}` (conformance-adapter §5.8): with `outcome: errored`, the state at the
 * point of error — the recoverable state graph-engine §4 attaches to the raised error. A state
 * snapshot, so exact.
 */
@directive({ name: "final_state_at_error", at: "expected", home: "general", summary: "the state at the point of error, exact" })
export class FinalStateAtError {
  readonly schema = { type: "object" };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "errored") {
      ctx.fail(`expected an errored call, but ${describeResult(r)}`);
      return;
    }
    ctx.match(value, (r.error as { state?: unknown }).state ?? null, Shapes.exact());
  }
}
