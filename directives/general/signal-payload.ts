import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { persistenceCase, SIGNAL_PAYLOAD } from "../../harness/suspension/case.ts";

/**
 * `signal_payload: {...}` (conformance-adapter §5.7, suspension §6/§7): with `resume_invocation`,
 * the call is the library's real `invoke({}, { resumeInvocation, signalPayload })`; the payload
 * merges into the paused state by shallow overlay.
 */
@directive({ name: "signal_payload", at: "invocation", home: "general", summary: "payload merged into the paused state on resume" })
export class SignalPayload {
  readonly schema = { type: "object" };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    persistenceCase(ctx).suspension = true;
    ctx.plan.setInput(SIGNAL_PAYLOAD, value);
  }
}
