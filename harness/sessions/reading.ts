/** Reading session observations for assertions. */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { SessionCallFacet, type SessionCall } from "./facets.ts";

/** The call's session report, or a direct failure when the call was not run session-bound. */
export function sessionCall(obs: Observation, ctx: CheckContext): SessionCall | null {
  const s = obs.tryGet(SessionCallFacet);
  if (s === undefined) {
    ctx.fail("the call was not run through the sessions harness (no session_store / session_id in the case)");
    return null;
  }
  return s;
}
