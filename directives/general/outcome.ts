import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";

/**
 * `outcome: completed | errored | suspended` (conformance-adapter §5.8, graph-engine §3). A
 * compile-time failure counts as `errored` (the §5.8 compile/registration allowance); `error`
 * then names the category.
 */
@directive({ name: "outcome", at: "expected", home: "general", summary: "how the call ended" })
export class Outcome {
  readonly schema = { enum: ["completed", "errored", "suspended"] };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    const kind = r.kind === "compile_error" ? "errored" : r.kind;
    if (kind !== value) ctx.fail(`expected ${value}, but ${describeResult(r)}`, { expected: value, actual: kind });
  }
}
