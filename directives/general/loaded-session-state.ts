import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { describeResult } from "../../harness/graph/reading.ts";
import { sessionCall } from "../../harness/sessions/reading.ts";

/**
 * `loaded_session_state: <mapping | null>` (conformance-adapter §5.6): the session state the
 * library loaded at invoke entry (after migration, restricted to the §4 projection's fields) — exact
 * over them; `null` asserts no record existed. Sessions fixtures also write it directly in an
 * `invocations:` entry.
 */
@directive({ name: "loaded_session_state", at: ["expected", "invocation"], home: "general", summary: "the session state loaded at invoke entry" })
export class LoadedSessionState {
  readonly scope = "call" as const;
  readonly schema = { type: ["object", "null"] };
  check(value: Record<string, unknown> | null, obs: Observation, ctx: CheckContext): void {
    const s = sessionCall(obs, ctx);
    if (s === null) return;
    if (s.reported === undefined) {
      ctx.fail(`the call raised, so it reports no loaded session: ${describeResult(obs.get(F.Result, ctx.locate(ctx.self.path)))}`);
      return;
    }
    ctx.match(value, s.reported.loadedSessionState, Shapes.exact());
  }
}
