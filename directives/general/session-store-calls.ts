import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { sessionCall } from "../../harness/sessions/reading.ts";

/**
 * `session_store_load_calls: <int>` / `session_store_save_calls: <int>` (conformance-adapter §5.6,
 * §6.2): the `load()` / `save()` calls the in-memory SessionStore received during the call.
 */
@directive({ name: /session_store_(?<op>load|save)_calls/, at: "expected", home: "general", summary: "SessionStore load/save calls during the call" })
export class SessionStoreCalls {
  readonly scope = "call" as const;
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const s = sessionCall(obs, ctx);
    if (s === null) return;
    const op = ctx.self.groups.op as "load" | "save";
    ctx.match(value, s.stats[op], null);
  }
}
