import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { persistenceCase, SUSPENSION_RESUME } from "../../harness/suspension/case.ts";

/**
 * `resume_invocation: <id_or_placeholder>` in an `invocations:` entry (conformance-adapter §5.7,
 * §6.2, §6.5). A placeholder (`"<from previous suspended outcome>"`,
 * `"<invocation_id from initial completed invoke>"`) resolves from the earlier calls' outcomes
 * before the call. With `signal_payload` the call is the suspension resume (suspension §7: a
 * paused-invocation record, the id reused); without, a checkpoint resume (pipeline-utilities
 * §10.4), run by the checkpoint harness. (`invoke_with: {resume_invocation}` is
 * `resume-invocation.ts`.)
 */
@directive({ name: "resume_invocation", at: "invocation", home: "general", summary: "resume an earlier invocation (placeholder resolved)" })
export class ResumeInvocationEntry {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    persistenceCase(ctx);
    ctx.plan.setInput(SUSPENSION_RESUME, value);
  }
}
