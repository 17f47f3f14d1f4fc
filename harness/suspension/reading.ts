/** Reading suspension observations for assertions. */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../graph/facets.ts";
import { describeResult } from "../graph/reading.ts";
import { SuspendedOutcomeFacet, type SuspendedCall } from "./facets.ts";

/** The call's suspended outcome, or a direct failure (naming how the call ended instead). */
export function suspendedCall(obs: Observation, ctx: CheckContext): SuspendedCall | null {
  const r = obs.get(F.Result, ctx.locate(ctx.self.path));
  if (r.kind !== "suspended") {
    ctx.fail(`expected a suspended outcome, but ${describeResult(r)}`);
    return null;
  }
  const s = obs.tryGet(SuspendedOutcomeFacet);
  if (s === undefined) {
    ctx.fail("the call suspended, but not through withSuspension(): no paused-invocation record was persisted");
    return null;
  }
  return s;
}
