import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";

/**
 * `recoverable_state:` inside `expected:` (the §5.8 `expected_error.recoverable_state`, written
 * beside an in-block `expected_error`): the state graph-engine §4 makes recoverable from the
 * raised error. A state snapshot, so exact.
 */
@directive({ name: "recoverable_state", at: "expected", home: "general", summary: "the errored call's recoverable state, exact" })
export class RecoverableState {
  readonly schema = { type: "object" };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "errored") {
      ctx.fail(`expected an errored call with recoverable state, but ${describeResult(r)}`);
      return;
    }
    ctx.match(value, (r.error as { state?: unknown }).state ?? null, Shapes.exact());
  }
}
