import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { SESSION_ID, SessionCase } from "../../harness/sessions/case.ts";
import { persistenceCase } from "../../harness/suspension/case.ts";

/**
 * `session_id: <id>` (conformance-adapter §5.7, sessions §3): the call (an `invocations:` entry, or
 * the case's single call) is `invoke(..., { sessionId })` of the session-bound graph — with or
 * without a registered store (§3: without one, the id only propagates).
 */
@directive({ name: "session_id", at: ["case", "invocation"], home: "general", summary: "the session the call is bound to" })
export class SessionId {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    const sc = ctx.slot(SessionCase);
    sc.active = true;
    if (ctx.plan.kind === "case") sc.casePlan ??= ctx.plan;
    ctx.plan.setInput(SESSION_ID, value);
    persistenceCase(ctx);
  }
}
